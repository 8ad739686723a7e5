"""What each card does when it is played: what it may select (``selections``), and its effect (``resolve``), by
the card's title (``cards.ACTIONS``; a User is placed on the grid).

A play's selection is the fields of its ``play`` command (``x`` and ``y`` for a User; ``user``, ``friend``,
``target``, ``remove``, ``copy`` for an Action, as ``cards.ACTIONS`` lists them). ``selections`` lists every
selection the card's words allow now; a play is accepted with one of them, and an Action with nothing to select
(a Stellar Status with no User on your network) is played with none, and does nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dvorak_engine.rulesets.socialism.board import (
    SocialismState,
    actions_in_play,
    find_identity,
    friends,
    identities,
    identity_on_grid,
    is_user,
    network,
    open_cells,
)
from dvorak_engine.rulesets.socialism.cards import (
    ACTIONS,
    FLATTERY,
    FRIENDS_PER_INVITATION,
    IPO_NEEDS,
    SHERMAN_ACT,
    SPAM,
    VIRAL_POST,
    user_text,
)
from dvorak_engine.rulesets.socialism.options import ALL_FRIENDS, cat_pic
from dvorak_engine.rulesets.socialism.rules import Unfolding, title_of_identity

# Every field a play may select, in the order they are checked.
SELECTION_FIELDS = ("x", "y", "copy", "user", "friend", "target", "remove")
Selection = dict[str, Any]


def _members(table: SocialismState, seat: int) -> list[Selection]:
    return [{"user": identity} for identity in network(table, seat)]


def _selections_by_title(table: SocialismState, seat: int, title: str, seats: list[int]) -> list[Selection]:
    if title in ("Stellar Status", VIRAL_POST, "OMG CAT PIC"):
        return _members(table, seat)
    if title == "Lost Password":
        return [{"user": p.card} for p in table.grid]
    if title == "A/S/L?":
        return [
            {"user": i.id, "friend": friend} for _, i in identities(table) for friend in friends(table, i.id)
        ]
    if title == "Change of Management":
        return [{"remove": card} for card in actions_in_play(table)]
    if title == "SMTP Block List":
        return [{"target": other} for other in seats]
    if title == "Industrial Espionage":
        return [{"target": other} for other in seats if other != seat]
    if title == FLATTERY:
        found = []
        for card in actions_in_play(table):
            copied = _selections_by_title(table, seat, table.title(card), seats)
            found += [{"copy": card, **selection} for selection in copied or [{}]]
        return found
    return []


def selections(table: SocialismState, seat: int, card_id: str, seats: list[int]) -> list[Selection]:
    """Every selection a play of this card may make now (``[{}]``: the card selects nothing, or has nothing to
    select and does nothing). None for a Sherman Act in its player's own turn: it is played out of turn."""
    if is_user(table, card_id):
        return [{"x": x, "y": y} for x, y in open_cells(table)]
    title = table.cards[card_id].title
    if ACTIONS[title].out_of_turn:
        return []
    return _selections_by_title(table, seat, title, seats) or [{}]


def selection_of(command: dict[str, Any]) -> Selection:
    return {name: command[name] for name in SELECTION_FIELDS if name in command}


def wrong_field(selection: Selection, allowed: list[Selection]) -> tuple[str, list[Any]]:
    """The first field of a selection that none of the allowed selections agrees with, and what it could be."""
    candidates = allowed
    for name in SELECTION_FIELDS:
        values = [option.get(name) for option in candidates]
        if selection.get(name) not in values:
            return name, [value for value in dict.fromkeys(values) if value is not None]
        candidates = [option for option in candidates if option.get(name) == selection.get(name)]
    return "card", []


# --- effects ------------------------------------------------------------------------------------------------------


