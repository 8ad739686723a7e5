"""Rulesets are found by name: ``games/engine/rulesets/<name>.py`` defines ``RULESET``."""

from __future__ import annotations

import importlib
import pkgutil
import re

from games.engine.errors import DomainError
from games.engine.rulesets.base import Ruleset

_RULESET_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def get_ruleset(name: str) -> Ruleset:
    if not isinstance(name, str) or not _RULESET_NAME.match(name) or name == "base":
        raise DomainError("invalid", f"There is no ruleset {name!r}.", {"field": "ruleset"})
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{name}":
            raise
        raise DomainError("invalid", f"There is no ruleset {name!r}.", {"field": "ruleset"}) from None
    ruleset = getattr(module, "RULESET", None)
    if ruleset is None:  # a helper module of a ruleset, not a ruleset
        raise DomainError("invalid", f"There is no ruleset {name!r}.", {"field": "ruleset"})
    return ruleset


def ruleset_names() -> list[str]:
    """Every ruleset there is: the modules here that define ``RULESET``."""
    names = []
    for module in pkgutil.iter_modules(__path__):
        if _RULESET_NAME.match(module.name) and module.name != "base":
            if getattr(importlib.import_module(f"{__name__}.{module.name}"), "RULESET", None) is not None:
                names.append(module.name)
    return sorted(names)
