"""The dvorak ruleset's appliers as they were written before they were made cheaper: each change made by copying
the whole state (``with_player``, ``remove_from_piles``, a ``locate`` walk). Kept here, word for word, as the
reference the ruleset's own appliers must agree with, event by event (``test_applier_reference.py``)."""

# ruff: noqa: E501

from __future__ import annotations

from dataclasses import dataclass

from dvorak_engine.cards import Card, cards_from_json
from dvorak_engine.events import Event
from dvorak_engine.rulesets.dvorak.state import (
    DRAW,
    END_OF_TURN,
    ENDED,
    LEAVES_PLAY,
    DvorakState,
    Modifier,
    Player,
    SpecialRule,
    Turn,
)
from dvorak_engine.state import ACTIVE, ELIMINATED, FINISHED, GameState
from dvorak_engine.values import replace


def with_player(state: GameState, player: Player) -> GameState:
    players = list(state.table.players)
    players[player.seat] = player
    return replace(state, table=replace(state.table, players=tuple(players)))


@dataclass(frozen=True)
class Location:
    zone: str
    seat: int | None = None


def locate(state: GameState, card_id: str) -> Location | None:
    table = state.table
    for player in table.players:
        if card_id in player.hand:
            return Location("hand", player.seat)
        if card_id in player.in_play:
            return Location("in_play", player.seat)
        if card_id in player.discard_pile:
            return Location("discard_pile", player.seat)
        if card_id in player.draw_pile:
            return Location("draw_pile", player.seat)
    if card_id in table.discard_pile:
        return Location("discard_pile")
    if card_id in table.draw_pile:
        return Location("draw_pile")
    return None


def attached_things(state: GameState, host: str) -> list[str]:
    children = [child for child, parent in state.table.attached_to.items() if parent == host]
    found = []
    for child in children:
        found.append(child)
        found.extend(attached_things(state, child))
    return found


def pile_seat(state: GameState, seat: int | None) -> int | None:
    """Whose piles ``seat`` uses: its own in a Multi-Deck game, the shared ones (None) otherwise."""
    return seat if state.table.has_own_decks else None


def owner_of(state: GameState, card_id: str) -> int | None:
    """The seat whose deck a card came from (None in a game with shared piles)."""
    return state.table.owners.get(card_id) if state.table.has_own_decks else None


def draw_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    return state.table.draw_pile if seat is None else state.table.player(seat).draw_pile


def discard_pile_of(state: GameState, seat: int | None) -> tuple[str, ...]:
    return state.table.discard_pile if seat is None else state.table.player(seat).discard_pile


def with_piles(state: GameState, seat: int | None, *, draw_pile: tuple[str, ...] | None = None,
               discard_pile: tuple[str, ...] | None = None) -> GameState:
    """The state with new contents for the shared piles (``seat`` None) or for one player's own."""
    changes = {}
    if draw_pile is not None:
        changes["draw_pile"] = tuple(draw_pile)
    if discard_pile is not None:
        changes["discard_pile"] = tuple(discard_pile)
    if seat is None:
        return state.with_table(**changes)
    return with_player(state, replace(state.table.player(seat), **changes))


