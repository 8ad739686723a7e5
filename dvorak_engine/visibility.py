"""Who may see what: a ruleset marks the parts of its state and of its events that may be shown; the rest is hidden.

Secrets are hidden by default. A field of a ruleset's state, or a key of an event's data, that nobody described
is shown to no one but the server, so a ruleset that adds a field and forgets to say who sees it leaks nothing.

State: a field of a ruleset's state dataclass (and of the dataclasses inside it) is described by its metadata::

    score: int = public(0)                 # everyone sees it
    hand: tuple[str, ...] = owner(())      # only the seat that owns it: the ``seat`` field of its dataclass
    supply: tuple[str, ...] = counted(())  # everyone sees {"count": how many}
    cards: dict[str, Card] = lookup()      # read by key only, never listed (a card whose id the viewer was shown)
    aims: dict[str, Aim] = by_seat()       # each seat sees its own entry
    order: tuple[str, ...] = ()            # undescribed: nobody sees it

A ruleset whose view reshapes its state (its clients expect a JSON of their own) builds that view from ``seen``: the
state as one viewer may see it, by the same declarations. Reading a field the viewer may not see raises ``Hidden``,
so a view cannot show what was not declared to its viewer, and a field added without a declaration is shown to
nobody. A method of a state's class marked ``@derived`` is part of what everyone sees (its result is seen in turn).

Events: each event type says which keys of its data may be shown (``@applies("card.drawn", shows={...})``, see
``dvorak_engine.ruleset``), each with one of ``PUBLIC``, ``OWNER`` (only the seat named by the event's ``"seat"``),
``COUNT`` (a list shown as ``{"count": n}``), ``COUNT_EACH`` (a mapping of seat to list, each shown as a count),
or a function that makes the shown value out of the value. Keys not named are dropped.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from typing import Any, NoReturn, TypeVar

from dvorak_engine.codec import ADDED

F = TypeVar("F", bound=Callable[..., Any])

PUBLIC = "public"
OWNER = "owner"
COUNT = "count"
COUNT_EACH = "count_each"
LOOKUP = "lookup"
BY_SEAT = "by_seat"

_KEY = "visibility"

# What may be said of one value: one of the words above, or a function giving what is shown.
Shows = str | Callable[[Any], Any]


def _described(visibility: str, default: Any, default_factory: Any, added: bool = False) -> Any:
    metadata = {_KEY: visibility, ADDED: True} if added else {_KEY: visibility}
    return dataclasses.field(default=default, default_factory=default_factory, metadata=metadata)


def public(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING,
           added: bool = False) -> Any:
    """A field everyone sees. ``added``: a field added after games were stored (``dvorak_engine.codec.ADDED``)."""
    return _described(PUBLIC, default, default_factory, added)


def owner(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A field only the seat of its dataclass (its ``seat`` field) sees, such as a hand."""
    return _described(OWNER, default, default_factory)


