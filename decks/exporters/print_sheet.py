"""The print sheet: an HTML page of 5x3 inch cards, as the old archive's "Print this deck"."""

from __future__ import annotations

from html import escape

from decks.exporters.printed_cards import PrintedCard, printed_cards
from dvorak_core.deckdata import DeckData

_STYLE = """
@page { margin: 0.4in; }
body { font-family: Georgia, serif; margin: 0; }
h1 { font-size: 14pt; margin: 0.1in; }
.card { box-sizing: border-box; display: inline-block; vertical-align: top; width: 5in; min-height: 3in;
        margin: 0.08in; border: 2px solid var(--colour); break-inside: avoid; page-break-inside: avoid; }
.card header { display: flex; justify-content: space-between; gap: 0.1in; padding: 0.06in 0.12in;
               background: var(--colour); color: #fff; font-weight: bold; }
.label { font-style: italic; font-size: 9pt; color: var(--colour); padding: 0.04in 0.12in 0; }
.stats { font-weight: bold; font-size: 10pt; padding: 0.04in 0.12in 0; }
.text { white-space: pre-line; font-size: 10pt; padding: 0.06in 0.12in; }
.flavor { white-space: pre-line; font-style: italic; font-size: 9pt; padding: 0 0.12in 0.06in; }
.creator { font-size: 8pt; text-align: right; padding: 0 0.12in 0.06in; }
"""


def export_print_sheet(deck: DeckData) -> str:
    cards = "\n".join("\n".join([_card_html(card)] * copies) for card, copies in printed_cards(deck))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(deck.title)}: print sheet</title>\n"
        f"<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<h1>{escape(deck.title)}</h1>\n{cards}\n</body>\n</html>\n"
    )


def _card_html(card: PrintedCard) -> str:
    parts = [
        f'<section class="card" style="--colour: {card.colour}">',
        f"<header><span>{escape(card.title)}</span><span>{escape(card.corner_value)}</span></header>",
        f'<div class="label">{escape(card.label)}</div>',
    ]
    if card.stats:
        parts.append(f'<div class="stats">{escape(card.stats)}</div>')
    parts.append(f'<div class="text">{escape(card.text)}</div>')
    if card.flavor:
        parts.append(f'<div class="flavor">{escape(card.flavor)}</div>')
    if card.creator:
        parts.append(f'<div class="creator">{escape(card.creator)}</div>')
    parts.append("</section>")
    return "\n".join(parts)
