"""What the Invitation phase allows a network: whom it may invite, and how.

"During the Invitation phase, you have a few basic options, any of which may be modified by card text": the
automatic invitation of the User you just played, a spam invitation of any User in play, a personal invitation
by one of your Members of up to two of their Friends. How many of them one turn allows the seed does not say: the
reading is each at most once a turn, in any order (``options.invitations`` ``each``), or one of them a turn
(``one``). Jimmy Block's removal takes the place of the personal invitation.
"""

from __future__ import annotations

from dvorak_engine.rulesets.socialism.board import (
    SocialismState,
    friends,
    friends_of_friends,
    identities,
    identity_on_grid,
    network,
    placed,
    reachable_cards,
)
from dvorak_engine.rulesets.socialism.cards import user_text
from dvorak_engine.rulesets.socialism.rules import blocked_from_spam, title_of_identity


def auto_choices(table: SocialismState, seat: int) -> list[str]:
    """ "You may automatically invite a User that you just played to join your network. Provided that User was
    played this turn": its identities not yet on your network (either of Alan Sudo/Gerald Sock)."""
    turn = table.turn
    card = placed(table, turn.played_user) if turn is not None and turn.played_user else None
    if card is None:
        return []
    return [i.id for i in card.identities if seat not in i.members]


def spam_choices(table: SocialismState, seat: int) -> list[str]:
    """ "You may spam invite any User in play": any identity not on your network, unless an SMTP Block List is in
    front of you or a gap in the grid lies between it and your network."""
    if blocked_from_spam(table, seat):
        return []
    cards = reachable_cards(table, seat)
    return [
        i.id for p, i in identities(table) if seat not in i.members and (cards is None or p.card in cards)
    ]


def personal_pool(table: SocialismState, seat: int, member: str) -> list[str] | None:
    """The Users ``member`` may personally invite for ``seat``'s network (Friends, and Friends of Friends for Alan
    Dale, not yet on the network); None when it is not a Member of the network or never personally invites."""
    if member not in network(table, seat):
        return None
    text = user_text(title_of_identity(table, member))
    if text.never_invites:
        return None
    reach = friends_of_friends(table, member) if text.friends_of_friends else friends(table, member)
    return [identity for identity in reach if seat not in identity_on_grid(table, identity)[1].members]


def personal_sizes(table: SocialismState, member: str, pool: list[str]) -> list[int]:
    """How many Friends one personal invitation by ``member`` may name: "up to two" (Sheila three, Billy one, Mary
    Su all); Agnse names all of them."""
    text = user_text(title_of_identity(table, member))
    if not pool:
        return []
    if text.invites_all:
        return [len(pool)]
    most = len(pool) if text.invites is None else min(text.invites, len(pool))
    return list(range(1, most + 1))


def block_choices(table: SocialismState, seat: int) -> list[tuple[str, str, int]]:
    """Jimmy Block's removals for ``seat``: (Jimmy on its network, a Friend, a colour on the Friend that is not on
    Jimmy's card)."""
    found = []
    for member in network(table, seat):
        if not user_text(title_of_identity(table, member)).blocks:
            continue
        jimmy = identity_on_grid(table, member)[0]
        on_jimmy = {m for i in jimmy.identities for m in i.members}
        for friend in friends(table, member):
            for color in identity_on_grid(table, friend)[1].members:
                if color not in on_jimmy:
                    found.append((member, friend, color))
    return found
