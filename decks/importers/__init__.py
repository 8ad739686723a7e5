"""Importers: text in the archive's old formats to `DeckData`, without touching the database.

`import_text` reads the whole text before returning, so a malformed listing raises `ListingError` (naming
the line) and nothing is half-imported.
"""

from __future__ import annotations

from collections.abc import Callable

from decks.importers.errors import ListingError, UnknownFormatError
from decks.importers.jsonfile import parse_json
from decks.importers.listing import parse_listing
from decks.importers.mushcode import parse_mushcode
from decks.importers.wikimarkup import looks_like_markup, parse_markup
from dvorak_core.deckdata import DeckData

__all__ = ["FORMATS", "ListingError", "UnknownFormatError", "import_text"]


def _parse_wiki(text: str) -> list[DeckData]:
    # Both come from the wiki: the edit box's {{card}} markup, or the page's text as a browser shows it.
    return parse_markup(text) if looks_like_markup(text) else parse_listing(text)


_PARSERS: dict[str, Callable[[str], list[DeckData]]] = {
    "wiki": _parse_wiki,
    "mushcode": parse_mushcode,
    "json": parse_json,
}
FORMATS = tuple(_PARSERS)


def import_text(text: str, format: str) -> list[DeckData]:
    try:
        parse = _PARSERS[format]
    except KeyError:
        raise UnknownFormatError(
            f"Unknown import format {format!r}; use one of {', '.join(FORMATS)}."
        ) from None
    _refuse_null_characters(text)
    return parse(text)


def _refuse_null_characters(text: str) -> None:
    # PostgreSQL's text cannot hold U+0000, and a curator pasting a file needs to know where it is.
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise ListingError("This line holds a null character (U+0000); remove it.", line)
