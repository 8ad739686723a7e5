"""Each soldier card's text, the test named in the card's own words."""

from __future__ import annotations

import pytest

from dvorak_core.errors import DomainError
from tests.engine.serm.skirmish import Skirmish, card_text, of_type, types


def sight_of(game: Skirmish, soldier_id: str) -> list[str]:
    return next(s for s in game.view()["board"]["soldiers"] if s["id"] == soldier_id)["in_sight"]


def test_ranger_has_a_360_degree_line_of_sight():
    assert card_text("Ranger") == "Ranger has a 360 degree line of sight."
    game = Skirmish()
    game.arrange(ranger_0=(5, 5, "N"), guardsman_0=(6, 5, "N"), guardsman_1=(5, 1, "N"), assault_1=(0, 5, "N"),
                 gunner_1=(11, 11, "N"))
    assert sight_of(game, "0-ranger") == ["1-guardsman", "1-assault", "1-gunner"]
    assert sight_of(game, "0-guardsman") == ["1-gunner"]
    events = game.send(0, {"type": "shoot", "soldier": "0-ranger", "target": "1-guardsman"}, dice=[5, 2])
    assert of_type(events, "serm.killed")[0]["soldier"] == "1-guardsman"


def test_gunner_may_fire_once_at_each_enemy_soldier_in_line_of_sight():
    assert "May fire once at each enemy soldier in line of sight" in card_text("Gunner")
    game = Skirmish()
    game.arrange(gunner_0=(5, 2, "N"), guardsman_1=(5, 8, "N"), assault_1=(3, 9, "N"), armored_1=(5, 0, "N"))
    assert {"type": "shoot", "soldier": "0-gunner"} in game.moves(0)
    # Two Shoot dice at each enemy in sight, each against that soldier's Endure: the Armored behind is not.
    events = game.send(0, {"type": "shoot", "soldier": "0-gunner"}, dice=[5, 1, 2, 1, 1, 3])
    [shot] = of_type(events, "serm.shot")
    assert [(fire["hits"][0]["soldier"], fire["shoot"]["total"], fire["hits"][0]["eliminated"])
            for fire in shot["fire"]] == [("1-guardsman", 6, True), ("1-assault", 2, False)]
    assert of_type(events, "serm.killed") == [{"soldier": "1-guardsman", "by": "0-gunner", "cause": "shot"}]


def test_gunner_cannot_move_then_shoot_or_shoot_then_move_in_the_same_activation():
    assert card_text("Gunner").startswith("Cannot move then shoot (or shoot then move) in the same activation.")
    game = Skirmish()
    game.arrange(gunner_0=(5, 2, "N"), guardsman_1=(5, 8, "N"), armored_1=(11, 0, "N"))
    events = game.send(0, {"type": "shoot", "soldier": "0-gunner"}, dice=[1, 1, 3])
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]
    game.give_initiative(0)
    events = game.send(0, {"type": "advance", "soldier": "0-gunner", "direction": "W", "facing": "N"}, dice=[1])
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_gunner_remember_that_turning_counts_as_a_move():
    game = Skirmish()
    game.arrange(gunner_0=(5, 2, "S"), guardsman_1=(5, 8, "N"), armored_1=(11, 0, "N"))
    events = game.send(0, {"type": "turn", "soldier": "0-gunner", "facing": "N"})
    # Now facing the Guardsman, but the turn was the Gunner's Move: no Shoot in this activation.
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]
    assert "1-guardsman" in sight_of(game, "0-gunner")


@pytest.mark.parametrize("title", ["Armored", "Dreadnaught"])
def test_armored_and_dreadnaught_cannot_be_killed_by_a_move(title):
    assert "Cannot be killed by a Move." in card_text(title)
    name = title.lower()
    game = Skirmish()
    game.arrange(guardsman_0=(2, 2, "N"), **{f"{name}_1": (5, 2, "N")}, guardsman_1=(11, 11, "N"))
    events = game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[6, 2])
    assert "serm.killed" not in types(events)
    assert game.at("guardsman_0") == (4, 2, "E") and game.soldier(f"{name}_1") is not None


def test_assault_rolls_two_move_dice():
    game = Skirmish()
    game.arrange(assault_0=(0, 2, "N"), armored_1=(11, 11, "N"))
    events = game.send(0, {"type": "advance", "soldier": "0-assault", "direction": "E"}, dice=[2, 3])
    assert of_type(events, "serm.move_rolled")[0]["roll"] == {"dice": [[2], [3]], "total": 5}
    assert game.at("assault_0") == (5, 2, "E")


def test_guardsman_is_one_of_each_stat():
    game = Skirmish()
    guardsman = next(card for card in game.view()["cards"] if card["title"] == "Guardsman")
    assert guardsman["stats"] == {"shoot": 1, "endure": 1, "react": 1, "move": 1} and guardsman["abilities"] == []


