"""The archive's own JSON: one deck object, or a list of them, as `DeckData.to_dict()` writes it."""

from __future__ import annotations

import json
from typing import Any

from decks.importers.errors import ListingError
from dvorak_core.deckdata import DeckData


def parse_json(text: str) -> list[DeckData]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ListingError(f"This is not JSON: {error.msg}.", error.lineno) from error
    items = document if isinstance(document, list) else [document]
    return [_deck(item) for item in items]


def _deck(item: Any) -> DeckData:
    try:
        return DeckData.from_dict(item)
    except KeyError as error:
        raise ListingError(f"A deck in the JSON lacks its {error.args[0]!r}.", 1) from error
    except (TypeError, ValueError, AttributeError) as error:
        raise ListingError(f"A deck in the JSON is malformed: {error}", 1) from error
