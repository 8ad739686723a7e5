"""The deck as a PDF of cards to cut out, drawn with fpdf2.

Two layouts: `poker` (2.5 x 3.5 inch cards, nine to a page, 3 x 3) and `record` (5 x 3 inch record cards,
as many as fit, the page turned whichever way holds more); two papers: `letter` (the default: the game and its
archive come from the USA, where 5 x 3 record cards and letter paper are what a player has) and `a4`.
The cards of a page touch, so one cut serves two cards; crop marks in the page margin, outside every card,
show where each cut line runs.

Text is full Unicode: the Open Sans font (the `ttf-opensans` package) is embedded, so Greek, Cyrillic and
accented Latin print as themselves and can be searched and copied from the PDF. Characters Open Sans lacks
(CJK, symbols) come from a system font when one is installed (`FALLBACK_FONTS`); without one they print blank.
No card text can make the export fail.

Each Special Rule prints on a card of its own, marked "Special Rule". A text too long for its card shrinks down
to the smallest size, and what still does not fit runs on to further cards titled "(continued)".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # fpdf2 and the font are imported when a PDF is written: every server process spares their memory
    from fpdf import FPDF

from decks.exporters.printed_cards import PrintedCard, printed_cards
from dvorak_core.deckdata import DeckData

PAPERS = {"letter": (8.5, 11.0), "a4": (210 / 25.4, 297 / 25.4)}  # inches, portrait
DEFAULT_PAPER = "letter"
DEFAULT_LAYOUT = "poker"
MARGIN = 0.25  # the least margin kept free on every side: most printers cannot print nearer the edge
MARK_GAP, MARK_LENGTH = 0.04, 0.16  # crop marks start this far outside the cards and run this long
FONT = "opensans"
CONTINUED = " (continued)"
# Fonts for the characters Open Sans lacks, used when the system has them (Debian's fonts-dejavu-core,
# fonts-droid-fallback for CJK).
FALLBACK_FONTS = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)


@dataclass(frozen=True)
class Layout:
    name: str
    width: float  # a card's, inches
    height: float
    padding: float
    title_sizes: tuple[float, ...]
    body_sizes: tuple[float, ...]
    label_size: float
    header: float
    label: float
    portrait_only: bool  # poker cards stay 3 x 3 on a portrait page


LAYOUTS = {
    "poker": Layout("poker", 2.5, 3.5, 0.1, (10, 9, 8, 7), (9, 8, 7, 6.5, 6, 5.5, 5), 6.5, 0.32, 0.2, True),
    "record": Layout("record", 5.0, 3.0, 0.12, (11, 10, 9, 8), (10, 9, 8, 7, 6.5, 6), 8, 0.36, 0.22, False),
}


class ExportOptionError(ValueError):
    """An unknown layout or paper."""


def export_pdf(deck: DeckData, *, layout: str = DEFAULT_LAYOUT, paper: str = DEFAULT_PAPER) -> bytes:
    if layout not in LAYOUTS:
        raise ExportOptionError(f"Unknown layout {layout!r}; use one of {', '.join(LAYOUTS)}.")
    if paper not in PAPERS:
        raise ExportOptionError(f"Unknown paper {paper!r}; use one of {', '.join(PAPERS)}.")
    card_layout = LAYOUTS[layout]
    page_width, page_height, columns, rows = _grid(card_layout, *PAPERS[paper])
    cards = printed_cards(deck)
    # A fallback font is large to load: only a deck with characters Open Sans lacks pays for it.
    needs_fallback = not _open_sans_has(deck.title, *(value for card, _ in cards for value in vars(card).values()))
    pdf = _new_pdf(page_width, page_height, needs_fallback)
    pdf.set_title(deck.title)
    # fpdf2 measures text only on a page, so a page of its own that is never written does the measuring.
    measurer = _new_pdf(page_width, page_height, needs_fallback)
    measurer.add_page()
    faces = [face for card, copies in cards for face in _faces(measurer, card_layout, card) * copies]
    left = (page_width - columns * card_layout.width) / 2
    top = (page_height - rows * card_layout.height) / 2
    per_page = columns * rows
    for index in range(0, max(len(faces), 1), per_page):
        pdf.add_page()
        on_page = faces[index : index + per_page]
        for slot, (card, size, lines) in enumerate(on_page):
            row, column = divmod(slot, columns)
            _draw_card(pdf, card_layout, card, size, lines, left + column * card_layout.width,
                       top + row * card_layout.height)
        _crop_marks(pdf, card_layout, left, top, columns, rows)
    return bytes(pdf.output())


def _grid(layout: Layout, width: float, height: float) -> tuple[float, float, int, int]:
    """(page width, page height, columns, rows): the orientation that holds the most cards."""
    best = None
    for page_width, page_height in ((width, height),) if layout.portrait_only else ((width, height),
                                                                                    (height, width)):
        columns = int((page_width - 2 * MARGIN) / layout.width + 1e-9)
        rows = int((page_height - 2 * MARGIN) / layout.height + 1e-9)
        if best is None or columns * rows > best[2] * best[3]:
            best = (page_width, page_height, columns, rows)
    return best


_logging_quietened = False


@cache
def _open_sans_characters() -> frozenset[int]:
    import ttf_opensans
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(str(ttf_opensans.opensans(font_weight=400).path)).getBestCmap())


def _open_sans_has(*texts: str) -> bool:
    known = _open_sans_characters()
    return all(ord(char) in known or char in "\n\r\t" for text in texts for char in text)


def _new_pdf(width: float, height: float, with_fallback: bool) -> FPDF:
    import ttf_opensans
    from fpdf import FPDF

    global _logging_quietened
    if not _logging_quietened:  # fpdf2 logs every glyph a font lacks; a card text is free to use any
        logging.getLogger("fpdf").setLevel(logging.ERROR)
        logging.getLogger("fontTools").setLevel(logging.WARNING)
        _logging_quietened = True
    pdf = FPDF(orientation="P", unit="in", format=(width, height))
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0)
    pdf.add_font(FONT, "", str(ttf_opensans.opensans(font_weight=400).path))
    pdf.add_font(FONT, "B", str(ttf_opensans.opensans(font_weight=700).path))
    pdf.add_font(FONT, "I", str(ttf_opensans.opensans(font_weight=400, italic=True).path))
    fallbacks = []
    for number, path in enumerate(FALLBACK_FONTS if with_fallback else ()):
        if path.is_file():
            try:
                pdf.add_font(f"fallback{number}", "", str(path))
            except Exception:  # noqa: BLE001 - a system font fpdf2 cannot read only costs its characters
                logging.getLogger(__name__).warning("Cannot use the fallback font %s", path, exc_info=True)
                continue
            fallbacks.append(f"fallback{number}")
    if fallbacks:
        pdf.set_fallback_fonts(fallbacks, exact_match=False)
    return pdf


def _body(card: PrintedCard) -> str:
    return "\n\n".join(part for part in (card.stats, card.text, card.flavor) if part)


def _body_height(layout: Layout, card: PrintedCard) -> float:
    creator = layout.label if card.creator else 0
    return layout.height - layout.header - layout.label - creator - 2 * layout.padding


def _lines(pdf: FPDF, layout: Layout, text: str, size: float) -> list[str]:
    pdf.set_font(FONT, size=size)
    return pdf.multi_cell(layout.width - 2 * layout.padding, _line_height(size), text, dry_run=True,
                          output="LINES")


def _line_height(size: float) -> float:
    return size * 1.3 / 72


def _faces(pdf: FPDF, layout: Layout, card: PrintedCard) -> list[tuple[PrintedCard, float, list[str]]]:
    """The card at the largest size its text fits, with its text's lines (wrapped once, however many copies
    print); a text too long even in the smallest size runs onto more cards."""
    room = _body_height(layout, card)
    for size in layout.body_sizes:
        lines = _lines(pdf, layout, _body(card), size)
        if len(lines) * _line_height(size) <= room:
            return [(card, size, lines)]
    per_card = max(int(room // _line_height(size)), 1)
    chunks = [lines[start : start + per_card] for start in range(0, len(lines), per_card)]
    return [
        (replace(card, title=card.title + (CONTINUED if number else "")), size, chunk)
        for number, chunk in enumerate(chunks)
    ]


def _fit_title(pdf: FPDF, layout: Layout, title: str, room: float) -> str:
    """Sets the largest title size at which the title fits in `room`; past the smallest, cuts it short."""
    for size in layout.title_sizes:
        pdf.set_font(FONT, style="B", size=size)
        if pdf.get_string_width(title) <= room:
            return title
    suffix = CONTINUED if title.endswith(CONTINUED) else ""  # a run-on card keeps saying so
    title = title.removesuffix(suffix)
    while title and pdf.get_string_width(title + "\u2026" + suffix) > room:
        title = title[:-1]
    return title + "\u2026" + suffix


def _draw_card(pdf: FPDF, layout: Layout, card: PrintedCard, size: float, lines: list[str], x: float,
               y: float) -> None:
    red, green, blue = (int(card.colour[index : index + 2], 16) for index in (1, 3, 5))
    inner = layout.width - 2 * layout.padding
    pdf.set_draw_color(red, green, blue)
    pdf.set_line_width(0.015)
    pdf.rect(x, y, layout.width, layout.height)
    pdf.set_fill_color(red, green, blue)
    pdf.rect(x, y, layout.width, layout.header, style="F")

    pdf.set_text_color(255, 255, 255)
    corner_width = 0.0
    if card.corner_value:
        pdf.set_font(FONT, style="B", size=layout.title_sizes[0])
        corner_width = pdf.get_string_width(card.corner_value) + 0.08
        pdf.set_xy(x + layout.padding, y)
        pdf.cell(inner, layout.header, card.corner_value, align="R")
    title = _fit_title(pdf, layout, card.title, inner - corner_width)
    pdf.set_xy(x + layout.padding, y)
    pdf.cell(inner - corner_width, layout.header, title)

    pdf.set_text_color(red, green, blue)
    pdf.set_font(FONT, style="I", size=layout.label_size)
    pdf.set_xy(x + layout.padding, y + layout.header)
    pdf.cell(inner, layout.label, card.label)

    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FONT, size=size)
    for number, line in enumerate(lines):
        pdf.set_xy(x + layout.padding, y + layout.header + layout.label + number * _line_height(size))
        pdf.cell(inner, _line_height(size), line)

    if card.creator:
        pdf.set_text_color(90, 90, 90)
        pdf.set_font(FONT, size=layout.label_size)
        pdf.set_xy(x + layout.padding, y + layout.height - layout.padding - layout.label)
        pdf.cell(inner, layout.label, card.creator, align="R")


def _crop_marks(pdf: FPDF, layout: Layout, left: float, top: float, columns: int, rows: int) -> None:
    """A short line in the margin at both ends of every cut line, outside the cards."""
    right, bottom = left + columns * layout.width, top + rows * layout.height
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.01)
    for column in range(columns + 1):
        x = left + column * layout.width
        pdf.line(x, top - MARK_GAP, x, top - MARK_GAP - MARK_LENGTH)
        pdf.line(x, bottom + MARK_GAP, x, bottom + MARK_GAP + MARK_LENGTH)
    for row in range(rows + 1):
        y = top + row * layout.height
        pdf.line(left - MARK_GAP, y, left - MARK_GAP - MARK_LENGTH, y)
        pdf.line(right + MARK_GAP, y, right + MARK_GAP + MARK_LENGTH, y)
