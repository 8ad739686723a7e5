"""The deck's Special Rules, each test named in the rules' own words ("Each soldier has 4 stats ...", "Shoot",
"Endure", "React", "Move"). The field is 12 by 12 card lengths unless a test says otherwise; ``x`` grows east,
``y`` north, seat 0 starts at the south edge."""

from __future__ import annotations

import pytest

from dvorak_core.errors import DomainError
from tests.engine.serm.skirmish import Skirmish, deck, of_type, special_rule, types

# --- "Each soldier has 4 stats: Shoot, Endure, React, Move." ----------------------------------------------------


def test_each_soldier_has_4_stats_shoot_endure_react_move_taken_from_the_deck_cards():
    assert "Each soldier has 4 stats: Shoot, Endure, React, Move." in special_rule("")
    cards = {card["title"]: card["stats"] for card in Skirmish().view()["cards"]}
    assert cards["Ranger"] == {"shoot": 1, "endure": 1, "react": 2, "move": 1}
    assert cards["Brawler"] == {"shoot": 0, "endure": 0, "react": 2, "move": 3}
    assert cards["Rocket Launcher"] == {"shoot": 3, "endure": 1, "react": 0, "move": 1}
    # The stats are the deck's: a deck that gives the Guardsman three Shoot dice has a Guardsman rolling three.
    stronger = deck()
    next(card for card in stronger["cards"] if card["title"] == "Guardsman")["stats"]["Shoot"] = 3
    game = Skirmish(the_deck=stronger)
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    [shot] = of_type(game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"},
                               dice=[1, 1, 1, 2]), "serm.shot")
    assert shot["fire"][0]["shoot"] == {"dice": [[1], [1], [1]], "total": 3}


def test_a_deck_card_without_its_four_stats_cannot_be_played():
    broken = deck()
    del broken["cards"][0]["stats"]["React"]
    with pytest.raises(DomainError) as refused:
        Skirmish(the_deck=broken)
    assert refused.value.code == "denied" and refused.value.details["cards"] == ["Ranger"]


def test_both_players_have_one_of_each_soldier():
    game = Skirmish()
    titles = [card["title"] for card in deck()["cards"]]
    for seat in (0, 1):
        mine = [s for s in game.view()["board"]["soldiers"] if s["seat"] == seat]
        assert sorted(s["title"] for s in mine) == sorted(titles)
        # Each side stands in the row at its own edge, facing the enemy.
        assert {s["y"] for s in mine} == {0 if seat == 0 else 11}
        assert {s["facing"] for s in mine} == {"N" if seat == 0 else "S"}
    assert [p["counters"]["soldiers"] for p in game.view()["players"]] == [8, 8]


def test_players_may_elect_to_build_a_force_using_the_corner_value_of_the_cards_for_their_cost():
    game = Skirmish({"budget": 5})
    assert game.view()["board"]["phase"] == "muster"
    # The Dreadnaught's corner value is 8: more than the budget.
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "recruit", "card": "Dreadnaught"})
    assert refused.value.code == "denied"
    game.send(0, {"type": "recruit", "card": "Gunner"})  # 3
    game.send(0, {"type": "recruit", "card": "Assault"})  # 2: the budget is spent
    assert game.moves(0) == [{"type": "ready"}]
    game.send(0, {"type": "ready"})
    for _ in range(5):
        game.send(1, {"type": "recruit", "card": "Guardsman"})  # 1 each: five of them
    game.send(1, {"type": "ready"})
    board = game.view()["board"]
    assert board["phase"] == "battle"
    assert sorted(s["title"] for s in board["soldiers"] if s["seat"] == 0) == ["Assault", "Gunner"]
    assert [s["id"] for s in board["soldiers"] if s["seat"] == 1] == [
        "1-guardsman", "1-guardsman-2", "1-guardsman-3", "1-guardsman-4", "1-guardsman-5"]


