"""Which game engine ruleset plays an imported deck: the one whose title phrases its title holds (each ruleset
names them itself, ``deck_title_phrases``), else Dvorak."""

from dvorak_core.deckdata import DEFAULT_RULESET
from dvorak_engine.rulesets import ruleset_for_title


def ruleset_for(title: str) -> str:
    return ruleset_for_title(title, DEFAULT_RULESET)
