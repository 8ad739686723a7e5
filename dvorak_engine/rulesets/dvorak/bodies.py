"""The bodies of Dvorak's commands, declared once: the engine checks each body by its declaration before the
handler runs, and the API's schema and first check are made from the same declarations (``docs/api.md``,
"Commands")."""

from __future__ import annotations

from typing import Any

from dvorak_core.rule_params import NUMBERS
from dvorak_engine.bodies import (
    Body,
    any_field,
    card_field,
    cards_field,
    choice_field,
    effect_field,
    flag_field,
    list_field,
    map_field,
    object_field,
    seat_field,
    text_field,
    whole_field,
)

# The limits of what a proposal writes: a title, a text, a bundle (``creative``).
MAX_TITLE, MAX_TEXT, MAX_BUNDLE = 200, 4000, 20
SNAKE_CASE = r"^[a-z][a-z0-9_]{0,63}$"
CARD = "3f2a9c1d0b7e4a65"
OTHER_CARD = "9b0c7e2d4f1a3865"

CAUSE_HELP = ("The card (its id) or Special Rule whose text this move carries out; you must be able to see it "
              "(set_rule and end_rule_effect: a Special Rule, a Thing you control in play or a card you played "
              "this turn, whose text speaks of the rule parameter).")


def cause(*, required: bool = True) -> Any:
    return card_field(CAUSE_HELP, required=required, names="the card or Special Rule the move carries out")


def _not_counters(param: str) -> None:
    if param == "counters":
        raise ValueError("counters are changed with the counter command.")


def _one_voted_on(body: dict[str, Any]) -> None:
    if ("proposal" in body) == ("claim" in body):
        raise ValueError("Name either the proposal or the claim you vote on.")


# --- the turn -----------------------------------------------------------------------------------------------------

DRAW = Body("The turn's draw: stage draw → play. An empty draw pile is first refilled by shuffling the discard "
            "pile.",
            {"count": whole_field("How many cards you draw, only where the server does not hold the number (the "
                                  "state's `unenforced` lists `draws_per_turn`): as the Special Rule says. By default "
                                  "the Basic Rules' one.", required=False, low=NUMBERS["draws_per_turn"][0],
                                  high=NUMBERS["draws_per_turn"][1])})
PLAY = Body(
    "Play a card from your hand: a Thing (onto another Thing with `onto`) or an Action, within the turn's limits, "
    "or out of turn when its text allows.",
    {"card": card_field("The card in your hand."),
     "onto": card_field("A Thing in play to play this Thing onto.", required=False),
     "target": seat_field("A seat the card is played on, where a card names one (an Action the server carries out "
                          "whole: its chosen player).", required=False),
     "targets": list_field(card_field(), "With `unread_effects` `claim` or `vote`: the cards an Action the server "
                           "carries out whole chooses (to discard, destroy, take or give), as many as it chooses; only "
                           "for such an Action.", required=False, unique=True),
     "draw": flag_field("`true`: take the draw a Thing's controller may make as it comes into play (\"its controller "
                        "may draw a card\"), where the server carries that out; only for such a Thing.",
                        required=False)},
    ({"card": CARD},))
USE = Body("Use a Thing's \"Action: …\" ability, in place of the turn's Action.",
           {"card": card_field("A Thing of yours in play whose text has \"Action:\"."),
            "target": card_field("With `unread_effects` `claim` or `vote`: the card the ability acts on, where the "
                                 "server carries it out (the legal moves list each).", required=False)},
           ({"card": CARD},))
DISCARD = Body("Discard: in the discard stage down to the hand limit, or (with `cause`) as a card's effect.",
               {"cards": cards_field("Different cards from your hand."), "cause": cause(required=False)},
               ({"cards": [CARD, OTHER_CARD]},))
END_TURN = Body("End the turn; refused while you hold more cards than the hand limit.")

# --- effect moves: carrying out a card's text (each names its `cause`) ---------------------------------------------

