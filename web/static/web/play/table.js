/* The table: the game as the API shows this viewer, kept live by the websocket, acted on through the legal
   moves, the effect moves of Dvorak and creative proposals. The server judges every command; the page only
   sends what the player chose and shows the answer (or the API's error) as it comes. */
"use strict";

(function () {
  const { api, showError, el } = Play;
  const config = JSON.parse(document.getElementById("play-config").textContent);
  const API = config.api;
  const GAME = `${API}games/${config.game}/`;
  const errorBox = document.getElementById("play-error");
  const $ = (id) => document.getElementById(id);

  const client = {
    state: null,          // the state shown (live, or a past version while replaying)
    live: null,           // the latest live state
    moves: [],
    version: 0,           // the last event version handled (the log's)
    replayAt: null,
    socket: null,
    connects: 0,
    cards: new Map(),     // every card (or soldier, or identity) the viewer has been shown, by id
    log: [],
    playerDecks: null,    // the viewer's own player decks, read once an open CCG table asks for one
  };
  window.playClient = client; // for the browser tests and the curious
  client.render = () => render();

  /* ---- what things are called ---- */
  function remember(value) {
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) { value.forEach(remember); return; }
    if (typeof value.id === "string" && (value.title || value.name)) client.cards.set(value.id, value);
    Object.values(value).forEach(remember);
  }
  function seatName(seat) {
    const players = (client.live || client.state || {}).players || [];
    const player = players.find((p) => p.seat === Number(seat));
    if (player) return player.username;
    // A seat taken by the events being read, before the state that shows it: named by its player.joined.
    const joined = client.log.findLast((e) => e.type === "player.joined" && e.data && e.data.seat === Number(seat));
    return joined && joined.data.username ? joined.data.username : `seat ${seat}`;
  }
  function cardName(value) {
    if (value && typeof value === "object") return value.title || value.name || null;
    const card = client.cards.get(value);
    return card ? card.title || card.name : null;
  }
  const describe = Describe.make({ seatName, cardName });
  const ACTOR_LED = new Set(["game.created", "game.started", "dice.rolled", "draw_pile.refilled", "pile.shuffled",
    "player.left", "game.cancelled"]);

  /* ---- reading ---- */
  const read = config.signed_in
    ? { state: (at) => api("GET", GAME + (at ? `?at=${at}` : "")), events: (after) => api("GET", `${GAME}events/?after=${after}`),
        moves: () => api("GET", `${GAME}moves/`) }
    : { state: (at) => api("GET", config.watch.state + (at ? `?at=${at}` : "")),
        events: (after) => api("GET", `${config.watch.events}?after=${after}`), moves: async () => ({ moves: [] }) };

  let refreshing = null, again = false;
  async function refresh() {
    // One refresh at a time; events arriving meanwhile ask for one more afterwards.
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      try {
        const [state, moves] = await Promise.all([read.state(), read.moves()]);
        client.live = state;
        remember(state);
        // Moves are listed for one version: read at another than the state's, they wait for the next read.
        const sameVersion = moves.version === undefined || moves.version === state.version;
        client.moves = sameVersion ? moves.moves : [];
        if (!sameVersion) again = true;
        if (client.replayAt === null) client.state = state;
        render();
      } catch (error) {
        showError(errorBox, error);
      }
    })();
    await refreshing;
    refreshing = null;
    if (again) { again = false; await refresh(); }
  }

  function handleEvents(events) {
    let fresh = false;
    for (const event of events) {
      if (event.version <= client.version) continue;
      remember(event.data);
      client.version = event.version;
      client.log.push(event);
      appendLog(event);
      fresh = true;
    }
    if (fresh) refresh();
  }

  /* ---- live: the websocket (a fresh ticket each time it opens), resuming after the last version handled ---- */
  async function connect() {
    let ticket;
    try {
      ticket = (await api("POST", `${API}auth/ticket/`)).ticket;
    } catch (error) {
      setLive(false, "offline: " + error.message);
      return setTimeout(connect, 3000);
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${config.game}/?ticket=${encodeURIComponent(ticket)}&after=${client.version}`);
    client.socket = socket;
    socket.addEventListener("open", () => { client.connects += 1; setLive(true); });
    socket.addEventListener("message", (message) => {
      const data = JSON.parse(message.data);
      if (data.type !== "event") return;
      if (data.event.version > client.version + 1) {
        // A gap: something was missed. Start again from what we have.
        socket.close(4000, "gap");
        return;
      }
      handleEvents([data.event]);
    });
    socket.addEventListener("close", (event) => {
      if (client.socket !== socket) return;
      client.socket = null;
      if ([4401, 4403, 4404, 4400].includes(event.code)) {
        setLive(false, event.code === 4403 ? "not open to you" : "closed");
        if (event.code === 4401) setTimeout(connect, 2000);
        return;
      }
      setLive(false, "reconnecting…");
      setTimeout(connect, event.code === 4000 ? 0 : 1000);
    });
  }

  /* A visitor who is not signed in has no websocket: the page asks for what is new every few seconds. */
  function poll() {
    read.events(client.version).then((answer) => { setLive(true, "watching (updates every few seconds)"); handleEvents(answer.events); })
      .catch((error) => setLive(false, error.message))
      .finally(() => setTimeout(poll, 3000));
  }

  function setLive(on, text) {
    const box = $("live");
    box.className = "live " + (on ? "on" : "off");
    box.textContent = text || (on ? "live" : "offline");
    box.dataset.connects = client.connects;
  }

  /* ---- acting ---- */
  /* A legal move is sent with If-Match: it was listed for one version, and the server refuses it (412) if the
     game has moved on meanwhile. Proposals and effect moves are the player's own writing: they go as they are. */
  async function send(command, button, listedAt) {
    showError(errorBox, null);
    if (button) button.disabled = true;
    try {
      const headers = { "Idempotency-Key": crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2) };
      if (listedAt !== undefined) headers["If-Match"] = `"${listedAt}"`;
      // Starting, leaving and cancelling have endpoints of their own (leaving and cancelling answer 204).
      const own = { start: ["POST", `${GAME}start/`], leave: ["POST", `${GAME}leave/`], cancel: ["DELETE", GAME] }[command.type];
      const answer = own ? await api(own[0], own[1], undefined, headers) : await api("POST", `${GAME}commands/`, command, headers);
      if (answer && answer.events) handleEvents(answer.events);
      await refresh();
      return true;
    } catch (error) {
      showError(errorBox, error);
      refresh();  // the moves offered may have been stale (412 version_conflict): show the current ones
      return false;
    } finally {
      if (button) button.disabled = false;
    }
  }

  function isChoice(value) {
    return value && typeof value === "object" && !Array.isArray(value) && "choose" in value && "from" in value;
  }

  // The fields whose numbers are seats (a number elsewhere is just a number: Odds and Evens' fingers).
  const SEAT_FIELDS = new Set(["target", "targets", "to", "from", "seat", "seats"]);

  function optionLabel(value, key) {
    if (typeof value === "number" && SEAT_FIELDS.has(key)) {
      const players = (client.live || {}).players || [];
      if (players.some((p) => p.seat === value)) return `${seatName(value)} (seat ${value})`;
    }
    return cardName(value) || String(value);
  }

  // The open table's ways out, named as a player would say them.
  const MOVE_NAMES = { leave: "Leave the table", cancel: "Cancel game" };

  function moveLabel(move) {
    if (MOVE_NAMES[move.type]) return MOVE_NAMES[move.type];
    const parts = [move.type.replace(/_/g, " ")];
    const fixed = Object.entries(move).filter(([k, v]) => k !== "type" && !isChoice(v));
    for (const [key, value] of fixed) {
      if (key === "approve") parts[0] = value ? "vote for" : "vote against";
      else if (key === "proposal") {
        const proposal = ((client.live || {}).proposals || []).find((p) => p.number === value);
        parts.push(`proposal ${value}${proposal ? ": " + proposalSummary(proposal) : ""}`);
      } else if (key === "card") parts.push(cardName(value) || value);
      else if (key === "onto") parts.push("onto " + (cardName(value) || value));
      else if (key === "target" || key === "to" || key === "from" || key === "seat") parts.push(`${key} ${optionLabel(value, key)}`);
      else if (typeof value === "object") parts.push(`${key} ${JSON.stringify(value)}`);
      else parts.push(`${key} ${cardName(value) || value}`);
    }
    return parts.join(" ");
  }

  /* The moves are re-drawn only when what they are drawn from has changed: a live update that changes nothing
     (the refresh after a player's own command, then the socket's notice of it) must not replace a button that the
     player is clicking at that moment, which would swallow the click. */
  function renderMoves() {
    const box = $("moves");
    const state = client.state;
    const drawnFrom = JSON.stringify([client.replayAt, config.signed_in, client.moves, client.playerDecks !== null,
      state && [state.version, state.status, state.you, state.undo, state.players.length]]);
    if (box.dataset.drawnFrom === drawnFrom) return;
    box.dataset.drawnFrom = drawnFrom;
    box.textContent = "";
    if (client.replayAt !== null) { box.append(el("p", { class: "muted" }, `Replaying version ${client.replayAt}: go back to live to play.`)); return; }
    if (state && state.undo) box.append(undoRequest(state));
    if (!config.signed_in) { box.append(el("p", {}, "You are watching. ", el("a", { href: config.sign_in }, "Sign in"), " to play.")); return; }
    if (state && state.you === null) {
      box.append(el("p", { class: "muted" }, "You are watching this game."), state.status === "open" ? joinControls(state) : null);
      return;
    }
    // An undo's answers are drawn with the request itself (undoRequest), not among the moves.
    const moves = client.moves.filter((move) => move.type !== "undo_answer");
    const over = state && ["finished", "abandoned"].includes(state.status);
    const answering = moves.length < client.moves.length;
    if (!moves.length && !answering) {
      const cancelled = state && state.status === "cancelled";
      box.append(el("p", { class: "muted" }, cancelled ? "The game was cancelled." : over ? "The game is over." : "Nothing is yours to do now: waiting for the others."));
    } else if (moves.length) {
      const list = el("ul", { class: "move-list" });
      for (const move of moves) list.append(el("li", {}, moveForm(move)));
      box.append(list);
    }
    const extras = [addComputerForm(state), undoButton(state),
      over ? el("button", { type: "button", class: "table-action", id: "rematch", onclick: rematch,
        title: "A new table with this game's deck and rules; the other players are invited" }, "Rematch") : null].filter(Boolean);
    if (extras.length) box.append(el("div", { class: "table-actions" }, extras));
  }

  /* ---- live tables: computer players, undo, rematch, clocks ---- */

  /* ---- CCG tables: a seat is taken with a player deck ---- */
  const isCcg = (state) => state.variant === "ccg";

  /* The viewer's valid decks of this game's card set, or null until they are read (the moves are drawn again then). */
  function validDecks(state) {
    if (client.playerDecks === null) {
      if (!client.readingDecks) {
        client.readingDecks = Ccg.playerDecks(API).then((decks) => { client.playerDecks = decks; render(); })
          .catch((error) => showError(errorBox, error));
      }
      return null;
    }
    return Ccg.validDecksOf(client.playerDecks, state.deck.slug);
  }

  /* Join this game: at a CCG table, with one of your valid decks of its set, chosen beside the button. */
  function joinControls(state) {
    let select = null;
    const button = el("button", { type: "button", class: "join", onclick: () => join(select) }, "Join this game");
    if (!isCcg(state)) return button;
    const valid = validDecks(state);
    if (valid === null) return el("p", { class: "muted" }, "Reading your decks…");
    const choice = Ccg.deckChoice({ slug: state.deck.slug, valid, button, label: "Your deck for this game",
      build: "Build a deck of it" });
    select = choice.select;
    return el("p", { class: "join-table" }, choice.node);
  }

  /* The creator (seat 0) of an open table may seat a computer player in the next free seat; at a CCG table it
     plays a copy of one of the creator's valid decks, the one they brought unless they choose another. */
  function addComputerForm(state) {
    if (!state || state.status !== "open" || state.you !== 0) return null;
    if (config.max_players && state.players.length >= config.max_players) return null;
    const level = el("select", { name: "level" }, el("option", { value: "random" }, "random"), el("option", { value: "greedy" }, "greedy"));
    const button = el("button", { type: "submit" }, "Add a computer player");
    let deck = null;
    let controls = button;
    if (isCcg(state)) {
      const valid = validDecks(state);
      if (valid === null) return null;
      const brought = (state.players.find((p) => p.seat === state.you) || {}).deck;
      const choice = Ccg.deckChoice({ slug: state.deck.slug, valid, label: "The computer player's deck",
        build: "Build a deck", chosen: brought && brought.id });
      deck = choice.select;
      controls = deck ? [el("label", {}, "Its deck ", deck), button] : choice.node;
    }
    const form = el("form", { class: "add-computer", id: "add-computer" }, el("label", {}, "Level ", level), controls);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      showError(errorBox, null);
      button.disabled = true;
      try {
        await api("POST", `${GAME}bots/`, deck ? { level: level.value, player_deck: Number(deck.value) } : { level: level.value });
        await refresh();
      } catch (error) {
        showError(errorBox, error);
      } finally {
        button.disabled = false;
      }
    });
    return form;
  }

  // Events that are not a player's move: the undo's own. Before the game starts, only seats are taken and left.
  const NOT_A_MOVE = new Set(["undo.requested", "undo.answered", "game.undone"]);
  // (`clock.set`: the clock's own event, in games stored before it rode on a command's last event.)
  const BEFORE_THE_START = new Set(["game.created", "player.joined", "player.left", "clock.set"]);

  /* The version to ask to go back to, to take back your last move: the one before the first event of your last
     command still in effect (the events one command appends share their actor and their time), or null when you
     have made no move since the game started (the command that started it is not one). */
  function undoTarget() {
    const me = config.username;
    const log = client.log;
    const start = log.find((event) => !BEFORE_THE_START.has(event.type));
    if (!start) return null;
    let undoneAfter = Infinity;  // an undo already agreed took back every event after its `to`
    for (let i = log.length - 1; i >= 0; i--) {
      const event = log[i];
      if (event.version > undoneAfter) continue;
      if (event.type === "game.undone") { undoneAfter = event.data.to; continue; }
      if (event.actor !== me) continue;
      let first = i;
      while (first > 0 && log[first - 1].actor === me && log[first - 1].at === event.at && log[first - 1].version <= undoneAfter) first -= 1;
      if (log[first].version <= start.version) return null;
      if (!NOT_A_MOVE.has(log[first].type)) return log[first].version - 1;
      i = first;
    }
    return null;
  }

  function undoButton(state) {
    if (!state || state.undo || !["active", "voting"].includes(state.status)) return null;
    const me = state.players.find((p) => p.seat === state.you);
    if (!me || (me.status && me.status !== "playing")) return null;
    const to = undoTarget();
    if (to === null) return null;
    return el("button", { type: "button", class: "table-action", id: "ask-undo", "data-to": to,
      title: `Ask the other players to take the game back to move ${to}, before your last move`,
      onclick: (event) => send({ type: "undo", to }, event.currentTarget) }, "Undo last move");
  }

  /* An undo asked for: what it asks, and Accept / Decline for the players whose answer is awaited (their listed
     `undo_answer` moves), or whom the asker waits on. */
  function undoRequest(state) {
    const undo = state.undo;
    const box = el("div", { class: "undo-request", id: "undo-request", role: "status" },
      el("p", {}, el("strong", {}, undo.by === state.you ? "You ask" : `${seatName(undo.by)} asks`),
        ` to take the game back to move ${undo.to}.`, takenBack(undo.to)));
    const answers = client.replayAt === null ? client.moves.filter((move) => move.type === "undo_answer") : [];
    if (answers.length) {
      const answer = (accept) => {
        const move = answers.find((m) => m.accept === accept);
        return move ? el("button", { type: "button", class: accept ? "accept" : "decline",
          onclick: (event) => send(move, event.currentTarget) }, accept ? "Accept" : "Decline") : null;
      };
      box.append(el("p", { class: "undo-answers" }, answer(true), " ", answer(false)));
    } else {
      const waiting = state.players.filter((p) => p.seat !== undo.by && (!p.status || p.status === "playing")
        && !(undo.accepted || []).includes(p.seat)).map((p) => p.username);
      box.append(el("p", { class: "muted" }, waiting.length ? `Waiting for ${waiting.join(", ")} to answer.` : "Waiting for the answers."));
    }
    return box;
  }

  // What an undo to `to` would take back, as the log says it: its first move, and how many events in all.
  function takenBack(to) {
    const after = client.log.filter((event) => event.version > to && !NOT_A_MOVE.has(event.type) && event.type !== "clock.set");
    if (!after.length) return null;
    const text = logText(after[0]);
    return el("span", { class: "muted" }, ` It takes back “${text}”${after.length > 1 ? ` and ${after.length - 1} more event${after.length > 2 ? "s" : ""}` : ""}.`);
  }

  /* A new table for the same game; the other players are invited to it. */
  async function rematch(event) {
    showError(errorBox, null);
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const game = await api("POST", `${GAME}rematch/`);
      window.location.href = `/play/${game.id}/`;
    } catch (error) {
      showError(errorBox, error);
      button.disabled = false;
    }
  }

  // The clock as the summary line says it: seconds a move, or a bank plus its increment.
  function clockKind(timing) {
    if (timing.per_move !== undefined) return `clock: ${Play.duration(timing.per_move)} a move`;
    return `clock: ${Play.duration(timing.initial)} each${timing.increment ? ` + ${timing.increment} s a move` : ""}`;
  }

  /* A seat's clock: counting down to its deadline while the game waits on it (tick() keeps it current), else its
     bank, or under a clock of seconds a move that allowance. A past version shows no running clock. */
  function seatClock(state, seat) {
    const timing = state.clock;
    const entry = timing && (timing.seats || []).find((s) => s.seat === seat);
    // Once the game is over, or the seat is out of it, its clock no longer counts.
    const player = state.players.find((p) => p.seat === seat);
    if (!entry || ["finished", "abandoned", "cancelled"].includes(state.status) || (player && player.status && player.status !== "playing")) return null;
    const running = entry.deadline && client.replayAt === null;
    const idle = entry.bank !== undefined ? entry.bank : timing.per_move;
    const chip = el("span", { class: "clock" + (running ? " running" : ""), "data-seat": seat,
      "data-deadline": running ? Date.parse(entry.deadline) : null,
      title: running ? "time left to decide" : entry.bank !== undefined ? "time left in the bank" : "time for each move" },
      running ? "" : Play.duration(idle));
    if (running) tickClock(chip, Date.now());
    return chip;
  }

  function tickClock(chip, now) {
    const left = (Number(chip.dataset.deadline) - now) / 1000;
    chip.textContent = Play.duration(left);
    chip.classList.toggle("low", left <= 10);
    chip.classList.toggle("out", left <= 0);
  }

  function tick() {
    const now = Date.now();
    document.querySelectorAll(".clock[data-deadline]").forEach((chip) => tickClock(chip, now));
  }
  setInterval(tick, 250);

  function moveForm(move) {
    const choices = Object.entries(move).filter(([, v]) => isChoice(v));
    const fixed = Object.fromEntries(Object.entries(move).filter(([, v]) => !isChoice(v)));
    const form = el("form", { class: "move", "data-move-type": move.type, "data-move-key": JSON.stringify(fixed),
      "data-version": client.live.version });
    for (const [key, choice] of choices) {
      if (choice.list) {
        form.append(el("fieldset", { class: "choose", "data-field": key }, el("legend", {}, `${key}: choose ${choice.choose}`),
          choice.from.map((value) => el("label", {}, el("input", { type: "checkbox", name: key, value: JSON.stringify(value) }), " ", optionLabel(value, key)))));
      } else {
        form.append(el("label", {}, `${key} `, el("select", { name: key, "data-field": key },
          choice.from.map((value) => el("option", { value: JSON.stringify(value) }, optionLabel(value, key))))));
      }
    }
    const button = el("button", { type: "submit" }, moveLabel(move));
    form.append(button);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const command = Object.assign({}, move);
      for (const [key, choice] of choices) {
        if (choice.list) command[key] = [...form.querySelectorAll(`input[name="${key}"]:checked`)].map((i) => JSON.parse(i.value));
        else command[key] = JSON.parse(form.querySelector(`select[name="${key}"]`).value);
      }
      send(command, button, form.dataset.version);
    });
    return form;
  }

  async function join(deckPicker) {
    showError(errorBox, null);
    const body = {};
    if (deckPicker) body.player_deck = Number(deckPicker.value);
    if (client.live && client.live.variant === "team") {
      const team = window.prompt("Which team do you join?");
      if (!team) return;
      body.team = team;
    }
    try {
      await api("POST", `${GAME}join/`, body);
      await refresh();
    } catch (error) {
      showError(errorBox, error);
    }
  }

  /* ---- Dvorak's effect moves: carry out the text of a card you can see, or of a Special Rule ---- */
  const EFFECTS = {
    draw: [], // not an effect: listed for completeness of the map below
    destroy: [["card", "in_play"]],
    move: [["card", "visible"], ["to", ["hand", "discard", "in_play", "draw_top", "draw_bottom"]], ["seat", "seat?"], ["onto", "in_play?"]],
    take_random: [["from", "other_seat"], ["opponent", "bool"]],
    give: [["card", "hand"], ["to", "other_seat"], ["opponent", "bool"]],
    counter: [["seat", "seat"], ["name", "text:gold"], ["delta", "number:1"]],
    roll: [["dice", "text:1d6"]],
    reveal: [["card", "hand"]],
    discard: [["cards", "hand*"]],
    shuffle: [["pile", ["draw", "discard"]]],
    eliminate: [["seat", "other_seat"], ["opponent", "bool"]],
    win: [],
  };
  delete EFFECTS.draw;

  function visibleCards(state) {
    const me = state.players.find((p) => p.seat === state.you) || {};
    const inPlay = [];
    const walk = (cards) => (cards || []).forEach((c) => { inPlay.push(c); walk(c.attached); });
    state.players.forEach((p) => walk(p.in_play));
    const open = (state.proposals || []).filter((p) => p.status === "open").flatMap((p) => p.cards || []).filter((c) => c.id);
    return { hand: me.hand || [], in_play: inPlay, visible: [...(me.hand || []), ...inPlay, ...(state.discard_pile || []), ...open, ...(state.rejected || [])] };
  }

  function renderEffects() {
    const state = client.state;
    const panel = $("effects-panel");
    const usable = state && state.ruleset === "dvorak" && state.you !== null && config.signed_in && client.replayAt === null
      && (state.status === "active");
    panel.hidden = !usable;
    const box = $("effects");
    box.textContent = "";
    if (!usable) return;
    const cards = visibleCards(state);
    const cardOptions = (list) => list.map((c) => el("option", { value: c.id }, c.title));
    const causes = el("select", { name: "cause", "data-field": "cause" },
      el("optgroup", { label: "Cards" }, cardOptions(cards.visible)),
      el("optgroup", { label: "Special Rules" }, (state.special_rules || []).map((r) => el("option", { value: r.id }, r.title))));
    const kind = el("select", { name: "type", "data-field": "type" }, Object.keys(EFFECTS).map((k) => el("option", { value: k }, k.replace("_", " "))));
    const fields = el("span", { class: "effect-fields" });
    const seats = (filter) => state.players.filter(filter).map((p) => el("option", { value: p.seat }, p.username));
    function fillFields() {
      fields.textContent = "";
      for (const [name, spec] of EFFECTS[kind.value]) {
        let input;
        if (Array.isArray(spec)) input = el("select", { name }, spec.map((v) => el("option", { value: v }, v.replace("_", " "))));
        else if (spec === "bool") input = el("input", { type: "checkbox", name });
        else if (spec.startsWith("text:")) input = el("input", { type: "text", name, value: spec.slice(5), size: 8 });
        else if (spec.startsWith("number:")) input = el("input", { type: "number", name, value: spec.slice(7), step: 1 });
        else if (spec === "hand*") input = el("select", { name, multiple: true }, cardOptions(cards.hand));
        else if (spec.startsWith("seat") || spec === "other_seat") {
          input = el("select", { name }, spec.endsWith("?") ? el("option", { value: "" }, "—") : null,
            seats((p) => spec !== "other_seat" || p.seat !== state.you));
        } else {
          const list = cards[spec.replace("?", "")] || cards.visible;
          input = el("select", { name }, spec.endsWith("?") ? el("option", { value: "" }, "—") : null, cardOptions(list));
        }
        fields.append(el("label", {}, ` ${name} `, input));
      }
    }
    kind.addEventListener("change", fillFields);
    fillFields();
    const form = el("form", { class: "effect", id: "effect-form" }, el("label", {}, "Move ", kind), el("label", {}, " citing ", causes), fields,
      el("button", { type: "submit" }, "Carry it out"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const command = { type: kind.value, cause: causes.value };
      for (const [name, spec] of EFFECTS[kind.value]) {
        const input = form.querySelector(`[name="${name}"]`);
        if (spec === "bool") { if (input.checked) command[name] = true; continue; }
        if (spec === "hand*") { command[name] = [...input.selectedOptions].map((o) => o.value); continue; }
        if (input.value === "") continue;
        const numeric = spec === "seat" || spec === "seat?" || spec === "other_seat" || String(spec).startsWith("number:");
        command[name] = numeric ? Number(input.value) : input.value;
      }
      send(command, form.querySelector("button"));
    });
    box.append(form, el("p", { class: "muted" }, "Any player may carry out a card's text when it says so; the server checks the card is one you can see. ",
      el("button", { type: "button", class: "concede", onclick: () => window.confirm("Leave this game?") && send({ type: "concede" }) }, "Concede")));
  }

  /* Any command as JSON, for the effect moves a ruleset leaves to its players (Filibuster's score, draw and
     destroy; Dvorak's set_rule) and whatever no form above covers. The server checks it like any other. */
  function renderAnyCommand() {
    const state = client.state;
    const usable = state && state.you !== null && config.signed_in && client.replayAt === null && !["finished", "abandoned", "cancelled"].includes(state.status);
    $("command-panel").hidden = !usable;
    const box = $("command");
    if (!usable || box.childNodes.length) return;  // kept as typed across updates
    const input = el("textarea", { name: "command", rows: 2, cols: 60, placeholder: '{"type": "score", "cause": "…", "points": 10}' });
    const form = el("form", { class: "any-command", id: "command-form" }, input, el("button", { type: "submit" }, "Send"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      let command;
      try {
        command = JSON.parse(input.value);
      } catch (e) {
        showError(errorBox, { message: "A command is a JSON object, such as {\"type\": \"draw\"}.", code: "invalid" });
        return;
      }
      send(command, form.querySelector("button"));
    });
    box.append(form, el("p", { class: "muted" }, "Each ruleset's commands are in the ", el("a", { href: "/api/v1/docs/" }, "API documentation"), "."));
  }

  /* ---- creative play: proposals ---- */
  function proposalSummary(p) {
    if (p.cards && p.cards.length) return p.cards.map((c) => `${c.title} (${c.type}): ${c.text || ""}`).join("; ");
    if (p.rule && p.kind === "special_rule") return `Special Rule "${p.rule.title}": ${p.rule.text || ""}`;
    const target = p.card ? p.card.title : p.rule ? p.rule.title : "";
    return `${p.kind.replace("_", " ")} ${target}${p.changes ? " → " + Object.entries(p.changes).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ") : ""}`;
  }

  function renderProposals() {
    const state = client.state;
    const proposals = (state && state.proposals) || [];
    $("proposals-panel").hidden = !(state && state.creative);
    const box = $("proposals");
    box.textContent = "";
    if (!proposals.length) box.append(el("p", { class: "muted" }, "No proposal yet."));
    box.append(el("ol", { class: "proposals" }, proposals.map((p) => el("li", { class: "proposal " + p.status, "data-proposal": p.number },
      el("strong", {}, `#${p.number} ${p.kind.replace("_", " ")}`), ` by ${seatName(p.author)} — `, el("span", { class: "status" }, p.status), ": ",
      proposalSummary(p),
      el("span", { class: "votes" }, " Votes: " + (Object.entries(p.votes || {}).map(([seat, yes]) => `${seatName(seat)} ${yes ? "for" : "against"}`).join(", ") || "none"))))));
    if ((state && state.rejected || []).length) {
      box.append(el("p", {}, "Rejected pile: " + state.rejected.map((c) => c.title).join(", ")));
    }
    const canPropose = state && state.creative && state.you !== null && config.signed_in && client.replayAt === null
      && !proposals.some((p) => p.status === "open");
    $("propose-panel").hidden = !canPropose;
    renderProposeForm(canPropose);
  }

  function renderProposeForm(show) {
    const box = $("propose");
    box.textContent = "";
    if (!show) return;
    const state = client.state;
    const cards = visibleCards(state);
    const kind = el("select", { name: "kind" }, ["card", "special_rule", "amend", "repeal", "amend_rule", "repeal_rule", "from_rejected"]
      .map((k) => el("option", { value: k }, k.replace("_", " "))));
    const fields = el("div", { class: "propose-fields" });
    const text = (name, label, size) => el("label", {}, `${label} `, el("input", { type: "text", name, size: size || 30 }));
    const area = (name, label) => el("label", { class: "wide" }, `${label} `, el("textarea", { name, rows: 2, cols: 50 }));
    const pick = (name, list, labelOf) => el("label", {}, `${name} `, el("select", { name }, list.map((item) => el("option", { value: item.id }, labelOf(item)))));
    function fill() {
      fields.textContent = "";
      const k = kind.value;
      if (k === "card") fields.append(text("title", "Title"), el("label", {}, "Type ", el("select", { name: "ctype" }, el("option", {}, "Thing"), el("option", {}, "Action"))), area("text", "Text"));
      if (k === "special_rule") fields.append(text("title", "Title"), area("text", "Text"));
      if (k === "amend") fields.append(pick("card", cards.visible.filter((c) => !(state.rejected || []).includes(c)), (c) => c.title), text("title", "New title"), area("text", "New text"));
      if (k === "repeal") fields.append(pick("card", cards.visible, (c) => c.title));
      if (k === "amend_rule") fields.append(pick("rule", state.special_rules || [], (r) => r.title), text("title", "New title"), area("text", "New text"));
      if (k === "repeal_rule") fields.append(pick("rule", state.special_rules || [], (r) => r.title));
      if (k === "from_rejected") fields.append(pick("card", state.rejected || [], (c) => c.title));
    }
    kind.addEventListener("change", fill);
    fill();
    const form = el("form", { class: "propose", id: "propose-form" }, el("label", {}, "Kind ", kind), fields, el("button", { type: "submit" }, "Propose"));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const value = (name) => (form.querySelector(`[name="${name}"]`) || {}).value || "";
      const k = kind.value;
      let command;
      const changes = () => Object.fromEntries([["title", value("title")], ["text", value("text")]].filter(([, v]) => v));
      if (k === "card") command = { kind: "card", card: { title: value("title"), type: value("ctype"), text: value("text") } };
      if (k === "special_rule") command = { kind: "special_rule", rule: { title: value("title"), text: value("text") } };
      if (k === "amend") command = { kind: "amend", card: value("card"), changes: changes() };
      if (k === "repeal") command = { kind: "repeal", card: value("card") };
      if (k === "amend_rule") command = { kind: "amend_rule", rule: value("rule"), changes: changes() };
      if (k === "repeal_rule") command = { kind: "repeal_rule", rule: value("rule") };
      if (k === "from_rejected") command = { kind: "card", from_rejected: value("card") };
      send(Object.assign({ type: "propose" }, command), form.querySelector("button"));
    });
    box.append(form);
  }

  /* ---- the state ---- */
  function cardList(cards, empty) {
    if (!cards || !cards.length) return el("span", { class: "muted" }, empty || "none");
    return el("div", { class: "cards" }, cards.map((c) => Boards.cardBox(c,
      c.attached && c.attached.length ? el("div", { class: "attached" }, "carrying: ", cardList(c.attached)) : null)));
  }

  const isCardList = (v) => Array.isArray(v) && v.length > 0 && v.every((c) => c && typeof c === "object" && c.title !== undefined);
  function plain(value) {
    if (Array.isArray(value)) return value.length ? value.map((v) => (v && typeof v === "object" ? v.title || v.name || plain(v) : v)).join(", ") : "none";
    return Object.entries(value).map(([k, v]) => `${k} ${v && typeof v === "object" ? plain(v) : v}`).join(", ");
  }

  const PLAYER_SHOWN = new Set(["seat", "username", "team", "status", "counters", "hand_count", "hand", "in_play", "in_front", "draw_pile", "discard_pile", "bot"]);

  function renderPlayers() {
    const state = client.state;
    const box = $("players");
    box.textContent = "";
    const turnSeat = state.turn && state.turn.seat !== undefined ? state.turn.seat : state.board && state.board.turn ? state.board.turn.seat : null;
    // The seats the clock waits on now (each has a deadline): highlighted, their clocks counting down.
    const awaited = new Set(((state.clock || {}).seats || []).filter((s) => s.deadline).map((s) => s.seat));
    for (const p of state.players) {
      const extras = Object.entries(p).filter(([k, v]) => !PLAYER_SHOWN.has(k) && v !== null && v !== undefined);
      const mine = p.seat === state.you;
      const waitedOn = awaited.has(p.seat) && client.replayAt === null;
      box.append(el("div", { class: "player" + (mine ? " me" : "") + (p.seat === turnSeat ? " turn" : "") + (waitedOn ? " awaited" : ""), "data-seat": p.seat },
        el("h3", {}, el("span", { class: "swatch", style: `background:${Boards.seatColour(p.seat)}` }), ` ${p.username}`,
          mine ? el("span", { class: "muted" }, " (you)") : null, p.team ? ` · team ${p.team}` : "",
          p.bot ? el("span", { class: "badge bot", title: "a computer player" }, `computer · ${p.bot}`) : null,
          p.status && p.status !== "playing" ? ` · ${p.status}` : "", p.seat === turnSeat ? el("span", { class: "badge" }, "turn") : null,
          (state.winners || []).includes(p.seat) ? el("span", { class: "badge win" }, "winner") : null,
          seatClock(state, p.seat)),
        el("p", { class: "facts" },
          p.hand_count !== undefined ? `Hand: ${p.hand_count} card${p.hand_count === 1 ? "" : "s"}. ` : "",
          p.counters && Object.keys(p.counters).length ? "Counters: " + Object.entries(p.counters).map(([k, v]) => `${k} ${v}`).join(", ") + ". " : "",
          p.draw_pile ? `Own draw pile: ${p.draw_pile.count}. ` : "",
          extras.filter(([, v]) => !isCardList(v)).map(([k, v]) => `${k.replace(/_/g, " ")}: ${typeof v === "object" ? (v.title || v.name || plain(v)) : v}. `).join("")),
        extras.filter(([, v]) => isCardList(v)).map(([k, v]) => el("div", { class: "zone" }, el("h4", {}, k.replace(/_/g, " ")), cardList(v))),
        p.in_play ? el("div", { class: "zone" }, el("h4", {}, "In play"), cardList(p.in_play)) : null,
        p.in_front ? el("div", { class: "zone" }, el("h4", {}, "In front"), cardList(p.in_front)) : null,
        p.discard_pile && p.discard_pile.length ? el("div", { class: "zone" }, el("h4", {}, "Own discard pile"), cardList(p.discard_pile)) : null,
        p.hand ? el("div", { class: "zone hand", id: mine ? "my-hand" : null }, el("h4", {}, "Your hand"), cardList(p.hand, "empty")) : null));
    }
  }

  function renderPiles() {
    const state = client.state;
    const box = $("piles");
    box.textContent = "";
    const facts = [];
    if (state.draw_pile) facts.push(`Draw pile: ${state.draw_pile.count} card${state.draw_pile.count === 1 ? "" : "s"}.`);
    if (state.creative) facts.push(`Blank cards: ${state.blank_cards}.`);
    if (facts.length) box.append(el("p", {}, facts.join(" ")));
    if (state.discard_pile) box.append(el("h3", {}, "Discard pile (top last)"), cardList(state.discard_pile, "empty"));
    if ((state.special_rules || []).length) {
      // A deck's own rules may run to pages: a long one is folded to its first words, a click away.
      const rule = (r) => {
        const title = r.title ? el("strong", {}, r.title) : null;
        const text = r.text || "";
        if (text.length <= 300) return el("li", { "data-rule": r.id }, title, title && text ? ": " : "", text);
        return el("li", { "data-rule": r.id }, el("details", {}, el("summary", {}, title, title ? ": " : "", text.slice(0, 120) + "…"), text));
      };
      box.append(el("h3", {}, "Special Rules"), el("ul", { class: "special-rules" }, state.special_rules.map(rule)));
    }
    if (state.rules) box.append(el("h3", {}, "Rules"), Boards.jsonTable(state.rules));
    if (state.unenforced && state.unenforced.length) {
      // A Special Rule the server cannot read changes these numbers: the players keep them, as they keep the rule.
      box.append(el("p", { class: "unenforced muted" },
        `Kept by the players, as the Special Rules say (the server does not enforce them): ${state.unenforced.join(", ")}.`));
    }
    if ((state.modifiers || []).length) box.append(el("h3", {}, "Rule changes in effect"), Boards.jsonTable(state.modifiers));
    $("piles-panel").hidden = !box.childNodes.length;
  }

  function renderSummary() {
    const state = client.state;
    const turn = state.turn ? `${seatName(state.turn.seat)}'s turn (${state.turn.stage})` : "";
    const you = state.you === null || state.you === undefined ? "watching" : `you are ${seatName(state.you)} (seat ${state.you})`;
    const winners = (state.winners || []).length ? ` · won by ${state.winners.map(seatName).join(", ")}` : "";
    $("game-summary").textContent = "";
    $("game-summary").append(
      el("span", { class: "ruleset" }, state.ruleset + (state.variant && state.variant !== "standard" ? ` (${state.variant})` : "") + (state.creative ? ", creative" : "")),
      " · ", el("span", { class: "status", id: "game-status" }, state.status),
      " · ", el("span", { id: "game-version" }, `version ${state.version}`),
      turn ? " · " + turn : "", state.clock ? el("span", { class: "clock-kind" }, " · " + clockKind(state.clock)) : "", " · ", you, winners,
      client.replayAt !== null ? el("strong", { class: "replaying" }, ` · replaying version ${client.replayAt} of ${client.live.version}`) : "");
  }

  /* A redraw must not wipe what a player is typing or choosing (a proposal's text, an effect's fields): the
     values of the forms in these panels are put back where the same field is drawn again. */
  // A field's place across a re-draw: its form (by id, else by the move it sends without its choices, so that
  // each soldier's "turn" keeps its own facing), its name and type, and a checkbox's value.
  function fieldKey(field) {
    const form = field.closest("form");
    const where = form ? form.id || form.dataset.moveKey || form.dataset.moveType : "";
    return `${where}|${field.name}|${field.type}|${field.type === "checkbox" ? field.value : ""}`;
  }

  function keepingInput(ids, draw) {
    const kept = ids.map((id) => [...$(id).querySelectorAll("input, select, textarea")].map((field) => ({
      key: fieldKey(field),
      value: field.type === "checkbox" ? field.checked : field.multiple ? [...field.selectedOptions].map((o) => o.value) : field.value,
    })));
    draw();
    const focused = document.activeElement && document.activeElement.name;
    ids.forEach((id, i) => {
      const fields = [...$(id).querySelectorAll("input, select, textarea")];
      // first the fields that decide which others are drawn (an effect's or a proposal's kind)
      for (const pass of [true, false]) {
        for (const field of fields) {
          if ((field.name === "type" || field.name === "kind") !== pass) continue;
          const key = fieldKey(field);
          const old = kept[i].find((k) => k.key === key);
          if (!old) continue;
          if (field.type === "checkbox") field.checked = old.value;
          else if (field.multiple) [...field.options].forEach((o) => { o.selected = old.value.includes(o.value); });
          else if (field.tagName !== "SELECT" || [...field.options].some((o) => o.value === old.value)) {
            if (field.value !== old.value) {
              field.value = old.value;
              if (pass) field.dispatchEvent(new Event("change"));
            }
          }
        }
        if (pass) fields.splice(0, fields.length, ...$(id).querySelectorAll("input, select, textarea"));
      }
      if (focused) {
        const again = $(id).querySelector(`[name="${focused}"]`);
        if (again && again.tagName !== "SELECT") again.focus();
      }
    });
  }

  function render() {
    const state = client.state;
    if (!state) return;
    document.body.dataset.version = state.version;
    renderSummary();
    keepingInput(["moves"], renderMoves);
    const hasBoard = Object.prototype.hasOwnProperty.call(state, "board");
    $("board-panel").hidden = !hasBoard;
    if (hasBoard) {
      $("board-title").textContent = config.board_titles[state.ruleset] || "Board";
      const box = $("board");
      box.textContent = "";
      box.append(Boards.render(state, { seatName, cardName, rerender: render }));
    }
    renderPlayers();
    renderPiles();
    keepingInput(["propose", "effects"], () => { renderProposals(); renderEffects(); });
    renderAnyCommand();
    const table = $("state-table");
    table.textContent = "";
    table.append(Boards.jsonTable(state));
    const slider = $("replay-at");
    slider.max = client.live.version;
    if (client.replayAt === null) slider.value = client.live.version;
    $("replay-version").textContent = `version ${slider.value}`;
  }

  /* ---- the log and replay ---- */
  function logText(event) {
    const sentence = describe(event);
    return ACTOR_LED.has(event.type) ? `${event.actor} ${sentence}` : sentence;
  }

  function appendLog(event) {
    const text = logText(event);
    const item = el("li", { "data-version": event.version, value: event.version, title: event.at },
      el("button", { type: "button", class: "link", title: "Show the game at this version", onclick: () => replay(event.version) }, `v${event.version}`),
      " ", text.charAt(0).toUpperCase() === text.charAt(0) ? text : text);
    $("log").prepend(item);
  }

  async function replay(at) {
    showError(errorBox, null);
    if (at === null || (client.live && at >= client.live.version)) {
      client.replayAt = null;
      client.state = client.live;
      $("replay-live").hidden = true;
      render();
      return;
    }
    try {
      const state = await read.state(at);
      remember(state);
      client.replayAt = at;
      client.state = state;
      $("replay-at").value = at;
      $("replay-live").hidden = false;
      render();
    } catch (error) {
      showError(errorBox, error);
    }
  }

  $("replay-at").addEventListener("input", (e) => { $("replay-version").textContent = `version ${e.target.value}`; });
  $("replay").addEventListener("submit", (e) => { e.preventDefault(); replay(Number($("replay-at").value)); });
  $("replay-live").addEventListener("click", () => replay(null));

  /* ---- start: the state, the log so far, then live ---- */
  (async function start() {
    try {
      // The state first, so that the log names its players; then every event so far.
      client.live = await read.state();
      remember(client.live);
      const history = await read.events(0);
      handleEvents(history.events);
      await refresh();
    } catch (error) {
      showError(errorBox, error);
      setLive(false, "not available");
      return;
    }
    if (config.signed_in) connect();
    else poll();
  })();
})();
