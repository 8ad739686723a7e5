"""The registry of rulesets: a game names its ruleset, and this finds it.

Adding a game is one module or package beside these, defining ``RULESET`` (a ``dvorak_engine.ruleset.Ruleset``),
and one line in ``REGISTERED``: nothing else in the engine, the API, the live updates or the MUSH changes.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from dvorak_core.deckdata import DEFAULT_RULESET
from dvorak_core.errors import DomainError
from dvorak_engine.ruleset import Ruleset

# One line per ruleset: the name a game names it by, and the module that defines its RULESET.
REGISTERED: dict[str, str] = {
    "dvorak": "dvorak_engine.rulesets.dvorak",
    "article_ii": "dvorak_engine.rulesets.article_ii",
    "rock_paper_scissors_extreme": "dvorak_engine.rulesets.rock_paper_scissors_extreme",
    "serm": "dvorak_engine.rulesets.serm",
    "virtues_of_the_drake": "dvorak_engine.rulesets.virtues_of_the_drake",
    "socialism": "dvorak_engine.rulesets.socialism",
    "filibuster": "dvorak_engine.rulesets.filibuster",
    "odds_and_evens": "dvorak_engine.rulesets.odds_and_evens",
    "draft": "dvorak_engine.rulesets.draft",
}


@cache
def _load(name: str, module: str) -> Ruleset:
    ruleset: Ruleset = importlib.import_module(module).RULESET
    if ruleset.name != name:
        raise ImportError(f"the ruleset registered as {name!r} is named {ruleset.name!r}")
    return ruleset


# The rulesets found so far: ``evolve`` and ``view_event`` look one up for every event. Keyed by the name a game
# names together with the module registered for it now, so a name never answers with another module's ruleset
# (tests register and unregister toy rulesets) and an unregistered name is refused as before.
_FOUND: dict[tuple[str, str], Ruleset] = {}


def get_ruleset(name: str) -> Ruleset:
    module = REGISTERED.get(name) if isinstance(name, str) else None
    if module is None:
        raise DomainError(f"There is no ruleset {name!r}.", code="invalid", details={"field": "ruleset"})
    try:
        return _FOUND[name, module]
    except KeyError:
        ruleset = _FOUND[name, module] = _load(name, module)
        return ruleset


def ruleset_names() -> list[str]:
    """Every ruleset there is, by name."""
    return sorted(REGISTERED)


def all_rulesets() -> dict[str, Ruleset]:
    return {name: get_ruleset(name) for name in REGISTERED}


def ruleset_for_title(title: str) -> str:
    """The ruleset an archived deck of this title is played by (the importers ask): the first whose
    ``deck_title_phrases`` the title holds (Article II, S.E.R.M., ... replace the whole Dvorak procedure), else the
    archive's default, Dvorak."""
    lowered = title.lower()
    for name, ruleset in all_rulesets().items():
        if any(phrase in lowered for phrase in ruleset.deck_title_phrases):
            return name
    return DEFAULT_RULESET


def board_titles() -> dict[str, str]:
    """Each ruleset whose view shows a board, and the board's title."""
    return {name: ruleset.board_title for name, ruleset in all_rulesets().items() if ruleset.board_title}


def card_problems(name: str, deck: dict[str, Any]) -> list[dict[str, Any]]:
    """What the named ruleset finds wrong with a deck's cards (``dvorak_core.card_data``); nothing for a name no
    ruleset is registered under (the archive keeps decks of games the server does not play)."""
    return get_ruleset(name).card_problems(deck) if name in REGISTERED else []
