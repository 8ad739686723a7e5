"""Who may see what: a ruleset marks the parts of its state and of its events that may be shown; the rest is hidden.

Secrets are hidden by default. A field of a ruleset's state, or a key of an event's data, that nobody described
is shown to no one but the server, so a ruleset that adds a field and forgets to say who sees it leaks nothing.

State: a field of a ruleset's state dataclass (and of the dataclasses inside it) is described by its metadata::

    score: int = public(0)                 # everyone sees it
    hand: tuple[str, ...] = owner(())      # only the seat that owns it: the ``seat`` field of its dataclass
    supply: tuple[str, ...] = counted(())  # everyone sees {"count": how many}
    order: tuple[str, ...] = ()            # undescribed: nobody sees it

Events: each event type says which keys of its data may be shown (``@applies("card.drawn", shows={...})``, see
``dvorak_engine.ruleset``), each with one of ``PUBLIC``, ``OWNER`` (only the seat named by the event's ``"seat"``),
``COUNT`` (a list shown as ``{"count": n}``), ``COUNT_EACH`` (a mapping of seat to list, each shown as a count),
or a function that makes the shown value out of the value. Keys not named are dropped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

PUBLIC = "public"
OWNER = "owner"
COUNT = "count"
COUNT_EACH = "count_each"

_KEY = "visibility"

# What may be said of one value: one of the words above, or a function giving what is shown.
Shows = str | Callable[[Any], Any]


def _described(visibility: str, default: Any, default_factory: Any) -> Any:
    return dataclasses.field(default=default, default_factory=default_factory, metadata={_KEY: visibility})


def public(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A field everyone sees."""
    return _described(PUBLIC, default, default_factory)


def owner(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A field only the seat of its dataclass (its ``seat`` field) sees, such as a hand."""
    return _described(OWNER, default, default_factory)


def counted(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A collection everyone may count but nobody may read, such as a draw pile."""
    return _described(COUNT, default, default_factory)


def visibility_of(field: dataclasses.Field) -> str | None:
    return field.metadata.get(_KEY)


def state_view(value: Any, viewer: int | None, owner_seat: int | None = None) -> Any:
    """What ``viewer`` may see of a ruleset's state, by its fields' metadata: undescribed fields are left out.

    A dataclass with a ``seat`` field owns its ``owner`` fields (and those of the values inside it).
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        seat = getattr(value, "seat", owner_seat)
        shown: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            visibility = visibility_of(field)
            item = getattr(value, field.name)
            if visibility == PUBLIC or (visibility == OWNER and viewer is not None and viewer == seat):
                shown[field.name] = state_view(item, viewer, seat)
            elif visibility == COUNT:
                shown[field.name] = {"count": len(item)}
        return shown
    if isinstance(value, tuple | list):
        return [state_view(item, viewer, owner_seat) for item in value]
    if isinstance(value, Mapping):
        return {str(key): state_view(item, viewer, owner_seat) for key, item in value.items()}
    return value


def event_view(data: Mapping[str, Any], shows: Mapping[str, Shows], viewer: int | None) -> dict[str, Any]:
    """An event's data as ``viewer`` may see it, by its type's declaration: keys not declared are left out."""
    shown: dict[str, Any] = {}
    for key, value in data.items():
        how = shows.get(key)
        if how is None:
            continue
        if how == PUBLIC:
            shown[key] = value
        elif how == OWNER:
            if viewer is not None and data.get("seat") == viewer:
                shown[key] = value
        elif how == COUNT:
            shown[key] = {"count": len(value)}
        elif how == COUNT_EACH:
            shown[key] = {k: {"count": len(v)} for k, v in value.items()}
        elif callable(how):
            shown[key] = how(value)
        else:
            raise ValueError(f"unknown visibility {how!r} of event key {key!r}")
    return shown