MOVE = Body(
    "Move a card you can see to a hand, the discard pile, into play or onto the draw pile.",
    {"cause": cause(), "card": card_field("A card you can see."),
     "to": choice_field(("hand", "discard", "in_play", "draw_top", "draw_bottom")),
     "seat": seat_field("Whose hand or play area (`hand`, `in_play`); yours when left out.", required=False),
     "onto": card_field("With `in_play`: a Thing in play to put this one onto.", required=False)},
    ({"cause": CARD, "card": OTHER_CARD, "to": "hand", "seat": 1},))
DESTROY = Body("Destroy a Thing in play: it goes to the discard pile, with the Things played onto it.",
               {"cause": cause(), "card": card_field("A Thing in play.")}, ({"cause": CARD, "card": OTHER_CARD},))
TAKE_RANDOM = Body(
    "Take a random card from another player's hand.",
    {"cause": cause(), "from": seat_field("The player to take from."),
     "opponent": flag_field("true when the card says an opponent (Team Dvorak: not a team-mate).", required=False)},
    ({"cause": CARD, "from": 1},))
GIVE = Body(
    "Give a card from your hand to another player: as a card's effect (with `cause`), or in Team Dvorak to a "
    "team-mate in place of the turn's Action (without `cause`).",
    {"card": card_field("The card in your hand."), "to": seat_field("The player who gets it."),
     "cause": cause(required=False), "opponent": flag_field("true when the card says an opponent.", required=False)},
    ({"card": CARD, "to": 2},))
COUNTER = Body(
    "Change a player's counter (points, Gold, …) by `delta`.",
    {"cause": cause(), "seat": seat_field("Whose counter."),
     "name": text_field("The counter, in snake_case.", pattern=SNAKE_CASE),
     "delta": whole_field("How much to add (negative to take away).")},
    ({"cause": CARD, "seat": 0, "name": "points", "delta": 2},))
ROLL = Body("Roll dice; the server rolls them and writes the result in the event.",
            {"cause": cause(), "dice": text_field("Like `2d6`: 1 to 99 dice of 2 to 9999 sides.",
                                                  pattern=r"^\d{1,2}d\d{1,4}$")},
            ({"cause": CARD, "dice": "2d6"},))
REVEAL = Body("Show everyone a card from your hand.", {"cause": cause(), "card": card_field("The card in your hand.")},
              ({"cause": CARD, "card": OTHER_CARD},))
SHUFFLE = Body("Shuffle the draw pile or the discard pile.",
               {"cause": cause(), "pile": choice_field(("draw", "discard")),
                "seat": seat_field("Multi-Deck Dvorak: whose pile; yours when left out.", required=False)},
               ({"cause": CARD, "pile": "draw"},))
SET_RULE = Body(
    "Change a rule parameter (hand_limit, draws_per_turn, …) as a card says, for as long as it says (`until`). The "
    "card cited must be yours to cite and speak of the parameter (else 409 `not_citable`).",
    {"cause": cause(),
     "param": text_field("The rule parameter (not `counters`).", pattern=SNAKE_CASE, check=_not_counters),
     "value": any_field("Its new value; required unless `deny` is true.", required=False),
     "deny": flag_field("true: the rule is denied (no value means none at all, or no).", required=False),
     "seat": seat_field("Only for this player; everyone when left out or null.", required=False, null=True),
     "card": text_field("Only for this card (one you can see).", required=False, null=True, blank=True),
     "until": choice_field(
         ("leaves_play", "end_of_turn", "ended"),
         "How long the change lasts: while the Thing cited stays in play (`leaves_play`, the default for a Thing of "
         "yours in play), until the end of the turn (`end_of_turn`, the default for a card just played) or until a "
         "player ends it (`ended`, the default for a Special Rule).", required=False),
     "turns": whole_field("With `end_of_turn`: how many turns end before the change does, this one counted (1).",
                          required=False, low=1, high=100)},
    ({"cause": CARD, "param": "hand_limit", "value": 7},))
