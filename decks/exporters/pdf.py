"""The print sheet as a PDF: three 5x3 inch cards to a letter page, drawn with fpdf2.

No pip package here ships a Unicode TrueType font, so the PDF uses the core Helvetica font and every text is
first brought down to Latin-1: typographic quotes and dashes to their plain forms, accented letters outside
Latin-1 to their base letter, anything else to "?". No card text can make the export fail.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from fpdf import FPDF

from decks.exporters.printed_cards import PrintedCard, printed_cards
from dvorak_core.deckdata import DeckData

PAGE_WIDTH, PAGE_HEIGHT = 8.5, 11.0
CARD_WIDTH, CARD_HEIGHT = 5.0, 3.0
CARDS_PER_PAGE = 3
GAP = 0.25
PADDING = 0.12
HEADER_HEIGHT = 0.36
LABEL_HEIGHT = 0.22
FONT = "helvetica"
FONT_SIZES = (10, 9, 8, 7, 6)
CONTINUED = " (continued)"

_PLAIN_FORMS = {
    "\u2018": "'", "\u2019": "'", "\u201a": ",", "\u201b": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"',
    "\u2013": "-", "\u2014": "--", "\u2212": "-", "\u2026": "...", "\u2022": "*",
    # Letters that Unicode does not decompose into a Latin-1 base letter.
    "\u0141": "L", "\u0142": "l", "\u0152": "OE", "\u0153": "oe", "\u0110": "D", "\u0111": "d",
}  # fmt: skip


def to_latin1(text: str) -> str:
    return "".join(_latin1_char(char) for char in text)


def _latin1_char(char: str) -> str:
    if ord(char) < 256:
        return char
    if char in _PLAIN_FORMS:
        return _PLAIN_FORMS[char]
    decomposed = unicodedata.normalize("NFKD", char)
    kept = "".join(part for part in decomposed if ord(part) < 256 and not unicodedata.combining(part))
    return kept or "?"


def export_pdf(deck: DeckData) -> bytes:
    pdf = FPDF(orientation="P", unit="in", format="letter")
    pdf.set_auto_page_break(False)
    pdf.set_title(to_latin1(deck.title))
    # fpdf2 measures text only on a page, so a page of its own that is never written does the measuring.
    measurer = FPDF(unit="in", format="letter")
    measurer.add_page()
    faces = [face for card, copies in printed_cards(deck) for face in _faces(measurer, _latin1_card(card)) * copies]
    left = (PAGE_WIDTH - CARD_WIDTH) / 2
    top = (PAGE_HEIGHT - CARDS_PER_PAGE * CARD_HEIGHT - (CARDS_PER_PAGE - 1) * GAP) / 2
    for index in range(0, max(len(faces), 1), CARDS_PER_PAGE):
        _new_page(pdf, deck)
        for slot, (card, size) in enumerate(faces[index : index + CARDS_PER_PAGE]):
            _draw_card(pdf, card, size, left, top + slot * (CARD_HEIGHT + GAP))
    return bytes(pdf.output())


def _latin1_card(card: PrintedCard) -> PrintedCard:
    return PrintedCard(*(to_latin1(value) for value in vars(card).values()))


def _new_page(pdf: FPDF, deck: DeckData) -> None:
    pdf.add_page()
    pdf.set_font(FONT, size=8)
    pdf.set_text_color(90, 90, 90)
    pdf.set_xy(0.5, 0.3)
    pdf.cell(PAGE_WIDTH - 1, 0.2, to_latin1(deck.title), align="C")


def _body(card: PrintedCard) -> str:
    return "\n\n".join(part for part in (card.stats, card.text, card.flavor) if part)


def _body_height(card: PrintedCard) -> float:
    creator = LABEL_HEIGHT if card.creator else 0
    return CARD_HEIGHT - HEADER_HEIGHT - LABEL_HEIGHT - creator - 2 * PADDING


def _lines(pdf: FPDF, text: str, size: int) -> list[str]:
    pdf.set_font(FONT, size=size)
    return pdf.multi_cell(CARD_WIDTH - 2 * PADDING, _line_height(size), text, dry_run=True, output="LINES")


def _line_height(size: int) -> float:
    return size * 1.25 / 72


def _faces(pdf: FPDF, card: PrintedCard) -> list[tuple[PrintedCard, int]]:
    """The card at the largest size its text fits; a text too long even in the smallest runs onto more cards."""
    for size in FONT_SIZES:
        if len(_lines(pdf, _body(card), size)) * _line_height(size) <= _body_height(card):
            return [(card, size)]
    size = FONT_SIZES[-1]
    lines = _lines(pdf, _body(card), size)
    per_card = int(_body_height(card) // _line_height(size))
    chunks = [lines[start : start + per_card] for start in range(0, len(lines), per_card)]
    return [
        (
            replace(
                card,
                title=card.title + (CONTINUED if number else ""),
                text="\n".join(chunk),
                stats="",
                flavor="",
            ),
            size,
        )
        for number, chunk in enumerate(chunks)
    ]


def _draw_card(pdf: FPDF, card: PrintedCard, size: int, x: float, y: float) -> None:
    red, green, blue = (int(card.colour[index : index + 2], 16) for index in (1, 3, 5))
    pdf.set_draw_color(red, green, blue)
    pdf.set_line_width(0.02)
    pdf.rect(x, y, CARD_WIDTH, CARD_HEIGHT)
    pdf.set_fill_color(red, green, blue)
    pdf.rect(x, y, CARD_WIDTH, HEADER_HEIGHT, style="F")

    pdf.set_text_color(255, 255, 255)
    pdf.set_font(FONT, style="B", size=11)
    pdf.set_xy(x + PADDING, y)
    pdf.cell(CARD_WIDTH - 2 * PADDING, HEADER_HEIGHT, card.title)
    pdf.set_xy(x + PADDING, y)
    pdf.cell(CARD_WIDTH - 2 * PADDING, HEADER_HEIGHT, card.corner_value, align="R")

    pdf.set_text_color(red, green, blue)
    pdf.set_font(FONT, style="I", size=8)
    pdf.set_xy(x + PADDING, y + HEADER_HEIGHT)
    pdf.cell(CARD_WIDTH - 2 * PADDING, LABEL_HEIGHT, card.label)

    pdf.set_text_color(0, 0, 0)
    pdf.set_font(FONT, size=size)
    pdf.set_xy(x + PADDING, y + HEADER_HEIGHT + LABEL_HEIGHT)
    pdf.multi_cell(CARD_WIDTH - 2 * PADDING, _line_height(size), _body(card))

    if card.creator:
        pdf.set_font(FONT, size=7)
        pdf.set_xy(x + PADDING, y + CARD_HEIGHT - PADDING - LABEL_HEIGHT)
        pdf.cell(CARD_WIDTH - 2 * PADDING, LABEL_HEIGHT, card.creator, align="R")