def test_brawler_does_not_need_to_declare_direction_for_moving_and_can_turn_during_a_move():
    assert card_text("Brawler").startswith(
        "Does not need to declare direction for moving, and can turn during a Move.")
    game = Skirmish()
    game.arrange(brawler_0=(2, 2, "N"), armored_1=(11, 11, "W"))
    assert {"type": "advance", "soldier": "0-brawler", "facing": {"choose": 1, "from": list(
        ("N", "NE", "E", "SE", "S", "SW", "W", "NW")), "list": False}} in game.moves(0)
    with pytest.raises(DomainError) as refused:
        game.send(0, {"type": "advance", "soldier": "0-brawler", "direction": "E"})
    assert refused.value.code == "invalid"
    # Three Move dice: 1 + 1 + 1. The Brawler then traces its three card lengths one at a time.
    game.send(0, {"type": "advance", "soldier": "0-brawler"}, dice=[1, 1, 1])
    assert game.view()["board"]["phase"] == "steer"
    assert game.moves(0) == [{"type": "step", "direction": {"choose": 1, "from": [
        "N", "NE", "E", "SE", "S", "SW", "W", "NW"], "list": False}}]
    game.send(0, {"type": "step", "direction": "N"})
    game.send(0, {"type": "step", "direction": "E"})
    events = game.send(0, {"type": "step", "direction": "N"})
    assert of_type(events, "serm.moved")[0]["path"] == ["2,2", "2,3", "3,3", "3,4"]
    assert game.at("brawler_0") == (3, 4, "N")


def test_killing_a_soldier_during_movement_does_not_end_brawlers_movement_but_only_one_enemy_soldier_may_be_killed():
    assert "Killing a soldier during movement does not end Brawlers' movement, but only one enemy soldier may be " \
           "killed per move." in card_text("Brawler")
    game = Skirmish()
    game.arrange(brawler_0=(2, 2, "N"), guardsman_1=(3, 2, "N"), assault_1=(5, 2, "N"), armored_1=(11, 11, "W"))
    game.send(0, {"type": "advance", "soldier": "0-brawler"}, dice=[2, 1, 1])
    game.send(0, {"type": "step", "direction": "E"})  # over the Guardsman
    game.send(0, {"type": "step", "direction": "E"})
    events = game.send(0, {"type": "step", "direction": "E"})  # into the Assault: halted, and it lives
    assert types(events)[:3] == ["serm.stepped", "serm.killed", "serm.moved"]
    assert of_type(events, "serm.killed") == [{"soldier": "1-guardsman", "by": "0-brawler", "cause": "move"}]
    assert game.at("brawler_0") == (4, 2, "E") and game.soldier("assault_1") is not None


def test_dreadnaught_may_fire_once_at_each_enemy_soldier_in_line_of_sight():
    assert card_text("Dreadnaught") == "Cannot be killed by a Move. May fire once at each enemy soldier in line of " \
                                       "sight."
    game = Skirmish()
    game.arrange(dreadnaught_0=(5, 2, "N"), guardsman_1=(5, 8, "N"), assault_1=(7, 9, "N"))
    events = game.send(0, {"type": "shoot", "soldier": "0-dreadnaught"}, dice=[4, 4, 1, 3, 3, 2])
    assert [fire["hits"][0]["soldier"] for fire in of_type(events, "serm.shot")[0]["fire"]] == [
        "1-guardsman", "1-assault"]
    assert types(events)[-1] == "serm.finished" and game.state.winners == (0,)


def test_rocket_launcher_cannot_move_then_shoot_remember_that_turning_counts_as_a_move():
    assert card_text("Rocket Launcher").startswith(
        "Cannot move then shoot (or shoot then move) in the same activation - remember that turning counts as a move.")
    game = Skirmish()
    game.arrange(rocket_launcher_0=(5, 2, "E"), guardsman_1=(5, 8, "N"), armored_1=(11, 0, "N"))
    events = game.send(0, {"type": "turn", "soldier": "0-rocket-launcher", "facing": "N"})
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_rocket_launcher_may_target_empty_space_range_of_explosion_is_2_cards_radius_all_partially_covered_endure():
    assert "May target empty space when shooting. Range of explosion is 2 cards radius - all partially covered " \
           "must roll to Endure." in card_text("Rocket Launcher")
    game = Skirmish()
    # Aimed at the empty square (5, 8): the Guardsman two squares east is partly covered, the Assault one east and
    # two north too (the corner of its card nearest the blast lies 1.8 card lengths away), seat 0's own Ranger
    # two west also; the Gunner two east and two north is not (2.1 away), nor the Armored three south.
    game.arrange(rocket_launcher_0=(5, 2, "N"), ranger_0=(3, 8, "N"), guardsman_1=(7, 8, "N"),
                 assault_1=(6, 10, "N"), gunner_1=(7, 10, "N"), armored_1=(5, 5, "N"))
    assert any(m.get("at", {}).get("from") and "5,8" in m["at"]["from"] for m in game.moves(0))
    events = game.send(0, {"type": "shoot", "soldier": "0-rocket-launcher", "at": "5,8"},
                       dice=[3, 1, 1, 2, 4, 5])
    [shot] = of_type(events, "serm.shot")
    assert shot["at"] == "5,8"
    [fire] = shot["fire"]
    assert fire["shoot"]["total"] == 3 + 1 + 1
    assert [(hit["soldier"], hit["eliminated"]) for hit in fire["hits"]] == [
        ("0-ranger", True), ("1-guardsman", True), ("1-assault", False)]
    assert {killed["soldier"] for killed in of_type(events, "serm.killed")} == {"0-ranger", "1-guardsman"}


def test_option_blast_centre_covers_only_soldiers_whose_centre_is_within_the_radius():
    game = Skirmish({"blast": "centre"})
    game.arrange(rocket_launcher_0=(5, 2, "N"), guardsman_1=(7, 8, "N"), assault_1=(6, 10, "N"),
                 armored_1=(5, 5, "N"))
    events = game.send(0, {"type": "shoot", "soldier": "0-rocket-launcher", "at": "5,8"}, dice=[1, 1, 1, 2])
    assert [hit["soldier"] for hit in of_type(events, "serm.shot")[0]["fire"][0]["hits"]] == ["1-guardsman"]
