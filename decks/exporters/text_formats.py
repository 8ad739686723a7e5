"""The archive's text exports: JSON, MUSHcode, Lackey and Apprentice CSV."""

from __future__ import annotations

import csv
import io
import json

from decks.importers.mushcode import card_body, type_letter
from dvorak_core.deckdata import CardData, DeckData

LACKEY_COLUMNS = ("Name", "Set", "ImageFile", "Type", "CornerValue", "Text", "FlavorText", "Creator")
APPRENTICE_COLUMNS = (
    "Name",
    "Set",
    "Type",
    "CornerValue",
    "Stats",
    "Text",
    "FlavorText",
    "Creator",
    "Copies",
)


def export_json(deck: DeckData) -> str:
    return json.dumps(deck.to_dict(), indent=2, ensure_ascii=False) + "\n"


def export_mushcode(deck: DeckData) -> str:
    """`cleardeck`, then a `loadcard` line for every copy, ready to paste into the Dvorak Engine."""
    lines = ["cleardeck"]
    for card in deck.cards:
        line = f"loadcard {card.title}/{type_letter(card.type)}/{card_body(card)}"
        lines.extend([line] * card.copies)
    return "\n".join(lines) + "\n"


def export_lackey(deck: DeckData) -> str:
    """Rows for Lackey's carddata.txt, one per copy; the set is the deck's slug, images are named by type."""
    set_name = deck.slug.replace("-", "_")
    rows = ["\t".join(LACKEY_COLUMNS)]
    for card in deck.cards:
        row = (
            card.title,
            set_name,
            card.type.lower().replace(" ", "_"),
            card.type,
            card.corner_value,
            card.text,
            card.flavor,
            card.creator,
        )
        rows.extend(["\t".join(_one_line(value) for value in row)] * card.copies)
    return "\n".join(rows) + "\n"


def _one_line(value: str) -> str:
    # A row is one line of tab-separated fields: the card's own line breaks and tabs become spaces.
    return " ".join(value.split())


def export_apprentice(deck: DeckData) -> str:
    """A CSV of the card set for the APPR2CSV utility, one row per distinct card."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(APPRENTICE_COLUMNS)
    for card in deck.cards:
        writer.writerow(
            (
                card.title,
                deck.title,
                card.type,
                card.corner_value,
                stats_line(card),
                card.text,
                card.flavor,
                card.creator,
                card.copies,
            )
        )
    return buffer.getvalue()


def stats_line(card: CardData) -> str:
    """The stats as the card prints them: "Shoot 1 Endure 1"."""
    return " ".join(f"{name} {value}" for name, value in card.stats.items())
