"""The registry of rulesets: a game names its ruleset, and this finds it.

Adding a game is one module or package beside these, defining ``RULESET`` (a ``games.engine.ruleset.Ruleset``),
and one line in ``REGISTERED``: nothing else in the engine, the API, the live updates or the MUSH changes.
"""

from __future__ import annotations

import importlib
from functools import cache

from dvorak_core.errors import DomainError
from games.engine.ruleset import Ruleset

# One line per ruleset: the name a game names it by, and the module that defines its RULESET.
REGISTERED: dict[str, str] = {
    "dvorak": "games.engine.rulesets.dvorak",
    "article_ii": "games.engine.rulesets.article_ii",
    "rock_paper_scissors_extreme": "games.engine.rulesets.rock_paper_scissors_extreme",
    "serm": "games.engine.rulesets.serm",
    "virtues_of_the_drake": "games.engine.rulesets.virtues_of_the_drake",
    "socialism": "games.engine.rulesets.socialism",
    "filibuster": "games.engine.rulesets.filibuster",
}


@cache
def _load(name: str, module: str) -> Ruleset:
    ruleset = importlib.import_module(module).RULESET
    if ruleset.name != name:
        raise ImportError(f"the ruleset registered as {name!r} is named {ruleset.name!r}")
    return ruleset


def get_ruleset(name: str) -> Ruleset:
    if not isinstance(name, str) or name not in REGISTERED:
        raise DomainError(f"There is no ruleset {name!r}.", code="invalid", details={"field": "ruleset"})
    return _load(name, REGISTERED[name])


def ruleset_names() -> list[str]:
    """Every ruleset there is, by name."""
    return sorted(REGISTERED)


def all_rulesets() -> dict[str, Ruleset]:
    return {name: get_ruleset(name) for name in REGISTERED}
