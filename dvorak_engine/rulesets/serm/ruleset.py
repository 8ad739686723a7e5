"""S.E.R.M. on the ruleset contract (``dvorak_engine.ruleset``): the skirmish as the server plays it.

Read it beside the deck's Special Rules (Shoot, Endure, React, Move) and its eight soldier cards; the package's
docstring lists the measures chosen where the rules leave one open. Each command is checked against the table
and produces events, each folded into a working state as it is emitted, so the next step sees its result; a
refused command raises ``DomainError`` and nothing is appended. Every die is rolled here, from the ``rng`` the
server passes in, and written into the event that uses it.

Live tables: a clock waits on the seats the table waits for (``reading.acting_seats``: each player still building
a force, the player with the initiative, the enemy asked to React). With two players, a seat out of time leaves the
other to win (the core's ``game.won_on_time``, which ends the table too). Dice are rolled in the open, so no undo
goes back across a roll (a Move's, a React's, a Shoot's and its Endure rolls) or the draw of the first initiative.
"""

from __future__ import annotations

import re
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine import bodies
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import PUBLIC, CommandContext, Ruleset, Unfolding, applies, command
from dvorak_engine.rulesets.serm import bodies as declared
from dvorak_engine.rulesets.serm.cards import BLAST, ONE_ACTION, STEERS, VOLLEY, card_from_json, read_deck
from dvorak_engine.rulesets.serm.dice import roll
from dvorak_engine.rulesets.serm.geometry import COMPASS, Cell, Rect, cell_name, parse_cell
from dvorak_engine.rulesets.serm.moves import legal_moves
from dvorak_engine.rulesets.serm.options import NEVER, REACTOR_CHOOSES, TURNED, chosen, invalid, read_options
from dvorak_engine.rulesets.serm.reading import (
    PLAYERS,
    acting_seats,
    affordable,
    can_shoot,
    caught_in_blast,
    reactors,
    spent,
    stop_square,
    trace_step,
    traced,
)
from dvorak_engine.rulesets.serm.table import (
    BATTLE,
    FINISHED,
    MUSTER,
    REACT,
    STEER,
    Activation,
    Force,
    PendingMove,
    SermState,
    Soldier,
    enemies_in_sight,
    sees,
)
from dvorak_engine.rulesets.serm.views import view
from dvorak_engine.state import ACTIVE, GameState
from dvorak_engine.state import FINISHED as GAME_FINISHED
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen

NAME = "serm"
# Where each side's soldiers stand at the start, facing the other side.
HOME_FACING = {0: "N", 1: "S"}


# --- deciding, one event at a time ----------------------------------------------------------------------------


class _Unfolding(Unfolding):
    @property
    def table(self) -> SermState:
        result: SermState = self.state.table
        return result


def _soldier_id(seat: int, title: str, taken: set[str]) -> str:
    base = f"{seat}-" + (re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "soldier")
    name, number = base, 1
    while name in taken:
        number += 1
        name = f"{base}-{number}"
    taken.add(name)
    return name


def deployment(state: GameState) -> list[dict[str, Any]]:
    """Each side's soldiers in the rows at its own edge, centred, in the order of the force, facing the enemy:
    seat 0 at the south edge facing north, seat 1 at the north edge facing south."""
    table = state.table
    placed: list[dict[str, Any]] = []
    taken: set[str] = set()
    for seat in range(PLAYERS):
        titles = list(table.force(seat).cards) if table.forces else [card.title for card in table.cards]
        for row_index in range(0, len(titles), table.width):
            row = titles[row_index:row_index + table.width]
            depth = row_index // table.width
            y = depth if seat == 0 else table.height - 1 - depth
            first = (table.width - len(row)) // 2
            for column, title in enumerate(row):
                placed.append({"id": _soldier_id(seat, title, taken), "seat": seat, "title": title,
                               "x": first + column, "y": y, "facing": HOME_FACING[seat]})
    return placed


# --- command fields: each body is declared in ``bodies`` and checked before its handler runs -----------------
#
# What a soldier's card or the game's options call for is the handler's to check: a field required only for some
# soldiers (``direction``, ``target``, ``at``) or with some options (``stop``), or refused for the others.


def _cell_field(body: dict[str, Any], name: str) -> Cell:
    cell = parse_cell(body.get(name))
    if cell is None:
        raise invalid(declared.SQUARE.replace("{name}", name), name)
    return cell