# --- "Soldiers do not block line of sight." ---------------------------------------------------------------------


def test_soldiers_do_not_block_line_of_sight():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), armored_1=(5, 4, "S"), guardsman_1=(5, 8, "S"))
    guardsman = next(s for s in game.view()["board"]["soldiers"] if s["id"] == "0-guardsman")
    assert guardsman["in_sight"] == ["1-armored", "1-guardsman"]


def test_terrain_blocks_line_of_sight_when_the_game_sets_any():
    game = Skirmish({"terrain": [{"x": 4, "y": 5, "width": 3, "height": 1}]})
    game.arrange(guardsman_0=(5, 2, "N"), armored_1=(5, 4, "S"), guardsman_1=(5, 8, "S"))
    guardsman = next(s for s in game.view()["board"]["soldiers"] if s["id"] == "0-guardsman")
    assert guardsman["in_sight"] == ["1-armored"]
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"})
    assert refused.value.code == "denied"


# --- initiative ----------------------------------------------------------------------------------------------------


def test_initiative_will_swap_after_completion_of_one_soldiers_initiative():
    game = Skirmish()
    # The enemy Guardsman looks away: it sees nothing of the turn, and nothing reacts.
    game.arrange(guardsman_0=(5, 2, "N"), ranger_0=(9, 2, "N"), guardsman_1=(5, 8, "N"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[2, 3])
    # The same soldier only, until its initiative is complete.
    assert {move["soldier"] for move in game.moves(0) if "soldier" in move} == {"0-guardsman"}
    assert game.moves(1) == []
    events = game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "E"})
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]
    assert game.moves(0) == [] and game.view()["board"]["waiting_for"] == [1]


def test_each_time_initiative_swaps_players_may_choose_any_of_their_soldiers_even_the_one_who_went_before():
    game = Skirmish()
    # Nobody sees an enemy turn (the Armored has no React dice): no React interrupts.
    game.arrange(guardsman_0=(5, 2, "N"), assault_0=(9, 2, "S"), armored_1=(0, 11, "N"), gunner_1=(11, 11, "N"))
    game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "E"})
    assert {move["soldier"] for move in game.moves(1) if "soldier" in move} == {"1-armored", "1-gunner"}
    game.send(1, {"type": "turn", "soldier": "1-armored", "facing": "W"})  # nothing in sight to shoot
    assert {move["soldier"] for move in game.moves(0) if "soldier" in move} == {"0-guardsman", "0-assault"}
    game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "N"})
    assert game.at("guardsman_0") == (5, 2, "N")


def test_players_may_choose_to_move_then_shoot():
    game = Skirmish()
    # The enemy Guardsman looks away, north: it sees nothing of the Move, and nothing reacts.
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(8, 8, "N"), armored_1=(11, 0, "N"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "W", "facing": "N"}, dice=[2])
    assert game.at("guardsman_0") == (3, 2, "N")
    assert [m["type"] for m in game.moves(0)] == ["shoot", "pass"]
    events = game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[5, 4])
    assert types(events) == ["serm.shot", "serm.killed", "serm.initiative"]


def test_players_may_choose_to_shoot_then_move():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "N"), armored_1=(11, 0, "N"))
    game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[1, 4])
    assert [m["type"] for m in game.moves(0)] == ["advance", "turn", "pass"]
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "W"}, dice=[3])
    # "If the Move was made by a soldier who has already used a Shoot in the same activation, the initiative will
    # pass to the opponent who chooses any one of their soldiers to activate."
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_whenever_a_six_is_rolled_re_roll_the_dice_adding_all_results_towards_a_total_score():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), armored_1=(5, 8, "S"), ranger_1=(0, 11, "N"))
    # The Guardsman's one Shoot die shows 6, then 6, then 2: 14, against the Armored's two Endure dice (6+1, 5).
    [shot] = of_type(game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-armored"},
                               dice=[6, 6, 2, 6, 1, 5]), "serm.shot")
    [fire] = shot["fire"]
    assert fire["shoot"] == {"dice": [[6, 6, 2]], "total": 14}
    assert fire["hits"] == [{"soldier": "1-armored", "endure": {"dice": [[6, 1], [5]], "total": 12},
                             "eliminated": True}]


