"""The state of one game, as frozen values.

Cards are copied into the game once (``GameState.cards``, id -> Card); every zone holds card ids only. Tops of
the draw pile and the discard pile are the LAST element of their tuples. In a Multi-Deck (or CCG) game each
player has a draw pile and a discard pile of their own (``Player.draw_pile``, ``Player.discard_pile``), the
shared ones stay empty, and ``GameState.owners`` records whose deck each card came from. Dicts inside these values are never
changed in place: code that changes state builds new dicts and uses ``dataclasses.replace``, so every old state
stays valid (replay, views of the state before an event, snapshots).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any

BASIC_RULES: dict[str, Any] = {
    "hand_limit": 5,
    "starting_hand": 5,
    "draws_per_turn": 1,
    "things_per_turn": 1,
    "actions_per_turn": 1,
    "vote_rule": "unanimity",
    "counters": {},
}

STANDARD, TEAM, MULTI_DECK, CCG = "standard", "team", "multi_deck", "ccg"
VARIANTS = (STANDARD, TEAM, MULTI_DECK, CCG)
# The variants in which every player has a deck, a draw pile and a discard pile of their own.
OWN_DECK_VARIANTS = (MULTI_DECK, CCG)

OPEN, ACTIVE, VOTING, FINISHED = "open", "active", "voting", "finished"
PLAYING, ELIMINATED = "playing", "eliminated"
DRAW, PLAY, DISCARD = "draw", "play", "discard"


@dataclass(frozen=True)
class Card:
    id: str
    title: str
    type: str
    text: str = ""
    flavor: str = ""
    corner_value: str = ""
    creator: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    # The deck marks it as playable out of turn (its text may say so too: "at any time", "out of turn").
    out_of_turn: bool = False


@dataclass(frozen=True)
class SpecialRule:
    id: str
    title: str
    text: str = ""
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Player:
    seat: int
    user_id: int
    username: str
    team: str | None = None
    hand: tuple[str, ...] = ()
    # Every Thing this player controls, including those played onto other Things (see GameState.attached_to).
    in_play: tuple[str, ...] = ()
    counters: dict[str, int] = field(default_factory=dict)
    status: str = PLAYING
    # Multi-Deck and CCG games only: this player's own piles (tops last).
    draw_pile: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()
    # CCG games only: the player deck they brought ({"id", "name", "card_set", "version"}).
    deck: dict[str, Any] | None = None


@dataclass(frozen=True)
class Turn:
    seat: int
    stage: str = DRAW
    things_played: int = 0
    actions_played: int = 0


@dataclass(frozen=True)
class Modifier:
    """A change to a rule parameter made by a card or a Special Rule (its ``source``) while it is in effect.

    ``seat`` / ``card`` narrow it to one player / one card (None: everyone); ``deny`` marks a denial;
    ``order`` is the game version when it was made (more recent is larger).
    """

    source: str
    param: str
    value: Any
    seat: int | None = None
    card: str | None = None
    deny: bool = False
    order: int = 0


@dataclass(frozen=True)
class Proposal:
    """A creative proposal put to the vote (the Creative Rules): new cards, a Special Rule, an amendment or a
    repeal. ``votes`` maps a seat, as a string (JSON's keys), to True for in favour.

    ``cards``: the new cards (in ``GameState.cards`` from the moment they are proposed); ``target``: the card or
    Special Rule amended or repealed, and ``original`` its content when proposed (public from then on);
    ``changes``: an amendment's new values; ``rule``: a new Special Rule; ``during``: the game's status when
    proposed, which it returns to once the vote is over.
    """

    number: int
    kind: str
    author: int
    during: str
    status: str = "open"
    votes: dict[str, bool] = field(default_factory=dict)
    cards: tuple[str, ...] = ()
    target: str | None = None
    original: dict[str, Any] = field(default_factory=dict)
    changes: dict[str, Any] = field(default_factory=dict)
    rule: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameState:
    ruleset: str
    variant: str = "standard"
    creative: bool = False
    max_players: int = 5
    options: dict[str, Any] = field(default_factory=dict)
    deck: dict[str, Any] = field(default_factory=dict)
    cards: dict[str, Card] = field(default_factory=dict)
    special_rules: tuple[SpecialRule, ...] = ()
    base_rules: dict[str, Any] = field(default_factory=lambda: dict(BASIC_RULES))
    players: tuple[Player, ...] = ()
    status: str = OPEN
    turn: Turn | None = None
    draw_pile: tuple[str, ...] = ()
    discard_pile: tuple[str, ...] = ()
    attached_to: dict[str, str] = field(default_factory=dict)
    modifiers: tuple[Modifier, ...] = ()
    winners: tuple[int, ...] = ()
    blank_cards: int = 0
    proposals: tuple[Proposal, ...] = ()
    # Cards whose proposal was rejected (or withdrawn): set aside, visible to all, proposable again.
    rejected: tuple[str, ...] = ()
    version: int = 0
    # A ruleset's own JSON values (lists, not tuples), e.g. Article II's election phase.
    data: dict[str, Any] = field(default_factory=dict)
    # Multi-Deck and CCG games: card id -> the seat whose deck it came from.
    owners: dict[str, int] = field(default_factory=dict)
    # Multi-Deck games: the archive deck's cards (content, no ids) copied for each player who joins.
    deck_cards: tuple[dict[str, Any], ...] = ()

    @property
    def has_own_decks(self) -> bool:
        return self.variant in OWN_DECK_VARIANTS

    def open_proposal(self) -> Proposal | None:
        return next((p for p in self.proposals if p.status == "open"), None)

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def with_player(self, player: Player) -> GameState:
        players = list(self.players)
        players[player.seat] = player
        return replace(self, players=tuple(players))


# --- JSON for snapshots -----------------------------------------------------------------------------------


def _to_json(value: Any) -> Any:
    if is_dataclass(value):
        return {f.name: _to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _to_json(item) for key, item in value.items()}
    return value


def state_to_json(state: GameState) -> dict[str, Any]:
    return _to_json(state)


def state_from_json(data: dict[str, Any]) -> GameState:
    turn = data.get("turn")
    return GameState(
        **{
            **data,
            "cards": {card_id: Card(**card) for card_id, card in data["cards"].items()},
            "special_rules": tuple(SpecialRule(**rule) for rule in data["special_rules"]),
            "players": tuple(
                Player(**{**p, "hand": tuple(p["hand"]), "in_play": tuple(p["in_play"]),
                          "draw_pile": tuple(p.get("draw_pile", [])),
                          "discard_pile": tuple(p.get("discard_pile", []))})
                for p in data["players"]
            ),
            "turn": Turn(**turn) if turn is not None else None,
            "draw_pile": tuple(data["draw_pile"]),
            "discard_pile": tuple(data["discard_pile"]),
            "modifiers": tuple(Modifier(**m) for m in data["modifiers"]),
            "winners": tuple(data["winners"]),
            "proposals": tuple(Proposal(**{**p, "cards": tuple(p["cards"])}) for p in data.get("proposals", [])),
            "rejected": tuple(data.get("rejected", [])),
            "deck_cards": tuple(data.get("deck_cards", [])),
        }
    )


# --- Where cards are --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Location:
    zone: str  # "draw_pile" | "discard_pile" | "hand" | "in_play"
    seat: int | None = None


def locate(state: GameState, card_id: str) -> Location | None:
    """Where a card is; ``seat`` names the player of a hand, of Things in play, or of a Multi-Deck pile."""
    for player in state.players:
        if card_id in player.hand:
            return Location("hand", player.seat)
        if card_id in player.in_play:
            return Location("in_play", player.seat)
        if card_id in player.discard_pile:
            return Location("discard_pile", player.seat)
        if card_id in player.draw_pile:
            return Location("draw_pile", player.seat)
    if card_id in state.discard_pile:
        return Location("discard_pile")
    if card_id in state.draw_pile:
        return Location("draw_pile")
    return None


def cards_visible_to(state: GameState, viewer: int | None) -> set[str]:
    """Ids of the cards a seat (or a spectator, None) may see: Things in play, the discard pile, its own hand, and
    the cards of the Creative Rules that everyone sees: those proposed in the open vote and those rejected."""
    visible = set(all_discard_piles(state)) | set(state.rejected)
    proposal = state.open_proposal()
    if proposal is not None:
        visible.update(proposal.cards)
    for player in state.players:
        visible.update(player.in_play)
        if player.seat == viewer:
            visible.update(player.hand)
    return visible


def all_discard_piles(state: GameState) -> list[str]:
    """Every card on a discard pile: the shared one, then each player's own, in seat order (tops last)."""
    return [*state.discard_pile, *(c for p in state.players for c in p.discard_pile)]


def all_draw_piles(state: GameState) -> list[str]:
    return [*state.draw_pile, *(c for p in state.players for c in p.draw_pile)]


def cards_in_zones(state: GameState) -> list[str]:
    """Every card in a hand, in play or on a pile (not those set aside by the Creative Rules)."""
    in_players = [c for p in state.players for c in (*p.hand, *p.in_play)]
    return [*in_players, *all_draw_piles(state), *all_discard_piles(state)]


def attached_things(state: GameState, host: str) -> list[str]:
    """The Things played onto ``host``, and onto those, recursively (not ``host`` itself)."""
    children = [child for child, parent in state.attached_to.items() if parent == host]
    found = []
    for child in children:
        found.append(child)
        found.extend(attached_things(state, child))
    return found


def cards_in_the_deck(state: GameState) -> list[str]:
    """The game's cards that are part of its deck: not set aside as rejected, not still waiting for a vote."""
    proposal = state.open_proposal()
    waiting = set(proposal.cards) if proposal is not None else set()
    aside = set(state.rejected) | waiting
    return [card_id for card_id in state.cards if card_id not in aside]


def seat_of(state: GameState | None, user_id: int) -> int | None:
    if state is None:
        return None
    for player in state.players:
        if player.user_id == user_id:
            return player.seat
    return None


def players_standing(state: GameState) -> list[int]:
    return [p.seat for p in state.players if p.status == PLAYING]


# --- Teams ------------------------------------------------------------------------------------------------


def team_mates(state: GameState, seat: int) -> list[int]:
    """The other players of ``seat``'s team (none for a player without a team)."""
    team = state.player(seat).team
    if team is None:
        return []
    return [p.seat for p in state.players if p.team == team and p.seat != seat]


def opponents(state: GameState, seat: int) -> list[int]:
    """The players still in the game who are not ``seat`` and not its team-mates: Team Dvorak's team-mates are
    not opponents of one another."""
    mates = set(team_mates(state, seat))
    return [s for s in players_standing(state) if s != seat and s not in mates]


def teams(state: GameState) -> dict[str, list[int]]:
    """Each team's name and seats, in order of joining."""
    found: dict[str, list[int]] = {}
    for player in state.players:
        if player.team is not None:
            found.setdefault(player.team, []).append(player.seat)
    return found


def winning_seats(state: GameState, seats: list[int]) -> list[int]:
    """A player's win is their team's: every seat of each winner's team wins with them."""
    winners = set(seats)
    for seat in seats:
        winners.update(team_mates(state, seat))
    return sorted(winners)
