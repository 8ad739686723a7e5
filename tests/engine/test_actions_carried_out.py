"""An understood Action whose whole effect the server can carry out is carried out in its ``play`` command, with
the choices it needs (``target``: a player, ``targets``: cards) offered as legal moves and checked; a Thing's
simple "comes into play" trigger too. Game option ``unread_effects`` ``claim``; under ``trust`` nothing changes."""

from __future__ import annotations

import json
import random

import pytest

from dvorak_engine import legal_moves, replay, view_event
from tests.engine.dvorak_games import unique_title_deck

from .conftest import Table

CARDS = [
    {"title": "Windfall", "type": "Action", "text": "Draw two cards."},
    {"title": "Feast", "type": "Action", "text": "Each player draws a card."},
    {"title": "Gift", "type": "Action", "text": "Each opponent draws two cards."},
    {"title": "Favour", "type": "Action", "text": "A player of your choice draws two cards."},
    {"title": "Butterfingers", "type": "Action", "text": "Discard a card from your hand."},
    {"title": "Purge", "type": "Action", "text": "Discard two cards at random."},
    {"title": "Riot", "type": "Action", "text": "Each opponent discards a card at random."},
    {"title": "Smite", "type": "Action", "text": "Destroy target Thing."},
    {"title": "Monster Hunt", "type": "Action", "text": "Destroy two Monsters."},
    {"title": "Earthquake", "type": "Action", "text": "Destroy all Locations."},
    {"title": "Graverob", "type": "Action", "text": "Take a card from the discard pile."},
    {"title": "Pickpocket", "type": "Action", "text": "Take a random card from an opponent's hand."},
    {"title": "Rustle", "type": "Action", "text": "Rustle a Monster.",
     "effect": [{"kind": "take", "cards": {"kind": "cards", "what": "Monster", "owner": "opponent", "zone": "play"}}]},
    {"title": "Charity", "type": "Action", "text": "Give two cards from your hand to an opponent."},
    {"title": "Tax", "type": "Action", "text": "Each player gains 2 gold."},
    {"title": "Fine", "type": "Action", "text": "A player of your choice loses 5 points."},
    {"title": "Dice", "type": "Action", "text": "Roll two dice."},
    {"title": "Reshuffle", "type": "Action", "text": "Shuffle the discard pile into the draw pile."},
    {"title": "Again", "type": "Action", "text": "Take an extra turn."},
    {"title": "Recycle", "type": "Action", "text": "Draw two cards, then discard a card."},
    {"title": "Swap", "type": "Action", "text": "Discard a card, then draw two cards."},
    {"title": "Box", "type": "Thing", "text": "When this card comes into play, draw two cards."},
    {"title": "Mint", "type": "Thing", "text": "When this card comes into play, gain 3 gold."},
    {"title": "Doomsday Device", "type": "Thing", "text": "If a Location is destroyed, destroy all Locations."},
    {"title": "Paris", "type": "Location", "text": ""},
    {"title": "Rome", "type": "Location", "text": ""},
    {"title": "Jabberwock", "type": "Monster", "text": ""},
    {"title": "Bandersnatch", "type": "Monster", "text": ""},
]


def deck() -> dict:
    found = unique_title_deck(24)
    found["cards"] = [{**found["cards"][0], **card} for card in CARDS] + [{**c, "text": ""} for c in found["cards"]]
    return found


def table(mode: str = "claim", players: int = 3) -> Table:
    game = Table(players=players, deck=deck(), options={"unread_effects": mode}).start()
    game.send(game.state.table.turn.seat, {"type": "draw"})
    return game


def plays_of(game: Table, seat: int, title: str) -> list[dict]:
    card = game.card(title)
    return [m for m in legal_moves(game.state, seat) if m["type"] == "play" and m["card"] == card]


def types(events) -> list[str]:
    return [e.type for e in events]


FILLER = [f"Card {n:03d} Zq{n:03d}" for n in range(24)]


# --- draws and counters ---------------------------------------------------------------------------------------


