"""Which game engine ruleset plays an imported deck."""

from dvorak_core.deckdata import DEFAULT_RULESET

# Decks whose Special Rules replace the whole Dvorak procedure, by a phrase of their title.
_OWN_RULESETS = (
    ("article ii", "article_ii"),
    ("rock paper scissors extreme", "rock_paper_scissors_extreme"),
    ("filibuster", "filibuster"),
    ("socialism", "socialism"),
    ("virtues of the drake", "virtues_of_the_drake"),
    ("s.e.r.m", "serm"),
)


def ruleset_for(title: str) -> str:
    lowered = title.lower()
    for phrase, ruleset in _OWN_RULESETS:
        if phrase in lowered:
            return ruleset
    return DEFAULT_RULESET
