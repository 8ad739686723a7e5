"""Socialism's state, and the geometry of its grid.

The grid: "The first User played simply goes in the center of the table. Second and subsequent Users must be
played adjacent to one or more cards already in play. Users are Friends of adjacent User cards, and adjacency
counts on both sides and corners." A card lies on a cell of whole-number coordinates ``(x, y)``, the first at
``(0, 0)``; two cards are adjacent when neither coordinate differs by more than one.

Tokens lie on identities: each User card holds one identity (its title), Alan Sudo/Gerald Sock two. An identity
is named in commands by an id: the card's id for a card of one identity, ``<card id>.1`` and ``<card id>.2``
for the two of a card that has two. A player's network is the identities carrying its tokens.

The grid's functions read public fields only (``grid``, its cards and identities), so a view calls them on the
table as its viewer sees it (``visibility.Seen``) as well as on the table itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dvorak_engine.cards import Card
from dvorak_engine.rulesets.socialism.cards import USER, identity_names
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen, counted, derived, lookup, owner, public

# "15 colored tokens for each player"; the Winning section's "all twenty tokens" is the option.
TOKENS = 15
TOKEN_CHOICES = (15, 20)
# "have everyone draw a three-card hand"
HAND = 3
# A turn's stages: "1. Draw a card 2. Play a card 3. Invite members to join their network".
DRAW, PLAY, INVITE = "draw", "play", "invite"
STAGES = (DRAW, PLAY, INVITE)
CENTER = (0, 0)


@dataclass(frozen=True)
class Identity:
    """One person on a User card, and the seats whose tokens are on it (a seat at most once)."""

    id: str = public()
    name: str = public()
    members: tuple[int, ...] = public(())


@dataclass(frozen=True)
class Placed:
    """A User card on the grid."""

    card: str = public()
    x: int = public()
    y: int = public()
    identities: tuple[Identity, ...] = public(())


@dataclass(frozen=True)
class Player:
    """A social networking site: its hand (only its player sees it), the tokens it has still to place, and the
    Action cards in front of it."""

    seat: int = public()
    hand: tuple[str, ...] = owner(())
    tokens: int = public(TOKENS)
    in_front: tuple[str, ...] = public(())

    @derived
    def hand_count(self) -> int:
        """How many cards the hand holds: everyone sees it (every card drawn or played is shown, its id hidden
        from the others), only the cards are the player's own."""
        return len(self.hand)


@dataclass(frozen=True)
class Turn:
    """Whose turn it is, its stage, the User played this turn (its automatic invitation), and the invitation
    options already used (``auto``, ``spam``, ``personal``; Jimmy Block's removal uses ``personal``)."""

    seat: int = public()
    stage: str = public(DRAW)
    played_user: str | None = public(None)
    invited: tuple[str, ...] = public(())


@dataclass(frozen=True)
class Pending:
    """A card being played: out of its player's hand, waiting until every other player has let it through (the
    Sherman Act window) before it takes effect. ``selection``: what the play selected (its fields)."""

    seat: int = public()
    card: str = public()
    selection: dict[str, Any] = public(default_factory=dict)
    waiting: tuple[int, ...] = public(())


@dataclass(frozen=True)
class ViralPost:
    """A Viral Post token: the card it stands for (in front of its owner) and the User card it is on."""

    card: str = public()
    owner: int = public()
    on: str = public()


@dataclass(frozen=True)
class ViralChoice:
    """A Viral Post waiting, at the beginning of a turn, for its player to choose the new user it moves to
    (``options.viral_post`` ``chosen``): the identities it may move to (``choices``), and the Viral Posts that move
    after it at the beginning of this turn (``then``)."""

    card: str = public()
    owner: int = public()
    choices: tuple[str, ...] = public(())
    then: tuple[str, ...] = public(())


@dataclass(frozen=True)
class SocialismState:
    deck: dict[str, Any] = public(default_factory=dict)
    # Every card of the game, in hands and the draw pile too: read by id only, so the view shows only those whose
    # ids its viewer was shown (in play, on the discard pile, in its own hand).
    cards: dict[str, Card] = lookup(default_factory=dict)
    tokens: int = public(TOKENS)
    players: tuple[Player, ...] = public(())
    draw_pile: tuple[str, ...] = counted(())
    discard_pile: tuple[str, ...] = public(())
    grid: tuple[Placed, ...] = public(())
    # A copy made by The greatest form of flattery: its card id → the title it acts as.
    acting_as: dict[str, str] = public(default_factory=dict)
    viral_posts: tuple[ViralPost, ...] = public(())
    # Added after games were stored: a game that never waits for a Viral Post's player is written as before.
    viral_choice: ViralChoice | None = public(None, added=True)
    turn: Turn | None = public(None)
    pending: Pending | None = public(None)
    first_player: int | None = public(None)
    started: bool = public(False)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def title(self, card_id: str) -> str:
        """What a card is: its title, or for a flattering copy the title of the card it copies."""
        return self.acting_as.get(card_id, self.cards[card_id].title)

    def card_being_played(self) -> Pending:
        """The card being played, from its play until it takes effect or a Sherman Act cancels it."""
        if self.pending is None:
            raise LookupError("no card is being played")
        return self.pending


def with_player(table: SocialismState, player: Player) -> SocialismState:
    players = list(table.players)
    players[player.seat] = player
    return replace(table, players=tuple(players))