END_RULE_EFFECT = Body(
    "End a rule change made with `set_rule` before its time: your own at any time; another player's with a card "
    "you may cite for its parameter (`cause`).",
    {"effect": whole_field("The change's number: its `id` in the state's `modifiers`.", low=1),
     "cause": cause(required=False)},
    ({"effect": 14},))

# --- the end of the game ------------------------------------------------------------------------------------------

WIN = Body("Win the game, as a card says (Team Dvorak: your team wins).",
           {"cause": cause(),
            "seats": list_field(seat_field(), "The winners, when the card names others than you; players still in.",
                                required=False, low=1, unique=True)},
           ({"cause": CARD},))
ELIMINATE = Body("Knock a player out, as a card says; the last player standing wins.",
                 {"cause": cause(), "seat": seat_field("The player knocked out."),
                  "opponent": flag_field("true when the card says an opponent.", required=False)},
                 ({"cause": CARD, "seat": 1},))
CONCEDE = Body("Leave the game; the last player standing wins.")

# --- the Creative Rules: proposals and votes ----------------------------------------------------------------------

PROPOSED_EFFECT_HELP = ("Its effect in the effect language (docs/effects.md), approved by the vote with the text; a "
                        "malformed one is 400 `invalid` naming its place (`card.effect[0].count`). A Special Rule's "
                        "`set_rule` effects set its `params`.")


def _words(help: str = "", *, required: bool = False) -> Any:
    return text_field(help, required=required, null=True, blank=True, high=MAX_TEXT)


def _title(*, required: bool = True) -> Any:
    return text_field("Not blank.", required=required, high=MAX_TITLE, trim=True)


CARD_TYPE = ("Thing", "Action")
NEW_CARD = object_field("NewCard", {
    "title": _title(), "type": choice_field(CARD_TYPE), "text": _words(), "flavor": _words(),
    "corner_value": _words(), "effect": effect_field(PROPOSED_EFFECT_HELP),
    "deck": seat_field("Multi-Deck Dvorak: the seat whose deck it goes into; yours when left out.", required=False)},
    doc="A new card's content.")
CARD_CHANGES = object_field("CardChanges", {
    "title": _title(required=False), "type": choice_field(CARD_TYPE, required=False), "text": _words(),
    "flavor": _words(), "corner_value": _words(), "effect": effect_field(PROPOSED_EFFECT_HELP)},
    "The fields that change: at least one.", doc="The fields of a card that an amendment changes.", at_least_one=True)
RULE_PARAMS_HELP = ("Machine-readable parameters: `vote_rule`, `counters` ({name: start}), or any rule parameter "
                    "(`hand_limit`, …).")
NEW_SPECIAL_RULE = object_field("NewSpecialRule", {
    "title": _title(), "text": _words(), "params": map_field(RULE_PARAMS_HELP, required=False, null=True),
    "effect": effect_field(PROPOSED_EFFECT_HELP)}, doc="A new Special Rule.")
RULE_CHANGES = object_field("RuleChanges", {
    "title": _title(required=False), "text": _words(), "params": map_field(required=False, null=True),
    "effect": effect_field(PROPOSED_EFFECT_HELP)}, "The fields that change: at least one.",
    doc="The fields of a Special Rule that an amendment changes.", at_least_one=True)
NAMED_CARD = card_field("The card's id; or leave it out and give `title`.", required=False)
NAMED_TITLE = text_field("With `amend_any_card`: the card's title, in place of its id.", required=False)
RULE_ID = text_field("The Special Rule's id.", low=1)

