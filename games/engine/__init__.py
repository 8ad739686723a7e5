"""The pure rules engine of Dvorak: no Django, no database, no clock.

``decide`` turns a command into events (or refuses it with ``DomainError``), ``evolve`` folds an event into the
state, and the views show each viewer only what it may see. Rulesets plug in under ``rulesets/``.
"""

from dvorak_core.errors import DomainError
from games.engine.events import Actor, Event
from games.engine.game import (
    ENGINE_VERSION,
    create_game,
    decide,
    evolve,
    game_status,
    replay,
    seat_of,
    view_event,
    view_state,
)
from games.engine.rng import SecureRng, SeededRng
from games.engine.state import GameState, opponents, state_from_json, state_to_json, team_mates, teams

__all__ = [
    "ENGINE_VERSION",
    "Actor",
    "DomainError",
    "Event",
    "GameState",
    "SecureRng",
    "SeededRng",
    "create_game",
    "decide",
    "evolve",
    "game_status",
    "opponents",
    "replay",
    "seat_of",
    "state_from_json",
    "state_to_json",
    "team_mates",
    "teams",
    "view_event",
    "view_state",
]
