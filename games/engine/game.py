"""The engine's entry points: everything the service layer calls, whatever the game's ruleset."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dvorak_core.errors import DomainError
from games.engine.events import Actor, Event
from games.engine.rng import Rng
from games.engine.rulesets import get_ruleset
from games.engine.state import VARIANTS, GameState
from games.engine.state import seat_of as _seat_of

# Bump whenever evolve or the shape of the state changes: snapshots tagged with another version are rebuilt.
ENGINE_VERSION = "4"
MAX_SEATS = 20
MAX_CARDS = 5000  # copies counted: a deck is copied card by card into the game


def _copies(card: Any) -> int:
    copies = card.get("copies", 1) if isinstance(card, dict) else 1
    return copies if isinstance(copies, int) and copies > 0 else 1


def create_game(
    *,
    ruleset: str,
    deck: dict,
    variant: str,
    creative: bool,
    max_players: int,
    options: dict,
    creator: Actor,
    rng: Rng,
) -> list[Event]:
    """The first events of a game: ``game.created`` (the deck copied in) and the creator joining at seat 0."""
    if not isinstance(deck, dict) or not isinstance(deck.get("cards", []), list):
        raise DomainError("The deck must have a list of cards.", code="invalid", details={"field": "deck"})
    if variant not in VARIANTS:
        raise DomainError(f"\"variant\" must be one of {', '.join(VARIANTS)}.", code="invalid", details={"field": "variant"})
    if not isinstance(creative, bool):
        raise DomainError("\"creative\" must be true or false.", code="invalid", details={"field": "creative"})
    if not isinstance(max_players, int) or isinstance(max_players, bool) or not 2 <= max_players <= MAX_SEATS:
        raise DomainError(f"\"max_players\" must be between 2 and {MAX_SEATS}.",
                          code="invalid", details={"field": "max_players"})
    if not isinstance(options, dict):
        raise DomainError("\"options\" must be an object.", code="invalid", details={"field": "options"})
    if sum(_copies(card) for card in deck["cards"]) > MAX_CARDS:
        raise DomainError(f"A game is played with at most {MAX_CARDS} cards.", code="invalid", details={"field": "deck"})
    return get_ruleset(ruleset).create(deck=deck, variant=variant, creative=creative, max_players=max_players,
                                       options=options, creator=creator, rng=rng)


def decide(state: GameState | None, command: Any, *, actor: Actor, rng: Rng) -> list[Event]:
    """The events a command produces, or DomainError when the rules refuse it. Never changes ``state``."""
    if state is None:
        raise DomainError("There is no such game.", code="not_found")
    return get_ruleset(state.ruleset).decide(state, command, actor=actor, rng=rng)


def evolve(state: GameState | None, event: Event) -> GameState:
    ruleset = event.data["ruleset"] if state is None else state.ruleset
    return get_ruleset(ruleset).evolve(state, event)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState | None:
    for event in events:
        state = evolve(state, event)
    return state


def view_state(state: GameState, viewer: int | None) -> dict:
    return get_ruleset(state.ruleset).view_state(state, viewer)


def view_event(event: Event, viewer: int | None, state_before: GameState | None, state_after: GameState) -> dict:
    return get_ruleset(state_after.ruleset).view_event(event, viewer, state_before, state_after)


def seat_of(state: GameState | None, user_id: int) -> int | None:
    return _seat_of(state, user_id)


def game_status(state: GameState) -> str:
    return get_ruleset(state.ruleset).game_status(state)