# --- Shoot ---------------------------------------------------------------------------------------------------------


def test_a_soldiers_line_of_sight_extends_out_diagonally_from_the_top_corners_of_their_card():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 5, "N"), guardsman_1=(5, 9, "S"), assault_1=(9, 9, "S"), gunner_1=(10, 9, "S"),
                 armored_1=(4, 5, "S"), brawler_1=(5, 2, "S"))
    guardsman = next(s for s in game.view()["board"]["soldiers"] if s["id"] == "0-guardsman")
    # Ahead, and as far to the side as ahead (the diagonal): seen. Further aside, beside or behind: not.
    assert guardsman["in_sight"] == ["1-guardsman", "1-assault"]


def test_there_is_no_range_limit():
    game = Skirmish({"width": 40, "height": 40})
    game.arrange(guardsman_0=(20, 0, "N"), guardsman_1=(20, 39, "S"), armored_1=(0, 39, "N"))
    events = game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[3, 1])
    assert of_type(events, "serm.killed") == [{"soldier": "1-guardsman", "by": "0-guardsman", "cause": "shot"}]


@pytest.mark.parametrize(("dice", "eliminated"), [([4, 3], True), ([3, 3], False), ([2, 5], False)])
def test_a_higher_shoot_total_eliminates_the_target_soldier(dice, eliminated):
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    events = game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=dice)
    assert of_type(events, "serm.shot")[0]["fire"][0]["hits"][0]["eliminated"] is eliminated
    assert (game.soldier("guardsman_1") is None) is eliminated


def test_a_soldier_cannot_shoot_a_soldier_out_of_its_line_of_sight():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 1, "S"), armored_1=(11, 0, "N"))
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"})
    assert refused.value.code == "denied"
    assert not [m for m in game.moves(0) if m["type"] == "shoot"]


def test_the_soldier_may_then_move_if_they_have_not_already_done_so_then_the_initiative_passes():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[1, 4])
    events = game.send(0, {"type": "pass"})
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


# --- Endure --------------------------------------------------------------------------------------------------------


def test_endure_is_only_ever_used_in_response_to_being_the_target_of_a_shoot_activation():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), armored_1=(5, 8, "S"), brawler_1=(6, 8, "S"))
    listed = {move["type"] for seat in (0, 1) for move in game.moves(seat)}
    assert "endure" not in listed
    # The Armored rolls its two Endure dice; the Brawler, Endure 0, rolls none, and any hit eliminates it.
    [shot] = of_type(game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-armored"},
                               dice=[5, 2, 2]), "serm.shot")
    assert shot["fire"][0]["hits"][0]["endure"] == {"dice": [[2], [2]], "total": 4}
    game.give_initiative(0)
    [shot] = of_type(game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-brawler"}, dice=[1]),
                     "serm.shot")
    assert shot["fire"][0]["hits"] == [{"soldier": "1-brawler", "endure": {"dice": [], "total": 0},
                                        "eliminated": True}]


# --- React ---------------------------------------------------------------------------------------------------------


def _react_table(options: dict | None = None) -> Skirmish:
    """The seat 0 Guardsman at (2, 2) will move east; the seat 1 Guardsman at (6, 4), facing south, sees the row
    y = 2 from x = 4 to 8."""
    game = Skirmish(options)
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(6, 4, "S"), armored_1=(0, 11, "N"))
    return game


