"""The engine's entry points: everything the service layer calls, whatever the game's ruleset.

``view_state``, ``view_event`` and ``legal_moves`` are the one path by which any interface (REST, websocket, MUSH,
a past state with ``?at=N``) shows a game to a viewer: a seat, or None for a spectator.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from dvorak_core.errors import DomainError
from dvorak_core.event_schemas import current_schema
from dvorak_engine import clock, codec
from dvorak_engine.cards import compact_cards
from dvorak_engine.events import Actor, Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import Past, card_data_refusal
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.state import GameState
from dvorak_engine.state import seat_of as _seat_of
from dvorak_engine.values import replace

# Bump whenever evolve or the shape of the state changes: snapshots tagged with another version are rebuilt.
ENGINE_VERSION = "7"
MAX_SEATS = 20
# A game created without "max_players": five seats, or fewer when its ruleset is for fewer (two for a duel).
DEFAULT_MAX_PLAYERS = 5
MAX_CARDS = 5000  # copies counted: a deck is copied card by card into the game


def _copies(card: Any) -> int:
    copies = card.get("copies", 1) if isinstance(card, dict) else 1
    return copies if isinstance(copies, int) and copies > 0 else 1


def default_variant(ruleset: str) -> str:
    """The variant a game of ``ruleset`` is created as when its creator names none."""
    return get_ruleset(ruleset).default_variant


def create_game(
    *,
    ruleset: str,
    deck: dict[str, Any],
    variant: str,
    creative: bool,
    max_players: int | None,
    options: dict[str, Any],
    creator: Actor,
    rng: Rng,
    invite: Any = (),
) -> list[Event]:
    """The first events of a game: ``game.created`` (the deck copied in) and the creator joining at seat 0."""
    rules = get_ruleset(ruleset)
    if not isinstance(deck, dict) or not isinstance(deck.get("cards", []), list):
        raise DomainError("The deck must have a list of cards.", code="invalid", details={"field": "deck"})
    if not isinstance(variant, str) or variant not in rules.variants:
        raise DomainError(f"The {rules.name} ruleset is played only as {', '.join(rules.variants)}.",
                          code="invalid", details={"field": "variant"})
    if not isinstance(creative, bool):
        raise DomainError("\"creative\" must be true or false.", code="invalid", details={"field": "creative"})
    most = min(MAX_SEATS, rules.max_players)
    if max_players is None:  # as many as the game is for, but a table of five at most unless asked
        max_players = min(DEFAULT_MAX_PLAYERS, most)
    if not isinstance(max_players, int) or isinstance(max_players, bool) or not 2 <= max_players <= MAX_SEATS:
        raise DomainError(f"\"max_players\" must be between 2 and {MAX_SEATS}.", code="invalid",
                          details={"field": "max_players"})
    if max_players > most:
        raise DomainError(f"The {rules.name} ruleset is for at most {most} players.", code="invalid",
                          details={"field": "max_players", "max_players": most})
    if not isinstance(options, dict):
        raise DomainError("\"options\" must be an object.", code="invalid", details={"field": "options"})
    timing = clock.read_option(options.get("clock"))
    if timing is not None:
        options = {**options, "clock": timing}
    elif "clock" in options:
        options = {key: value for key, value in options.items() if key != "clock"}
    if not isinstance(options.get("invite_only", False), bool):
        raise DomainError("\"options.invite_only\" is true or false.", code="invalid",
                          details={"field": "options.invite_only"})
    invited = _invited(invite, creator)
    if sum(_copies(card) for card in deck["cards"]) > MAX_CARDS:
        raise DomainError(f"A game is played with at most {MAX_CARDS} cards.", code="invalid",
                          details={"field": "deck"})
    problems = rules.card_problems(deck)
    if problems:
        raise card_data_refusal(rules, problems)
    own = rules.created(deck=deck, variant=variant, creative=creative, options=options, rng=rng)
    if "cards" in own:
        own["cards"] = compact_cards(own["cards"])
    # ``may_leave``: a game created since an open table lists leaving and cancelling among its moves.
    created = Event("game.created", {"ruleset": rules.name, "variant": variant, "creative": creative,
                                     "max_players": max_players, "options": options, **own, "may_leave": True,
                                     **({"invited": invited} if invited else {})},
                    current_schema("game.created"))
    state = rules.evolve(None, created)
    joined = rules.decide(state, {"type": "join", **rules.creator_join(options)}, actor=creator, rng=rng)
    return [created, *_stamped(joined)]


def check_command(state: GameState, command: Any) -> None:
    """Refuse (400) a command whose own shape is wrong for the game's ruleset, whatever the game's state."""
    get_ruleset(state.ruleset).checked_body(command)


def _invited(invite: Any, creator: Actor) -> list[str]:
    """The usernames a game's creator invites (``invite``), each once, the creator's own left out."""
    if invite is None:
        return []
    if not isinstance(invite, list | tuple) or not all(isinstance(name, str) and name.strip() for name in invite):
        raise DomainError("\"invite\" is a list of usernames.", code="invalid", details={"field": "invite"})
    if len(invite) > MAX_SEATS:
        raise DomainError(f"At most {MAX_SEATS} players can be invited.", code="invalid", details={"field": "invite"})
    names = [name.strip() for name in invite]
    return [name for index, name in enumerate(names) if name not in names[:index] and name != creator.username]


def decide(state: GameState | None, command: Any, *, actor: Actor, rng: Rng, now: float | None = None,
           past: Past | None = None) -> list[Event]:
    """The events a command produces, or DomainError when the rules refuse it. Never changes ``state``. ``now``:
    the server's time, read by clocks (``dvorak_engine.clock``); ``past``: the game's history, read by an undo."""
    if state is None:
        raise DomainError("There is no such game.", code="not_found")
    return _stamped(get_ruleset(state.ruleset).decide(state, command, actor=actor, rng=rng, now=now, past=past))


def decide_folded(state: GameState | None, command: Any, *, actor: Actor, rng: Rng, now: float | None = None,
                  past: Past | None = None) -> tuple[list[Event], list[GameState]]:
    """As ``decide``, with the state after each event, as ``evolve`` makes it (the last, the game's state after
    the command): for the server, which shows each event to its sender as it stood then, folding it once."""
    if state is None:
        raise DomainError("There is no such game.", code="not_found")
    events, states = get_ruleset(state.ruleset).decide_folded(state, command, actor=actor, rng=rng, now=now,
                                                               past=past)
    return _stamped(events), states


def _stamped(events: list[Event]) -> list[Event]:
    """Each event with its type's current schema (``dvorak_core.event_schemas``): a ruleset writes its events in
    their current shape and need not say which that is."""
    for index, event in enumerate(events):
        schema = current_schema(event.type)
        if event.schema != schema:
            events[index] = Event(event.type, event.data, schema)
    return events


def evolve(state: GameState | None, event: Event) -> GameState:
    ruleset = event.data["ruleset"] if state is None else state.ruleset
    return get_ruleset(ruleset).evolve(state, event)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState | None:
    """Fold ``events`` into ``state``; the ruleset is looked up again only when the state names another one."""
    remaining = iter(events)
    for event in remaining:
        rules = get_ruleset(event.data["ruleset"] if state is None else state.ruleset)
        state = rules.fold(state, [event])
        if state.ruleset == rules.name:  # the rest in one go, until an event names another ruleset
            state = rules.fold(state, remaining, handing_over=True)
    return state


def view_state(state: GameState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` sees of the game: the core's part (status, version, ruleset, you, winners, and the secret
    choices of a step of simultaneous moves: only the viewer's own), around the ruleset's own view."""
    view = {"status": state.status, "version": state.version, "ruleset": state.ruleset, "you": viewer,
            **get_ruleset(state.ruleset).view(state, viewer), "winners": list(state.winners)}
    if any(seat.bot for seat in state.seats) and isinstance(view.get("players"), list):
        levels = {seat.seat: seat.bot for seat in state.seats if seat.bot}
        view["players"] = [{**player, "bot": levels[player["seat"]]}
                           if isinstance(player, dict) and player.get("seat") in levels else player
                           for player in view["players"]]
    timing = clock.view(state)
    if timing is not None:
        view["clock"] = timing
    if state.invited:
        view["invited"] = list(state.invited)
    if state.undo:
        view["undo"] = {"to": state.undo["to"], "by": state.undo["by"], "accepted": list(state.undo["accepted"])}
    if state.choosing:
        view["choices"] = {
            "waiting_for": [seat for seat in state.choosing if str(seat) not in state.choices],
            "made": [{"seat": seat, "choice": state.choices[str(seat)]} if seat == viewer else {"seat": seat}
                     for seat in state.choosing if str(seat) in state.choices],
        }
    return view


