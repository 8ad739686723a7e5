"""Which modifier of a rule parameter is in effect, as the rulebook's "Conflicts and Precedence" says:

1. a denial beats a permission;
2. the more specific beats the more general (one card beats one player beats everyone);
3. between equals, the most recent wins.

Special Rules are modifiers like cards' (their ``order`` is the time the game set them up).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dvorak_engine.rulesets.dvorak.state import Modifier
from dvorak_engine.state import GameState
from dvorak_engine.visibility import Seen


def _applies(modifier: Modifier, param: str, seat: int | None, card: str | None) -> bool:
    return (
        modifier.param == param
        and (modifier.seat is None or modifier.seat == seat)
        and (modifier.card is None or modifier.card == card)
    )


def _specificity(modifier: Modifier) -> int:
    if modifier.card is not None:
        return 2
    if modifier.seat is not None:
        return 1
    return 0


def resolve(modifiers: Iterable[Modifier], param: str, seat: int | None, card: str | None = None) -> Modifier | None:
    """The modifier that decides ``param`` for ``seat`` (and ``card``), or None when none applies."""
    applicable = [m for m in modifiers if _applies(m, param, seat, card)]
    if not applicable:
        return None
    return max(applicable, key=lambda m: (m.deny, _specificity(m), m.order))


def rule_value(state: GameState | Seen, param: str, seat: int | None, card: str | None = None) -> Any:
    """A rule parameter as it stands for one seat (and card): the winning modifier, else the game's base rule."""
    modifier = resolve(state.table.modifiers, param, seat, card)
    if modifier is not None:
        return modifier.value
    return state.table.base_rules.get(param)