def _stellar_status(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Select a User on your network. That user's status message for the day is so compelling that everyone
    adjacent will join your network, as well." """
    for friend in friends(u.table, selection["user"]):
        u.join(seat, friend, "effect", card)


def _viral_post(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Select a User on your network. Put a Viral Post token on that user." """
    on = identity_on_grid(u.table, selection["user"])[0].card
    u.add("social.viral_moved", {"card": card, "owner": seat, "from": None, "to": on, "user": None})


def _lost_password(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Remove a user from the board." """
    u.remove_user(selection["user"], cause=card, by=seat)


def _cat_pic(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Select a user on your network, who posts a cat picture. All of that user's Friends who are also on your
    network immediately send personal invitations to all of their friends so that they can see the adorable cat
    picture." Each sender invites every one of its Friends not yet on your network (``options.cat_pic`` ``all``),
    or no more than one personal invitation of its may name (``up_to_two``: how the server read it first)."""
    every = cat_pic(u.state) == ALL_FRIENDS
    senders = [friend for friend in friends(u.table, selection["user"]) if friend in network(u.table, seat)]
    for sender in senders:
        text = user_text(title_of_identity(u.table, sender))
        if text.never_invites:
            continue
        invited = [friend for friend in friends(u.table, sender) if friend not in network(u.table, seat)]
        most = text.invites
        if every and most is not None and most >= FRIENDS_PER_INVITATION:
            most = None  # "all of their friends" outdoes "up to two" (and Sheila's three), not Billy's one
        if most is not None and len(invited) > most:
            # Billy "will only personally invite one Friend" (and under ``up_to_two`` every sender its limit):
            # which ones, the server draws at random.
            picked = []
            for _ in range(most):
                picked.append(invited.pop(u.rng.randbelow(len(invited))))
            u.add(
                "social.picked", {"by": sender, "from": [*picked, *invited], "picked": picked, "cause": card}
            )
            invited = picked
        u.personal_invitation(seat, sender, invited, cause=card)


def _asl(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Select a user. An adjacent user leaves all of that user's networks." """
    user = identity_on_grid(u.table, selection["user"])[1]
    friend = identity_on_grid(u.table, selection["friend"])[1]
    for color in [member for member in friend.members if member in user.members]:
        u.leave(color, friend.id, cause=card, by=seat)


def _ipo(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Roll once for each User in play, each of whom joins your network on a 6." """
    for _, identity in identities(u.table):
        if u.over:
            return
        if (
            seat not in identity.members
            and find_identity(u.table, identity.id) is not None
            and u.roll(seat, "ipo", IPO_NEEDS, user=identity.id, cause=card)
        ):
            u.join(seat, identity.id, "effect", card)


def _change_of_management(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Remove an action card from play." """
    u.add("social.action_removed", {"card": selection["remove"], "cause": card})


def _industrial_espionage(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Choose another network and spam invite all of its users." """
    for identity in network(u.table, selection["target"]):
        u.invite(seat, SPAM, identity, cause=card)


def _flattery(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """ "Pick an action card in play. The greatest form of flattery copies its text and acts as the original
    card." The copy takes the original's title from now on (``acting_as``), and its effect now."""
    title = u.table.title(selection["copy"])
    u.add("social.copied", {"card": card, "copy": selection["copy"], "acts_as": title})
    copied = {name: value for name, value in selection.items() if name != "copy"}
    if copied or not ACTIONS[title].fields:
        EFFECTS[title](u, seat, card, copied)


def _nothing(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """IPO's and New feature's lasting effects, and SMTP Block List's, are those of a card in front of a player."""


EFFECTS: dict[str, Callable[[Unfolding, int, str, Selection], None]] = {
    "Stellar Status": _stellar_status,
    VIRAL_POST: _viral_post,
    "Lost Password": _lost_password,
    "OMG CAT PIC": _cat_pic,
    "A/S/L?": _asl,
    "IPO": _ipo,
    "New feature": _nothing,
    "Change of Management": _change_of_management,
    "SMTP Block List": _nothing,
    FLATTERY: _flattery,
    SHERMAN_ACT: _nothing,
    "Industrial Espionage": _industrial_espionage,
}


def resolve_action(u: Unfolding, seat: int, card: str, selection: Selection) -> None:
    """An Action played: its instructions followed (unless it had nothing to select), then the card goes where its
    text says: "follow the instructions on the card, and then discard it", or "Leave this card in front of
    you"."""
    title = u.table.cards[card].title
    followed = not (ACTIONS[title].fields and not selection)
    if followed:
        EFFECTS[title](u, seat, card, selection)
    if u.over:
        return
    acts_as = u.table.title(card)
    stays = ACTIONS[acts_as].stays if followed else None
    if acts_as == VIRAL_POST and not any(post.card == card for post in u.table.viral_posts):
        stays = None  # a Viral Post with nothing to go on has no token to keep it in play
    if stays == "self":
        u.add("social.kept", {"card": card, "seat": seat})
    elif stays == "target":
        u.add("social.kept", {"card": card, "seat": selection["target"]})
    else:
        u.add("social.discarded", {"card": card})


__all__ = ["SELECTION_FIELDS", "resolve_action", "selection_of", "selections", "wrong_field"]
