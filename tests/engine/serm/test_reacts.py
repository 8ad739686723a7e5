"""React, as the deck's Special Rules have it: "if the React roll is greater than the Move roll, the moving soldier
is stopped anywhere along its move path and the initiative switches to the soldier who reacted", the reacting player
naming the point (``react_stop: reactor_chooses``, the default of new games); and "Turning counts as the start and
end of a Move", so a soldier turning in place in an enemy's line of sight may be Reacted to (``react_turn``).

Games created before these were the defaults keep what they played by: their options say ``react_stop: entry``
and name no ``react_turn``, and a turn in place in sight of the enemy is made at once."""

from __future__ import annotations

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import Actor, Event, decide, evolve, legal_moves, replay, view_state
from tests.engine.recorded_streams import STREAMS, as_stored, load
from tests.engine.serm.skirmish import Dice, Skirmish, of_type, special_rule, types

REACT_RULE = ("if the React roll is greater than the Move roll, the moving soldier is stopped anywhere along its "
              "move path and the initiative switches to the soldier who reacted")
TURNING_RULE = "Turning counts as the start and end of a Move."
PATH = ["2,2", "3,2", "4,2", "5,2", "6,2"]


def test_the_rules_quoted_are_the_decks():
    assert REACT_RULE in special_rule("React")
    assert special_rule("Move").startswith(TURNING_RULE)


def _advance_in_sight(options: dict | None = None) -> Skirmish:
    """The seat 0 Guardsman at (2, 2) advances east, four card lengths (the Move roll is 4); the seat 1 Guardsman
    at (6, 4), facing south, sees the row y = 2 from x = 4 to 8, so the enemy is asked to React."""
    game = Skirmish(options)
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(6, 4, "S"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    return game


def _created_before(*unwritten: str) -> Skirmish:
    """A game as one created before the options ``unwritten`` were written into every new game's: its
    ``game.created`` names none of them."""
    game = Skirmish()
    created = game.events[0]
    options = {name: value for name, value in created.data["options"].items() if name not in unwritten}
    game.events[0] = Event(created.type, {**created.data, "options": options}, created.schema)
    game.state = replay(game.events)
    game.give_initiative(0)
    return game


# --- "stopped anywhere along its move path": the reacting player names the point -----------------------------


def test_a_new_game_lets_the_reacting_player_choose_where_the_mover_is_stopped_by_default():
    game = Skirmish()
    assert game.state.options["react_stop"] == "reactor_chooses"  # written into the game when it was created
    assert game.view()["rules"]["react_stop"] == "reactor_chooses"


def test_the_legal_moves_offer_every_point_of_the_move_path():
    # REACT_RULE: "anywhere along its move path", the squares the reactor does not see too (2,2 and 3,2).
    game = _advance_in_sight()
    assert game.moves(0) == []
    assert game.moves(1) == [
        {"type": "react", "soldier": {"choose": 1, "from": ["1-guardsman"], "list": False},
         "stop": {"choose": 1, "from": PATH, "list": False}},
        {"type": "pass"}]
    assert game.view(1)["board"]["move"]["path"] == PATH


@pytest.mark.parametrize("stop", PATH)
def test_a_react_greater_than_the_move_roll_stops_the_mover_at_the_point_the_reacting_player_names(stop):
    game = _advance_in_sight()
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": stop}, dice=[5])
    [reacted] = of_type(events, "serm.reacted")
    assert reacted["stopped"] and reacted["stop"] == stop
    [moved] = of_type(events, "serm.moved")
    assert moved["to"] == stop and moved["stopped_by"] == "1-guardsman"
    x, y = (int(n) for n in stop.split(","))
    assert game.at("guardsman_0") == (x, y, "E")
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": "1-guardsman"}]


def test_a_react_not_greater_than_the_move_roll_lets_the_move_be_made_whatever_point_was_named():
    game = _advance_in_sight()
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "3,2"}, dice=[4])
    assert of_type(events, "serm.reacted")[0]["stopped"] is False
    assert game.at("guardsman_0") == (6, 2, "E")


@pytest.mark.parametrize("body", [
    {"stop": "9,9"},  # a square of the field, but not of the path
    {"stop": "2,3"},
    {"stop": "7,2"},  # one past the Move's end
    {"stop": "here"},
    {"stop": None},
    {},
])
def test_a_point_off_the_move_path_is_refused_and_nothing_is_applied(body):
    game = _advance_in_sight()
    before, moves = game.state, game.moves(1)
    with pytest.raises(DomainError) as refused:
        game.send(1, {"type": "react", "soldier": "1-guardsman", **body})  # no die loaded: none may be rolled
    assert refused.value.code == "invalid" and refused.value.details["field"] == "stop"
    assert game.state is before and game.moves(1) == moves
    assert game.view()["board"]["phase"] == "react"


