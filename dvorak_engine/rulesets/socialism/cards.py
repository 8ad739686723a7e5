"""Socialism's cards: what each card's text does, in a table keyed by the card's title as the deck names it.

Card texts are the deck's free prose; the engine carries each one out itself, by its title: ``USERS`` says how a
User invites and accepts invitations, ``ACTIONS`` what an Action selects and where it goes once played. A deck
with a card whose title is in neither table (a User with no text, such as John Smith, is a plain User) cannot be
played: the game is refused when it is created.

Acceptance (``needs``): an invitation is accepted when the die shows one of the numbers it needs. The User's own
text decides first ("unless contradicted by their own text"), then the inviting Member's text, then an IPO in
front of the inviting network ("unless affected by other card text"), then the basic rule (a spam invitation on
a 6, a personal one on a 4, 5 or 6). A New feature in front of the inviting network adds the 1 to whatever else
is accepted, but never turns a refusal into an acceptance: a denial beats a permission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The kinds of invitation.
AUTO, SPAM, PERSONAL = "auto", "spam", "personal"
# The numbers of the die.
ALL = (1, 2, 3, 4, 5, 6)
NEVER: tuple[int, ...] = ()
# "On a 6, place one of your colored tokens on the card"; "On a 4, 5 or a 6, place one of your colored tokens".
SPAM_NEEDS = (6,)
PERSONAL_NEEDS = (4, 5, 6)
# Jimmy Block's removal: "This is successful on a 4, 5, or 6."
BLOCK_NEEDS = (4, 5, 6)
# IPO: "Roll once for each User in play, each of whom joins your network on a 6"; and afterwards "your network's
# personal invitations are only accepted on a 6".
IPO_NEEDS = (6,)
# "One of your current Members may personally invite up to two of their Friends."
FRIENDS_PER_INVITATION = 2

USER, ACTION = "User", "Action"


@dataclass(frozen=True)
class UserText:
    """What a User's text changes of the basic rules; a User with no text changes nothing.

    ``identities``: the names of the separate identities on one card (one by default, named by the title);
    ``invites``: how many Friends one personal invitation may name (None: all of them); ``invites_all``: every
    Friend not yet on the network must be named; ``never_invites``: never the Member of a personal invitation;
    ``friends_of_friends``: may personally invite Friends of Friends too; ``sends``: what the Friends this User
    personally invites need, unless their own text says otherwise; ``accepts``: what this User needs, by kind of
    invitation, whoever invites; ``one_site``: a Member of one network at a time; ``blocks``: may remove a token
    from a Friend instead of personally inviting; ``super_logout``: goes to the hand of whoever makes her leave
    every network.
    """

    reading: str = ""
    identities: tuple[str, ...] = ()
    invites: int | None = FRIENDS_PER_INVITATION
    invites_all: bool = False
    never_invites: bool = False
    friends_of_friends: bool = False
    sends: tuple[int, ...] | None = None
    accepts: dict[str, tuple[int, ...]] = field(default_factory=dict)
    one_site: bool = False
    blocks: bool = False
    super_logout: bool = False


PLAIN_USER = UserText(reading="No text: the basic rules.")

USERS: dict[str, UserText] = {
    "Sheila Callingworth": UserText(reading="Personally invites up to three Friends.", invites=3),
    "Billy Luddite": UserText(
        reading="Personally invites one Friend only (OMG CAT PIC too, whose \"all of their friends\" does not "
        "outdo his own text: one Friend, drawn at random by the server).",
        invites=1,
    ),
    "Agnse Smtih": UserText(
        reading="A personal invitation by Agnse names every one of her Friends not yet on the network; each is "
        "accepted on a 5 or 6.",
        invites=None,
        invites_all=True,
        sends=(5, 6),
    ),
    "THE AVENGATOR": UserText(
        reading="Never the Member of a personal invitation; never accepts a personal invitation.",
        never_invites=True,
        accepts={PERSONAL: NEVER},
    ),
    "Debbie Webceleb": UserText(
        reading="Accepts every personal invitation, whatever the die shows.", accepts={PERSONAL: ALL}
    ),
    "Phillip Connoisseur": UserText(
        reading="Accepts a personal invitation on a 5 or 6, never a spam invitation; Friends he personally "
        "invites accept on a 3, 4, 5 or 6 unless their own text says otherwise.",
        sends=(3, 4, 5, 6),
        accepts={PERSONAL: (5, 6), SPAM: NEVER},
    ),
    "Fa3ryAlly": UserText(
        reading="Accepts every invitation, spam and personal, whatever the die shows.",
        accepts={PERSONAL: ALL, SPAM: ALL},
    ),
    "Hater McFriendless": UserText(reading="Never accepts a personal invitation.", accepts={PERSONAL: NEVER}),
    "Becca Singleton": UserText(
        reading="Whenever she joins a network, every other network's token on her card goes back to its owner.",
        one_site=True,
    ),
    "Jimmy Block": UserText(
        reading="In place of his personal invitation, his network may try to remove from one Friend a token of a "
        "colour that is not on Jimmy's card: the `block` command, successful on a 4, 5 or 6.",
        blocks=True,
    ),
    "Alan Sudo/Gerald Sock": UserText(
        reading="Two identities on one card, Alan Sudo and Gerald Sock, each invited and each a Member on its "
        "own: two tokens of each colour at most, one on each. They are not Friends of each other; both "
        "are Friends of every adjacent card's Users.",
        identities=("Alan Sudo", "Gerald Sock"),
    ),
    "John Smith": PLAIN_USER,
    "Rachel Lurk": UserText(reading="Never the Member of a personal invitation.", never_invites=True),
    "Alan Dale": UserText(
        reading="His personal invitation may name Friends of his Friends as well as his Friends (up to two).",
        friends_of_friends=True,
    ),
    "Mary Su": UserText(
        reading="Her personal invitation may name any number of her Friends, all of them at once.",
        invites=None,
    ),
    "Sloan Jenkins": UserText(
        reading="Super-logout: when a player's card (A/S/L?, Lost Password) or Jimmy Block makes her leave the "
        "last network she was on, her card leaves the grid and goes into that player's hand.",
        super_logout=True,
    ),
    "Lola Lowinfo": UserText(
        reading="Accepts every spam invitation, whatever the die shows; never accepts a personal invitation.",
        accepts={SPAM: ALL, PERSONAL: NEVER},
    ),
}


@dataclass(frozen=True)
class ActionText:
    """What an Action selects when it is played (``fields`` of the ``play`` command, in order) and where it goes
    afterwards: ``stays`` ``"self"`` (in front of its player), ``"target"`` (in front of the player it names),
    or None (the discard pile). ``out_of_turn``: played only out of turn."""

    reading: str
    fields: tuple[str, ...] = ()
    stays: str | None = None
    out_of_turn: bool = False


ACTIONS: dict[str, ActionText] = {
    "Stellar Status": ActionText(
        reading="`user`: a User on your network. Every User on the adjacent cards joins your network, no die "
        "rolled.",
        fields=("user",),
    ),
    "Viral Post": ActionText(
        reading="`user`: a User on your network; the Viral Post token goes on that User's card, and the card stays "
        "in front of you while the token is on the grid. At the beginning of each turn (everyone's), the "
        "token moves to a new user, read as a User on an adjacent card who is not on your network, and that "
        "User joins your network: the one you choose (`move_viral_post`) when there are several, or, with "
        "`options.viral_post` `random`, one drawn by the server; with no such User it stays where it is.",
        fields=("user",),
        stays="self",
    ),
    "Lost Password": ActionText(
        reading="`user`: a User card on the grid (its card id). It leaves the grid for the discard pile, every "
        "token on it back to its owner.",
        fields=("user",),
    ),
    "OMG CAT PIC": ActionText(
        reading="`user`: a User on your network. Each of that User's Friends on your network (who may personally "
        "invite: not THE AVENGATOR, not Rachel Lurk) personally invites every one of their own Friends "
        "not yet on your network (Billy one), one die each; with `options.cat_pic` `up_to_two`, as many as "
        "a personal invitation of theirs may name, drawn by the server.",
        fields=("user",),
    ),
    "A/S/L?": ActionText(
        reading="`user`: any User; `friend`: a User on an adjacent card. The friend's tokens of every colour "
        "also on the user's identity go back to their owners.",
        fields=("user", "friend"),
    ),
    "IPO": ActionText(
        reading="One die for each User in play not yet on your network, joining it on a 6. The card stays in "
        "front of you: your personal invitations then need a 6, unless another card's text says "
        "otherwise.",
        stays="self",
    ),
    "New feature": ActionText(
        reading="Stays in front of you: while there, your invitations are also accepted on a 1.", stays="self"
    ),
    "Change of Management": ActionText(
        reading="`remove`: an Action card in play, in front of any player; it goes to the discard pile (a Viral "
        "Post's token with it).",
        fields=("remove",),
    ),
    "SMTP Block List": ActionText(
        reading="`target`: a player (a seat). The card stays in front of that player, who may not spam invite "
        "(Industrial Espionage's invitations included) while it is there.",
        fields=("target",),
        stays="target",
    ),
    "The greatest form of flattery": ActionText(
        reading="`copy`: an Action card in play; the play then takes that card's own fields, and this card acts "
        "as that card, staying in play where that card would.",
        fields=("copy",),
    ),
    "Sherman Act": ActionText(
        reading="Played only out of turn, while another player's card is being played (the Sherman Act window): "
        "that card and this one go to the discard pile, and the card does nothing.",
        out_of_turn=True,
    ),
    "Industrial Espionage": ActionText(
        reading="`target`: another player. You spam invite every User on that player's network not yet on "
        "yours, one die each.",
        fields=("target",),
    ),
}

SHERMAN_ACT = "Sherman Act"
FLATTERY = "The greatest form of flattery"
VIRAL_POST = "Viral Post"
IPO = "IPO"
NEW_FEATURE = "New feature"
SMTP_BLOCK_LIST = "SMTP Block List"


def user_text(title: str) -> UserText:
    return USERS.get(title, PLAIN_USER)


def identity_names(title: str) -> tuple[str, ...]:
    """The identities on a User card: its title, or the separate identities its text names."""
    return user_text(title).identities or (title,)


def unreadable_cards(cards: list[dict[str, Any]]) -> list[str]:
    """The titles of a deck's cards this ruleset cannot play: an Action not in ``ACTIONS``, a User with text not
    in ``USERS``, a card neither a User nor an Action."""
    unreadable = []
    for card in cards:
        title, kind, text = card.get("title", ""), card.get("type"), (card.get("text") or "").strip()
        known = (kind == ACTION and title in ACTIONS) or (kind == USER and (title in USERS or not text))
        if not known:
            unreadable.append(title)
    return sorted(set(unreadable))


def needs(
    how: str, target: UserText, inviter: UserText | None, *, ipo: bool, new_feature: bool
) -> tuple[int, ...]:
    """The numbers of the die on which an invitation of ``how`` (``spam`` or ``personal``) is accepted."""
    own = target.accepts.get(how)
    if own is not None:
        accepted = own
    elif how == PERSONAL and inviter is not None and inviter.sends is not None:
        accepted = inviter.sends
    elif how == PERSONAL:
        accepted = IPO_NEEDS if ipo else PERSONAL_NEEDS
    else:
        accepted = SPAM_NEEDS
    if new_feature and accepted and 1 not in accepted:
        accepted = (1, *accepted)
    return accepted
