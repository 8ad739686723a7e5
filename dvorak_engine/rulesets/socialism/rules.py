"""The rules every card's effect is made of: a die rolled, an invitation sent, a User joining or leaving a network,
a User leaving the grid, and the end of the game.

A command's events are produced one at a time by an ``Unfolding``, which folds each into a working state so the
next step sees its result (a User who just joined is not invited again; the game that just ended goes no
further). Every die is rolled here, from the ``rng`` the server decides with, and written into its event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dvorak_engine.ruleset import Unfolding as KitUnfolding
from dvorak_engine.rulesets.socialism.board import (
    SocialismState,
    cards_in_front,
    find_identity,
    identity_on_grid,
    on_grid,
    reachable,
)
from dvorak_engine.rulesets.socialism.cards import (
    BLOCK_NEEDS,
    IPO,
    NEW_FEATURE,
    PERSONAL,
    SMTP_BLOCK_LIST,
    SPAM,
    needs,
    user_text,
)
from dvorak_engine.state import ACTIVE

if TYPE_CHECKING:
    pass

DIE = 6
# "The first player to place all their tokens wins" (the Winning section: "until one player has exhausted all
# twenty tokens, and thus completed their social network").
WON = "placed all their tokens: their social network is complete"


def title_of_identity(table: SocialismState, identity_id: str) -> str:
    return table.cards[identity_on_grid(table, identity_id)[0].card].title


def blocked_from_spam(table: SocialismState, seat: int) -> bool:
    """SMTP Block List: "As long as it's there, that player may not spam invite users"."""
    return SMTP_BLOCK_LIST in cards_in_front(table, seat)


def can_spam(table: SocialismState, seat: int, identity_id: str) -> bool:
    """Whether ``seat`` may spam invite this identity: not blocked, not already a Member, not across a gap."""
    found = find_identity(table, identity_id)
    return (
        found is not None
        and seat not in found[1].members
        and not blocked_from_spam(table, seat)
        and reachable(table, seat, identity_id)
    )


def invitation_needs(
    table: SocialismState, seat: int, how: str, identity_id: str, by: str | None = None
) -> tuple[int, ...]:
    """The die numbers on which ``seat``'s invitation of this identity is accepted (``by``: the inviting Member
    of a personal invitation)."""
    front = cards_in_front(table, seat)
    inviter = user_text(title_of_identity(table, by)) if by is not None else None
    return needs(
        how,
        user_text(title_of_identity(table, identity_id)),
        inviter,
        ipo=IPO in front,
        new_feature=NEW_FEATURE in front,
    )


class Unfolding(KitUnfolding):
    """The kit's unfolding (``dvorak_engine.ruleset.Unfolding``) with Socialism's own steps: dice, and the rest."""

    @property
    def table(self) -> SocialismState:
        result: SocialismState = self.state.table
        return result

    @property
    def over(self) -> bool:
        return self.state.status != ACTIVE

    # --- dice ---------------------------------------------------------------------------------------------------

    def roll(
        self,
        seat: int,
        what: str,
        accepted: tuple[int, ...],
        *,
        user: str,
        by: str | None = None,
        cause: str | None = None,
        color: int | None = None,
    ) -> bool:
        """One six-sided die, rolled by the server and written into ``social.die_rolled``; whether it succeeded."""
        roll = self.rng.randbelow(DIE) + 1
        success = roll in accepted
        data = {
            "seat": seat,
            "what": what,
            "user": user,
            "by": by,
            "cause": cause,
            "roll": roll,
            "needs": list(accepted),
            "success": success,
        }
        if color is not None:
            data["color"] = color
        self.add("social.die_rolled", data)
        return success

    # --- networks -----------------------------------------------------------------------------------------------

    def join(self, seat: int, identity_id: str, how: str, cause: str | None) -> None:
        """A User joins ``seat``'s network: one of its tokens goes on the card. Becca leaves every other network
        as she joins; the last token placed wins the game."""
        if self.over:
            return
        found = find_identity(self.table, identity_id)
        if found is None or seat in found[1].members or self.table.player(seat).tokens <= 0:
            return
        self.add("social.joined", {"seat": seat, "user": identity_id, "how": how, "cause": cause})
        card, _ = identity_on_grid(self.table, identity_id)
        if user_text(self.table.cards[card.card].title).one_site:
            # Becca: "When she accepts any invitation, discard all other tokens from her card."
            for identity in card.identities:
                for other in identity.members:
                    if other != seat:
                        self.leave(other, identity.id, cause=card.card, by=None)
        if self.table.player(seat).tokens == 0:
            self.add("social.finished", {"winners": [seat], "reason": WON})

    def leave(self, seat: int, identity_id: str, *, cause: str | None, by: int | None) -> None:
        """A User leaves ``seat``'s network: the token goes back to its owner. Sloan's Super-logout: if ``by``'s
        card made her leave the last network she was on, she goes into ``by``'s hand."""
        found = find_identity(self.table, identity_id)
        if found is None or seat not in found[1].members:
            return
        self.add("social.left", {"seat": seat, "user": identity_id, "cause": cause})
        card = on_grid(self.table, found[0].card)
        if (
            by is not None
            and user_text(self.table.cards[card.card].title).super_logout
            and not any(identity.members for identity in card.identities)
        ):
            self.add("social.removed", {"card": card.card, "cause": cause, "to": "hand", "seat": by})

    def remove_user(self, card_id: str, *, cause: str, by: int) -> None:
        """A User card leaves the grid (Lost Password): every token back to its owner; Sloan, if she was on any
        network, into ``by``'s hand, any other User to the discard pile."""
        card = on_grid(self.table, card_id)
        on_networks = any(identity.members for identity in card.identities)
        logout = on_networks and user_text(self.table.cards[card_id].title).super_logout
        self.add(
            "social.removed",
            {
                "card": card_id,
                "cause": cause,
                "to": "hand" if logout else "discard_pile",
                "seat": by if logout else None,
            },
        )

    # --- invitations --------------------------------------------------------------------------------------------

    def invite(
        self, seat: int, how: str, identity_id: str, *, by: str | None = None, cause: str | None = None
    ) -> None:
        """A spam or personal invitation: one die, and the User joins on a number the invitation needs."""
        if self.over:
            return
        found = find_identity(self.table, identity_id)
        if found is None or seat in found[1].members:
            return
        if how == SPAM and not can_spam(self.table, seat, identity_id):
            return
        accepted = invitation_needs(self.table, seat, how, identity_id, by)
        if self.roll(seat, how, accepted, user=identity_id, by=by, cause=cause):
            self.join(seat, identity_id, how, cause)

    def personal_invitation(
        self, seat: int, member: str, friends: list[str], cause: str | None = None
    ) -> None:
        for friend in friends:
            self.invite(seat, PERSONAL, friend, by=member, cause=cause)

    def block(self, seat: int, member: str, friend: str, color: int) -> None:
        """Jimmy Block: "remove a token color that isn't also on Jimmy's card from one Friend. This is successful
        on a 4, 5, or 6." """
        jimmy = identity_on_grid(self.table, member)[0]
        if self.roll(seat, "block", BLOCK_NEEDS, user=friend, by=member, cause=jimmy.card, color=color):
            self.leave(color, friend, cause=jimmy.card, by=seat)