class SermRuleset(Ruleset):
    """S.E.R.M.'s procedure replaces the Basic Rules: no cards are drawn or played, only soldiers activated."""

    name = NAME
    deck_title_phrases = ("s.e.r.m",)
    board_title = "The field"
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'Each soldier has 4 stats: Shoot, Endure, React, Move.',
        "A soldiers' line of sight extends out diagonally",
        'Explained above (only ever used in response to being the target of a Shoot activation).',
        'Whenever a Move is made in the line of sight of any enemy soldier,',
        'Turning counts as the start and end of a Move.',
    )
    min_players = max_players = PLAYERS
    State = SermState

    # --- setup ------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck's soldier cards copied in, read (stats, cost, abilities), and the options checked."""
        if creative:
            raise invalid("S.E.R.M. has no creative play.", "creative")
        cards = read_deck(deck.get("cards", []))
        return {"options": read_options(options, cards),
                "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": [card.to_json() for card in cards]}

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """"Both players have one of each soldier or may elect to build a force using the corner value of the cards
        for their cost": with a ``budget``, each player first builds a force; else the battle starts at once."""
        unfolding = _Unfolding(self, state, rng)
        if state.options.get("budget") is not None:
            unfolding.add("serm.muster_began", budget=state.options["budget"])
        else:
            self._deploy(unfolding)
        return unfolding.events

    def _deploy(self, unfolding: _Unfolding) -> None:
        """The forces on the field, and the player with the first initiative, drawn at random."""
        unfolding.add("serm.deployed", soldiers=deployment(unfolding.state), first=unfolding.rng.randbelow(PLAYERS))

    # --- building a force with points ----------------------------------------------------------------------

    def _expect_muster(self, state: GameState, seat: int) -> None:
        if state.table.phase != MUSTER:
            raise DomainError("The forces are built: the battle is on.", code="wrong_stage",
                              details={"phase": state.table.phase})
        if state.table.force(seat).ready:
            raise DomainError("Your force is ready.", code="not_your_turn")

    @command("recruit", body=declared.RECRUIT)
    def recruit(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Add a soldier card to your force, paying its corner value from the budget."""
        title = body["card"]
        if title not in {card.title for card in state.table.cards}:
            raise invalid(declared.CARD_TITLE.replace("{name}", "card"), "card")
        self._expect_muster(state, ctx.player_seat)
        if title not in affordable(state, ctx.player_seat):
            raise DomainError(f"The {title} costs more than is left of your budget.", code="denied",
                              details={"card": title, "spent": spent(state.table, ctx.player_seat),
                                       "budget": state.options["budget"]})
        return [Event("serm.recruited", {"seat": ctx.player_seat, "card": title})]

    @command("ready", body=declared.READY)
    def ready(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Your force is built; once both are, the battle starts."""
        self._expect_muster(state, ctx.player_seat)
        if not state.table.force(ctx.player_seat).cards:
            raise DomainError("Recruit at least one soldier first.", code="denied")
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("serm.force_ready", seat=ctx.player_seat)
        if all(force.ready for force in unfolding.table.forces):
            self._deploy(unfolding)
        return unfolding.events

    # --- an activation ----------------------------------------------------------------------------------

    def _expect_battle(self, state: GameState, seat: int, phase: str = BATTLE) -> None:
        table = state.table
        if table.phase != phase:
            doing = {MUSTER: "the forces are being built", REACT: "the enemy may React to a Move",
                     STEER: "a Move is being steered", BATTLE: "a soldier is to be activated"}
            raise DomainError(f"That is not possible now: {doing.get(table.phase, table.phase)}.",
                              code="wrong_stage", details={"phase": table.phase})
        if seat not in acting_seats(state):
            raise DomainError("It is not your initiative.", code="not_your_turn")

    def _activating(self, state: GameState, seat: int, soldier_id: str) -> Soldier:
        """The soldier a command activates: one of yours, standing, and the activation's own soldier once it has
        one."""
        table = state.table
        soldier: Soldier | None = table.soldier(soldier_id)
        if soldier is None or soldier.seat != seat:
            raise invalid("Name one of your soldiers on the field.", "soldier")
        chosen = table.activation.soldier
        if chosen is not None and chosen != soldier_id:
            raise DomainError(f"This initiative is {chosen}'s.", code="denied", details={"soldier": chosen})
        return soldier

    def _may_move(self, state: GameState, soldier: Soldier) -> None:
        activation = state.table.activation
        if activation.moved:
            raise DomainError("This soldier has made its Move.", code="denied")
        if activation.shot and state.table.card(soldier.title).has(ONE_ACTION):
            raise DomainError("This soldier cannot shoot then move in the same activation.", code="denied")

    @command("turn", body=declared.TURN)
    def turn(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Turn in place: "Turning counts as the start and end of a Move", so this is the soldier's Move, and one
        "made in the line of sight of any enemy soldier" may be Reacted to (unless ``react_turn: never``): its
        Move dice are rolled then, for a React roll to beat, and the turn waits for the React like any Move.
        Out of every enemy's sight it is made at once, with no roll."""
        soldier_id, facing = body["soldier"], body["facing"]
        self._expect_battle(state, ctx.player_seat)
        soldier = self._activating(state, ctx.player_seat, soldier_id)
        self._may_move(state, soldier)
        if facing == soldier.facing:
            raise DomainError("The soldier already faces that way.", code="denied")
        unfolding = _Unfolding(self, state, ctx.rng)
        # The Move the turn would be, to ask who may React to it: its dice are rolled only if someone may.
        turning = PendingMove(soldier=soldier.id, direction=None, facing=facing, roll={}, path=(soldier.cell,))
        if chosen(state.options, "react_turn") != NEVER and reactors(state.table, turning, state.options):
            rolled = roll(state.table.card(soldier.title).move, ctx.rng)
            unfolding.add("serm.move_rolled", soldier=soldier.id, direction=None, facing=facing, roll=rolled,
                          **_trace_data(turning))
            self._offer_react(unfolding)
            return unfolding.events
        unfolding.add("serm.turned", soldier=soldier.id, facing=facing)
        self._after_action(unfolding)
        return unfolding.events

    @command("advance", body=declared.ADVANCE)
    def advance(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A Move: "Before rolling for movement, declare the direction the soldier will travel. The soldier must
        move exactly that amount of card lengths along the declared direction." ``facing``, if given, is the
        turn at its end; without it the soldier ends facing the way it travelled."""
        soldier_id, facing = body["soldier"], body.get("facing")
        self._expect_battle(state, ctx.player_seat)
        soldier = self._activating(state, ctx.player_seat, soldier_id)
        card = state.table.card(soldier.title)
        if card.has(STEERS):
            bodies.absent(body, "direction", f"The {card.title} does not declare a direction: it steers each card "
                                         "length of its Move (\"step\").")
            direction = None
        else:
            direction = bodies.one_of(body, "direction", COMPASS)
        self._may_move(state, soldier)
        if card.move < 1:
            raise DomainError(f"The {card.title} has no Move dice: it can only turn.", code="denied")
        rolled = roll(card.move, ctx.rng)
        unfolding = _Unfolding(self, state, ctx.rng)
        pending = PendingMove(soldier=soldier.id, direction=direction, facing=facing, roll=rolled,
                              path=(soldier.cell,), steps_left=rolled["total"])
        if direction is not None:
            while not pending.traced:
                pending = traced(pending, direction, trace_step(state.table, pending, soldier, direction))
        unfolding.add("serm.move_rolled", soldier=soldier.id, direction=direction, facing=facing, roll=rolled,
                      **_trace_data(pending))
        if unfolding.table.pending_move().traced:
            self._offer_react(unfolding)
        return unfolding.events

    @command("step", body=declared.STEP)
    def step_(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """One card length of a steering soldier's Move ("can turn during a Move"), in any direction."""
        direction = body["direction"]
        self._expect_battle(state, ctx.player_seat, STEER)
        table = state.table
        pending = table.pending_move()
        mover = table.standing(pending.soldier)
        pending = traced(pending, direction, trace_step(table, pending, mover, direction))
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("serm.stepped", direction=direction, **_trace_data(pending))
        if unfolding.table.pending_move().traced:
            self._offer_react(unfolding)
        return unfolding.events

    def _offer_react(self, unfolding: _Unfolding) -> None:
        """"Whenever a Move is made in the line of sight of any enemy soldier, their controller may make one React
        attempt": the enemy is asked when one of its soldiers may; else the Move is made."""
        table = unfolding.table
        able = reactors(table, table.pending_move(), unfolding.state.options)
        if able:
            unfolding.add("serm.react_offered", seat=1 - table.current_activation().seat, soldiers=[s.id for s in able])
        else:
            self._make_move(unfolding, stopped_by=None, stop=None)

    @command("react", body=declared.REACT)
    def react(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"Declare the soldier making the React attempt and roll 1D6 per number allocated their React stat. This
        is compared to the moving soldiers' Move roll total and if the React roll is greater than the Move roll,
        the moving soldier is stopped anywhere along its move path and the initiative switches to the soldier who
        reacted." With ``react_stop: reactor_chooses``, ``stop`` names the square of the path where the mover
        stops; with ``react_stop: entry`` it stops where its path enters the reactor's line of sight."""
        soldier_id = body["soldier"]
        table = state.table
        chooses = chosen(state.options, "react_stop") == REACTOR_CHOOSES
        stop_cell = _cell_field(body, "stop") if chooses else None
        if not chooses:
            bodies.absent(body, "stop", "The mover stops where it enters the reactor's line of sight "
                                    "(\"react_stop\": \"entry\").")
        self._expect_battle(state, ctx.player_seat, REACT)
        pending = table.pending
        reactor = table.soldier(soldier_id)
        if reactor is None or soldier_id not in pending.reactors:
            raise invalid("Name one of the soldiers that may React to this Move.", "soldier")
        if chooses and stop_cell not in pending.path:
            raise invalid("\"stop\" is a square of the Move's path.", "stop")
        rolled = roll(table.card(reactor.title).react, ctx.rng)
        success = rolled["total"] > pending.roll["total"]
        stop = None
        if success:
            stop = pending.path.index(stop_cell) if chooses else stop_square(table, pending, reactor)
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("serm.reacted", seat=ctx.player_seat, soldier=reactor.id, roll=rolled,
                      move_total=pending.roll["total"], stopped=success,
                      stop=None if stop is None else cell_name(pending.path[stop]))
        if success:
            self._make_move(unfolding, stopped_by=reactor.id, stop=stop)
        else:
            self._offer_react(unfolding)
        return unfolding.events

    def _make_move(self, unfolding: _Unfolding, *, stopped_by: str | None, stop: int | None) -> None:
        """The Move made: to its end, or to where a React stopped it; the enemy it connected with killed. A turn in
        place a React stopped is made with ``react_turn: turned`` (turning is its start), not with ``unturned``."""
        table = unfolding.table
        pending = table.pending_move()
        end = len(pending.path) - 1 if stop is None else stop
        if pending.kill is not None and (stop is None or pending.kill_step <= stop):
            unfolding.add("serm.killed", soldier=pending.kill, by=pending.soldier, cause="move")
        mover = unfolding.table.standing(pending.soldier)
        if pending.in_place:
            turned = stop is None or chosen(unfolding.state.options, "react_turn") == TURNED
            facing = pending.facing if turned else mover.facing
        else:
            facing = (pending.facing if stop is None and pending.facing else pending.heading_at(end)) or mover.facing
        unfolding.add("serm.moved", soldier=pending.soldier, path=[cell_name(c) for c in pending.path[:end + 1]],
                      to=cell_name(pending.path[end]), facing=facing, stopped_by=stopped_by)
        if self._check_end(unfolding):
            return
        if stopped_by is not None:
            reactor = unfolding.table.standing(stopped_by)
            unfolding.add("serm.initiative", seat=reactor.seat, soldier=reactor.id)
            return
        self._after_action(unfolding)

    @command("shoot", body=declared.SHOOT)
    def shoot(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """"Roll 1D6 for each number allocated in the Shoot stat and compare this to the target soldiers' Endure
        total ... A higher Shoot total eliminates the target soldier." A soldier that "May fire once at each
        enemy soldier in line of sight" names no target; one that "May target empty space" names a square
        (``at``)."""
        soldier_id = body["soldier"]
        self._expect_battle(state, ctx.player_seat)
        table = state.table
        shooter = self._activating(state, ctx.player_seat, soldier_id)
        card = table.card(shooter.title)
        activation = table.activation
        if activation.shot:
            raise DomainError("This soldier has made its Shoot.", code="denied")
        if activation.moved and card.has(ONE_ACTION):
            raise DomainError(f"The {card.title} cannot move then shoot in the same activation.", code="denied")
        if card.shoot < 1:
            raise DomainError(f"The {card.title} has no Shoot.", code="denied")
        options = state.options
        fire: list[dict[str, Any]] = []
        at = None
        if card.has(BLAST):
            bodies.absent(body, "target", f"The {card.title} aims at a square (\"at\").")
            centre = _cell_field(body, "at")
            if not sees(table, shooter, centre):
                raise DomainError("That square is not in the soldier's line of sight.", code="denied",
                                  details={"at": cell_name(centre)})
            at = cell_name(centre)
            shot = roll(card.shoot, ctx.rng)
            fire.append({"shoot": shot, "hits": [self._endure(table, s, shot, ctx.rng)
                                                 for s in caught_in_blast(table, centre, card.blast_radius, options)]})
        elif card.has(VOLLEY):
            bodies.absent(body, "target", f"The {card.title} fires once at each enemy soldier in its line of sight.")
            targets = enemies_in_sight(table, shooter)
            if not targets:
                raise DomainError("No enemy soldier is in this soldier's line of sight.", code="denied")
            for target in targets:
                shot = roll(card.shoot, ctx.rng)
                fire.append({"shoot": shot, "hits": [self._endure(table, target, shot, ctx.rng)]})
        else:
            target_id = bodies.text(body, "target", message=declared.SOLDIER_ID)
            target = table.soldier(target_id)
            if target is None or target.seat == ctx.player_seat:
                raise invalid("\"target\" names an enemy soldier on the field.", "target")
            if not sees(table, shooter, target.cell):
                raise DomainError("That soldier is not in the shooter's line of sight.", code="denied",
                                  details={"target": target_id})
            shot = roll(card.shoot, ctx.rng)
            fire.append({"shoot": shot, "hits": [self._endure(table, target, shot, ctx.rng)]})
        unfolding = _Unfolding(self, state, ctx.rng)
        unfolding.add("serm.shot", soldier=shooter.id, at=at, fire=fire)
        for volley in fire:
            for hit in volley["hits"]:
                if hit["eliminated"] and unfolding.table.soldier(hit["soldier"]) is not None:
                    unfolding.add("serm.killed", soldier=hit["soldier"], by=shooter.id, cause="shot")
        if self._check_end(unfolding):
            return unfolding.events
        self._after_action(unfolding)
        return unfolding.events

    def _endure(self, table: SermState, target: Soldier, shot: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The target's Endure roll against a Shoot total ("they also roll 1D6 for each number allocated for their
        Endure stat")."""
        endured = roll(table.card(target.title).endure, rng)
        return {"soldier": target.id, "endure": endured, "eliminated": shot["total"] > endured["total"]}

    @command("pass", body=declared.PASS)
    def pass_(self, state: GameState, body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Decline: the enemy makes no (more) React attempt, and the Move is made; or, once the activated soldier
        has made its Move or its Shoot, it forgoes the other and the initiative passes."""
        table = state.table
        unfolding = _Unfolding(self, state, ctx.rng)
        if table.phase == REACT:
            self._expect_battle(state, ctx.player_seat, REACT)
            unfolding.add("serm.react_declined", seat=ctx.player_seat)
            self._make_move(unfolding, stopped_by=None, stop=None)
            return unfolding.events
        self._expect_battle(state, ctx.player_seat)
        if not (table.activation.moved or table.activation.shot):
            raise DomainError("Activate a soldier first: Move then Shoot, or Shoot then Move.", code="denied")
        self._pass_initiative(unfolding)
        return unfolding.events

    def _after_action(self, unfolding: _Unfolding) -> None:
        """"The soldier may then move if they have not already done so, then the initiative passes to the
        opponent"; "If the Move was made by a soldier who has already used a Shoot in the same activation, the
        initiative will pass to the opponent". A soldier that "Cannot move then shoot (or shoot then move)" is
        done after either; so is one that fell, or that has nothing left it can do."""
        table = unfolding.table
        activation = table.current_activation()
        soldier = table.soldier(activation.soldier)
        if soldier is None or (activation.moved and activation.shot) or table.card(soldier.title).has(ONE_ACTION):
            self._pass_initiative(unfolding)
        elif activation.moved and not can_shoot(table, soldier):
            self._pass_initiative(unfolding)

    def _pass_initiative(self, unfolding: _Unfolding) -> None:
        unfolding.add("serm.initiative", seat=1 - unfolding.table.current_activation().seat, soldier=None)

    def _check_end(self, unfolding: _Unfolding) -> bool:
        """"The last player with soldiers wins" (nobody, if the last soldiers of both fall together)."""
        standing = unfolding.table.seats_with_soldiers()
        if len(standing) >= PLAYERS:
            return False
        unfolding.add("serm.finished", winners=standing)
        return True

    # --- events -----------------------------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": PUBLIC})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data, options = event.data, event.data["options"]
        terrain = tuple(Rect(**rect) for rect in options["terrain"])
        return replace(state, table=SermState(deck=dict(data["deck"]),
                                              cards=tuple(card_from_json(card) for card in data["cards"]),
                                              width=options["width"], height=options["height"], terrain=terrain))

    @applies("serm.muster_began", shows={"budget": PUBLIC})
    def apply_muster_began(self, state: GameState, event: Event) -> GameState:
        forces = tuple(Force(seat=seat) for seat in range(PLAYERS))
        return replace(state, status=ACTIVE).with_table(phase=MUSTER, forces=forces)

    @applies("serm.recruited", shows={"seat": PUBLIC, "card": PUBLIC})
    def apply_recruited(self, state: GameState, event: Event) -> GameState:
        force = state.table.force(event.data["seat"])
        return _with(state, state.table.with_force(replace(force, cards=(*force.cards, event.data["card"]))))

    @applies("serm.force_ready", shows={"seat": PUBLIC})
    def apply_force_ready(self, state: GameState, event: Event) -> GameState:
        force = state.table.force(event.data["seat"])
        return _with(state, state.table.with_force(replace(force, ready=True)))

    @applies("serm.deployed", shows={"soldiers": PUBLIC, "first": PUBLIC})
    def apply_deployed(self, state: GameState, event: Event) -> GameState:
        soldiers = tuple(Soldier(**s) for s in event.data["soldiers"])
        first = event.data["first"]
        return replace(state, status=ACTIVE).with_table(phase=BATTLE, soldiers=soldiers, initiative=first,
                                                        activation=Activation(seat=first), activations=1)

    @applies("serm.turned", shows={"soldier": PUBLIC, "facing": PUBLIC})
    def apply_turned(self, state: GameState, event: Event) -> GameState:
        table = state.table
        soldier = replace(table.soldier(event.data["soldier"]), facing=event.data["facing"])
        activation = replace(table.activation, soldier=soldier.id, moved=True)
        return _with(state, replace(table.with_soldier(soldier), activation=activation))

    @applies("serm.move_rolled", shows=dict.fromkeys(
        ("soldier", "direction", "facing", "roll", "path", "headings", "halted", "kill", "kill_step", "steps_left"),
        PUBLIC))
    def apply_move_rolled(self, state: GameState, event: Event) -> GameState:
        data = event.data
        pending = PendingMove(soldier=data["soldier"], direction=data["direction"], facing=data["facing"],
                              roll=data["roll"], **_trace_fields(data))
        activation = replace(state.table.activation, soldier=data["soldier"])
        return state.with_table(pending=pending, activation=activation,
                                phase=BATTLE if pending.traced else STEER)

    @applies("serm.stepped", shows=dict.fromkeys(
        ("direction", "path", "headings", "halted", "kill", "kill_step", "steps_left"), PUBLIC))
    def apply_stepped(self, state: GameState, event: Event) -> GameState:
        pending = replace(state.table.pending, **_trace_fields(event.data))
        return state.with_table(pending=pending, phase=BATTLE if pending.traced else STEER)

    @applies("serm.react_offered", shows={"seat": PUBLIC, "soldiers": PUBLIC})
    def apply_react_offered(self, state: GameState, event: Event) -> GameState:
        pending = replace(state.table.pending, reactors=tuple(event.data["soldiers"]))
        return state.with_table(pending=pending, phase=REACT)

    @applies("serm.reacted", shows=dict.fromkeys(("seat", "soldier", "roll", "move_total", "stopped", "stop"),
                                                 PUBLIC))
    def apply_reacted(self, state: GameState, event: Event) -> GameState:
        pending = state.table.pending
        pending = replace(pending, reacted=(*pending.reacted, event.data["soldier"]), reactors=())
        return state.with_table(pending=pending)

    @applies("serm.react_declined", shows={"seat": PUBLIC})
    def apply_react_declined(self, state: GameState, event: Event) -> GameState:
        return state.with_table(pending=replace(state.table.pending, reactors=()))

    @applies("serm.moved", shows=dict.fromkeys(("soldier", "path", "to", "facing", "stopped_by"), PUBLIC))
    def apply_moved(self, state: GameState, event: Event) -> GameState:
        table = state.table
        to = parse_cell(event.data["to"])
        assert to is not None, "an event names its squares as the engine wrote them"
        x, y = to
        soldier = replace(table.soldier(event.data["soldier"]), x=x, y=y, facing=event.data["facing"])
        activation = replace(table.activation, moved=True)
        return _with(state, replace(table.with_soldier(soldier), pending=None, phase=BATTLE, activation=activation))

    @applies("serm.shot", shows={"soldier": PUBLIC, "at": PUBLIC, "fire": PUBLIC})
    def apply_shot(self, state: GameState, event: Event) -> GameState:
        activation = replace(state.table.activation, soldier=event.data["soldier"], shot=True)
        return state.with_table(activation=activation)

    @applies("serm.killed", shows={"soldier": PUBLIC, "by": PUBLIC, "cause": PUBLIC})
    def apply_killed(self, state: GameState, event: Event) -> GameState:
        table = state.table
        fallen = table.soldier(event.data["soldier"])
        return state.with_table(soldiers=tuple(s for s in table.soldiers if s.id != fallen.id),
                                fallen=(*table.fallen, fallen))

    @applies("serm.initiative", shows={"seat": PUBLIC, "soldier": PUBLIC})
    def apply_initiative(self, state: GameState, event: Event) -> GameState:
        seat = event.data["seat"]
        return state.with_table(initiative=seat, activation=Activation(seat=seat, soldier=event.data["soldier"]),
                                pending=None, phase=BATTLE, activations=state.table.activations + 1)

    @applies("serm.finished", shows={"winners": PUBLIC})
    def apply_finished(self, state: GameState, event: Event) -> GameState:
        state = state.with_table(phase=FINISHED, pending=None, activation=None, initiative=None)
        return replace(state, status=GAME_FINISHED, winners=tuple(event.data["winners"]))

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """The table ends as the core ended the game: no initiative, no Move under way."""
        return state.with_table(phase=FINISHED, pending=None, activation=None, initiative=None)

    # --- live tables ------------------------------------------------------------------------------------

    # Every event that rolls dice (a Move's, a React's, a Shoot's and its Endure rolls) and the first initiative,
    # drawn at random.
    reveals = frozenset({"serm.deployed", "serm.move_rolled", "serm.reacted", "serm.shot"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the table waits for (``reading.acting_seats``)."""
        return tuple(seat for seat in acting_seats(state) if self.takes_part(state, seat))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """Nothing of the game's own: with two players, a seat out of time leaves one side, or none, and the core
        ends the game."""
        return []

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """The seat's soldiers against the enemy's, each worth 1 and its stats (a tenth of a point each; while the
        forces are built, the soldiers recruited), and a fifth of a point for each enemy one of its soldiers sees,
        less as much for each of its soldiers an enemy sees."""
        board = view.get("board")
        if not board:
            return 0.0
        worth: dict[str, float] = {card["title"]: 1 + sum(card["stats"].values()) / 10 for card in view["cards"]}
        if board["phase"] == MUSTER:
            return sum(worth[title] if force["seat"] == seat else -worth[title]
                       for force in board["forces"] for title in force["cards"])
        score = 0.0
        for soldier in board["soldiers"]:
            value = worth[soldier["title"]] + len(soldier["in_sight"]) / 5
            score += value if soldier["seat"] == seat else -value
        return score

    # --- views and legal moves --------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        return view(state, viewer)

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        return legal_moves(state, seat)


def _with(state: GameState, table: SermState) -> GameState:
    return replace(state, table=table)


def _trace_data(pending: PendingMove) -> dict[str, Any]:
    """A Move's trace as its event writes it."""
    return {"path": [cell_name(c) for c in pending.path], "headings": list(pending.headings),
            "halted": pending.halted, "kill": pending.kill, "kill_step": pending.kill_step,
            "steps_left": pending.steps_left}


def _trace_fields(data: dict[str, Any]) -> dict[str, Any]:
    return {"path": tuple(parse_cell(c) for c in data["path"]), "headings": tuple(data["headings"]),
            "halted": data["halted"], "kill": data["kill"], "kill_step": data["kill_step"],
            "steps_left": data["steps_left"]}


__all__ = ["NAME", "SermRuleset", "SermState"]
