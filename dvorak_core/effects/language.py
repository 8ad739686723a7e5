"""The card-effect language: what a Dvorak card's text says, as frozen values with a JSON form.

Every value is a frozen dataclass with a ``kind``; ``to_json`` gives plain JSON (a dict with ``"kind"`` first),
``from_json`` reads it back and refuses malformed JSON with an ``InvalidEffect`` that says where and why.
Numbers are bounded: a count of cards from 0 to ``MAX_COUNT`` (the hand limit's most, from ``rule_params``),
a counter's change within ``rule_params.COUNTER_BOUND``, a rule parameter's value as ``rule_params`` checks it.

Nothing here carries an effect out: this is what the engine will read when it does (see docs/effects.md).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union

from dvorak_core import rule_params
from dvorak_core.errors import DomainError

MAX_COUNT = rule_params.NUMBERS["hand_limit"][1]
MAX_DICE = 20
MAX_SIDES = 100

# Who an effect or a condition speaks of.
Who = Literal["you", "opponent", "each_player", "each_opponent", "chosen_player", "controller", "that_player",
              "any_player"]
# Where cards are.
Zone = Literal["hand", "draw_pile", "discard_pile", "play"]
# When a triggered effect happens.
Event = Literal["comes_into_play", "destroyed", "start_of_turn", "end_of_turn", "played"]
# How long a lasting effect lasts.
Duration = Literal["until_your_next_turn", "while_in_play", "this_turn", "rest_of_game"]


class InvalidEffect(DomainError):
    def __init__(self, message: str, *, path: str = "$") -> None:
        super().__init__(f"{path}: {message}", code="invalid", details={"field": path})


@dataclass(frozen=True)
class Cards:
    """Which cards: ``what`` is a card type or a title word ("Thing", "Monster", "Body Part"; None: any card),
    ``count`` how many (None: all of them), ``owner`` whose, ``zone`` where; ``chosen`` by the player acting,
    ``random`` at random; ``other`` excludes the card itself; ``host`` is the Thing this card was played onto."""
    kind: ClassVar[str] = "cards"
    what: str | None = None
    count: int | None = 1
    owner: Who | None = None
    zone: Zone = "play"
    random: bool = False
    other: bool = False
    host: bool = False


# ---- conditions ----

@dataclass(frozen=True)
class Controls:
    """``who`` controls, in play, at least each ``(count, what)`` of ``items`` ("three or more Ministries")."""
    kind: ClassVar[str] = "controls"
    who: Who
    items: tuple[Counted, ...]


@dataclass(frozen=True)
class Counted:
    kind: ClassVar[str] = "counted"
    count: int
    what: str


@dataclass(frozen=True)
class Contains:
    """A named place of the table holds at least ``count`` cards of ``what`` ("the Dragon's Bed ever contains
    seven Treasures")."""
    kind: ClassVar[str] = "contains"
    place: str
    count: int
    what: str


@dataclass(frozen=True)
class Happens:
    """A deck's own game event: ``who`` does ``verb`` (win, lose, tie, throw, ...) ``with`` something
    ("if you win with Rock"); ``outcomes`` narrows a throw ("throw Rock and win or tie")."""
    kind: ClassVar[str] = "happens"
    who: Who
    verb: str
    with_: str | None = None
    outcomes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Reaches:
    """``who``'s counter ``name`` is at least ``value`` ("the first player to get 200 points wins")."""
    kind: ClassVar[str] = "reaches"
    who: Who
    name: str
    value: int


Condition = Union[Controls, Contains, Happens, Reaches]  # noqa: UP007 (a union read by from_json)


# ---- effects ----

@dataclass(frozen=True)
class Draw:
    kind: ClassVar[str] = "draw"
    who: Who = "you"
    count: int = 1
    optional: bool = False


@dataclass(frozen=True)
class Discard:
    kind: ClassVar[str] = "discard"
    who: Who = "you"
    count: int | None = 1
    random: bool = False
    cards: Cards | None = None


@dataclass(frozen=True)
class Destroy:
    kind: ClassVar[str] = "destroy"
    cards: Cards


@dataclass(frozen=True)
class Take:
    """Put ``cards`` (from a zone, maybe another player's) into the acting player's hand."""
    kind: ClassVar[str] = "take"
    cards: Cards


@dataclass(frozen=True)
class Give:
    kind: ClassVar[str] = "give"
    cards: Cards
    to: Who


@dataclass(frozen=True)
class Move:
    kind: ClassVar[str] = "move"
    cards: Cards
    to: Zone


@dataclass(frozen=True)
class Shuffle:
    """Shuffle ``source`` into ``into`` (the discard pile back into the draw pile)."""
    kind: ClassVar[str] = "shuffle"
    source: Zone = "discard_pile"
    into: Zone = "draw_pile"


@dataclass(frozen=True)
class Reveal:
    """``who`` shows ``count`` cards of their hand (of their choice unless ``random``) to ``to``."""
    kind: ClassVar[str] = "reveal"
    who: Who
    count: int | None = 1
    to: Who = "you"
    random: bool = False


@dataclass(frozen=True)
class Counter:
    """``who`` gains (``amount`` > 0) or loses a counter (gold, points, Electability); ``instead_of`` when the
    card replaces the usual amount ("score 2 points instead of 1")."""
    kind: ClassVar[str] = "counter"
    name: str
    amount: int
    who: Who = "you"
    instead_of: int | None = None


@dataclass(frozen=True)
class SetCounter:
    """``who``'s counter is fixed at ``value`` ("Your Affiliation is zero")."""
    kind: ClassVar[str] = "set_counter"
    name: str
    value: int
    who: Who = "you"


@dataclass(frozen=True)
class Roll:
    kind: ClassVar[str] = "roll"
    dice: int = 1
    sides: int = 6


@dataclass(frozen=True)
class ExtraTurn:
    kind: ClassVar[str] = "extra_turn"
    who: Who = "you"


@dataclass(frozen=True)
class SetRule:
    """A rule parameter of ``rule_params`` takes ``value`` (None: no limit): hand size, play limits, draws."""
    kind: ClassVar[str] = "set_rule"
    param: str
    value: int | None


@dataclass(frozen=True)
class Modify:
    """``cards`` get ``amount`` to ``stat`` ("that Thing gets +2 to defence rolls")."""
    kind: ClassVar[str] = "modify"
    cards: Cards
    stat: str
    amount: int


@dataclass(frozen=True)
class Forbid:
    """``cards`` may not do ``what`` (a rule parameter's name where there is one: ``use_actions``)."""
    kind: ClassVar[str] = "forbid"
    cards: Cards
    what: str


@dataclass(frozen=True)
class Protect:
    """``cards`` cannot be destroyed."""
    kind: ClassVar[str] = "protect"
    cards: Cards


@dataclass(frozen=True)
class Skip:
    """``who`` skips ``step``: their normal draw ("instead of drawing normally"), their play, or a whole turn."""
    kind: ClassVar[str] = "skip"
    step: Literal["draw", "play", "turn"]
    who: Who = "you"


@dataclass(frozen=True)
class Outcome:
    """The contest at hand (a deck's challenge, a throw) counts as ``result`` for ``who`` ("it is a win for
    you"); not the game's end, which is ``win``."""
    kind: ClassVar[str] = "outcome"
    result: Literal["win", "lose", "tie"]
    who: Who = "you"


@dataclass(frozen=True)
class DrawFirst:
    """``who`` takes the first choice of the cards on offer after the contest, even having chosen to score
    (Rock-Paper-Scissors Extreme's "draw first": a scorer otherwise lets the opponent choose first)."""
    kind: ClassVar[str] = "draw_first"
    who: Who = "you"


@dataclass(frozen=True)
class Win:
    kind: ClassVar[str] = "win"
    who: Who = "you"


@dataclass(frozen=True)
class Lose:
    kind: ClassVar[str] = "lose"
    who: Who = "you"


@dataclass(frozen=True)
class PlayOnto:
    """The card is played onto ``cards`` (its host); its other effects may speak of the host."""
    kind: ClassVar[str] = "play_onto"
    cards: Cards


@dataclass(frozen=True)
class AnyTime:
    """The card may be played at any time, out of turn too."""
    kind: ClassVar[str] = "any_time"


@dataclass(frozen=True)
class Ability:
    """"Action: ..." on a Thing: its controller may use it as an Action. ``once``: the card is discarded to
    use it ("Drink to ...", "Discard X to ..."); ``condition``: when it may be used."""
    kind: ClassVar[str] = "ability"
    effects: tuple[Effect, ...]
    once: bool = False
    condition: Condition | None = None


@dataclass(frozen=True)
class When:
    """When ``event`` happens (to ``cards`` where it says which: "If a Location is destroyed"), ``effects``."""
    kind: ClassVar[str] = "when"
    event: Event
    effects: tuple[Effect, ...]
    cards: Cards | None = None


@dataclass(frozen=True)
class If:
    kind: ClassVar[str] = "if"
    condition: Condition
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Lasting:
    kind: ClassVar[str] = "lasting"
    duration: Duration
    effects: tuple[Effect, ...]


Effect = Union[Draw, Discard, Destroy, Take, Give, Move, Shuffle, Reveal, Counter, SetCounter, Roll,  # noqa: UP007
               ExtraTurn, SetRule, Modify, Forbid, Protect, Skip, Outcome, DrawFirst, Win, Lose, PlayOnto, AnyTime,
               Ability, When, If, Lasting]

EFFECT_KINDS: dict[str, type] = {cls.kind: cls for cls in typing.get_args(Effect)}
CONDITION_KINDS: dict[str, type] = {cls.kind: cls for cls in typing.get_args(Condition)}
_NAMES = {"with_": "with"}
_NAMES_BACK = {json_name: name for name, json_name in _NAMES.items()}


# ---- JSON ----

def _kind(cls: type) -> str:
    """The name a class of the language is read and written under: its ``kind`` (every one declares it)."""
    kind: str = getattr(cls, "kind")  # noqa: B009  (a class attribute the type checker cannot see on a bare type)
    return kind


def to_json(value: Any) -> Any:
    """The plain JSON of an effect, a condition, a card selection or a tuple of them."""
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if dataclasses.is_dataclass(value):
        out: dict[str, Any] = {"kind": _kind(type(value))}
        for field in dataclasses.fields(value):
            out[_NAMES.get(field.name, field.name)] = to_json(getattr(value, field.name))
        return out
    return value


def from_json(data: Any, *, path: str = "$") -> Effect:
    """One effect from its JSON, or ``InvalidEffect``."""
    return _read(Effect, data, path)


def effects_from_json(data: Any, *, path: str = "$") -> tuple[Effect, ...]:
    """A list of effects from its JSON, or ``InvalidEffect``."""
    return _read(tuple[Effect, ...], data, path)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def _read(hint: Any, data: Any, path: str) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        rest = [option for option in options if option is not type(None)]
        if len(rest) == 1:
            return _read(rest[0], data, path)
        # A union of kinds (an effect, a condition): the "kind" says which.
        kinds = {option.kind: option for option in rest}
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in kinds:
            raise InvalidEffect(f"expected an object whose \"kind\" is one of {', '.join(sorted(kinds))}",
                                path=path)
        return _read_object(kinds[data["kind"]], data, path)
    if origin is Literal:
        if data not in typing.get_args(hint):
            raise InvalidEffect(f"expected one of {', '.join(map(str, typing.get_args(hint)))}", path=path)
        return data
    if origin is tuple:
        if not isinstance(data, list):
            raise InvalidEffect("expected a list", path=path)
        item = typing.get_args(hint)[0]
        return tuple(_read(item, element, f"{path}[{index}]") for index, element in enumerate(data))
    if hint is bool:
        if not isinstance(data, bool):
            raise InvalidEffect("expected true or false", path=path)
        return data
    if hint is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise InvalidEffect("expected a whole number", path=path)
        return data
    if hint is str:
        if not isinstance(data, str) or not data.strip() or len(data) > 100:
            raise InvalidEffect("expected a text of 1 to 100 characters", path=path)
        return data
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(data, dict) or data.get("kind") != _kind(hint):
            raise InvalidEffect(f"expected an object whose \"kind\" is {_kind(hint)}", path=path)
        return _read_object(hint, data, path)
    raise InvalidEffect("cannot be read", path=path)  # pragma: no cover


def _read_object(cls: type, data: dict[str, Any], path: str) -> Any:
    hints = _hints(cls)
    names = {field.name for field in dataclasses.fields(cls)}
    unknown = set(data) - {"kind"} - {_NAMES.get(name, name) for name in names}
    if unknown:
        raise InvalidEffect(f"unknown field(s) {', '.join(sorted(unknown))} for kind {_kind(cls)}", path=path)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        key = _NAMES.get(field.name, field.name)
        if key not in data:
            if field.default is dataclasses.MISSING:
                raise InvalidEffect(f"missing field \"{key}\" for kind {_kind(cls)}", path=path)
            continue
        values[field.name] = _read(hints[field.name], data[key], f"{path}.{key}")
    value = cls(**values)
    _check_bounds(value, path)
    return value


def _bounded(number: int | None, least: int, most: int, path: str) -> None:
    if number is not None and not least <= number <= most:
        raise InvalidEffect(f"expected a whole number from {least} to {most}", path=path)


def _check_bounds(value: Any, path: str) -> None:
    """The numbers' bounds, consistent with ``rule_params``."""
    for name in ("count",):
        if hasattr(value, name):
            _bounded(getattr(value, name), 0 if not isinstance(value, Counted) else 1, MAX_COUNT,
                     f"{path}.{name}")
    if isinstance(value, Counter):
        _bounded(value.amount, -rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND, f"{path}.amount")
        _bounded(value.instead_of, -rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND, f"{path}.instead_of")
    if isinstance(value, Reaches):
        _bounded(value.value, -rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND, f"{path}.value")
    if isinstance(value, SetCounter):
        _bounded(value.value, -rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND, f"{path}.value")
    if isinstance(value, Modify):
        _bounded(value.amount, -rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND, f"{path}.amount")
    if isinstance(value, Roll):
        _bounded(value.dice, 1, MAX_DICE, f"{path}.dice")
        _bounded(value.sides, 2, MAX_SIDES, f"{path}.sides")
    if isinstance(value, SetRule):
        if not rule_params.PARAM_NAME.match(value.param):
            raise InvalidEffect("expected a rule parameter in snake_case", path=f"{path}.param")
        if value.param in rule_params.NUMBERS:
            try:
                rule_params.checked_rule_value(value.param, value.value, field=f"{path}.value")
            except DomainError as bad:
                raise InvalidEffect(bad.message if hasattr(bad, "message") else str(bad),
                                    path=f"{path}.value") from None
    if isinstance(value, Controls) and not value.items:
        raise InvalidEffect("expected at least one item", path=f"{path}.items")
    if isinstance(value, Ability | When | If | Lasting) and not value.effects:
        raise InvalidEffect("expected at least one effect", path=f"{path}.effects")
