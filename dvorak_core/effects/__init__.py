"""Card effects: a typed language for what Dvorak cards say (``language``) and a reader that turns common English
card text into it (``reader``). See docs/effects.md."""

from dvorak_core.effects.confirmed import checked_effect, effect_params, rule_params_with_effect, suggestion
from dvorak_core.effects.language import InvalidEffect, effects_from_json, from_json, to_json
from dvorak_core.effects.reader import Reading, read_card, read_special_rule

__all__ = ["InvalidEffect", "Reading", "checked_effect", "effect_params", "effects_from_json", "from_json", "read_card",
           "read_special_rule", "rule_params_with_effect", "suggestion", "to_json"]
