"""Where the tests find their data.

The suite runs on a clone with nothing beside it: its decks are the project's own seed data
(``decks/seed_data/*.json``) and the fixtures under ``tests/fixtures/``. The listings there are excerpts of the
original wiki listings: every card, with each rules section cut to the sentences the tests read.

The original listings and rulebook the seed data was made from (``../shared/seeds`` beside the checkout, or
``$DVORAK_SEEDS_DIR``) are needed only by the tests that compare the project's data with them; those tests skip,
with the reason shown, where the originals are absent.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dvorak_core.deckdata import DeckData

ROOT = Path(__file__).resolve().parents[1]
SEED_DATA = ROOT / "decks" / "seed_data"
FIXTURES = ROOT / "tests" / "fixtures"
EXCERPTS = FIXTURES / "listings"
# The rules of the game, not a deck.
RULEBOOK = "dvorak-rules-2000-2007.txt"
# One excerpt per original deck listing, under the original's name.
DECK_LISTINGS = sorted(path.name for path in EXCERPTS.glob("*.txt"))


def seeds_dir() -> Path | None:
    """The folder of original listings, or None where it is absent."""
    configured = os.environ.get("DVORAK_SEEDS_DIR")
    folder = Path(configured) if configured else ROOT.parent / "shared" / "seeds"
    return folder if folder.is_dir() else None


SEEDS_ABSENT = "needs the original seed texts (wiki listings, rulebook), absent here ({})".format(
    f"DVORAK_SEEDS_DIR={os.environ['DVORAK_SEEDS_DIR']}" if os.environ.get("DVORAK_SEEDS_DIR")
    else "../shared/seeds beside the checkout, or set DVORAK_SEEDS_DIR"
)
# A test that compares with the originals is marked `seeds` (tests/conftest.py skips it, saying why, where they are
# absent); CI runs these in place, with ../shared beside the checkout.
requires_seeds = pytest.mark.seeds

# Where a test reads a listing: its excerpt always, and the original too where it is present.
SOURCES = [pytest.param("excerpt"), pytest.param("original", marks=requires_seeds)]


def original_path(name: str) -> Path:
    folder = seeds_dir()
    if folder is None:
        pytest.skip(SEEDS_ABSENT)
    return folder / name


def listing_text(name: str, source: str = "excerpt") -> str:
    """A deck listing's wiki text: the excerpt under tests/fixtures, or the original."""
    path = EXCERPTS / name if source == "excerpt" else original_path(name)
    return path.read_text(encoding="utf-8")


def seed_decks() -> list[DeckData]:
    """The project's committed seed decks, in file name order."""
    return [DeckData.from_dict(json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(SEED_DATA.glob("*.json"))]


def seed_deck_json(slug: str) -> str:
    return (SEED_DATA / f"{slug}.json").read_text(encoding="utf-8")


def seed_deck(slug: str) -> DeckData:
    return DeckData.from_dict(json.loads(seed_deck_json(slug)))


def rulebook_example_cards() -> list[dict]:
    """The example cards printed in the rulebook, as deck cards."""
    printed = json.loads((FIXTURES / "rulebook_example_cards.json").read_text(encoding="utf-8"))
    return [{"title": card["title"], "type": card["type"], "text": card["text"], "flavor": "", "copies": 1,
             "corner_value": "", "creator": "", "stats": {}} for card in printed]