def test_option_react_stop_entry_stays_the_point_where_the_path_enters_the_reactors_sight():
    game = _advance_in_sight({"react_stop": "entry"})
    assert "stop" not in game.moves(1)[0]
    events = game.send(1, {"type": "react", "soldier": "1-guardsman"}, dice=[5])
    assert of_type(events, "serm.reacted")[0]["stop"] == "4,2" and game.at("guardsman_0") == (4, 2, "E")


def test_a_game_created_without_react_stop_in_its_options_keeps_the_old_default_entry():
    game = _created_before("react_stop")
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(6, 4, "S"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    assert game.moves(1) == [{"type": "react", "soldier": {"choose": 1, "from": ["1-guardsman"], "list": False}},
                             {"type": "pass"}]
    game.send(1, {"type": "react", "soldier": "1-guardsman"}, dice=[5])
    assert game.at("guardsman_0") == (4, 2, "E")


@pytest.mark.parametrize("name", ["serm-default", "serm-points"])
def test_the_games_recorded_before_keep_entry_and_name_no_react_turn(name):
    created = load(STREAMS / f"{name}.json.gz")["steps"][0]["event"]
    assert created["data"]["options"]["react_stop"] == "entry" and "react_turn" not in created["data"]["options"]
    state = evolve(None, as_stored(created))
    assert "react_turn" not in view_state(state, None)["rules"]


# --- "Turning counts as the start and end of a Move": a turn in place may be Reacted to ------------------------


def _turn_in_sight(options: dict | None = None, *, move_die: int | None = 3) -> tuple[Skirmish, list[Event]]:
    """The seat 0 Guardsman at (5, 2) facing north turns east; the seat 1 Guardsman at (5, 8) facing south sees
    it, the Armored has no React dice. Its Move die shows ``move_die`` (None: no die may be rolled)."""
    game = Skirmish(options)
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    dice = None if move_die is None else [move_die]
    return game, game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "E"}, dice=dice)


def test_a_soldier_turning_in_place_in_the_line_of_sight_of_an_enemy_soldier_may_be_reacted_to():
    game, events = _turn_in_sight()
    assert game.state.options["react_turn"] == "turned" and game.view()["rules"]["react_turn"] == "turned"
    # The turn is a Move: its Move dice are rolled, for the React to beat, and the enemy is asked.
    assert types(events) == ["serm.move_rolled", "serm.react_offered"]
    [rolled] = of_type(events, "serm.move_rolled")
    assert rolled["direction"] is None and rolled["facing"] == "E" and rolled["roll"]["total"] == 3
    assert rolled["path"] == ["5,2"] and rolled["steps_left"] == 0 and rolled["halted"] is None
    assert of_type(events, "serm.react_offered") == [{"seat": 1, "soldiers": ["1-guardsman"]}]
    # Not made yet: the soldier still faces north; the board shows the Move waiting, its path its own square.
    assert game.at("guardsman_0") == (5, 2, "N")
    board = game.view(None)["board"]
    assert board["phase"] == "react" and board["waiting_for"] == [1]
    assert board["move"]["path"] == ["5,2"] and board["move"]["facing"] == "E"
    assert game.moves(0) == []
    assert game.moves(1) == [
        {"type": "react", "soldier": {"choose": 1, "from": ["1-guardsman"], "list": False},
         "stop": {"choose": 1, "from": ["5,2"], "list": False}},
        {"type": "pass"}]


def test_a_turn_in_place_the_enemy_does_not_react_to_is_made():
    game, _ = _turn_in_sight()
    events = game.send(1, {"type": "pass"})
    assert types(events)[:2] == ["serm.react_declined", "serm.moved"]
    assert of_type(events, "serm.moved")[0] == {"soldier": "0-guardsman", "path": ["5,2"], "to": "5,2",
                                                "facing": "E", "stopped_by": None}
    assert game.at("guardsman_0") == (5, 2, "E")
    # It was the soldier's Move; facing east it sees no enemy to shoot, so the initiative passes.
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_a_react_greater_than_the_turns_move_roll_stops_it_and_the_initiative_switches_to_the_reactor():
    game, _ = _turn_in_sight()
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "5,2"}, dice=[4])
    [reacted] = of_type(events, "serm.reacted")
    assert reacted["stopped"] and reacted["move_total"] == 3 and reacted["stop"] == "5,2"
    # react_turn "turned": turning is the Move's start, so the soldier stopped where it stands has turned.
    assert game.at("guardsman_0") == (5, 2, "E")
    assert of_type(events, "serm.moved")[0]["stopped_by"] == "1-guardsman"
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": "1-guardsman"}]
    assert {move["soldier"] for move in game.moves(1) if "soldier" in move} == {"1-guardsman"}
    assert game.moves(0) == []


