"""Exporters: `DeckData` to the formats the old archive offered, as (content, content type, file name).

The formats that write a row, a line or a printed card per copy (`EXPANDING`) refuse a deck of more than
`MAX_CARDS_PER_DECK` cards, copies counted, before writing anything: the archive keeps every deck within that
bound, so only a deck stored before the bound was enforced can reach it, and one card of 35 million copies must
not become 35 million lines in memory. Its JSON and Apprentice CSV (one row per distinct card) are still served.
"""

from __future__ import annotations

from collections.abc import Callable

from decks.exporters.deck_files import export_cockatrice
from decks.exporters.pdf import LAYOUTS, PAPERS, ExportOptionError, export_pdf
from decks.exporters.print_sheet import export_print_sheet
from decks.exporters.text_formats import export_apprentice, export_json, export_lackey, export_mushcode
from decks.importers.errors import UnknownFormatError
from dvorak_core.deckdata import MAX_CARDS_PER_DECK, DeckData
from dvorak_core.errors import Conflict

__all__ = [
    "EXPANDING", "FORMATS", "LAYOUTS", "PAPERS", "ExportOptionError", "ExportTooLarge", "UnknownFormatError",
    "export_deck", "media_type",
]

# format: (writer, content type, file name suffix)
_EXPORTERS: dict[str, tuple[Callable[..., str | bytes], str, str]] = {
    "json": (export_json, "application/json", ".json"),
    "mushcode": (export_mushcode, "text/plain; charset=utf-8", "-mushcode.txt"),
    "lackey": (export_lackey, "text/tab-separated-values; charset=utf-8", "-lackey.txt"),
    "apprentice": (export_apprentice, "text/csv; charset=utf-8", "-apprentice.csv"),
    "print": (export_print_sheet, "text/html; charset=utf-8", "-print.html"),
    "pdf": (export_pdf, "application/pdf", ".pdf"),
    "cod": (export_cockatrice, "application/xml; charset=utf-8", ".cod"),
}
# The formats that take options (`layout`, `paper`); the others ignore them.
WITH_OPTIONS = frozenset({"pdf"})
FORMATS = tuple(_EXPORTERS)
EXPANDING = frozenset({"mushcode", "lackey", "print", "pdf"})


class ExportTooLarge(Conflict):
    code = "export_too_large"


def export_deck(deck: DeckData, format: str, **options: str) -> tuple[str | bytes, str, str]:
    """`options` (`layout`, `paper`) go to the formats that take them; a bad one raises `ExportOptionError`."""
    try:
        write, content_type, suffix = _EXPORTERS[format]
    except KeyError:
        raise UnknownFormatError(
            f"Unknown export format {format!r}; use one of {', '.join(FORMATS)}."
        ) from None
    if format in EXPANDING and deck.card_count > MAX_CARDS_PER_DECK:
        raise ExportTooLarge(
            f"A {format} export writes every copy of every card, and this deck has {deck.card_count} "
            f"(at most {MAX_CARDS_PER_DECK}); export it as json or apprentice, which write each card once.",
            details={"cards": deck.card_count, "limit": MAX_CARDS_PER_DECK},
        )
    content = write(deck, **options) if format in WITH_OPTIONS else write(deck)
    return content, content_type, f"{deck.slug}{suffix}"


def media_type(format: str) -> str:
    """The content type a format's export is served as."""
    return _EXPORTERS[format][1]
