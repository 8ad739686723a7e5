"""What goes on each printed 5x3 inch card, shared by the HTML print sheet and the PDF."""

from __future__ import annotations

from dataclasses import dataclass

from decks.exporters.text_formats import stats_line
from dvorak_core.deckdata import ACTION, THING, DeckData

# The wiki's {{card}} colours: Things dark blue (bgcolor=006), Actions dark red (bgcolor=600).
THING_COLOUR = "#000066"
ACTION_COLOUR = "#660000"
OWN_TYPE_COLOUR = "#666600"
SPECIAL_RULE_COLOUR = "#006600"
SPECIAL_RULE_LABEL = "Special Rule"


@dataclass(frozen=True)
class PrintedCard:
    title: str
    label: str
    colour: str
    text: str
    flavor: str = ""
    corner_value: str = ""
    stats: str = ""
    creator: str = ""


def printed_cards(deck: DeckData) -> list[tuple[PrintedCard, int]]:
    """The Special Rules first, on cards of their own (set aside before shuffling), then each card with the
    number of copies to print, so that a writer lays out a card once however many copies it prints."""
    cards = [
        (PrintedCard(
            title=rule.title or SPECIAL_RULE_LABEL,
            label=SPECIAL_RULE_LABEL,
            colour=SPECIAL_RULE_COLOUR,
            text=rule.text,
        ), 1)
        for rule in deck.special_rules
    ]
    for card in deck.cards:
        printed = PrintedCard(
            title=card.title,
            label=card.type,
            colour={THING: THING_COLOUR, ACTION: ACTION_COLOUR}.get(card.type, OWN_TYPE_COLOUR),
            text=card.text,
            flavor=card.flavor,
            corner_value=card.corner_value,
            stats=stats_line(card),
            creator=card.creator,
        )
        cards.append((printed, card.copies))
    return cards