def test_each_player_and_each_opponent_draw_as_the_action_says():
    game = table()
    seat = game.state.table.turn.seat
    others = [s for s in range(3) if s != seat]
    game.arrange(hands={seat: ["Feast", "Gift"], **{s: [] for s in others}}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Feast")})
    assert types(events) == ["card.played", "card.drawn", "card.drawn", "card.drawn"]
    assert [e.data["seat"] for e in events[1:]] == [0, 1, 2]
    game.arrange(hands={seat: ["Gift"], **{s: [] for s in others}}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Gift")})
    assert [len(game.state.table.player(s).hand) for s in others] == [2, 2] and game.hand(seat) == []


def test_a_player_of_your_choice_draws_and_is_offered_as_a_target():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Favour"], 0: [] if seat else ["Favour"]}, turn=seat)
    assert sorted(m["target"] for m in plays_of(game, seat, "Favour")) == [0, 1, 2]
    game.refuse(seat, {"type": "play", "card": game.card("Favour")}, "invalid")
    game.refuse(seat, {"type": "play", "card": game.card("Favour"), "target": 7}, "invalid")
    other = (seat + 1) % 3
    before = len(game.state.table.player(other).hand)
    game.send(seat, {"type": "play", "card": game.card("Favour"), "target": other})
    assert len(game.state.table.player(other).hand) == before + 2


def test_counters_change_for_each_player_and_for_the_chosen_one():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Tax"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Tax")})
    assert [p.counters.get("gold") for p in game.state.table.players] == [2, 2, 2]
    game.arrange(hands={seat: ["Fine"]}, turn=seat)
    victim = (seat + 2) % 3
    events = game.send(seat, {"type": "play", "card": game.card("Fine"), "target": victim})
    assert events[-1].data == {"seat": victim, "name": "points", "delta": -5, "value": -5, "by": seat,
                               "cause": game.card("Fine")}


# --- discards -----------------------------------------------------------------------------------------------


def test_a_discard_of_your_choice_names_the_cards_and_a_bad_choice_changes_nothing():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Butterfingers", FILLER[0], FILLER[1]]}, turn=seat)
    hand = [game.card(FILLER[0]), game.card(FILLER[1])]
    assert plays_of(game, seat, "Butterfingers") == [
        {"type": "play", "card": game.card("Butterfingers"), "targets": {"choose": 1, "from": hand, "list": True}}]
    for bad in (None, [], [game.card("Butterfingers")], hand, game.card(FILLER[0]), [game.card("Smite")]):
        body = {"type": "play", "card": game.card("Butterfingers")}
        if bad is not None:
            body["targets"] = bad
        refused = game.refuse(seat, body, "invalid")
        assert refused.details["field"] == "targets"
    events = game.send(seat, {"type": "play", "card": game.card("Butterfingers"), "targets": [hand[1]]})
    assert types(events) == ["card.played", "cards.discarded"]
    assert game.hand(seat) == [FILLER[0]] and FILLER[1] in game.discard_pile()


def test_with_no_card_left_to_discard_the_action_is_played_with_no_choice():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Butterfingers"]}, turn=seat)
    assert plays_of(game, seat, "Butterfingers") == [{"type": "play", "card": game.card("Butterfingers")}]
    assert types(game.send(seat, {"type": "play", "card": game.card("Butterfingers")})) == ["card.played"]


