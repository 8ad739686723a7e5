"""The bodies of the Virtues of the Drake's commands, declared once: the engine checks each body by its declaration
before the handler runs, and the API's schema and first check are made from the same declarations
(``docs/virtues_of_the_drake.md``). Whose turn it is, and whether a deck may be played or a card's action
performed now, stay the handlers' to decide."""

from __future__ import annotations

from dvorak_engine.bodies import Body, card_field, choice_field
from dvorak_engine.rulesets.virtues_of_the_drake.cards import DECKS, TREASURES

CARD = "4b8c4d0cf621dfb2"

PLAY_TOP = Body(
    "The turn's first part, \"Playing the top card of a deck of that player's choice\": a Maiden or a Knight goes "
    "into play (only while none of its kind is there), a Treasure onto the Bed after it is compared with the "
    "rightmost Knight in the Lair.",
    {"deck": choice_field(DECKS, "The deck whose top card is played.")},
    ({"deck": TREASURES},))
SWALLOW = Body("The turn's action: swallow the Maiden in play into the Gullet, only while no Knight is in play to "
               "protect her.")
BREATHE_FIRE = Body("The turn's action: breathe fire on the Knight in play, who goes to the Lair; the rightmost "
                    "Maiden in the Gullet is discarded when her Chastity is less than his Strength.")
CARD_ACTION = Body(
    "The turn's action: perform the action listed on a face-up card (its text says \"as an action\"; the Sangria "
    "All's too), where it has something to act on.",
    {"card": card_field("The card (its id): face up in play, in the Gullet, the Lair or the Bed, or your own Virtue "
                        "card.")},
    ({"card": CARD},))
