"""Confirmed effects: a card's or a Special Rule's effect as the deck carries it once a curator (or a creative
game's vote) has confirmed it, and what such an effect means for the rest of the deck.

A confirmed effect is the effect language's JSON list (``to_json`` of a tuple of effects), checked by
``effects_from_json`` wherever it comes in and kept in its full form (every field written out), so two equal
effects are equal JSON. ``None`` is an effect nobody confirmed: the reader's reading of the text
(``suggestion``) is then only a suggestion.

A Special Rule's confirmed effect made of ``set_rule`` effects sets the rule parameters a game takes from the
rule (its ``params``): "Hand size is three instead of five." confirmed as ``set_rule hand_limit 3`` gives
``{"hand_limit": 3}``. The archive and the engine both derive them here, so a rule's ``params`` never say
something else than its confirmed effect. Clearing the effect leaves the parameters it set in ``params``, where
a curator changes them as any other.
"""

from __future__ import annotations

import json
from typing import Any

from dvorak_core.effects.language import InvalidEffect, SetRule, effects_from_json, to_json
from dvorak_core.effects.reader import Reading
from dvorak_core.rule_params import checked_params

# Bounds that keep a confirmed effect small enough to read, store and show: nesting (an ``if`` in a ``when`` in an
# ``ability`` is 7 levels of JSON) and size as JSON.
MAX_DEPTH = 24
MAX_CHARACTERS = 10_000


def checked_effect(value: Any, *, field: str = "effect") -> list[dict[str, Any]] | None:
    """``value`` as a confirmed effect is kept (its full JSON), None for none; else ``InvalidEffect`` (400
    ``invalid``) whose ``details.field`` is the place under ``field`` (``effect[0].count``)."""
    if value is None:
        return None
    if _depth(value) > MAX_DEPTH:
        raise InvalidEffect(f"nested more than {MAX_DEPTH} levels deep", path=field)
    effect = to_json(effects_from_json(value, path=field))
    if len(json.dumps(effect)) > MAX_CHARACTERS:
        raise InvalidEffect(f"longer than {MAX_CHARACTERS} characters as JSON", path=field)
    return effect


def _depth(value: Any) -> int:
    # A loop, not recursion: JSON nested as deep as a parser allows must not overflow the stack here.
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            pending.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def effect_params(effect: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The rule parameters a (checked) Special Rule effect sets: each top-level ``set_rule``, the last one of a
    parameter winning. Effects nested in conditions, triggers or durations set nothing by themselves."""
    if not effect:
        return {}
    return {value.param: value.value for value in effects_from_json(effect) if isinstance(value, SetRule)}


def rule_params_with_effect(params: Any, effect: list[dict[str, Any]] | None, *,
                            field: str = "params") -> dict[str, Any]:
    """A Special Rule's ``params`` with what its confirmed ``effect`` sets, checked as every rule's parameters
    are (``rule_params.checked_params``, 400 ``invalid`` naming ``field.<param>``). Where both name a parameter,
    the confirmed effect's value is kept: it is what the rule was confirmed to say."""
    return checked_params({**checked_params(params, field=field), **effect_params(effect)}, field=field)


def suggestion(reading: Reading) -> dict[str, Any]:
    """The reader's reading as the API and the admin show it beside the confirmed effect."""
    return {"effects": to_json(reading.effects), "unread": list(reading.unread), "understood": reading.understood}
