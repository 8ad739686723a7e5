"""The bodies of Filibuster's commands, declared once: the engine checks each body by its declaration before the
handler runs, and the API's schema and first check are made from the same declarations (``docs/api.md``, "The
``filibuster`` ruleset"). What depends on the game (the phase, whose turn it is to act, the cards in your hand, a
seat in range, whether the card played takes a ``target`` or a ``destroy``, the ``cause`` being yours) stays the
handlers' to decide."""

from __future__ import annotations

from dvorak_engine.bodies import Body, Field, card_field, seat_field, text_field, whole_field
from dvorak_engine.rulesets.filibuster.cards import MAX_DRAW, MAX_POINTS

CARD = "77e0a1c95d3b2f48"
GAMBIT = "3b9f00c1d2e4a567"
CONSTANT = "5e61c0d2a9f3b874"
CAMPAIGN = "a41c7e09b3d2f586"


def _in_hand(help: str) -> Field:
    """A card of your hand (its id), refused in the handlers' words."""
    return text_field(help, refusal="\"{name}\" names a card of your hand.")


def _cause() -> Field:
    return text_field("The card whose text you carry out: your Campaign or a Constant of yours in play, or your "
                      "Gambit on the stack.",
                      refusal="\"cause\" names the card whose text you carry out: your Campaign or Constant in "
                              "play, or your Gambit on the stack.")


# --- filibusters --------------------------------------------------------------------------------------------------

FILIBUSTER = Body("In a filibuster window you are asked in (a non-pitcher): filibuster the pitcher. The first to "
                  "filibuster closes the window; you and the pitcher then each reveal a card (`reveal_card`).")
REVEAL_CARD = Body(
    "The filibusterer's and the pitcher's card, chosen in secret and revealed together once both are in: the "
    "higher value takes (or keeps) the pitch.",
    {"card": _in_hand("The card of your hand you reveal.")}, ({"card": CARD},))
COUNTER_FILIBUSTER = Body(
    "The former pitcher, after a successful filibuster, counters it by revealing another card of a higher value "
    "than the filibusterer's (the board's `filibuster.to_beat`).",
    {"card": _in_hand("The card of your hand you reveal, of a value higher than `to_beat`.")},
    ({"card": CONSTANT},))
RESPOND = Body(
    "The filibusterer answers a counter with a second card: higher than the counter keeps the pitch and costs the "
    "former pitcher 20 points; equal or lower gives the pitch back.",
    {"card": _in_hand("The card of your hand you reveal.")}, ({"card": CARD},))
PASS = Body("Decline what you are asked: to filibuster (in a window), to counter, to respond, to play a Constant, "
            "to stack a Gambit (the pitcher's first pass in the Main Step ends the step).")

# --- playing cards ------------------------------------------------------------------------------------------------

PLAY = Body(
    "Play a card of your hand: a Campaign when you must play one, a Constant when you pitch and may play one, a "
    "Gambit when it is your turn to stack (one of lower value than the top Gambit fizzles).",
    {"card": card_field("The card of your hand: a Campaign, a Constant or a Gambit, as the phase wants."),
     "target": seat_field("For a card with `stats.target_points` (required then, refused otherwise): the player "
                          "it gives or takes points.", required=False, null=True),
     "destroy": text_field("For a card with `stats.destroy_constant` while a Constant is in play (required then, "
                           "refused otherwise): the Constant in play it destroys.", required=False, null=True,
                           refusal="\"destroy\" names a Constant in play.")},
    ({"card": CAMPAIGN}, {"card": GAMBIT, "target": 1}))
RESOLVE = Body("The player of the Gambit on top of the stack whose effect is its text alone, once they have carried "
               "it out: the Gambit is destroyed and the stack resolves on.")
ROLL_DICE = Body("After a campaign died (\"the campaign dies and all players shuffle their hands into their decks "
                 "and start a new campaign\"): any player rolls, and the next campaign begins.")

# --- effect moves: carrying out the text of the card named in `cause` ---------------------------------------------

SCORE = Body(
    "Points to (or from) a player, as the text of the card named in `cause` says; points never go below 0, and "
    "the first player to 200 wins.",
    {"cause": _cause(), "seat": seat_field("The player who gains or loses the points."),
     "points": whole_field("How many points (negative to take away).", low=-MAX_POINTS, high=MAX_POINTS)},
    ({"cause": CAMPAIGN, "seat": 0, "points": 20},))
DRAW = Body(
    "Cards drawn from your own deck, as the text of the card named in `cause` says (an empty draw pile is first "
    "refilled by shuffling your discard pile).",
    {"cause": _cause(), "count": whole_field("How many cards.", low=1, high=MAX_DRAW)},
    ({"cause": GAMBIT, "count": 2},))
DESTROY = Body(
    "A Constant in play destroyed, as the text of the card named in `cause` says: it goes to its owner's discard "
    "pile.",
    {"cause": _cause(),
     "card": card_field("The Constant in play (any player's).")},
    ({"cause": GAMBIT, "card": CONSTANT},))
