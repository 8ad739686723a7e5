"""The Basic Rules of Dvorak as the ``dvorak`` ruleset enforces them, one test per rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    decide,
    game_status,
    legal_moves,
    replay,
    view_state,
)
from dvorak_engine.rulesets.dvorak.state import DISCARD, DRAW, PLAY
from tests.seeds import RULEBOOK, original_path, requires_seeds, rulebook_example_cards

from .conftest import Table, rulebook_deck

FILLER = [f"Card {n:03d} Zq{n:03d}" for n in range(20)]


# --- Starting the Game -----------------------------------------------------------------------------------------


def test_game_created_copies_every_card_copy_with_an_opaque_unique_id():
    deck = rulebook_deck()
    deck["cards"][0]["copies"] = 3
    events = create_game(ruleset="dvorak", deck=deck, variant="standard", creative=False, max_players=4,
                         options={}, creator=Actor(1, "ann"), rng=SeededRng(1))
    assert [e.type for e in events] == ["game.created", "player.joined"]
    cards = events[0].data["cards"]
    assert len(cards) == sum(card["copies"] for card in deck["cards"])
    assert sum(card["title"] == "Espionage" for card in cards) == 3
    ids = [card["id"] for card in cards]
    assert len(set(ids)) == len(ids)
    assert all(len(card_id) == 16 and not card_id.isdigit() for card_id in ids)
    # The copies are not listed in the deck's order, so an id's position tells nothing.
    assert [card["title"] for card in cards] != [c["title"] for c in deck["cards"] for _ in range(c["copies"])]


def test_the_creator_holds_seat_zero_and_others_join_in_order():
    table = Table(players=3)
    assert [(p.seat, p.username) for p in table.state.seats] == [(0, "player0"), (1, "player1"),
                                                                     (2, "player2")]
    assert game_status(table.state) == "open"


def test_joining_a_full_game_is_refused():
    table = Table(players=2)
    with pytest.raises(DomainError) as refused:
        decide(table.state, {"type": "join"}, actor=Actor(99, "late"), rng=table.rng)
    assert refused.value.code == "limit_reached" and refused.value.status == 409


def test_only_seat_zero_starts_the_game():
    table = Table(players=2)
    table.refuse(1, {"type": "start"}, "forbidden")


def test_a_game_needs_at_least_two_players_to_start():
    table = Table(players=1)
    table.refuse(0, {"type": "start"}, "not_enough_players")


def test_the_cards_are_shuffled_into_a_draw_pile_and_each_player_draws_five():
    table = Table(players=3).start()
    total = len(rulebook_deck()["cards"])
    assert [len(p.hand) for p in table.state.table.players] == [5, 5, 5]
    assert len(table.state.table.draw_pile) == total - 15
    assert table.state.table.discard_pile == ()
    assert table.state.table.turn.stage == DRAW
    assert game_status(table.state) == "active"


def test_the_first_turn_goes_to_a_randomly_determined_player():
    first_seats = {Table(players=4, seed=seed).start().state.table.turn.seat for seed in range(30)}
    assert len(first_seats) > 1


def test_deck_special_rule_params_change_the_rules_at_setup():
    deck = rulebook_deck(special_rules=[{"id": "r1", "title": "Small hands", "text": "Hand size is three.",
                                         "params": {"hand_limit": 3, "starting_hand": 3}}])
    table = Table(players=2, deck=deck).start()
    assert [len(p.hand) for p in table.state.table.players] == [3, 3]
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 3


def test_starting_a_game_twice_is_refused():
    table = Table(players=2).start()
    table.refuse(0, {"type": "start"}, "game_not_open")


# --- Turn Structure --------------------------------------------------------------------------------------------


def test_draw_takes_the_top_card_of_the_draw_pile_and_moves_on_to_play(table):
    table.arrange(turn=0, stage=DRAW, hands={0: []}, draw_pile=["Reykjavik", "Frenzy"])
    table.send(0, {"type": "draw"})
    assert table.hand(0) == ["Frenzy"]
    assert table.titles(table.state.table.draw_pile) == ["Reykjavik"]
    assert table.state.table.turn.stage == PLAY


def test_empty_draw_pile_is_refilled_by_shuffling_the_discard_pile(table):
    table.arrange(turn=0, stage=DRAW, hands={0: []}, draw_pile=[], discard_pile=FILLER[:10])
    events = table.send(0, {"type": "draw"})
    assert [e.type for e in events] == ["draw_pile.refilled", "card.drawn", "turn.stage_changed"]
    assert table.state.table.discard_pile == ()
    assert len(table.state.table.draw_pile) == 9 and len(table.hand(0)) == 1
    refilled = events[0].data["draw_pile"]
    assert sorted(table.titles(refilled)) == sorted(FILLER[:10])
    assert table.titles(refilled) != FILLER[:10]  # shuffled, not just turned over


def test_when_both_piles_are_empty_no_card_is_drawn_and_play_begins(table):
    table.arrange(turn=0, stage=DRAW, hands={0: ["Reykjavik"]}, draw_pile=[], discard_pile=[])
    events = table.send(0, {"type": "draw"})
    assert [e.type for e in events] == ["turn.stage_changed"]
    assert table.hand(0) == ["Reykjavik"]
    assert table.state.table.turn.stage == PLAY


def test_a_card_played_before_the_draw_is_refused_as_wrong_stage(table):
    table.arrange(turn=0, stage=DRAW, hands={0: ["Reykjavik"]})
    table.refuse(0, {"type": "play", "card": table.card("Reykjavik")}, "wrong_stage")
    table.refuse(0, {"type": "end_turn"}, "wrong_stage")


def test_drawing_a_second_time_is_refused_as_wrong_stage(table):
    table.arrange(turn=0, stage=PLAY)
    table.refuse(0, {"type": "draw"}, "wrong_stage")


def test_another_players_draw_is_refused_as_not_your_turn(table):
    table.arrange(turn=0, stage=DRAW)
    table.refuse(1, {"type": "draw"}, "not_your_turn")


def test_things_go_into_play_in_front_of_their_player_and_actions_onto_the_discard_pile(table):
    table.arrange(turn=1, hands={1: ["Reykjavik", "Espionage"]})
    table.send(1, {"type": "play", "card": table.card("Reykjavik")})
    table.send(1, {"type": "play", "card": table.card("Espionage")})
    assert table.in_play(1) == ["Reykjavik"]
    assert table.discard_pile()[-1] == "Espionage"
    assert table.hand(1) == []


def test_one_thing_and_one_action_may_be_played_each_turn_in_either_order(table):
    table.arrange(turn=0, hands={0: ["Espionage", "Reykjavik", "Secret Identity", "Frenzy"]})
    table.send(0, {"type": "play", "card": table.card("Espionage")})
    table.send(0, {"type": "play", "card": table.card("Reykjavik")})
    table.refuse(0, {"type": "play", "card": table.card("Secret Identity")}, "limit_reached")
    table.refuse(0, {"type": "play", "card": table.card("Frenzy")}, "limit_reached")
    assert table.state.table.turn.things_played == 1 and table.state.table.turn.actions_played == 1


def test_a_thing_can_be_played_onto_another_thing_in_play(table):
    table.arrange(turn=0, hands={0: ["Flak Armour"]}, in_play={1: ["Reykjavik"]})
    table.send(0, {"type": "play", "card": table.card("Flak Armour"), "onto": table.card("Reykjavik")})
    seen = view_state(table.state, 2)["players"][1]["in_play"]
    assert [(c["title"], [a["title"] for a in c["attached"]]) for c in seen] == [("Reykjavik", ["Flak Armour"])]


def test_playing_onto_a_card_that_is_not_in_play_is_invalid(table):
    table.arrange(turn=0, hands={0: ["Flak Armour", "Reykjavik"]})
    table.refuse(0, {"type": "play", "card": table.card("Flak Armour"), "onto": table.card("Reykjavik")},
                 "invalid")


def test_destroying_a_thing_destroys_things_played_onto_it(table):
    table.arrange(turn=0, hands={0: []}, in_play={0: ["Cardboard Box"], 1: ["Reykjavik"]})
    table.state = _attach(table, "Flak Armour", onto="Reykjavik", seat=1)
    table.state = _attach(table, "Short Circuit", onto="Flak Armour", seat=2)
    table.send(0, {"type": "destroy", "card": table.card("Reykjavik"), "cause": table.card("Cardboard Box")})
    assert set(table.discard_pile()[-3:]) == {"Reykjavik", "Flak Armour", "Short Circuit"}
    assert table.in_play(1) == [] and table.in_play(2) == []
    assert table.state.table.attached_to == {}


def test_destroying_a_thing_played_onto_another_leaves_the_other_in_play(table):
    table.arrange(turn=0, hands={0: []}, in_play={0: ["Cardboard Box"], 1: ["Reykjavik"]})
    table.state = _attach(table, "Flak Armour", onto="Reykjavik", seat=1)
    table.send(0, {"type": "destroy", "card": table.card("Flak Armour"), "cause": table.card("Cardboard Box")})
    assert table.in_play(1) == ["Reykjavik"]
    assert table.discard_pile()[-1] == "Flak Armour"


def _attach(table: Table, title: str, *, onto: str, seat: int):
    table.arrange(hands={seat: [title]}, turn=seat)
    table.send(seat, {"type": "play", "card": table.card(title), "onto": table.card(onto)})
    return table.state


def test_a_things_action_ability_is_used_in_place_of_the_turns_action(table):
    table.arrange(turn=0, hands={0: ["Espionage"]}, in_play={0: ["Graverobber", "Reykjavik"]})
    table.refuse(0, {"type": "use", "card": table.card("Reykjavik")}, "invalid")
    table.send(0, {"type": "use", "card": table.card("Graverobber")})
    assert table.in_play(0) == ["Graverobber", "Reykjavik"]  # the Thing stays in play
    table.refuse(0, {"type": "play", "card": table.card("Espionage")}, "limit_reached")


def test_a_thing_denied_its_actions_cannot_use_them(table):
    table.arrange(turn=0, in_play={0: ["Graverobber"], 1: ["Short Circuit"]})
    table.send(1, {"type": "set_rule", "cause": table.card("Short Circuit"), "param": "use_actions",
                   "card": table.card("Graverobber"), "deny": True})
    table.refuse(0, {"type": "use", "card": table.card("Graverobber")}, "denied")


def test_an_action_that_may_be_played_at_any_time_may_be_played_out_of_turn(table):
    table.arrange(turn=0, hands={2: ["Would You Like A Jelly-Baby?", "Espionage"]})
    table.send(2, {"type": "play", "card": table.card("Would You Like A Jelly-Baby?")})
    assert table.discard_pile()[-1] == "Would You Like A Jelly-Baby?"
    assert table.state.table.turn.seat == 0 and table.state.table.turn.actions_played == 0


def test_an_action_the_deck_marks_as_out_of_turn_may_be_played_out_of_turn():
    deck = rulebook_deck()
    espionage = next(card for card in deck["cards"] if card["title"] == "Espionage")
    espionage["out_of_turn"] = True  # a curator's mark, though the text does not say so
    table = Table(players=3, deck=deck).start()
    table.arrange(turn=0, hands={2: ["Espionage"]})
    table.send(2, {"type": "play", "card": table.card("Espionage")})
    assert table.discard_pile()[-1] == "Espionage"


# "During this stage, the player may play one Action card and one Thing card"; an Action may say "You may play this
# card at any time". Whether such a card, played in its player's own turn, is the turn's one Action the rulebook
# does not say: by default it is not (option ``any_time_actions_count``: it is).


def test_an_action_playable_at_any_time_played_in_your_own_turn_is_not_the_turns_one_action(table):
    jelly_baby, espionage = "Would You Like A Jelly-Baby?", "Espionage"
    table.arrange(turn=0, hands={0: [jelly_baby, espionage]})
    table.send(0, {"type": "play", "card": table.card(jelly_baby)})
    assert table.state.table.turn.actions_played == 0
    assert table.events[-1].data["counted"] is False
    assert {"type": "play", "card": table.card(espionage)} in legal_moves(table.state, 0)
    table.send(0, {"type": "play", "card": table.card(espionage)})
    assert table.state.table.turn.actions_played == 1


def test_after_the_turns_action_an_action_playable_at_any_time_may_still_be_played(table):
    jelly_baby, espionage = "Would You Like A Jelly-Baby?", "Espionage"
    table.arrange(turn=0, hands={0: [espionage, jelly_baby]})
    table.send(0, {"type": "play", "card": table.card(espionage)})
    assert {"type": "play", "card": table.card(jelly_baby)} in legal_moves(table.state, 0)
    table.send(0, {"type": "play", "card": table.card(jelly_baby)})
    assert table.discard_pile()[-1] == jelly_baby and table.state.table.turn.actions_played == 1


def test_with_any_time_actions_count_it_is_the_turns_one_action_when_played_in_your_own_turn():
    jelly_baby, espionage = "Would You Like A Jelly-Baby?", "Espionage"
    table = Table(players=3, deck=rulebook_deck(), options={"any_time_actions_count": True}).start()
    table.arrange(turn=0, hands={0: [jelly_baby, espionage]})
    table.send(0, {"type": "play", "card": table.card(jelly_baby)})
    assert table.state.table.turn.actions_played == 1
    table.refuse(0, {"type": "play", "card": table.card(espionage)}, "limit_reached")
    assert {"type": "play", "card": table.card(espionage)} not in legal_moves(table.state, 0)
    table.arrange(stage=DRAW, hands={0: [jelly_baby]})  # nor before the draw: the turn's Action wherever it falls
    table.state = table.state.with_table(turn=replace(table.state.table.turn, actions_played=1))
    table.refuse(0, {"type": "play", "card": table.card(jelly_baby)}, "limit_reached")


def test_any_time_actions_count_is_true_or_false():
    with pytest.raises(DomainError) as refused:
        Table(players=2, deck=rulebook_deck(), options={"any_time_actions_count": "yes"})
    assert refused.value.code == "invalid"


def test_an_action_playable_at_any_time_beyond_the_limit_when_a_card_lifts_it():
    jelly_baby = "Would You Like A Jelly-Baby?"
    table = Table(players=3, deck=rulebook_deck(), options={"any_time_actions_count": True}).start()
    table.arrange(turn=0, hands={0: ["Espionage", jelly_baby]}, in_play={0: ["Frenzy"]})
    table.send(0, {"type": "set_rule", "cause": table.card("Frenzy"), "param": "actions_per_turn", "value": None})
    table.send(0, {"type": "play", "card": table.card("Espionage")})
    table.send(0, {"type": "play", "card": table.card(jelly_baby)})
    assert table.state.table.turn.actions_played == 2


def test_any_other_card_played_out_of_turn_is_not_your_turn(table):
    table.arrange(turn=0, hands={2: ["Espionage", "Reykjavik"]})
    table.refuse(2, {"type": "play", "card": table.card("Espionage")}, "not_your_turn")
    table.refuse(2, {"type": "play", "card": table.card("Reykjavik")}, "not_your_turn")


def test_end_turn_is_refused_while_holding_more_than_the_hand_limit(table):
    table.arrange(turn=0, hands={0: FILLER[:7]})
    table.refuse(0, {"type": "end_turn"}, "limit_reached")


def test_discard_down_to_the_hand_limit_but_never_below_then_the_next_player_begins(table):
    table.arrange(turn=2, hands={2: FILLER[:7]})
    table.refuse(2, {"type": "discard", "cards": [table.card(t) for t in FILLER[:3]]}, "limit_reached")
    table.send(2, {"type": "discard", "cards": [table.card(t) for t in FILLER[:2]]})
    assert table.state.table.turn.stage == DISCARD
    assert table.discard_pile()[-2:] == FILLER[:2]
    table.refuse(2, {"type": "play", "card": table.card(FILLER[2])}, "wrong_stage")
    table.send(2, {"type": "end_turn"})
    assert table.state.table.turn.seat == 0 and table.state.table.turn.stage == DRAW


def test_players_cannot_discard_when_they_feel_like_it(table):
    table.arrange(turn=0, hands={0: FILLER[:5]})
    table.refuse(0, {"type": "discard", "cards": [table.card(FILLER[0])]}, "limit_reached")


def test_seats_take_turns_in_order(table):
    table.arrange(turn=1, hands={1: []})
    table.send(1, {"type": "end_turn"})
    assert table.state.table.turn.seat == 2
    table.arrange(hands={2: []})
    table.send(2, {"type": "end_turn"})
    assert table.state.table.turn.seat == 0


# --- Refusals --------------------------------------------------------------------------------------------------


def test_a_card_not_in_your_hand_is_refused_without_saying_where_it_is(table):
    table.arrange(turn=0, hands={0: [], 1: ["Espionage"]}, in_play={2: ["Reykjavik"]})
    hidden = table.refuse(0, {"type": "play", "card": table.card("Espionage")}, "card_not_in_hand")
    public = table.refuse(0, {"type": "play", "card": table.card("Reykjavik")}, "card_not_in_hand")
    assert hidden.message == public.message
    assert "Espionage" not in hidden.message and "hand of" not in hidden.message


def test_an_unknown_command_type_is_refused(table):
    error = table.refuse(0, {"type": "shout"}, "unknown_command")
    assert error.status == 400


@pytest.mark.parametrize("command", [{"type": "play"}, {"type": "play", "card": 5}, {"kind": "draw"}, ["draw"]])
def test_a_malformed_command_is_invalid(table, command):
    table.arrange(turn=0)
    assert table.refuse(0, command, "invalid").status == 400


def test_someone_without_a_seat_is_forbidden(table):
    with pytest.raises(DomainError) as refused:
        decide(table.state, {"type": "draw"}, actor=Actor(999, "stranger"), rng=table.rng)
    assert refused.value.code == "forbidden" and refused.value.status == 403


# --- Effect moves ----------------------------------------------------------------------------------------------


def test_take_random_moves_a_random_card_from_a_seats_hand_into_the_actors(table):
    table.arrange(turn=0, hands={0: ["Espionage"], 1: FILLER[:3]})
    taken = table.send(0, {"type": "take_random", "from": 1, "cause": table.card("Espionage")})
    taken_title = table.title(taken[0].data["card"])
    assert taken_title in FILLER[:3]
    assert taken_title in table.hand(0) and taken_title not in table.hand(1)


def test_take_random_picks_different_cards_under_different_randomness():
    picks = set()
    for seed in range(20):
        table = Table(players=2, seed=seed).start()
        table.arrange(turn=0, hands={0: ["Espionage"], 1: FILLER[:5]})
        picks.add(table.title(table.send(0, {"type": "take_random", "from": 1,
                                             "cause": table.card("Espionage")})[0].data["card"]))
    assert len(picks) > 1


def test_a_cause_must_be_a_card_the_actor_can_see(table):
    table.arrange(turn=0, hands={0: [], 1: ["Espionage"]})
    table.refuse(0, {"type": "roll", "dice": "2d6", "cause": table.card("Espionage")}, "invalid")
    table.refuse(0, {"type": "roll", "dice": "2d6"}, "invalid")


def test_give_counter_roll_and_shuffle_carry_out_a_cards_text(table):
    table.arrange(turn=0, hands={0: ["Espionage"]}, in_play={0: ["Cardboard Box"]})
    box = table.card("Cardboard Box")
    table.send(0, {"type": "give", "card": table.card("Espionage"), "to": 2, "cause": box})
    assert table.hand(2)[-1] == "Espionage"
    table.send(0, {"type": "counter", "seat": 1, "name": "gold", "delta": 3, "cause": box})
    table.send(0, {"type": "counter", "seat": 1, "name": "gold", "delta": -1, "cause": box})
    assert table.state.table.player(1).counters == {"gold": 2}
    rolled = table.send(0, {"type": "roll", "dice": "2d6", "cause": box})[0].data
    assert len(rolled["rolls"]) == 2 and all(1 <= r <= 6 for r in rolled["rolls"])
    assert rolled["total"] == sum(rolled["rolls"])
    before = table.state.table.draw_pile
    table.send(0, {"type": "shuffle", "pile": "draw", "cause": box})
    assert sorted(table.state.table.draw_pile) == sorted(before) and table.state.table.draw_pile != before


def test_move_puts_a_card_back_on_top_of_the_draw_pile(table):
    table.arrange(turn=0, hands={0: ["Espionage"]}, in_play={0: ["Cardboard Box"]})
    table.send(0, {"type": "move", "card": table.card("Espionage"), "to": "draw_top",
                   "cause": table.card("Cardboard Box")})
    assert table.title(table.state.table.draw_pile[-1]) == "Espionage"


def test_a_card_cannot_move_from_a_hidden_place_the_actor_cannot_see(table):
    table.arrange(turn=0, hands={1: ["Espionage"]}, in_play={0: ["Cardboard Box"]})
    table.refuse(0, {"type": "move", "card": table.card("Espionage"), "to": "hand",
                     "cause": table.card("Cardboard Box")}, "not_found")


# --- Rule parameters and precedence in play --------------------------------------------------------------------


def test_a_thing_in_play_changes_a_rule_until_it_leaves_play(table):
    table.arrange(turn=0, hands={0: FILLER[:6]}, in_play={0: ["Greedy Goblin", "Cardboard Box"]})
    goblin = table.card("Greedy Goblin")
    table.send(0, {"type": "set_rule", "cause": goblin, "param": "hand_limit", "value": 6, "seat": 0})
    table.send(0, {"type": "end_turn"})  # six cards are within a hand limit of six
    table.arrange(turn=0, hands={0: FILLER[:6]})
    table.send(0, {"type": "destroy", "card": goblin, "cause": table.card("Cardboard Box")})
    table.refuse(0, {"type": "end_turn"}, "limit_reached")


def test_any_number_of_actions_when_a_card_lifts_the_limit(table):
    table.arrange(turn=0, hands={0: ["Espionage", "Secret Identity", "Take Off Every Zig"]},
                  in_play={0: ["Frenzy"]})
    table.send(0, {"type": "set_rule", "cause": table.card("Frenzy"), "param": "actions_per_turn", "value": None})
    for title in ("Espionage", "Secret Identity", "Take Off Every Zig"):
        table.send(0, {"type": "play", "card": table.card(title)})
    assert table.state.table.turn.actions_played == 3


def test_a_denial_from_a_card_beats_a_special_rules_permission():
    deck = rulebook_deck(special_rules=[{"id": "r1", "title": "Big hands", "text": "", "params": {"hand_limit": 7}}])
    table = Table(players=2, deck=deck).start()
    table.arrange(turn=0, hands={0: FILLER[:6]}, in_play={1: ["Red Tape"]})
    table.send(1, {"type": "set_rule", "cause": table.card("Red Tape"), "param": "things_per_turn", "deny": True})
    table.refuse(0, {"type": "play", "card": table.card(FILLER[1])}, "limit_reached")
    table.send(0, {"type": "end_turn"})  # the Special Rule's hand limit of seven still holds


def test_set_rule_cites_a_thing_you_control_whose_text_speaks_of_the_rule(table):
    table.arrange(turn=0, hands={0: FILLER[:6]}, in_play={0: ["Cardboard Box"], 1: ["Greedy Goblin"]},
                  discard_pile=["Overtime"])
    change = {"type": "set_rule", "param": "hand_limit", "value": 7, "seat": 0}
    not_yours = table.refuse(0, {**change, "cause": table.card("Greedy Goblin")}, "not_citable")
    assert not_yours.status == 409 and not_yours.details == {"field": "cause", "param": "hand_limit"}
    silent = table.refuse(0, {**change, "cause": table.card("Cardboard Box")}, "not_citable")
    assert "says nothing of hand_limit" in silent.message
    table.refuse(0, {"type": "set_rule", "cause": table.card("Overtime"), "param": "actions_per_turn",
                     "value": None}, "not_citable")  # on the discard pile, but not played this turn
    table.send(1, {**change, "seat": 1, "cause": table.card("Greedy Goblin")})
    assert view_state(table.state, 1)["rules"]["hand_limit"] == 7


def test_set_rule_cites_a_card_you_played_this_turn_and_its_change_ends_with_the_turn(table):
    table.arrange(turn=0, hands={0: ["Overtime", "Espionage", "Secret Identity"]})
    overtime = table.card("Overtime")
    table.send(0, {"type": "play", "card": overtime})
    table.refuse(1, {"type": "set_rule", "cause": overtime, "param": "actions_per_turn", "value": None},
                 "not_citable")  # played, but by another player
    table.refuse(0, {"type": "set_rule", "cause": overtime, "param": "hand_limit", "value": 9}, "not_citable")
    table.refuse(0, {"type": "set_rule", "cause": overtime, "param": "actions_per_turn", "value": None,
                     "until": "leaves_play"}, "invalid")  # an Action is never in play
    table.send(0, {"type": "set_rule", "cause": overtime, "param": "actions_per_turn", "value": None})
    assert view_state(table.state, 0)["modifiers"][-1]["until"] == "end_of_turn"
    table.send(0, {"type": "play", "card": table.card("Espionage")})  # the Overtime was the first
    table.send(0, {"type": "end_turn"})
    assert view_state(table.state, 0)["rules"]["actions_per_turn"] == 1 and table.state.table.modifiers == ()
    assert table.discard_pile()[-2:] == ["Overtime", "Espionage"]  # next turn it is no longer just played
    table.refuse(0, {"type": "set_rule", "cause": overtime, "param": "actions_per_turn", "value": None},
                 "not_citable")


def test_a_special_rule_may_be_cited_for_the_rules_its_text_or_params_speak_of():
    deck = rulebook_deck(special_rules=[
        {"id": "r1", "title": "Small hands", "text": "Hand size is three instead of five."},
        {"id": "r2", "title": "Manners", "text": "Be nice."},
        {"id": "r3", "title": "Quick", "text": "Play fast.", "params": {"draws_per_turn": 2}},
    ])
    table = Table(players=2, deck=deck).start()
    table.send(1, {"type": "set_rule", "cause": "r1", "param": "hand_limit", "value": 3})
    assert view_state(table.state, 0)["modifiers"][-1]["until"] == "ended"
    table.refuse(0, {"type": "set_rule", "cause": "r2", "param": "hand_limit", "value": 9}, "not_citable")
    table.send(0, {"type": "set_rule", "cause": "r3", "param": "draws_per_turn", "value": 3, "seat": 0})


def test_a_rule_change_for_a_number_of_turns_ends_as_the_last_of_them_ends(table):
    table.arrange(turn=0, in_play={0: ["Greedy Goblin"]})
    table.send(0, {"type": "set_rule", "cause": table.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                   "until": "end_of_turn", "turns": 2})
    assert view_state(table.state, 2)["modifiers"][-1]["turns_left"] == 2
    table.arrange(hands={0: []})
    table.send(0, {"type": "end_turn"})
    assert view_state(table.state, 2)["rules"]["hand_limit"] == 7
    assert view_state(table.state, 2)["modifiers"][-1]["turns_left"] == 1
    table.send(1, {"type": "draw"})
    table.arrange(hands={1: []})
    table.send(1, {"type": "end_turn"})
    assert view_state(table.state, 2)["rules"]["hand_limit"] == 5 and view_state(table.state, 2)["modifiers"] == []
    table.refuse(0, {"type": "set_rule", "cause": table.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                     "until": "end_of_turn", "turns": 0}, "invalid")
    table.refuse(0, {"type": "set_rule", "cause": table.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                     "turns": 2}, "invalid")  # turns go with end_of_turn


def test_a_change_made_until_ended_outlasts_its_thing_and_its_maker_ends_it(table):
    table.arrange(turn=0, in_play={0: ["Greedy Goblin", "Cardboard Box"]})
    goblin = table.card("Greedy Goblin")
    event = table.send(0, {"type": "set_rule", "cause": goblin, "param": "hand_limit", "value": 7, "until": "ended"})
    effect = view_state(table.state, 0)["modifiers"][0]
    assert effect == {"id": table.state.version, "source": goblin, "param": "hand_limit", "value": 7, "seat": None,
                      "card": None, "deny": False, "by": 0, "until": "ended"}
    assert event[0].data["by"] == 0
    table.send(0, {"type": "destroy", "card": goblin, "cause": table.card("Cardboard Box")})
    assert view_state(table.state, 1)["rules"]["hand_limit"] == 7
    assert {"type": "end_rule_effect", "effect": effect["id"]} in legal_moves(table.state, 0)
    assert not [m for m in legal_moves(table.state, 1) if m["type"] == "end_rule_effect"]
    table.refuse(1, {"type": "end_rule_effect", "effect": effect["id"]}, "denied")
    table.refuse(0, {"type": "end_rule_effect", "effect": effect["id"] + 100}, "not_found")
    ended = table.send(0, {"type": "end_rule_effect", "effect": effect["id"]})
    assert [(e.type, e.data) for e in ended] == [
        ("rule.ended", {"effect": effect["id"], "param": "hand_limit", "by": 0, "cause": None})]
    assert view_state(table.state, 1)["rules"]["hand_limit"] == 5 and view_state(table.state, 1)["modifiers"] == []
    table.refuse(0, {"type": "end_rule_effect", "effect": effect["id"]}, "not_found")


def test_another_player_ends_a_change_with_a_card_they_may_cite_for_it():
    deck = rulebook_deck(special_rules=[{"id": "r1", "title": "Small hands", "text": "Hand size is three.",
                                         "params": {"hand_limit": 3}}])
    table = Table(players=2, deck=deck).start()
    table.arrange(turn=0, in_play={0: ["Greedy Goblin"], 1: ["Red Tape"]})
    table.send(0, {"type": "set_rule", "cause": table.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                   "seat": 0})
    special, goblins = (view_state(table.state, 1)["modifiers"][i]["id"] for i in (0, 1))
    table.refuse(1, {"type": "end_rule_effect", "effect": goblins, "cause": table.card("Red Tape")}, "not_citable")
    table.refuse(1, {"type": "end_rule_effect", "effect": special, "cause": "r1"}, "denied")  # the rule's own
    table.send(1, {"type": "end_rule_effect", "effect": goblins, "cause": "r1"})
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 3


# --- Winning ---------------------------------------------------------------------------------------------------


def test_a_player_who_meets_a_cards_condition_wins_and_the_game_ends(table):
    table.arrange(turn=1, in_play={2: ["Big Brother"]})
    table.send(2, {"type": "win", "cause": table.card("Big Brother")})
    assert game_status(table.state) == "finished" and table.state.winners == (2,)
    assert view_state(table.state, None)["winners"] == [2]
    table.refuse(0, {"type": "draw"}, "game_not_active")
    table.refuse(2, {"type": "concede"}, "game_not_active")


def test_eliminated_players_are_skipped_in_turn_order(table):
    table.arrange(turn=0, hands={0: []}, in_play={0: ["Vorpal Blade"]})
    table.send(0, {"type": "eliminate", "seat": 1, "cause": table.card("Vorpal Blade")})
    table.send(0, {"type": "end_turn"})
    assert table.state.table.turn.seat == 2
    table.refuse(1, {"type": "concede"}, "eliminated")


def test_the_last_player_standing_wins(table):
    table.arrange(turn=0)
    table.send(1, {"type": "concede"})
    assert game_status(table.state) == "active"
    events = table.send(0, {"type": "concede"})
    assert [e.type for e in events] == ["player.eliminated", "game.won"]
    assert table.state.winners == (2,) and game_status(table.state) == "finished"


def test_a_player_who_concedes_in_their_own_turn_passes_it_on(table):
    table.arrange(turn=1)
    table.send(1, {"type": "concede"})
    assert table.state.table.turn.seat == 2 and table.state.table.turn.stage == DRAW


# --- Purity ----------------------------------------------------------------------------------------------------


def test_replaying_a_tables_events_gives_its_state():
    table = Table(players=3).start()
    first = table.state.table.turn.seat
    table.send(first, {"type": "draw"})
    table.send(first, {"type": "end_turn"} if len(table.state.table.player(first).hand) <= 5 else
               {"type": "discard", "cards": [table.state.table.player(first).hand[0]]})
    assert replay(table.events) == table.state


def test_the_rulebook_example_cards_are_cards_not_headings():
    titles = [card["title"] for card in rulebook_example_cards()]
    assert "Espionage" in titles and "Graverobber" in titles and "Victory" not in titles


def printed_example_cards(rulebook: str) -> list[dict]:
    """The example cards as the rulebook prints them: a title line, a type line, then the card text (if any)."""
    card_types = ("Thing", "Action")
    lines = [line.strip() for line in rulebook.splitlines()]
    cards = []
    for index in range(len(lines) - 1):
        title, card_type = lines[index], lines[index + 1]
        if card_type not in card_types or title in card_types or not title:
            continue
        text = lines[index + 2] if index + 2 < len(lines) else ""
        followed_by_type = index + 3 < len(lines) and lines[index + 3] in card_types
        cards.append({"title": title, "type": card_type, "text": "" if followed_by_type else text})
    return cards


@requires_seeds
def test_the_example_cards_fixture_is_every_example_card_the_rulebook_prints():
    printed = printed_example_cards(original_path(RULEBOOK).read_text(encoding="utf-8"))
    assert [{key: card[key] for key in ("title", "type", "text")} for card in rulebook_example_cards()] == printed


def test_a_deck_too_big_to_deal_is_refused():
    deck = rulebook_deck()
    deck["cards"][0]["copies"] = 10_000_000
    with pytest.raises(DomainError) as refused:
        create_game(ruleset="dvorak", deck=deck, variant="standard", creative=False, max_players=2, options={},
                    creator=Actor(1, "ann"), rng=SeededRng(1))
    assert refused.value.code == "invalid"
