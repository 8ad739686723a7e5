"""The bodies of Socialism's commands, declared once: the engine checks each body by its declaration before the
handler runs, and the API's schema and first check are made from the same declarations (``docs/socialism.md``,
"Commands").

Cards are named by their ids, Users' identities by theirs (a card's id; ``<id>.1`` and ``<id>.2`` for Alan
Sudo/Gerald Sock's two). What depends on the game (whose turn, which card is in your hand, which selection a card
allows now, whom you may invite) stays the handlers' to decide.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from dvorak_engine.bodies import (
    Body,
    Field,
    card_field,
    choice_field,
    invalid,
    list_field,
    seat_field,
    text_field,
    whole_field,
)
from dvorak_engine.rulesets.socialism.cards import AUTO, PERSONAL, SPAM

USER = "2bced85c5630c626"
OTHER_USER = "f8aa6a1bd4131611"
MEMBER = "ddd88b8c36841189"
ACTION = "58b175124280619a"
# The refusal of a field that names a card or an identity, in the handlers' words.
NAMES = "a card or a User"
NAMED = "\"{name}\" must name " + NAMES + "."
FRIENDS_REFUSAL = "\"friends\" is a list of different Users."


def _identity(help: str, *, required: bool = True, null: bool = False) -> Field:
    """An identity's id (or a card's): a non-empty text."""
    return text_field(help, required=required, null=null, refusal=NAMED)


# --- the turn -----------------------------------------------------------------------------------------------------

DRAW = Body("The turn's draw (\"Remove the top card from the deck\"): stage draw → play. An empty draw pile is "
            "first refilled by shuffling the discard pile.")

PLAY = Body(
    "Play a card from your hand in your turn's play stage: a User onto an empty cell of the grid (`x`, `y`), or an "
    "Action with what it selects (`user`, `friend`, `target`, `remove`, `copy`, as the card says). Out of turn, "
    "while another player's card waits in the Sherman Act window, play a Sherman Act (`card` alone) to cancel it.",
    {"card": card_field("The card in your hand."),
     "x": whole_field("A User: the column of the empty cell, adjacent to a card on the grid (the first User goes "
                      "at 0, 0).", required=False),
     "y": whole_field("A User: the row of that cell.", required=False),
     "copy": card_field("The greatest form of flattery: the Action in play it copies (then that card's own "
                        "selection).", required=False),
     "user": card_field("Stellar Status, Viral Post, OMG CAT PIC: one of your Members (an identity); Lost Password: "
                        "a User card on the grid (its card id); A/S/L?: any identity.", required=False, names=NAMES),
     "friend": card_field("A/S/L?: an identity on a card adjacent to `user`'s, who leaves `user`'s networks.",
                          required=False, names=NAMES),
     "target": seat_field("SMTP Block List: a player (yourself too); Industrial Espionage: another player.",
                          required=False),
     "remove": card_field("Change of Management: the Action in play (in front of any player) it removes.",
                          required=False)},
    ({"card": USER, "x": 0, "y": 0}, {"card": ACTION, "user": MEMBER}))

PASS = Body("Out of turn, in the Sherman Act window: let the card being played take effect; once every other "
            "player has passed, it does.")

# --- the Invitation phase -----------------------------------------------------------------------------------------


def _invitation(body: dict[str, Any]) -> None:
    """``auto`` and ``spam`` name a ``user``; ``personal`` a ``member`` and its ``friends``."""
    if body["how"] in (AUTO, SPAM):
        if body.get("user") is None:
            raise invalid(NAMED.replace("{name}", "user"), "user")
        return
    if body.get("member") is None:
        raise invalid(NAMED.replace("{name}", "member"), "member")
    if body.get("friends") is None:
        raise invalid(FRIENDS_REFUSAL, "friends")


INVITE = Body(
    "One of the three invitations of the Invitation phase, each once a turn: `auto` (the User you played this turn "
    "joins, no die), `spam` (any User in play, joining on a 6) or `personal` (one of your Members invites its "
    "Friends, each joining on a 4, 5 or 6).",
    {"how": choice_field((AUTO, SPAM, PERSONAL), "Which invitation."),
     "user": _identity("`auto` and `spam`: the User (an identity) invited.", required=False, null=True),
     "member": _identity("`personal`: the Member of your network who invites.", required=False, null=True),
     # Null, or left out, unless the invitation is personal: the handler reads it only then.
     "friends": replace(list_field(text_field(blank=True), "`personal`: the Friends (identities) the Member "
                                   "invites, different ones: up to two, as many as the Member's card says.",
                                   required=False, unique=True, refusal=FRIENDS_REFUSAL), null=True)},
    ({"how": AUTO, "user": USER}, {"how": SPAM, "user": OTHER_USER},
     {"how": PERSONAL, "member": MEMBER, "friends": [USER, OTHER_USER]}),
    check=_invitation)

BLOCK = Body(
    "Jimmy Block, on your network, tries to remove a token colour that is not on his own card from one of his "
    "Friends (successful on a 4, 5 or 6), in place of the turn's personal invitation.",
    {"member": _identity("Jimmy Block (his identity), on your network."),
     "friend": _identity("A Friend of his (an identity)."),
     "color": whole_field("The colour to remove: the seat whose token it is, on the Friend and not on Jimmy's "
                          "card.")},
    ({"member": MEMBER, "friend": USER, "color": 1},))

END_TURN = Body("End the Invitation phase and the turn: play proceeds clockwise.")

# --- the beginning of a turn --------------------------------------------------------------------------------------

MOVE_VIRAL_POST = Body(
    "At the beginning of a turn, your Viral Post \"moves to a new user, who joins your network\": the new user "
    "you choose for it, when it has several (`board.viral_choice`; `options.viral_post` `chosen`).",
    {"user": _identity("The new user (an identity), one of `board.viral_choice.choices`: on a card adjacent to "
                       "the Viral Post's, not yet on your network.")},
    ({"user": USER},))