def test_whenever_a_move_is_made_in_the_line_of_sight_of_any_enemy_soldier_their_controller_may_make_one_react():
    game = _react_table()
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    assert of_type(events, "serm.react_offered") == [{"seat": 1, "soldiers": ["1-guardsman"]}]
    assert game.moves(0) == []
    assert game.moves(1) == [{"type": "react", "soldier": {"choose": 1, "from": ["1-guardsman"], "list": False},
                              "stop": {"choose": 1, "from": ["2,2", "3,2", "4,2", "5,2", "6,2"], "list": False}},
                             {"type": "pass"}]
    # Declining lets the Move be made.
    game.send(1, {"type": "pass"})
    assert game.at("guardsman_0") == (6, 2, "E")


def test_a_move_out_of_every_enemy_line_of_sight_triggers_no_react():
    game = _react_table()
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "W"}, dice=[1])
    assert "serm.react_offered" not in types(events)
    assert game.at("guardsman_0") == (1, 2, "W")


def test_if_the_react_roll_is_greater_than_the_move_roll_the_moving_soldier_is_stopped_and_the_initiative_switches():
    game = _react_table()
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "5,2"}, dice=[6, 1])
    [reacted] = of_type(events, "serm.reacted")
    assert reacted["roll"]["total"] == 7 and reacted["move_total"] == 4 and reacted["stopped"]
    # "... stopped anywhere along its move path": where the reacting player said.
    assert reacted["stop"] == "5,2" and game.at("guardsman_0") == (5, 2, "E")
    # "... the initiative switches to the soldier who reacted."
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": "1-guardsman"}]
    assert {move["soldier"] for move in game.moves(1) if "soldier" in move} == {"1-guardsman"}


@pytest.mark.parametrize("react_die", [4, 2])
def test_a_react_roll_not_greater_than_the_move_roll_does_not_stop_the_move(react_die):
    game = _react_table()
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "4,2"}, dice=[react_die])
    [reacted] = of_type(events, "serm.reacted")
    assert not reacted["stopped"] and reacted["stop"] is None
    assert game.at("guardsman_0") == (6, 2, "E")
    # The initiative does not switch to the reactor: the mover's activation ends as usual (it has nothing in
    # sight to shoot), and the enemy chooses any soldier.
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_their_controller_may_make_one_react_attempt_with_one_soldier():
    game = _react_table()
    game.add("1-guardsman-2", 1, "Guardsman", 3, 5, "S")
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    assert of_type(events, "serm.react_offered")[0]["soldiers"] == ["1-guardsman", "1-guardsman-2"]
    events = game.send(1, {"type": "react", "soldier": "1-guardsman-2", "stop": "3,2"}, dice=[1])
    # One attempt per Move: it failed, and the Move is made.
    assert types(events)[:2] == ["serm.reacted", "serm.moved"]
    assert game.at("guardsman_0") == (6, 2, "E")


def test_option_reacts_each_lets_every_enemy_soldier_in_sight_react_once():
    game = _react_table({"reacts": "each"})
    game.add("1-guardsman-2", 1, "Guardsman", 3, 5, "S")
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    events = game.send(1, {"type": "react", "soldier": "1-guardsman-2", "stop": "3,2"}, dice=[1])
    assert of_type(events, "serm.react_offered") == [{"seat": 1, "soldiers": ["1-guardsman"]}]
    game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "4,2"}, dice=[5])
    assert game.at("guardsman_0") == (4, 2, "E")


def test_option_react_stop_entry_stops_the_mover_where_its_path_enters_the_reactors_line_of_sight():
    game = _react_table({"react_stop": "entry"})
    assert game.view()["rules"]["react_stop"] == "entry"
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    # The reactor names no square: the legal moves offer none, and one sent is refused.
    assert game.moves(1) == [{"type": "react", "soldier": {"choose": 1, "from": ["1-guardsman"], "list": False}},
                             {"type": "pass"}]
    with pytest.raises(DomainError) as refused:
        game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "3,2"})
    assert refused.value.code == "invalid" and refused.value.details["field"] == "stop"
    events = game.send(1, {"type": "react", "soldier": "1-guardsman"}, dice=[6, 1])
    assert of_type(events, "serm.reacted")[0]["stop"] == "4,2" and game.at("guardsman_0") == (4, 2, "E")


