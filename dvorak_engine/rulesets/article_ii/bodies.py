"""The bodies of Article II's commands, declared once: checked by the engine before the handler runs, and the
source of the API's schema and first check."""

from __future__ import annotations

from dvorak_engine.bodies import Body, card_field, seat_field

CARD = "3f2a9c1d0b7e4a65"

PLAY = Body(
    "A card on a player (`target`), its effect carried out by the engine.",
    {"card": card_field("The card in your hand."),
     "target": seat_field("The player the card is played on (yourself included)."),
     "remove": card_field("Voter ADHD (\"Remove one card from play\"): the card in play in front of the target to "
                          "remove. Optional: without it the server removes the only card there is, or, when there are "
                          "several, the play waits for a `remove` command naming one.", required=False),
     "remove_before": card_field("The Teflon Wonder (\"Before playing a card, you may remove a card that's been "
                                 "played on you\"): a card in play in front of you to remove first. Optional.",
                                 required=False)},
    ({"card": CARD, "target": 1},))
REMOVE = Body("Name the card a Voter ADHD played without `remove` takes out of play, when the player it was played "
              "on had several (the state's `removal.from`).",
              {"card": card_field("One of the cards `removal.from` lists.")}, ({"card": CARD},))
PASS = Body("Decline a Great Debater's reply, or an Insider's second card; refused before the turn's card, since "
            "every turn is one card.")
END_TURN = Body("The same as `pass` (after the turn's card, or to decline a Great Debater's reply).")