def new_placed(card: Card, x: int, y: int) -> Placed:
    names = identity_names(card.title)
    ids = [card.id] if len(names) == 1 else [f"{card.id}.{n}" for n in range(1, len(names) + 1)]
    return Placed(
        card=card.id,
        x=x,
        y=y,
        identities=tuple(Identity(id=i, name=n) for i, n in zip(ids, names, strict=True)),
    )


def is_user(table: SocialismState, card_id: str) -> bool:
    return table.cards[card_id].type == USER


# --- the grid -----------------------------------------------------------------------------------------------------


def adjacent(a: Placed | Seen, b: Placed | Seen) -> bool:
    """Sides and corners: the eight cells around a card."""
    return a.card != b.card and max(abs(a.x - b.x), abs(a.y - b.y)) == 1


def placed(table: SocialismState | Seen, card_id: str) -> Placed | None:
    return next((p for p in table.grid if p.card == card_id), None)


def on_grid(table: SocialismState | Seen, card_id: str) -> Placed:
    """The User card ``card_id``, which is on the grid: one that is not is an error here."""
    found = placed(table, card_id)
    if found is None:
        raise LookupError(f"card {card_id!r} is not on the grid")
    return found


def identities(table: SocialismState | Seen) -> list[tuple[Placed, Identity]]:
    """Every identity on the grid, in the order the cards were played."""
    return [(p, identity) for p in table.grid for identity in p.identities]


def find_identity(table: SocialismState | Seen, identity_id: Any) -> tuple[Placed, Identity] | None:
    return next(((p, i) for p, i in identities(table) if i.id == identity_id), None)


def identity_on_grid(table: SocialismState | Seen, identity_id: Any) -> tuple[Placed, Identity]:
    """The identity ``identity_id`` and the card it is on, which is on the grid: one that is not is an error here."""
    found = find_identity(table, identity_id)
    if found is None:
        raise LookupError(f"no identity {identity_id!r} is on the grid")
    return found


def friends(table: SocialismState | Seen, identity_id: str) -> list[str]:
    """The identities on the cards adjacent to this identity's card (Alan and Gerald are not each other's)."""
    found = find_identity(table, identity_id)
    if found is None:
        return []
    return [i.id for p in neighbours(table, found[0]) for i in p.identities]


def neighbours(table: SocialismState | Seen, card: Placed | Seen) -> list[Placed]:
    """The cards adjacent to a card, in the order they were played."""
    return [p for p in table.grid if adjacent(card, p)]


def new_users(table: SocialismState | Seen, post: ViralPost) -> list[str]:
    """Where a Viral Post may move: "a new user", read as an identity on a card adjacent to the post's that is not
    yet on its player's network."""
    on = on_grid(table, post.on)
    return [
        identity.id
        for card in neighbours(table, on)
        for identity in card.identities
        if post.owner not in identity.members
    ]


def friends_of_friends(table: SocialismState, identity_id: str) -> list[str]:
    """Friends, and the Friends of each Friend, but for the identities of this identity's own card."""
    found = find_identity(table, identity_id)
    if found is None:
        return []
    own = {i.id for i in found[0].identities}
    reached = dict.fromkeys(friends(table, identity_id))
    for friend in list(reached):
        reached.update(dict.fromkeys(friends(table, friend)))
    return [i for i in reached if i not in own]


def open_cells(table: SocialismState) -> list[tuple[int, int]]:
    """Where a User may be played: the center when the grid is empty, else every empty cell adjacent to a card."""
    if not table.grid:
        return [CENTER]
    taken = {(p.x, p.y) for p in table.grid}
    cells = {(p.x + dx, p.y + dy) for p in table.grid for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    return sorted(cells - taken, key=lambda cell: (cell[1], cell[0]))


def unconnected_sets(table: SocialismState | Seen) -> list[list[str]]:
    """The grid's sets of cards connected through adjacent cards: one set unless a card's removal split it."""
    at = {(p.x, p.y): p.card for p in table.grid}
    cells = {p.card: (p.x, p.y) for p in table.grid}
    order = [p.card for p in table.grid]
    seen: set[str] = set()
    sets: list[list[str]] = []
    for start in order:
        if start in seen:
            continue
        group, frontier = [], [start]
        seen.add(start)
        while frontier:
            card = frontier.pop()
            group.append(card)
            x, y = cells[card]
            for cell in ((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)):
                other = at.get(cell)
                if other is not None and other not in seen:
                    seen.add(other)
                    frontier.append(other)
        sets.append(sorted(group, key=order.index))
    return sets


def network(table: SocialismState, seat: int) -> list[str]:
    """The identities on ``seat``'s network, as the grid holds them."""
    return [i.id for _, i in identities(table) if seat in i.members]


def reachable_cards(table: SocialismState, seat: int) -> set[str] | None:
    """Lost Password: "invitations can no longer cross from one set to another until a new user reconnects
    them". An invitation of ``seat``'s network reaches the cards of a set where the network has a Member; a
    network with no Member anywhere is in no set, and reaches them all (None)."""
    own = {p.card for p in table.grid for i in p.identities if seat in i.members}
    if not own:
        return None
    return {card for group in unconnected_sets(table) if own & set(group) for card in group}


def reachable(table: SocialismState, seat: int, identity_id: str) -> bool:
    found = find_identity(table, identity_id)
    cards = reachable_cards(table, seat)
    return found is not None and (cards is None or found[0].card in cards)


def cards_in_front(table: SocialismState, seat: int) -> set[str]:
    """The titles of the Actions in front of a player (a flattering copy as the card it copies)."""
    return {table.title(card) for card in table.player(seat).in_front}


def actions_in_play(table: SocialismState) -> list[str]:
    return [card for player in table.players for card in player.in_front]
