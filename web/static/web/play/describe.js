/* The event log in words: "bob drew a card", "ann played Black Potion". Each event is described from what the
   viewer was shown of it (a card hidden from them is simply absent), so a sentence never says more than the API. */
"use strict";

const Describe = (function () {
  function make(ctx) {
    // ctx: {seatName(seat) -> name, cardName(idOrCard) -> title or null}
    const who = (seat) => (seat === null || seat === undefined ? "someone" : ctx.seatName(seat));
    const card = (value, fallback) => {
      if (value === null || value === undefined) return fallback || "a card";
      if (Array.isArray(value)) return value.length ? value.map((v) => card(v)).join(", ") : (fallback || "no card");
      const name = ctx.cardName(value);
      return name || fallback || "a card";
    };
    const cause = (value) => (value ? ` (carrying out ${card(value, "a card")})` : "");
    const count = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;
    const zone = (z) => (z ? (z.zone || "") + (z.seat !== undefined && z.seat !== null ? ` of ${who(z.seat)}` : "") : "");
    const dice = (roll) => (roll ? `${roll.total}${roll.dice ? " (" + roll.dice.map((d) => [].concat(d).join("+")).join(", ") + ")" : ""}` : "");
    const list = (seats) => (seats || []).map(who).join(", ") || "nobody";

    const say = {
      "game.created": (d) => `created the game (${d.ruleset}${d.creative ? ", creative" : ""})`,
      "player.joined": (d) => `${d.username}${d.bot ? ` (a computer player, ${d.bot})` : ""} took seat ${d.seat}${d.team ? " in team " + d.team : ""}`,
      "player.left": (d) => `left the table, giving up seat ${d.seat} (later seats moved down one)`,
      "game.cancelled": () => "cancelled the game: it will not be played",
      "game.started": () => "started the game",
      "cards.dealt": (d) => `${who(d.seat)} was dealt ${d.cards && d.cards.length ? card(d.cards) : count(d.count, "card")}`,
      "turn.began": (d) => `${who(d.seat)}'s turn began`,
      "turn.stage_changed": (d) => `${who(d.seat)} is in the ${d.stage} stage`,
      "turn.ended": (d) => `${who(d.seat)} ended the turn`,
      "draw_pile.refilled": () => "the discard pile was shuffled into the draw pile",
      "card.drawn": (d) => `${who(d.seat)} drew ${d.card ? card(d.card) : "a card"}`,
      "card.played": (d) => `${who(d.seat)} played ${card(d.card)}${d.onto ? " onto " + card(d.onto) : ""}${d.target !== undefined && d.target !== null ? " on " + who(d.target) : ""}`,
      "thing.used": (d) => `${who(d.seat)} used ${card(d.card)}`,
      "cards.discarded": (d) => `${who(d.seat)} discarded ${card(d.cards)}${cause(d.cause)}`,
      "card.moved": (d) => `${card(d.card)} moved from ${zone(d.from)} to ${zone(d.to)}${cause(d.cause)}`,
      "thing.destroyed": (d) => `${card(d.card)} was destroyed${cause(d.cause)}`,
      "card.taken": (d) => `${who(d.to)} took ${d.card ? card(d.card) : "a random card"} from ${who(d.from)}${cause(d.cause)}`,
      "card.given": (d) => `${who(d.from)} gave ${d.card ? card(d.card) : "a card"} to ${who(d.to)}${cause(d.cause)}`,
      "card.revealed": (d) => `${who(d.seat)} revealed ${card(d.card)}${cause(d.cause)}`,
      "counter.changed": (d) => `${who(d.seat)}'s ${d.name} ${d.delta >= 0 ? "+" : ""}${d.delta} = ${d.value}${cause(d.cause)}`,
      "dice.rolled": (d) => `rolled ${d.dice}: ${(d.rolls || []).join(", ")} = ${d.total}${cause(d.cause)}`,
      "pile.shuffled": (d) => `the ${String(d.pile).replace("_", " ")} was shuffled${cause(d.cause)}`,
      "rule.set": (d) => `${d.param} set to ${JSON.stringify(d.value)}${d.seat !== null && d.seat !== undefined ? " for " + who(d.seat) : ""}${cause(d.source)}`,
      "rule.ended": (d) => `a change to ${d.param} ended`,
      "proposal.opened": (d) => `${who(d.author)} proposed ${describeProposal(d)} (proposal ${d.number})`,
      "proposal.voted": (d) => `${who(d.seat)} voted ${d.approve ? "for" : "against"} proposal ${d.number}`,
      "proposal.withdrawn": (d) => `proposal ${d.number} was withdrawn`,
      "proposal.resolved": (d) => `proposal ${d.number} was ${d.status}`,
      "player.eliminated": (d) => d.conceded ? `${who(d.seat)} conceded` : `${who(d.seat)} is out of the game${cause(d.cause)}`,
      "game.won": (d) => `${list(d.winners)} won the game${d.last_standing ? " (last standing)" : ""}${cause(d.cause)}`,
      "game.finished": (d) => `the game is over: ${list(d.winners)} won${d.reason ? " — " + d.reason : ""}`,
      "abandon.agreed": (d) => `${who(d.seat)} agreed to abandon the game`,
      "abandon.withdrawn": (d) => `${who(d.seat)} withdrew their agreement to abandon the game`,
      "game.abandoned": () => "the game was abandoned: nobody won",
      // the core's secret choices: asked of some seats, made (what was chosen shown to its maker only), revealed
      "choices.requested": (d) => `${list(d.seats)} ${(d.seats || []).length === 1 ? "chooses" : "choose"} in secret`,
      "choice.made": (d) => `${who(d.seat)} chose${d.choice !== undefined && d.choice !== null ? " " + shown(d.choice) : ""}`,
      "choices.revealed": (d) => "the choices were revealed: " + Object.entries(d.choices || {}).map(([seat, choice]) => `${who(Number(seat))} ${shown(choice)}`).join(", "),
      // live tables: the clocks, taking moves back
      "clock.set": (d, event) => clockSet(d, event),  // games stored before the clock rode on a command's last event
      "clock.expired": (d) => `${list(d.seats)} ran out of time and ${(d.seats || []).length === 1 ? "is" : "are"} out of the game`,
      "game.won_on_time": (d) => `${list(d.winners)} won the game on time`,
      "undo.requested": (d) => `${who(d.by)} asked to take the game back to move ${d.to}`,
      "undo.answered": (d) => `${who(d.seat)} ${d.accept ? "agreed" : "declined"} to take the game back`,
      "game.undone": (d) => `the game was taken back to move ${d.to}`,
      "phase.began": (d) => `the ${d.phase} began`,
      "phase.ended": (d) => `the ${d.phase} ended`,
      "card.removed": (d) => `${card(d.card)} was removed from in front of ${who(d.seat)}${cause(d.cause)}`,
      "attributes.changed": (d) => `${who(d.seat)}: Electability ${d.electability}, Affiliation ${d.affiliation}`,
      "reply.offered": (d) => `${who(d.seat)} may reply to ${who(d.to)}`,
      "reply.passed": (d) => `${who(d.seat)} passed the reply`,
      "removal.pending": (d) => `${who(d.seat)} names the card ${card(d.cause)} removes`,
      "rpsx.setup": () => "the items were shuffled into the supply",
      "rpsx.dealt": (d) => `${card(d.cards)} dealt to the centre`,
      "rpsx.challenge_started": () => "a challenge started",
      "rpsx.thrown": (d) => `${who(d.seat)} threw${d.sign ? " " + d.sign : ""}`,
      "rpsx.revealed": (d) => "throws revealed: " + (d.throws || []).map((t) => `${who(t.seat)} ${t.sign}`).join(", "),
      "rpsx.tied": (d) => `a tie on ${d.sign}`,
      "rpsx.won": (d) => `${who(d.seat)} won the throw with ${d.sign}`,
      "rpsx.scored": (d) => `${who(d.seat)} scored ${d.points}${cause(d.cause)}`,
      "rpsx.drew": (d) => `${who(d.seat)} took ${card(d.card)}`,
      "rpsx.discarded": (d) => `${who(d.seat)} discarded ${card(d.card)}`,
      "rpsx.claimed": (d) => `${who(d.seat)} claimed ${d.choice || "the win"}`,
      "rpsx.potion_chosen": (d) => `${who(d.seat)} answered${d.potion ? " with " + card(d.potion) : ""}`,
      "rpsx.potions_revealed": (d) => "potions: " + ((d.drunk || []).map((p) => `${who(p.seat)} ${p.potion ? card(p.potion) : "passed"}`).join(", ") || "none"),
      "rpsx.broken": (d) => `${who(d.seat)}'s ${card(d.cards)} broke${cause(d.cause)}`,
      "rpsx.stolen": (d) => `${who(d.seat)} stole ${card(d.card)} from ${who(d.from)}`,
      "rpsx.finished": (d) => `${list(d.winners)} won the game`,
      "serm.deployed": (d) => `${count((d.soldiers || []).length, "soldier")} deployed; ${who(d.first)} has the first initiative`,
      "serm.turned": (d) => `${soldier(d.soldier)} turned to face ${d.facing}`,
      "serm.move_rolled": (d) => `${soldier(d.soldier)} rolled ${dice(d.roll)} to ${d.direction ? "move " + d.direction : "turn"}`,
      "serm.stepped": (d) => `the Brawler stepped ${d.direction}`,
      "serm.react_offered": (d) => `${who(d.seat)} may React`,
      "serm.reacted": (d) => `${soldier(d.soldier)} reacted, rolling ${dice(d.roll)}${d.stopped ? ": stopped the Move" : ""}`,
      "serm.react_declined": (d) => `${who(d.seat)} did not React`,
      "serm.moved": (d) => `${soldier(d.soldier)} moved to ${d.to}, facing ${d.facing}${d.stopped_by ? " (stopped by " + soldier(d.stopped_by) + ")" : ""}`,
      "serm.shot": (d) => `${soldier(d.soldier)} shot${d.at ? " at " + d.at : ""}: ` + (d.fire || []).map((f) => `rolled ${dice(f.shoot)}` + (f.hits || []).map((h) => `, ${soldier(h.soldier)} endured ${dice(h.endure)}${h.eliminated ? " and fell" : ""}`).join("")).join("; "),
      "serm.killed": (d) => `${soldier(d.soldier)} fell (${d.cause})`,
      "serm.initiative": (d) => `${who(d.seat)} has the initiative${d.soldier ? " with " + soldier(d.soldier) : ""}`,
      "serm.finished": (d) => `${list(d.winners)} won the battle`,
      "serm.recruited": (d) => `${who(d.seat)} recruited ${d.card}`,
      "serm.force_ready": (d) => `${who(d.seat)}'s force is ready`,
      "social.started": (d) => `${who(d.first)} goes first`,
      "social.dealt": (d) => `${who(d.seat)} was dealt ${d.cards && d.cards.length ? card(d.cards) : count(d.count || 0, "card")}`,
      "social.turn_began": (d) => `${who(d.seat)}'s turn began`,
      "social.drew": (d) => `${who(d.seat)} drew ${d.card ? card(d.card) : "a card"}`,
      "social.played": (d) => `${who(d.seat)} played ${card(d.card)}${d.selection && d.selection.x !== undefined ? ` at (${d.selection.x}, ${d.selection.y})` : ""}`,
      "social.passed": (d) => `${who(d.seat)} let it pass`,
      "social.canceled": (d) => `${who(d.by)}'s Sherman Act cancelled ${card(d.card)}`,
      "social.placed": (d) => `${card(d.card)} joined the grid at (${d.x}, ${d.y})`,
      "social.stage": (d) => `${who(d.seat)} may send invitations`,
      "social.invitation": (d) => `${who(d.seat)} sent a ${d.how} invitation`,
      "social.die_rolled": (d) => `${who(d.seat)} rolled ${d.roll} for ${d.what}${d.user ? " to " + card(d.user) : ""}: ${d.success ? "success" : "failure"}`,
      "social.joined": (d) => `${card(d.user)} joined ${who(d.seat)}'s network`,
      "social.left": (d) => `${card(d.user)} left ${who(d.seat)}'s network`,
      "social.removed": (d) => `${card(d.card)} left the grid`,
      "social.turn_ended": (d) => `${who(d.seat)} ended the turn`,
      "social.discarded": (d) => `${card(d.card)} went to the discard pile`,
      "social.kept": (d) => `${card(d.card)} stays in front of ${who(d.seat)}`,
      "social.finished": (d) => `${list(d.winners)} won${d.reason ? " — " + d.reason : ""}`,
      "drake.decks_shuffled": () => "the Maidens, the Knights and the Treasures were shuffled",
      "drake.virtues_dealt": (d) => "Virtues dealt: " + (d.virtues || []).map((v) => `${who(v.seat)} is ${v.virtue}`).join(", "),
      "drake.location_started": (d) => `${card(d.card)} starts the ${d.location}`,
      "drake.turn_began": (d) => `${who(d.seat)} (${d.virtue}) begins a turn`,
      "drake.card_played": (d) => `${who(d.seat)} turned up ${card(d.card)} from the ${d.deck}`,
      "drake.maiden_swallowed": (d) => `${who(d.seat)} swallowed ${card(d.card)}`,
      "drake.fire_breathed": (d) => `${who(d.seat)} breathed fire on ${card(d.knight)}`,
      "drake.card_action": (d) => `${who(d.seat)} used ${card(d.card)}`,
      "drake.game_over": (d) => `${d.virtue} wins${d.winners && d.winners.length ? ": " + list(d.winners) : ""}`,
      "filibuster.played": (d) => `${who(d.seat)} played ${card(d.card)}`,
      "filibuster.scored": (d) => `${who(d.seat)} ${d.delta >= 0 ? "scored" : "lost"} ${Math.abs(d.delta)} (now ${d.points})`,
      "filibuster.drew": (d) => `${who(d.seat)} drew ${d.cards && d.cards.length ? card(d.cards) : count(d.count || 0, "card")}`,
      "filibuster.declared": (d) => `${who(d.seat)} declared a filibuster`,
      "filibuster.passed": (d) => `${who(d.seat)} passed`,
      "filibuster.finished": (d) => `${list(d.winners)} won the game`,
    };

    // Who the clock now waits on and how long each has (the deadlines are read against the event's own time), or
    // the banks of time left while it waits on nobody.
    function clockSet(d, event) {
      const deadlines = Object.entries(d.deadlines || {});
      const at = Date.parse(event.at) / 1000;
      if (deadlines.length) {
        return "the clock runs for " + deadlines.map(([seat, deadline]) =>
          `${who(Number(seat))} (${Number.isNaN(at) ? "" : Play.duration(Math.round(deadline - at)) + " "}to decide)`).join(", ");
      }
      const banks = Object.entries(d.banks || {});
      if (banks.length) return "time left: " + banks.map(([seat, bank]) => `${who(Number(seat))} ${Play.duration(bank)}`).join(", ");
      return "the clocks stopped";
    }

    function shown(value) {
      if (value && typeof value === "object") return Object.values(value).map((v) => (typeof v === "object" ? JSON.stringify(v) : ctx.cardName(v) || v)).join(" ");
      return ctx.cardName(value) || String(value);
    }

    function soldier(id) {
      return ctx.cardName(id) || String(id || "a soldier");
    }

    function describeProposal(d) {
      if (d.cards && d.cards.length) return `the card${d.cards.length > 1 ? "s" : ""} ${card(d.cards)}`;
      if (d.kind === "special_rule" && d.rule) return `the Special Rule "${d.rule.title}"`;
      if (d.original) return `to ${d.kind.replace("_", " ")} ${d.original.title}`;
      return `a ${d.kind.replace("_", " ")}`;
    }

    // An event as the log says it; the last event of a command that set the clock carries it (`data.clock`),
    // said after the event's own sentence.
    return function describe(event) {
      const data = event.data || {};
      const sentence = describeOwn(event, data);
      return data.clock && event.type !== "clock.set" ? `${sentence}; ${clockSet(data.clock, event)}` : sentence;
    };

    function describeOwn(event, data) {
      const sayIt = say[event.type];
      if (sayIt) {
        try { return sayIt(data, event); } catch (e) { /* fall through to the plain form */ }
      }
      const fields = Object.entries(data).filter(([, v]) => v !== null && typeof v !== "object").map(([k, v]) => `${k} ${v}`);
      return `${event.type.replace(/[._]/g, " ")}${fields.length ? " (" + fields.join(", ") + ")" : ""}`;
    }
  }

  return { make };
})();