def to_discard_pile(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """Each card onto the top of the discard pile it belongs to, in the order given."""
    for card_id in card_ids:
        seat = owner_of(state, card_id)
        state = with_piles(state, seat, discard_pile=(*discard_pile_of(state, seat), card_id))
    return state


def to_draw_pile(state: GameState, card_id: str, *, top: bool) -> GameState:
    """A card onto the top (or the bottom) of the draw pile it belongs to."""
    seat = owner_of(state, card_id)
    pile = draw_pile_of(state, seat)
    return with_piles(state, seat, draw_pile=(*pile, card_id) if top else (card_id, *pile))


def remove_from_piles(state: GameState, card_ids: list[str] | tuple[str, ...]) -> GameState:
    """The cards taken off whichever draw pile or discard pile holds them."""
    leaving = set(card_ids)
    table = state.table
    table = replace(table, draw_pile=tuple(c for c in table.draw_pile if c not in leaving),
                    discard_pile=tuple(c for c in table.discard_pile if c not in leaving))
    if table.has_own_decks:
        table = replace(table, players=tuple(
            replace(p, draw_pile=tuple(c for c in p.draw_pile if c not in leaving),
                    discard_pile=tuple(c for c in p.discard_pile if c not in leaving))
            for p in table.players
        ))
    return replace(state, table=table)


def apply_game_created(state: GameState, event: Event) -> GameState:
    data = event.data
    return replace(state, table=DvorakState(
        variant=data["variant"],
        creative=data["creative"],
        deck=data["deck"],
        cards=cards_from_json(data["cards"]),
        special_rules=tuple(SpecialRule(**rule) for rule in data["special_rules"]),
        base_rules=data["rules"],
        blank_cards=data.get("blank_cards", 0),
        deck_cards=tuple(data.get("deck_cards", [])),
        effects=data.get("effects"),
        reading=data.get("reading", 1),
    ))

def apply_player_joined(state: GameState, event: Event) -> GameState:
    data = event.data
    table = state.table
    counters = dict(table.base_rules.get("counters") or {})
    player = Player(seat=data["seat"], counters=counters, deck=data.get("player_deck") or data.get("deck"))
    cards = data.get("cards", [])
    if "effects" in data:
        table = replace(table, effects={**table.effects, "cards": [*table.effects["cards"], *data["effects"]]})
    return replace(state, table=replace(
        table, players=(*table.players, player),
        cards={**table.cards, **{card["id"]: Card(**card) for card in cards}},
        owners={**table.owners, **{card["id"]: data["seat"] for card in cards}}))

def apply_rule_set(state: GameState, event: Event) -> GameState:
    """A rule change takes effect. Events from before changes had a duration say none: a card's lasted while
    it stayed in play, a Special Rule's while the rule did."""
    data = event.data
    until = data.get("until") or (LEAVES_PLAY if data["source"] in state.table.cards else ENDED)
    ends_at_turn = state.table.turn_number + data["turns"] if until == END_OF_TURN else None
    modifier = Modifier(source=data["source"], param=data["param"], value=data["value"], seat=data["seat"],
                        card=data["card"], deny=data["deny"], order=state.version + 1, by=data.get("by"),
                        until=until, ends_at_turn=ends_at_turn)
    return state.with_table(modifiers=(*state.table.modifiers, modifier))

def apply_rule_ended(state: GameState, event: Event) -> GameState:
    return state.with_table(modifiers=tuple(m for m in state.table.modifiers if m.order != event.data["effect"]))

def apply_game_started(state: GameState, event: Event) -> GameState:
    counters = event.data["counters"]
    own_piles = event.data.get("draw_piles", {})
    players = tuple(replace(p, counters={**counters, **p.counters},
                            draw_pile=tuple(own_piles.get(str(p.seat), p.draw_pile)))
                    for p in state.table.players)
    state = replace(state, status=ACTIVE)
    return state.with_table(draw_pile=tuple(event.data["draw_pile"]), players=players)

def apply_cards_dealt(state: GameState, event: Event) -> GameState:
    cards = event.data["cards"]
    state = remove_from_piles(state, cards)
    player = state.table.player(event.data["seat"])
    return with_player(state, replace(player, hand=(*player.hand, *cards)))

def apply_turn_began(state: GameState, event: Event) -> GameState:
    """A new turn; the rule changes that lasted until the end of the turn before (or of their last turn)
    end with it."""
    number = state.table.turn_number + 1
    lasting = tuple(m for m in state.table.modifiers if m.ends_at_turn is None or m.ends_at_turn > number)
    return state.with_table(turn=Turn(seat=event.data["seat"], stage=DRAW), turn_number=number,
                            modifiers=lasting)

def apply_turn_stage_changed(state: GameState, event: Event) -> GameState:
    return state.with_table(turn=replace(state.table.turn, stage=event.data["stage"]))

def apply_turn_ended(state: GameState, event: Event) -> GameState:
    return state.with_table(turn=None)

def apply_draw_pile_refilled(state: GameState, event: Event) -> GameState:
    return with_piles(state, event.data.get("seat"), draw_pile=tuple(event.data["draw_pile"]), discard_pile=())

def apply_card_drawn(state: GameState, event: Event) -> GameState:
    card_id = event.data["card"]
    state = remove_from_piles(state, [card_id])
    player = state.table.player(event.data["seat"])
    return with_player(state, replace(player, hand=(*player.hand, card_id)))

def apply_card_played(state: GameState, event: Event) -> GameState:
    data = event.data
    card_id, seat = data["card"], data["seat"]
    state = _take_out(state, card_id)
    if data["kind"] == "Action":
        state = to_discard_pile(state, [card_id])
    else:
        state = _put_into_play(state, card_id, seat, data.get("onto"))
    turn = replace(state.table.turn, played={**state.table.turn.played, card_id: seat})
    if data["counted"]:
        if data["kind"] == "Action":
            turn = replace(turn, actions_played=turn.actions_played + 1)
        else:
            turn = replace(turn, things_played=turn.things_played + 1)
    return state.with_table(turn=turn)

def apply_thing_used(state: GameState, event: Event) -> GameState:
    return state.with_table(turn=replace(state.table.turn, actions_played=state.table.turn.actions_played + 1))

def apply_cards_discarded(state: GameState, event: Event) -> GameState:
    for card_id in event.data["cards"]:
        state = to_discard_pile(_take_out(state, card_id), [card_id])
    return state

def apply_card_moved(state: GameState, event: Event) -> GameState:
    card_id, to = event.data["card"], event.data["to"]
    state = _take_out(state, card_id)
    zone = to["zone"]
    if zone == "hand":
        player = state.table.player(to["seat"])
        return with_player(state, replace(player, hand=(*player.hand, card_id)))
    if zone == "in_play":
        return _put_into_play(state, card_id, to["seat"], to.get("onto"))
    # A Multi-Deck card goes back to the piles of the player whose deck it came from.
    if zone == "discard":
        return to_discard_pile(state, [card_id])
    return to_draw_pile(state, card_id, top=zone == "draw_top")

def apply_thing_destroyed(state: GameState, event: Event) -> GameState:
    """A destroyed Thing goes to the discard pile (of its deck's player, in Multi-Deck Dvorak), and so does
    every Thing played onto it (not the reverse)."""
    card_id = event.data["card"]
    return to_discard_pile(_take_out(state, card_id), [card_id])

def apply_card_taken(state: GameState, event: Event) -> GameState:
    return _hand_to_hand(state, event.data["card"], event.data["from"], event.data["to"])

def apply_card_given(state: GameState, event: Event) -> GameState:
    state = _hand_to_hand(state, event.data["card"], event.data["from"], event.data["to"])
    if event.data.get("counted"):  # given to a team-mate in place of the turn's Action
        state = state.with_table(turn=replace(state.table.turn, actions_played=state.table.turn.actions_played + 1))
    return state

def apply_counter_changed(state: GameState, event: Event) -> GameState:
    player = state.table.player(event.data["seat"])
    return with_player(state, replace(player, counters={**player.counters,
                                                       event.data["name"]: event.data["value"]}))

def apply_dice_rolled(state: GameState, event: Event) -> GameState:
    return state

def apply_card_revealed(state: GameState, event: Event) -> GameState:
    return state

def apply_pile_shuffled(state: GameState, event: Event) -> GameState:
    key = "draw_pile" if event.data["pile"] == "draw" else "discard_pile"
    return with_piles(state, event.data.get("seat"), **{key: tuple(event.data[key])})

def apply_player_eliminated(state: GameState, event: Event) -> GameState:
    return state.with_seat(replace(state.seat(event.data["seat"]), status=ELIMINATED))

def apply_game_won(state: GameState, event: Event) -> GameState:
    state = replace(state, status=FINISHED, winners=tuple(event.data["winners"]))
    return state.with_table(turn=None)


# --- Moving cards between zones (for the appliers) -------------------------------------------------------------


def _hand_to_hand(state: GameState, card_id: str, giver: int, receiver: int) -> GameState:
    state = _take_out(state, card_id)
    player = state.table.player(receiver)
    return with_player(state, replace(player, hand=(*player.hand, card_id)))


def _put_into_play(state: GameState, card_id: str, seat: int, onto: str | None) -> GameState:
    player = state.table.player(seat)
    state = with_player(state, replace(player, in_play=(*player.in_play, card_id)))
    if onto is not None:
        state = state.with_table(attached_to={**state.table.attached_to, card_id: onto})
    return state


def _take_out(state: GameState, card_id: str) -> GameState:
    """Take a card from wherever it is. A Thing leaving play takes with it the Things played onto it (they go to
    the discard pile), the changes it made to last while it stays in play, and every change made for it."""
    location = locate(state, card_id)
    if location is None:
        return state
    if location.zone == "in_play":
        attached = attached_things(state, card_id)
        leaving = {card_id, *attached}
        players = tuple(replace(p, in_play=tuple(c for c in p.in_play if c not in leaving))
                        for p in state.table.players)
        state = state.with_table(
            players=players,
            attached_to={c: host for c, host in state.table.attached_to.items() if c not in leaving},
            modifiers=tuple(m for m in state.table.modifiers
                            if not (m.source in leaving and m.until == LEAVES_PLAY) and m.card not in leaving),
        )
        return to_discard_pile(state, attached)
    if location.zone == "hand":
        player = state.table.player(location.seat)
        return with_player(state, replace(player, hand=tuple(c for c in player.hand if c != card_id)))
    return remove_from_piles(state, [card_id])


APPLIERS = {
    "game.created": apply_game_created,
    "player.joined": apply_player_joined,
    "rule.set": apply_rule_set,
    "rule.ended": apply_rule_ended,
    "game.started": apply_game_started,
    "cards.dealt": apply_cards_dealt,
    "turn.began": apply_turn_began,
    "turn.stage_changed": apply_turn_stage_changed,
    "turn.ended": apply_turn_ended,
    "draw_pile.refilled": apply_draw_pile_refilled,
    "card.drawn": apply_card_drawn,
    "card.played": apply_card_played,
    "thing.used": apply_thing_used,
    "cards.discarded": apply_cards_discarded,
    "card.moved": apply_card_moved,
    "thing.destroyed": apply_thing_destroyed,
    "card.taken": apply_card_taken,
    "card.given": apply_card_given,
    "counter.changed": apply_counter_changed,
    "dice.rolled": apply_dice_rolled,
    "card.revealed": apply_card_revealed,
    "pile.shuffled": apply_pile_shuffled,
    "player.eliminated": apply_player_eliminated,
    "game.won": apply_game_won,
}