def counted(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A collection everyone may count but nobody may read, such as a draw pile."""
    return _described(COUNT, default, default_factory)


def lookup(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A mapping read by key and never listed, such as every card of the game by its id: a view may look up a key
    it was shown elsewhere (a card face up), and cannot find the others."""
    return _described(LOOKUP, default, default_factory)


def by_seat(default: Any = dataclasses.MISSING, *, default_factory: Any = dataclasses.MISSING) -> Any:
    """A mapping of seat (its number, or the number as a string) to what only that seat sees, such as each
    player's secret aim: a viewer sees its own entry and nothing of the others."""
    return _described(BY_SEAT, default, default_factory)


def visibility_of(field: dataclasses.Field[Any]) -> str | None:
    return field.metadata.get(_KEY)


def state_view(value: Any, viewer: int | None, owner_seat: int | None = None) -> Any:
    """What ``viewer`` may see of a ruleset's state, by its fields' metadata: undescribed fields are left out.

    A dataclass with a ``seat`` field owns its ``owner`` fields (and those of the values inside it).
    """
    if isinstance(value, Seen):
        value = value._value
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
            elif visibility == BY_SEAT:
                shown[field.name] = {str(key): state_view(entry, viewer, viewer) for key, entry in item.items()
                                     if viewer is not None and str(key) == str(viewer)}
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


# --- the state as one viewer sees it ---------------------------------------------------------------------------


class Hidden(AttributeError):
    """A part of the state that its declarations do not show this viewer."""


def derived(method: F) -> F:
    """Mark a method of a state's dataclass as part of what every viewer sees (``seen`` lets a view call it)."""
    method.__dict__["_derived"] = True
    return method


_PLAIN = (str, int, float, bool, type(None))


def seen(value: Any, viewer: int | None, owner_seat: int | None = None) -> Any:
    """``value`` as ``viewer`` may see it: a dataclass becomes a ``Seen`` (its fields read as declared), a tuple or
    list a tuple of what is seen of its items, a mapping a dict; anything else is itself."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        if all(type(item) in _PLAIN for item in value):
            return tuple(value)
        return tuple(seen(item, viewer, owner_seat) for item in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A value whose every field, and every field of the values its fields may hold, everyone sees is read as
        # it is: nothing of it is hidden from anyone.
        return value if _wholly_public(kind) else Seen(value, viewer, owner_seat)
    if isinstance(value, Mapping):
        return {key: seen(item, viewer, owner_seat) for key, item in value.items()}
    return value


_WHOLLY_PUBLIC: dict[type, bool] = {}


def _wholly_public(kind: type) -> bool:
    """Whether every field of ``kind`` is ``public`` and every dataclass its fields' types name is wholly public
    too (by the type hints; a type that cannot be read is not)."""
    known = _WHOLLY_PUBLIC.get(kind)
    if known is not None:
        return known
    _WHOLLY_PUBLIC[kind] = False  # while it is being worked out (a type that holds itself)
    try:
        hints = typing.get_type_hints(kind)
    except Exception:  # noqa: BLE001 - a hint that names what the module cannot see: not known to be public
        return False
    public_fields = all(visibility_of(field) == PUBLIC for field in dataclasses.fields(kind))
    _WHOLLY_PUBLIC[kind] = public_fields and all(_publicly_typed(hints[field.name])
                                                 for field in dataclasses.fields(kind))
    return _WHOLLY_PUBLIC[kind]


def _publicly_typed(hint: Any) -> bool:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _wholly_public(hint)
    return all(_publicly_typed(arg) for arg in typing.get_args(hint))


def as_json(value: Any) -> Any:
    """A view made of what ``seen`` gave, as JSON values: its tuples as lists, each mapping a new dict (a value read
    as it is belongs to the state, which is never changed)."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _PLAIN else as_json(item) for key, item in value.items()}
    if kind is tuple or kind is list:
        return [item if type(item) in _PLAIN else as_json(item) for item in value]
    return value


_FIELDS: dict[type, dict[str, str | None]] = {}


def _declared(kind: type) -> dict[str, str | None]:
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = {field.name: visibility_of(field) for field in dataclasses.fields(kind)}
    return fields


class Seen:
    """One value of a state (a dataclass) as one viewer may see it: ``public`` fields read as they are (seen in
    turn), ``owner`` fields only by the seat owning them (the ``seat`` field of this dataclass or the nearest one
    around it), ``counted`` fields as a ``Counted``, ``lookup`` fields as a ``Lookup``, ``by_seat`` mappings as
    the viewer's own entry alone; any other field, and an ``owner`` field read by anyone else, raises ``Hidden``.
    What a field reads as is made once and kept on the Seen (the state does not change under it)."""

    def __init__(self, value: Any, viewer: int | None, owner_seat: int | None = None) -> None:
        fields = _declared(type(value))
        seat = value.seat if "seat" in fields and type(value.seat) is int else owner_seat
        kept = self.__dict__
        kept["_value"], kept["_viewer"], kept["_owner"] = value, viewer, seat

    def __getattr__(self, name: str) -> Any:
        kept = self.__dict__
        value, viewer, seat = kept["_value"], kept["_viewer"], kept["_owner"]
        declared = _declared(type(value))
        shown: Any
        if name not in declared:
            member = getattr(type(value), name, None)
            if getattr(member, "_derived", False):
                method = getattr(value, name)
                shown = kept[name] = lambda *args, **kwargs: seen(method(*args, **kwargs), viewer, seat)
                return shown
            raise Hidden(f"{type(value).__name__}.{name} is not a declared part of the state")
        visibility = declared[name]
        if visibility == PUBLIC or (visibility == OWNER and viewer is not None and viewer == seat):
            shown = seen(getattr(value, name), viewer, seat)
        elif visibility == COUNT:
            shown = Counted(len(getattr(value, name)))
        elif visibility == LOOKUP:
            shown = Lookup(getattr(value, name), viewer, seat)
        elif visibility == BY_SEAT:
            shown = {key: seen(entry, viewer, viewer) for key, entry in getattr(value, name).items()
                     if viewer is not None and str(key) == str(viewer)}
        else:
            raise Hidden(f"{type(value).__name__}.{name} is not shown to this viewer")
        kept[name] = shown
        return shown

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a seen state is read, never changed")

    def shows(self, name: str) -> bool:
        """Whether this viewer may read the field ``name``."""
        try:
            getattr(self, name)
        except Hidden:
            return False
        return True

    def __repr__(self) -> str:
        return f"Seen({type(self._value).__name__}, viewer={self._viewer})"


class Counted:
    """A collection seen as how many it holds."""

    __slots__ = ("count",)

    def __init__(self, count: int) -> None:
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and other.count == self.count

    def __hash__(self) -> int:
        return hash(self.count)


class Lookup:
    """A mapping read by key, never listed: what a view finds under a key it was shown, seen in turn."""

    __slots__ = ("_mapping", "_viewer", "_owner", "_found")

    def __init__(self, mapping: Mapping[str, Any], viewer: int | None, owner_seat: int | None) -> None:
        self._mapping, self._viewer, self._owner = mapping, viewer, owner_seat
        self._found: dict[Any, Any] = {}

    def __getitem__(self, key: Any) -> Any:
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = seen(self._mapping[key], self._viewer, self._owner)
        return found

    def get(self, key: Any, default: Any = None) -> Any:
        return self[key] if key in self._mapping else default

    def __contains__(self, key: Any) -> bool:
        return key in self._mapping

    def __iter__(self) -> NoReturn:
        raise TypeError("a lookup is read by key, never listed")
