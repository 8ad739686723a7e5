"""Exporters: `DeckData` to the formats the old archive offered, as (content, content type, file name)."""

from __future__ import annotations

from collections.abc import Callable

from decks.exporters.pdf import export_pdf
from decks.exporters.print_sheet import export_print_sheet
from decks.exporters.text_formats import export_apprentice, export_json, export_lackey, export_mushcode
from decks.importers.errors import UnknownFormatError
from dvorak_core.deckdata import DeckData

__all__ = ["FORMATS", "UnknownFormatError", "export_deck", "media_type"]

# format: (writer, content type, file name suffix)
_EXPORTERS: dict[str, tuple[Callable[[DeckData], str | bytes], str, str]] = {
    "json": (export_json, "application/json", ".json"),
    "mushcode": (export_mushcode, "text/plain; charset=utf-8", "-mushcode.txt"),
    "lackey": (export_lackey, "text/tab-separated-values; charset=utf-8", "-lackey.txt"),
    "apprentice": (export_apprentice, "text/csv; charset=utf-8", "-apprentice.csv"),
    "print": (export_print_sheet, "text/html; charset=utf-8", "-print.html"),
    "pdf": (export_pdf, "application/pdf", ".pdf"),
}
FORMATS = tuple(_EXPORTERS)


def export_deck(deck: DeckData, format: str) -> tuple[str | bytes, str, str]:
    try:
        write, content_type, suffix = _EXPORTERS[format]
    except KeyError:
        raise UnknownFormatError(
            f"Unknown export format {format!r}; use one of {', '.join(FORMATS)}."
        ) from None
    return write(deck), content_type, f"{deck.slug}{suffix}"


def media_type(format: str) -> str:
    """The content type a format's export is served as."""
    return _EXPORTERS[format][1]