def test_random_discards_are_picked_by_the_server_for_you_and_each_opponent():
    game = table()
    seat = game.state.table.turn.seat
    others = [s for s in range(3) if s != seat]
    game.arrange(hands={seat: ["Purge", *FILLER[:3]], others[0]: FILLER[3:5], others[1]: []}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Purge")})
    assert types(events) == ["card.played", "cards.discarded"] and len(events[1].data["cards"]) == 2
    assert len(game.hand(seat)) == 1
    game.arrange(hands={seat: ["Riot"]}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Riot")})
    # The opponent with no cards discards nothing; the other discards one.
    assert types(events) == ["card.played", "cards.discarded"] and events[1].data["seat"] == others[0]
    assert len(game.hand(others[0])) == 1


def test_a_choice_from_your_hand_after_a_draw_is_left_to_the_player():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Recycle", "Swap", FILLER[0]]}, turn=seat)
    # Recycle's discard comes after its draw: the server draws (as before) and the player discards.
    assert types(game.send(seat, {"type": "play", "card": game.card("Recycle")})) == [
        "card.played", "card.drawn", "card.drawn"]
    game.send(seat, {"type": "discard", "cards": [game.card(FILLER[0])], "cause": game.card("Recycle")})
    # Swap discards first: carried out whole, and not citable afterwards.
    game.arrange(hands={seat: ["Swap", FILLER[1]]}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Swap"), "targets": [game.card(FILLER[1])]})
    assert types(events) == ["card.played", "cards.discarded", "card.drawn", "card.drawn"]


# --- destroys -----------------------------------------------------------------------------------------------


def test_destroy_a_chosen_thing_and_the_rulebook_cascade():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Smite"]}, in_play={other: ["Paris", "Jabberwock"], seat: ["Rome", "Doomsday Device"]},
                 turn=seat)
    offered = plays_of(game, seat, "Smite")[0]["targets"]
    assert sorted(game.titles(offered["from"])) == ["Doomsday Device", "Jabberwock", "Paris", "Rome"]
    events = game.send(seat, {"type": "play", "card": game.card("Smite"), "targets": [game.card("Paris")]})
    # Paris destroyed; Doomsday Device destroys all Locations.
    assert types(events) == ["card.played", "thing.destroyed", "thing.destroyed"]
    assert game.in_play(other) == ["Jabberwock"] and game.in_play(seat) == ["Doomsday Device"]


def test_destroy_two_of_a_kind_does_what_can_be_done_and_all_of_a_kind_needs_no_choice():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Monster Hunt", "Earthquake"]}, in_play={other: ["Jabberwock", "Paris", "Rome"]},
                 turn=seat)
    # Only one Monster in play: destroy that one.
    assert plays_of(game, seat, "Monster Hunt")[0]["targets"] == {
        "choose": 1, "from": [game.card("Jabberwock")], "list": True}
    game.refuse(seat, {"type": "play", "card": game.card("Monster Hunt"), "targets": [game.card("Paris")]}, "invalid")
    game.send(seat, {"type": "play", "card": game.card("Monster Hunt"), "targets": [game.card("Jabberwock")]})
    game.arrange(hands={seat: ["Earthquake"]}, turn=seat)
    assert plays_of(game, seat, "Earthquake") == [{"type": "play", "card": game.card("Earthquake")}]
    game.send(seat, {"type": "play", "card": game.card("Earthquake")})
    assert game.in_play(other) == []


def test_with_no_thing_to_destroy_the_action_is_still_played():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Smite"]}, in_play={0: [], 1: [], 2: []}, turn=seat)
    assert types(game.send(seat, {"type": "play", "card": game.card("Smite")})) == ["card.played"]


# --- takes and gives ----------------------------------------------------------------------------------------


def test_take_a_chosen_card_from_the_discard_pile_and_a_thing_of_an_opponents():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Graverob", "Rustle"]}, discard_pile=[FILLER[0], FILLER[1]],
                 in_play={other: ["Jabberwock", "Paris"], seat: ["Bandersnatch"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Graverob"), "targets": [game.card(FILLER[0])]})
    assert FILLER[0] in game.hand(seat) and game.discard_pile() == [FILLER[1], "Graverob"]
    game.arrange(turn=seat)
    # Only an opponent's Monster: not one's own Bandersnatch, not Paris.
    assert plays_of(game, seat, "Rustle")[0]["targets"]["from"] == [game.card("Jabberwock")]
    game.send(seat, {"type": "play", "card": game.card("Rustle"), "targets": [game.card("Jabberwock")]})
    assert "Jabberwock" in game.hand(seat) and game.in_play(other) == ["Paris"]


def test_give_two_chosen_cards_to_a_chosen_opponent():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 2) % 3
    game.arrange(hands={seat: ["Charity", *FILLER[:3]], other: []}, turn=seat)
    moves = plays_of(game, seat, "Charity")
    assert sorted(m["target"] for m in moves) == sorted(s for s in range(3) if s != seat)
    assert moves[0]["targets"]["choose"] == 2
    game.refuse(seat, {"type": "play", "card": game.card("Charity"), "target": seat,
                       "targets": [game.card(FILLER[0]), game.card(FILLER[1])]}, "invalid")
    events = game.send(seat, {"type": "play", "card": game.card("Charity"), "target": other,
                              "targets": [game.card(FILLER[0]), game.card(FILLER[1])]})
    assert types(events) == ["card.played", "card.given", "card.given"]
    assert game.hand(other) == FILLER[:2] and game.hand(seat) == [FILLER[2]]


def test_a_random_card_taken_is_hidden_from_the_players_who_did_not_see_it():
    game = table()
    seat = game.state.table.turn.seat
    victim, bystander = (seat + 1) % 3, (seat + 2) % 3
    game.arrange(hands={seat: ["Pickpocket"], victim: [FILLER[5]], bystander: []}, turn=seat)
    before = game.state
    assert plays_of(game, seat, "Pickpocket") == [
        {"type": "play", "card": game.card("Pickpocket"), "target": victim}]
    events = game.send(seat, {"type": "play", "card": game.card("Pickpocket"), "target": victim})
    taken = events[-1]
    assert taken.type == "card.taken" and taken.data["card"] == game.card(FILLER[5])
    scratch = before
    from dvorak_engine import evolve
    for event in events:
        after = evolve(scratch, event)
        for viewer in (None, bystander):
            assert game.card(FILLER[5]) not in json.dumps(view_event(event, viewer, scratch, after))
        scratch = after
    assert game.card(FILLER[5]) in json.dumps(view_event(taken, seat, before, game.state))


# --- rolls and shuffles -------------------------------------------------------------------------------------


def test_dice_are_rolled_by_the_server_and_the_discard_pile_shuffled_into_the_draw_pile():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Dice"]}, turn=seat)
    rolled = game.send(seat, {"type": "play", "card": game.card("Dice")})[-1]
    assert rolled.type == "dice.rolled" and rolled.data["dice"] == "2d6" and len(rolled.data["rolls"]) == 2
    assert all(1 <= r <= 6 for r in rolled.data["rolls"]) and rolled.data["total"] == sum(rolled.data["rolls"])
    game.arrange(hands={seat: ["Reshuffle"]}, discard_pile=FILLER[:4], turn=seat)
    count = len(game.state.table.draw_pile)
    game.send(seat, {"type": "play", "card": game.card("Reshuffle")})
    assert game.discard_pile() == [] and len(game.state.table.draw_pile) == count + 5


def test_an_extra_turn_begins_when_the_turn_ends_and_is_used_up():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Again"]}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Again")})
    assert types(events) == ["card.played", "rule.set"] and events[-1].data["param"] == "extra_turns"
    events = game.send(seat, {"type": "end_turn"})
    assert types(events) == ["turn.ended", "rule.ended", "turn.began"] and events[-1].data["seat"] == seat
    assert not [m for m in game.state.table.modifiers if m.param == "extra_turns"]
    game.send(seat, {"type": "draw"})
    assert game.send(seat, {"type": "end_turn"})[-1].data["seat"] == (seat + 1) % 3


