"""How large the suite's campaigns are: a few games in `make test`, CI's full size in `make soak`.

A campaign is a test that plays or sends many of something (random legal-move games through the API, games scanned
for hidden cards, Hypothesis examples, fuzzed requests). `make test` runs every one of them at its small size, so a
broken ruleset still fails it; `make soak` sets ``DVORAK_SOAK=1`` and runs the ``slow`` tests at their full size.
Each campaign's own variable (``RANDOM_GAMES_RPS=50``, ``LEAK_SCAN_GAMES=1000``...) sets its size in either.
"""

from __future__ import annotations

import os

SOAK = os.environ.get("DVORAK_SOAK", "").lower() in {"1", "true", "yes"}


def size(variable: str, test: int, soak: int) -> int:
    """``$variable`` when it is set, else ``soak`` under `make soak` and ``test`` otherwise."""
    value = os.environ.get(variable, "").strip()
    return int(value) if value else soak if SOAK else test
