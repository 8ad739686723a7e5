"""The engine's entry points: everything the service layer calls, whatever the game's ruleset."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.engine.errors import DomainError
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
        raise DomainError("invalid", "The deck must have a list of cards.", {"field": "deck"})
    if variant not in VARIANTS:
        raise DomainError("invalid", f"\"variant\" must be one of {', '.join(VARIANTS)}.", {"field": "variant"})
    if not isinstance(creative, bool):
        raise DomainError("invalid", "\"creative\" must be true or false.", {"field": "creative"})
    if not isinstance(max_players, int) or isinstance(max_players, bool) or not 2 <= max_players <= MAX_SEATS:
        raise DomainError("invalid", f"\"max_players\" must be between 2 and {MAX_SEATS}.",
                          {"field": "max_players"})
    if not isinstance(options, dict):
        raise DomainError("invalid", "\"options\" must be an object.", {"field": "options"})
    if sum(_copies(card) for card in deck["cards"]) > MAX_CARDS:
        raise DomainError("invalid", f"A game is played with at most {MAX_CARDS} cards.", {"field": "deck"})
    return get_ruleset(ruleset).create(deck=deck, variant=variant, creative=creative, max_players=max_players,
                                       options=options, creator=creator, rng=rng)


def decide(state: GameState | None, command: Any, *, actor: Actor, rng: Rng) -> list[Event]:
    """The events a command produces, or DomainError when the rules refuse it. Never changes ``state``."""
    if state is None:
        raise DomainError("not_found", "There is no such game.")
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