# --- Things coming into play --------------------------------------------------------------------------------


def test_a_things_comes_into_play_trigger_is_carried_out_for_its_controller():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Box"]}, turn=seat)
    assert types(game.send(seat, {"type": "play", "card": game.card("Box")})) == [
        "card.played", "card.drawn", "card.drawn"]
    game.arrange(hands={seat: ["Mint"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Mint")})
    assert game.state.table.player(seat).counters["gold"] == 3


# --- not twice, not under trust -----------------------------------------------------------------------------


@pytest.mark.parametrize("move", [
    {"type": "discard", "cards": ["HAND"]},
    {"type": "take_random", "from": "OTHER"},
    {"type": "counter", "seat": "OTHER", "name": "gold", "delta": 2},
])
def test_an_effect_move_citing_an_action_the_server_carries_out_is_refused(move):
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Butterfingers", "Pickpocket", "Tax", FILLER[0]], other: [FILLER[1]]}, turn=seat)
    for title in ("Butterfingers", "Pickpocket", "Tax"):
        body = {k: (other if v == "OTHER" else v) for k, v in move.items()}
        if "cards" in body:
            body["cards"] = [game.card(FILLER[0])]
        refused = game.refuse(seat, {**body, "cause": game.card(title)}, "effect_not_allowed")
        assert refused.details["field"] == "cause"


def test_under_trust_the_players_carry_out_the_actions_as_before():
    game = table("trust")
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Smite", "Butterfingers"]}, in_play={0: ["Paris"]}, turn=seat)
    assert plays_of(game, seat, "Smite") == [{"type": "play", "card": game.card("Smite")}]
    assert types(game.send(seat, {"type": "play", "card": game.card("Smite")})) == ["card.played"]
    game.arrange(turn=seat)
    game.refuse(seat, {"type": "play", "card": game.card("Butterfingers"), "targets": []}, "invalid")
    game.send(seat, {"type": "destroy", "card": game.card("Paris"), "cause": game.card("Smite")})


# --- determinism --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_games_of_carried_actions_replay_to_the_same_state(seed):
    """Random listed moves (their choices made at random) of games of these cards: replaying the events gives
    the same state, and no listed move is refused."""
    game = Table(players=3, deck=deck(), options={"unread_effects": "claim"}, seed=seed).start()
    chooser = random.Random(seed)
    carried = 0
    for _ in range(150):
        seat = game.state.table.turn.seat
        moves = [m for m in legal_moves(game.state, seat) if m["type"] not in ("concede", "abandon")]
        move = chooser.choice(moves)
        body = {k: (chooser.sample(v["from"], v["choose"]) if isinstance(v, dict) and "choose" in v else v)
                for k, v in move.items()}
        events = game.send(seat, body)
        carried += sum(1 for e in events if e.data.get("cause") == body.get("card"))
        if game.state.status != "active":
            break
    assert replay(game.events) == game.state
    assert carried