def test_option_react_turn_unturned_leaves_a_stopped_soldier_facing_the_way_it_faced():
    game, _ = _turn_in_sight({"react_turn": "unturned"})
    game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "5,2"}, dice=[4])
    assert game.at("guardsman_0") == (5, 2, "N")
    assert game.view()["board"]["initiative"] == 1


def test_a_react_not_greater_than_the_turns_move_roll_lets_the_turn_be_made():
    game, _ = _turn_in_sight(move_die=4)
    events = game.send(1, {"type": "react", "soldier": "1-guardsman", "stop": "5,2"}, dice=[4])
    assert not of_type(events, "serm.reacted")[0]["stopped"]
    assert game.at("guardsman_0") == (5, 2, "E")
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_with_react_stop_entry_a_turn_is_stopped_on_its_own_square():
    game, _ = _turn_in_sight({"react_stop": "entry"})
    events = game.send(1, {"type": "react", "soldier": "1-guardsman"}, dice=[6, 1])
    assert of_type(events, "serm.reacted")[0]["stop"] == "5,2"
    assert game.at("guardsman_0") == (5, 2, "E")


def test_a_turn_out_of_every_enemy_line_of_sight_is_made_at_once_with_no_roll():
    game = Skirmish()
    # The enemy Guardsman looks away; the Armored has no React dice.
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "N"), armored_1=(5, 9, "S"))
    events = game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "E"})  # no die loaded
    assert types(events) == ["serm.turned", "serm.initiative"]
    assert game.at("guardsman_0") == (5, 2, "E")


def test_option_react_turn_never_makes_a_turn_in_sight_at_once():
    game, events = _turn_in_sight({"react_turn": "never"}, move_die=None)
    assert types(events) == ["serm.turned", "serm.initiative"]
    assert game.at("guardsman_0") == (5, 2, "E")


def test_the_gunner_remember_that_turning_counts_as_a_move_also_for_reacts():
    # "remember that turning counts as a move": the Gunner's turn is its Move, which the enemy may React to.
    game = Skirmish()
    game.arrange(gunner_0=(5, 2, "S"), guardsman_1=(5, 8, "S"), armored_1=(11, 0, "N"))
    events = game.send(0, {"type": "turn", "soldier": "0-gunner", "facing": "N"}, dice=[2])
    assert types(events) == ["serm.move_rolled", "serm.react_offered"]
    events = game.send(1, {"type": "pass"})
    # Made, and it was the Gunner's Move: no Shoot in this activation, though the Guardsman is now in its sight.
    assert game.at("gunner_0") == (5, 2, "N")
    assert of_type(events, "serm.initiative") == [{"seat": 1, "soldier": None}]


def test_a_game_created_without_react_turn_keeps_making_turns_in_sight_at_once():
    game = _created_before("react_turn")
    game.arrange(guardsman_0=(5, 2, "N"), guardsman_1=(5, 8, "S"), armored_1=(0, 11, "N"))
    events = game.send(0, {"type": "turn", "soldier": "0-guardsman", "facing": "E"})  # no die loaded
    assert types(events) == ["serm.turned", "serm.initiative"]
    assert "react_turn" not in game.view()["rules"]


def test_a_recorded_game_played_on_turns_in_sight_without_a_react_and_a_new_one_would_be_asked():
    """The recorded ``serm-default`` game: its first command turned seat 0's Dreadnaught in the sight of six enemy
    soldiers with React dice, and nobody was asked. Played on from there, it still is not; the same position in a
    game whose options have ``react_turn`` is."""
    steps = load(STREAMS / "serm-default.json.gz")["steps"]
    events = [as_stored(step["event"]) for step in steps]
    assert events[4].type == "serm.turned" and events[4].data == {"soldier": "0-dreadnaught", "facing": "NW"}
    seat = events[1].data
    actor = Actor(user_id=seat["user_id"], username=seat["username"])
    turn = {"type": "turn", "soldier": "0-dreadnaught", "facing": "NW"}
    old = replay(events[:4])
    decided = decide(old, turn, actor=actor, rng=Dice())  # no die loaded: none may be rolled
    assert decided[0] == events[4] and [event.type for event in decided] == ["serm.turned"]
    created = events[0]
    stamped = Event(created.type, {**created.data, "options": {**created.data["options"], "react_turn": "turned"}},
                    created.schema)
    new = replay([stamped, *events[1:4]])
    decided = decide(new, turn, actor=actor, rng=Dice([1]))
    assert [event.type for event in decided] == ["serm.move_rolled", "serm.react_offered"]
    asked = replay(decided, new)
    assert legal_moves(asked, 0) == [] and [move["type"] for move in legal_moves(asked, 1)] == ["react", "pass"]
