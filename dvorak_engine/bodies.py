"""Reading a command's body: each field checked for its kind, refused (``invalid``, naming the field) with the
words a client is shown. The rulesets' commands read their bodies with these, so one kind of field is refused
in one way whatever the game."""

from __future__ import annotations

from dvorak_core.errors import DomainError
from dvorak_engine.state import GameState


def invalid(message: str, field: str) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field})


def text(body: dict, name: str, *, names: str = "a card", message: str | None = None,
         required: bool = True) -> str | None:
    """A non-empty string (None when left out and not ``required``): the refusal says what it names (``names``),
    or is ``message`` (``{name}`` in it is the field's name)."""
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise invalid(message.format(name=name) if message else f"\"{name}\" must name {names}.", name)
    return value


def whole(body: dict, name: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number (``true`` and ``false`` are not numbers); from ``low`` to ``high`` when both are given."""
    value = body.get(name)
    ranged = low is not None and high is not None
    if isinstance(value, bool) or not isinstance(value, int) or (ranged and not low <= value <= high):
        raise invalid(f"\"{name}\" is a whole number from {low} to {high}." if ranged
                      else f"\"{name}\" must be a whole number.", name)
    return value


def seat(state: GameState, body: dict, name: str) -> int:
    """A seat of this game."""
    value = whole(body, name)
    if not 0 <= value < len(state.seats):
        raise invalid(f"\"{name}\" must be a seat in this game.", name)
    return value


def one_of(body: dict, name: str, allowed: tuple[str, ...], *, required: bool = True) -> str | None:
    """One of the ``allowed`` words; None for a field left out that is not ``required``."""
    value = body.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise invalid(f"\"{name}\" is one of: {', '.join(allowed)}.", name)
    return value


def card_list(body: dict, name: str) -> list[str]:
    """A non-empty list of different card ids."""
    value = body.get(name)
    if (not isinstance(value, list) or not value or not all(isinstance(card, str) for card in value)
            or len(set(value)) != len(value)):
        raise invalid(f"\"{name}\" must be a list of different cards.", name)
    return value


def absent(body: dict, name: str, why: str) -> None:
    """A field this command must not carry."""
    if body.get(name) is not None:
        raise invalid(why, name)
