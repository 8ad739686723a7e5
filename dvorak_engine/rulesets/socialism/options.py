"""The options a game of Socialism is created with: the tokens each player has, and the readings players might
disagree on, each chosen by name (``docs/socialism.md``, "Options").

- ``cat_pic``: how many Friends each sender of an OMG CAT PIC invites. ``all`` (the default): "send personal
  invitations to all of their friends", as the card says. ``up_to_two``: no more than one personal invitation of
  the Invitation phase may name ("up to two of their Friends", Sheila three, Billy one, Mary Su and Agnse all), the
  Friends drawn at random by the server.
- ``viral_post``: who chooses the new user a Viral Post moves to at the beginning of each turn. ``chosen`` (the
  default): its player. ``random``: the server, at random.
- ``invitations``: what "a few basic options" allow in one Invitation phase. ``each`` (the default): each of the
  three at most once, in any order, so all three in one turn. ``one``: one of them a turn.

A game keeps the options it was created with: ``created`` writes every one of them into ``game.created``, and a
game created before an option existed (its ``game.created`` without it) plays as the server played it then
(``BEFORE_STAMPED``), so its events replay as they were played.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets.socialism.board import TOKEN_CHOICES, TOKENS
from dvorak_engine.state import GameState
from dvorak_engine.visibility import Seen

# The readings' names in ``options``.
CAT_PIC_OPTION, VIRAL_POST_OPTION, INVITATIONS_OPTION = "cat_pic", "viral_post", "invitations"
# OMG CAT PIC: every Friend, or as many as a personal invitation of the sender's may name.
ALL_FRIENDS, UP_TO_TWO = "all", "up_to_two"
# Viral Post: its player's choice of the new user, or the server's draw.
CHOSEN, RANDOM = "chosen", "random"
# The Invitation phase: each of the three invitations once a turn, or one of them.
EACH, ONE = "each", "one"

# Each reading's choices, the default first.
CHOICES: dict[str, tuple[str, ...]] = {
    CAT_PIC_OPTION: (ALL_FRIENDS, UP_TO_TWO),
    VIRAL_POST_OPTION: (CHOSEN, RANDOM),
    INVITATIONS_OPTION: (EACH, ONE),
}
# How a game whose ``game.created`` lacks a reading plays: as the server played every game before it was stamped.
BEFORE_STAMPED: dict[str, str] = {CAT_PIC_OPTION: UP_TO_TWO, VIRAL_POST_OPTION: RANDOM, INVITATIONS_OPTION: EACH}


def read_options(options: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The tokens each player has, and the options the game keeps: the game's options, checked, with each
    reading's default filled in (a value not among its choices is 400 ``invalid``, naming the option)."""
    tokens = options.get("tokens", TOKENS)
    if type(tokens) is not int or tokens not in TOKEN_CHOICES:
        raise DomainError(
            '"options.tokens" is 15 (the default) or 20.',
            code="invalid",
            details={"field": "options.tokens", "choices": list(TOKEN_CHOICES)},
        )
    kept = dict(options)
    for name, allowed in CHOICES.items():
        value = options.get(name, allowed[0])
        if type(value) is not str or value not in allowed:
            raise DomainError(
                f'"options.{name}" is one of: {", ".join(allowed)} (the default is {allowed[0]}).',
                code="invalid",
                details={"field": f"options.{name}", "choices": list(allowed)},
            )
        kept[name] = value
    return tokens, kept


def reading(state: GameState | Seen, name: str) -> str:
    """The choice a game is played by for one reading: its own, or, for a game created before the reading was
    stamped, the way the server played it then."""
    result: str = state.options.get(name, BEFORE_STAMPED[name])
    return result


def cat_pic(state: GameState | Seen) -> str:
    """How many Friends each sender of an OMG CAT PIC invites: ``all`` or ``up_to_two``."""
    return reading(state, CAT_PIC_OPTION)


def viral_post(state: GameState | Seen) -> str:
    """Who chooses a Viral Post's new user: ``chosen`` (its player) or ``random`` (the server)."""
    return reading(state, VIRAL_POST_OPTION)


def invitations(state: GameState | Seen) -> str:
    """The invitations of one Invitation phase: ``each`` (each of the three once) or ``one``."""
    return reading(state, INVITATIONS_OPTION)


def stamped(state: GameState | Seen) -> dict[str, str] | None:
    """The readings written into the game when it was created (shown in its view), None for a game created before
    they were written."""
    options = state.options
    if not all(name in options for name in CHOICES):
        return None
    return {name: options[name] for name in CHOICES}


__all__ = [
    "ALL_FRIENDS",
    "BEFORE_STAMPED",
    "CAT_PIC_OPTION",
    "CHOICES",
    "CHOSEN",
    "EACH",
    "INVITATIONS_OPTION",
    "ONE",
    "RANDOM",
    "UP_TO_TWO",
    "VIRAL_POST_OPTION",
    "cat_pic",
    "invitations",
    "read_options",
    "reading",
    "stamped",
    "viral_post",
]
