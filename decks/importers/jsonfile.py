"""The archive's own JSON: one deck object, or a list of them, as `DeckData.to_dict()` writes it."""

from __future__ import annotations

import json
import re
from typing import Any

from decks.importers.errors import ListingError
from dvorak_core.deckdata import DeckData

# JSON's escape of U+0000; after an escaped backslash, "u0000" is only text.
_NULL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


def parse_json(text: str) -> list[DeckData]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ListingError(f"This is not JSON: {error.msg}.", error.lineno) from error
    if _holds_null(document):
        # The text itself had none (the importer checks first), so a string holds one through its escape.
        found = _NULL_ESCAPE.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        raise ListingError("This line holds a null character (U+0000, written \\u0000); remove it.", line)
    items = document if isinstance(document, list) else [document]
    return [_deck(item) for item in items]


def _holds_null(document: Any) -> bool:
    # A loop, not recursion: JSON nested as deep as the parser allows must not overflow the stack here.
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def _deck(item: Any) -> DeckData:
    try:
        return DeckData.from_dict(item)
    except KeyError as error:
        raise ListingError(f"A deck in the JSON lacks its {error.args[0]!r}.", 1) from error
    except (TypeError, ValueError, AttributeError) as error:
        raise ListingError(f"A deck in the JSON is malformed: {error}", 1) from error