def view_event(event: Event, viewer: int | None, state_before: GameState | None, state_after: GameState) -> dict[str, Any]:
    return get_ruleset(state_after.ruleset).view_event(event, viewer, state_before, state_after)


def legal_moves(state: GameState, viewer: int | None) -> list[dict[str, Any]]:
    """Every command ``viewer`` may send now, as complete bodies (none for a spectator)."""
    if viewer is None:
        return []
    rules = get_ruleset(state.ruleset)
    return [*rules.start_moves(state, viewer), *rules.open_table_moves(state, viewer), *rules.live_moves(state, viewer),
            *rules.legal_moves(state, viewer)]


def deck_after_game(state: GameState) -> dict[str, Any]:
    """The Aftermath: the game's deck as it stands once the game is over, ready for the archive."""
    return get_ruleset(state.ruleset).deck_after_game(state)


def seat_of(state: GameState | None, user_id: int) -> int | None:
    return _seat_of(state, user_id)


def game_status(state: GameState) -> str:
    """One of ``dvorak_engine.state.STATUSES``: the game is over when it is one of ``OVER`` (won or abandoned);
    ``cancelled`` when its creator called it off before it started."""
    return state.status


def state_to_json(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = codec.to_json(state)
    return data


def state_to_json_bytes(state: GameState) -> bytes:
    """``state_to_json`` written out: by orjson straight from the frozen dataclasses (each as an object of its
    fields in order, tuples as arrays, as the codec writes them), ten times faster than building the dicts first,
    for a state made of what orjson writes so; else through the codec."""
    try:
        return orjson.dumps(state)
    except TypeError:  # a value orjson does not write (a named tuple, say): the codec's way
        return orjson.dumps(codec.to_json(state))


def state_from_json(data: dict[str, Any]) -> GameState:
    envelope: GameState = codec.from_json(GameState, {key: value for key, value in data.items() if key != "table"})
    return replace(envelope, table=codec.from_json(get_ruleset(data["ruleset"]).State, data["table"]))
