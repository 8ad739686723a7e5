"""The bodies of Rock Paper Scissors Extreme's commands, declared once: the engine checks each body by its declaration
before the handler runs (so does the pure ``rules.decide``), and the API's schema and first check are made from the
same declarations (``docs/api.md``, "The ``rock_paper_scissors_extreme`` ruleset"). What depends on the board (the
phase, whose answer it is, whether a card is yours or in the center) is the rules' to decide."""

from __future__ import annotations

from dataclasses import replace

from dvorak_engine.bodies import Body, Field, choice_field, list_field, text_field
from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import SCORE, TAKE
from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import SIGNS

# How a field naming a card is refused when it is not a card id ({name} is the field).
CARD_ID = "\"{name}\" names a card by its id."
POTION = "a6f28dbda2325406"
ITEM = "919fd972e3810fd5"


def card(help: str, *, required: bool = True) -> Field:
    """A card's id (a non-empty string): ``null`` counts as left out where it is not ``required``."""
    return text_field(help, required=required, null=not required, refusal=CARD_ID)


THROW = Body(
    "Throw Rock, Paper or Scissors, in secret, while `phase` is `throw` (once each a throw): the other player sees "
    "only that you threw until both throws are in and revealed together; a tie is thrown again.",
    {"sign": replace(choice_field(SIGNS, "Your sign."), refusal="Throw \"rock\", \"paper\" or \"scissors\".")},
    ({"sign": "rock"},))
DRINK = Body(
    "Drink a potion in a potion window you are asked in (`asked`): your answer stays secret until every seat asked "
    "has answered, then the potions drunk are revealed and go to the discard pile. One potion a player per throw.",
    {"potion": card("A potion among your items that may be drunk in this window."),
     "simulate": card("A rainbow potion only: the totem, scroll or athame it simulates for the rest of the throw, "
                      "one of your opponent's items or in the center whose title you do not hold.", required=False)},
    ({"potion": POTION}, {"potion": POTION, "simulate": ITEM}))
PASS = Body("Drink nothing: your answer in a potion window you are asked in, secret like a drink until every seat "
            "asked has answered.")
CLAIM = Body(
    "The throw's winner claims the win: `take` draws an item from the center first, then the loser draws; `score` "
    "scores 1 (2 with a Golden of the winning sign, or after a purple potion) and the loser draws first. Breaking "
    "(an Onyx) and stealing (a green potion) happen before drawing.",
    {"choice": replace(choice_field((TAKE, SCORE), "`take` or `score`; only `score` after a purple potion, after a "
                                    "green one with an item to steal, or with the center empty."),
                       refusal=f"\"{{name}}\" is {TAKE!r} or {SCORE!r}."),
     "break": card("One of the loser's items to break: required with a working Onyx of the winning sign and "
                   "something to break, refused otherwise.", required=False),
     "steal": card("One of the loser's items to steal after your green potion, in place of your draw (the choice is "
                   "`score`): required then, refused otherwise.", required=False)},
    ({"choice": "take"}, {"choice": "score", "steal": ITEM}))
DRAW = Body("Draw one of the face-up cards in the center, by the seat first in `drawers`.",
            {"card": card("A card in the center.")}, ({"card": ITEM},))
DISCARD = Body(
    "Discard one of your items while you hold more than three, never the card you just drew or stole (both players "
    "may have to; either may go first). Once nobody holds more than three, the center is refilled and the next "
    "challenge starts.",
    {"cards": list_field(text_field("An item of yours."), "A list of one card: the item you discard.", low=1, high=1,
                         unique=True, refusal="\"{name}\" is a list of one card: the item you discard.")},
    ({"cards": [ITEM]},))

BODIES: dict[str, Body] = {"throw": THROW, "drink": DRINK, "pass": PASS, "claim": CLAIM, "draw": DRAW,
                           "discard": DISCARD}
