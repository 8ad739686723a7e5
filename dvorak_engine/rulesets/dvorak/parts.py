"""What the parts of the ``dvorak`` ruleset mixed into ``DvorakRuleset`` (its claims, Creative Rules, live table and
legal moves) ask of the ruleset around them, written down for the type checker.

Each part derives from ``DvorakParts``: while checking types, a ``Ruleset`` that declares the methods one part
calls on another (their real definitions, in ``basic``, ``claims`` and ``creative``, are checked against these);
at run time nothing but ``object``, so the parts stay plain mixins and the ruleset's method order is unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dvorak_engine.events import Event
    from dvorak_engine.ruleset import CommandContext, Ruleset
    from dvorak_engine.rulesets.dvorak.state import SpecialRule
    from dvorak_engine.state import GameState

    class DvorakParts(Ruleset):
        default_rules: dict[str, Any]

        def vote_on_claim(self, state: GameState, command_body: dict[str, Any],
                          ctx: CommandContext) -> list[Event]: ...

        def _resolve_claim(self, state: GameState, result: str, ctx: CommandContext) -> list[Event]: ...

        def _resolution(self, state: GameState, number: int, result: str, ctx: CommandContext) -> list[Event]: ...

        def special_rule_modifier_events(self, state: GameState, special_rules: list[SpecialRule]) -> list[Event]: ...

        def remove_card(self, state: GameState, card_id: str) -> GameState: ...

        def free_in_own_turn(self, state: GameState, card_id: str) -> bool: ...

        def _within_turn_limit(self, state: GameState, seat: int, action: bool) -> bool: ...
else:
    DvorakParts = object
