"""Rulesets are found by name: ``games/engine/rulesets/<name>.py`` defines ``RULESET``."""

from __future__ import annotations

import importlib
import re

from dvorak_core.errors import DomainError
from games.engine.rulesets.base import Ruleset

_RULESET_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def get_ruleset(name: str) -> Ruleset:
    if not isinstance(name, str) or not _RULESET_NAME.match(name) or name == "base":
        raise DomainError(f"There is no ruleset {name!r}.", code="invalid", details={"field": "ruleset"})
    try:
        module = importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{__name__}.{name}":
            raise
        raise DomainError(f"There is no ruleset {name!r}.", code="invalid", details={"field": "ruleset"}) from None
    ruleset = getattr(module, "RULESET", None)
    if ruleset is None:  # a helper module of a ruleset, not a ruleset
        raise DomainError(f"There is no ruleset {name!r}.", code="invalid", details={"field": "ruleset"})
    return ruleset