PROPOSE = Body.on("kind", {
    "card": Body("A new card, written on a card from the Blank Card Pile; or a rejected card again "
                 "(`from_rejected`).",
                 {"card": object_field("NewCard", NEW_CARD.fields, "The new card; required unless `from_rejected` "
                                       "is given.", doc=NEW_CARD.doc, required=False),
                  "from_rejected": card_field("A rejected card's id, proposed again as it was.", required=False)},
                 ({"card": {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}},)),
    "bundle": Body("Several new cards under one vote.",
                   {"cards": list_field(NEW_CARD, low=1, high=MAX_BUNDLE)},
                   ({"cards": [{"title": "Xenomorph Egg", "type": "Thing", "text": "Hatches."},
                               {"title": "Flamethrower", "type": "Thing", "text": "Destroy an Egg."}]},)),
    "special_rule": Body("A new Special Rule; its `params` take effect when it is accepted.",
                         {"rule": NEW_SPECIAL_RULE},
                         ({"rule": {"title": "Gold", "text": "Each player starts with 3 Gold.",
                                    "params": {"counters": {"gold": 3}}}},)),
    "amend": Body("Amend a card: one in play, in the discard pile or in your hand (with the game option "
                  "`amend_any_card`, any card of the deck, named by `title` when no one can see it).",
                  {"card": NAMED_CARD, "title": NAMED_TITLE, "changes": CARD_CHANGES},
                  ({"card": CARD, "changes": {"text": "Destroy all Actions."}},)),
    "repeal": Body("Repeal a card: it leaves the game entirely. Named as for `amend`.",
                   {"card": NAMED_CARD, "title": NAMED_TITLE}, ({"card": CARD},)),
    "amend_rule": Body("Amend a Special Rule.", {"rule": RULE_ID, "changes": RULE_CHANGES},
                       ({"rule": "house-rule-1", "changes": {"text": "Be very nice."}},)),
    "repeal_rule": Body("Repeal a Special Rule.", {"rule": RULE_ID}, ({"rule": "house-rule-1"},)),
}, "A proposal under the Creative Rules (creative games only; at any time, also before the start): the game stops "
   "(status `voting`) until it is decided.")
VOTE = Body(
    "A vote on the open proposal (`proposal`), or on an open claim put to the vote (`claim`), by each player the "
    "vote rule gives a vote.",
    {"proposal": whole_field("The proposal's number (or `claim`).", required=False, low=1),
     "claim": whole_field("The claim's number, to vote on a claim.", required=False, low=1),
     "approve": flag_field("true for, false against.")},
    ({"proposal": 1, "approve": True}, {"claim": 1, "approve": False}), check=_one_voted_on)
WITHDRAW = Body("Its author takes a proposal back.", {"proposal": whole_field("The proposal's number.", low=1)},
                ({"proposal": 1},))
TOP_UP_BLANK_CARDS = Body(
    "Top up the Blank Card Pile of a creative game: with a fresh pack once it is empty (option "
    "`blank_cards_top_up`: `when_empty`, the default), as many as the game began with; or, at any time, as a card or "
    "Special Rule that speaks of blank cards says (`cause`, with `count`).",
    {"cause": card_field("The card you can see, or the Special Rule, that says to top it up.", required=False,
                         names="a card you can see or a Special Rule"),
     "count": whole_field("With `cause`: how many blank cards it adds.", required=False, low=1, high=1000)},
    ({}, {"cause": "rule-1", "count": 10}))

# --- claims: moves citing a card the server does not understand (option `unread_effects`) -------------------------

ACCEPT = Body("Accept an open claim (a move citing a card the server does not understand): once every other player "
              "still in the game accepts, its move is carried out.",
              {"claim": whole_field("The claim's number.", low=1)}, ({"claim": 1},))
DISPUTE = Body("Dispute an open claim: it goes to a vote under the game's vote rule (claimant for, you against).",
               {"claim": whole_field("The claim's number.", low=1)}, ({"claim": 1},))

# --- abandoning the game (``abandon``) ------------------------------------------------------------------------------

ABANDON = Body(
    "Agree to abandon the game \"through stalemate or boredom\" (while it is played): once every player still in the "
    "game agrees, it ends `abandoned`, with no winner, and a creative game's Aftermath opens as after a win. Sent "
    "again once the players who had not agreed have all left the game, it abandons the game. `withdraw`: take your "
    "agreement back.",
    {"withdraw": flag_field("true to take back your agreement.", required=False)},
    ({}, {"withdraw": True}))
