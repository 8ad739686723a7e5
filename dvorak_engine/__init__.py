"""The pure rules engine of Dvorak and the other games of the archive: no Django, no database, no clock.

``decide`` turns a command into events (or refuses it with ``DomainError``), ``evolve`` folds an event into the
state, the views show each viewer only what it may see, and ``legal_moves`` lists what a seat may send. The core
(``state``, ``ruleset``, ``visibility``, ``game``) is the same for every game; each game is a ruleset plugged in
under ``rulesets/`` (the contract: ``dvorak_engine.ruleset``).
"""

from dvorak_core.errors import DomainError
from dvorak_engine.events import Actor, Event
from dvorak_engine.game import (
    ENGINE_VERSION,
    check_command,
    create_game,
    decide,
    decide_folded,
    deck_after_game,
    default_variant,
    evolve,
    game_status,
    legal_moves,
    replay,
    seat_of,
    state_from_json,
    state_to_json,
    state_to_json_bytes,
    view_event,
    view_state,
)
from dvorak_engine.rng import SecureRng, SeededRng
from dvorak_engine.state import GameState, opponents, team_mates, teams

__all__ = [
    "ENGINE_VERSION",
    "Actor",
    "DomainError",
    "Event",
    "GameState",
    "SecureRng",
    "SeededRng",
    "check_command",
    "create_game",
    "deck_after_game",
    "default_variant",
    "decide",
    "decide_folded",
    "evolve",
    "game_status",
    "legal_moves",
    "opponents",
    "replay",
    "seat_of",
    "state_from_json",
    "state_to_json",
    "state_to_json_bytes",
    "team_mates",
    "teams",
    "view_event",
    "view_state",
]