# --- Move ----------------------------------------------------------------------------------------------------------


def _move_table() -> Skirmish:
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), armored_1=(0, 11, "N"))
    return game


def test_the_soldier_must_move_exactly_that_amount_of_card_lengths_along_the_declared_direction():
    game = _move_table()
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "NE"}, dice=[3])
    [rolled] = of_type(events, "serm.move_rolled")
    assert rolled["direction"] == "NE" and rolled["roll"] == {"dice": [[3]], "total": 3}
    assert rolled["path"] == ["5,2", "6,3", "7,4", "8,5"]
    assert game.at("guardsman_0") == (8, 5, "NE")


def test_turning_counts_as_the_start_and_end_of_a_move():
    game = _move_table()
    # The end: the soldier may turn as it finishes its Move.
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E", "facing": "S"}, dice=[2])
    assert game.at("guardsman_0") == (7, 2, "S")
    # A turn alone is the soldier's Move.
    game.give_initiative(0)
    events = game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "W"})
    assert game.at("guardsman_0") == (7, 2, "W")
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]  # no Shoot left to make


def test_before_rolling_for_movement_declare_the_direction_the_soldier_will_travel():
    game = _move_table()
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "advance", "soldier": "0-guardsman"})
    assert refused.value.code == "invalid" and refused.value.details["field"] == "direction"


def test_if_a_soldier_would_move_out_of_bounds_halt_them_at_the_edge_instead():
    game = _move_table()
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[6, 3])
    assert of_type(events, "serm.move_rolled")[0]["halted"] == "edge"
    assert game.at("guardsman_0") == (11, 2, "E")


def test_movement_will_be_halted_before_its_end_point_if_it_connects_with_a_soldier_or_terrain():
    game = Skirmish({"terrain": [{"x": 3, "y": 5, "width": 2, "height": 2}]})
    game.arrange(guardsman_0=(5, 2, "N"), ranger_0=(8, 2, "N"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[5])
    assert game.at("guardsman_0") == (7, 2, "E") and game.soldier("ranger_0") is not None
    game.give_initiative(0)
    game.send(0, {"type": "advance", "soldier": "0-ranger", "direction": "NW"}, dice=[5])
    # (7, 3), (6, 4), (5, 5), and the terrain covers (4, 6).
    assert game.at("ranger_0") == (5, 5, "NW")


def test_when_an_enemy_soldier_stops_movement_that_soldier_is_killed_outright():
    game = Skirmish()
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(5, 2, "N"), armored_1=(0, 11, "N"))
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[5])
    assert of_type(events, "serm.killed") == [{"soldier": "1-guardsman", "by": "0-guardsman", "cause": "move"}]
    assert game.at("guardsman_0") == (4, 2, "E")


def test_a_react_that_stops_the_move_first_spares_the_enemy_it_would_have_connected_with():
    game = Skirmish()
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(7, 2, "N"), ranger_1=(4, 6, "S"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[6, 1])
    # The Ranger stops it on the last square of its path before the enemy Guardsman.
    events = game.send(1, {"type": "react", "soldier": "1-ranger", "stop": "6,2"}, dice=[6, 6, 1, 1])
    assert game.at("guardsman_0") == (6, 2, "E")
    assert "serm.killed" not in types(events)
    assert game.soldier("guardsman_1") is not None


# --- the end ------------------------------------------------------------------------------------------------------


def test_the_last_player_with_soldiers_wins():
    game = Skirmish()
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"))
    events = game.send(0, {"type": "shoot", "soldier": "0-guardsman", "target": "1-guardsman"}, dice=[4, 1])
    assert types(events)[-1] == "serm.finished"
    assert game.state.status == "finished" and game.state.winners == (0,)
    assert game.moves(0) == [] and game.moves(1) == []
