"""Team Dvorak (the rulebook's "The Variants of Dvorak"), one test per rule, with the rulebook's example cards."""

from __future__ import annotations

import json

import pytest

from dvorak_engine import Actor, DomainError, decide, opponents, team_mates, view_event, view_state

from .conftest import Table

RED, BLUE = "Red", "Blue"
LATE = Actor(50, "late")


def team_table(teams: list[str] | None = None) -> Table:
    """Seats 0 and 2 are Red, 1 and 3 Blue (unless ``teams`` says otherwise); the game has started."""
    teams = teams or [RED, BLUE, RED, BLUE]
    return Table(players=len(teams), variant="team", joins=[{"team": team} for team in teams]).start()


# --- Choosing teams ------------------------------------------------------------------------------------------------


def test_team_game_each_player_names_a_team_when_joining():
    table = Table(players=1, variant="team", joins=[{"team": RED}])
    for body in ({"type": "join"}, {"type": "join", "team": ""}, {"type": "join", "team": ["Red"]}):
        with pytest.raises(DomainError) as refused:
            decide(table.state, body, actor=LATE, rng=table.rng)
        assert refused.value.code == "invalid"
    table.send_as(LATE, {"type": "join", "team": BLUE})
    assert [p.team for p in table.state.seats] == [RED, BLUE]


def test_team_game_the_creator_names_a_team_too():
    with pytest.raises(DomainError) as refused:
        Table(players=3, variant="team")
    assert refused.value.code == "invalid" and refused.value.details == {"field": "team"}


def test_team_game_needs_three_players_in_two_teams_to_start():
    two = Table(players=2, variant="team", joins=[{"team": RED}, {"team": BLUE}])
    two.refuse(0, {"type": "start"}, "not_enough_players")
    one_team = Table(players=3, variant="team", joins=[{"team": RED}] * 3)
    one_team.refuse(0, {"type": "start"}, "not_enough_players")
    three = Table(players=3, variant="team", joins=[{"team": RED}, {"team": BLUE}, {"team": RED}])
    three.send(0, {"type": "start"})
    assert three.state.status == "active"


def test_everyone_sees_the_teams():
    table = team_table()
    seen = view_state(table.state, None)
    assert seen["teams"] == {RED: [0, 2], BLUE: [1, 3]}
    assert [p["team"] for p in seen["players"]] == [RED, BLUE, RED, BLUE]


# --- Giving a card to a team-mate --------------------------------------------------------------------------------


def test_a_player_may_spend_the_action_to_give_a_card_to_a_team_mate():
    table = team_table()
    table.arrange(turn=0, hands={0: ["Espionage", "Reykjavik"], 2: []})
    table.send(0, {"type": "give", "card": table.card("Reykjavik"), "to": 2})
    assert table.hand(2) == ["Reykjavik"] and table.hand(0) == ["Espionage"]
    assert table.state.table.turn.actions_played == 1
    # That was the turn's Action: no other Action may be played.
    table.refuse(0, {"type": "play", "card": table.card("Espionage")}, "limit_reached")


def test_giving_after_the_action_was_played_is_refused():
    table = team_table()
    table.arrange(turn=0, hands={0: ["Espionage", "Reykjavik"]}, in_play={1: ["Frenzy"]})
    table.send(0, {"type": "play", "card": table.card("Espionage")})
    table.refuse(0, {"type": "give", "card": table.card("Reykjavik"), "to": 2}, "limit_reached")


def test_a_card_is_given_only_to_a_team_mate():
    table = team_table()
    table.arrange(turn=0, hands={0: ["Reykjavik"]})
    table.refuse(0, {"type": "give", "card": table.card("Reykjavik"), "to": 1}, "denied")
    table.refuse(0, {"type": "give", "card": table.card("Reykjavik"), "to": 0}, "denied")


def test_giving_to_a_team_mate_is_done_in_your_own_turn():
    table = team_table()
    table.arrange(turn=1, hands={0: ["Reykjavik"]})
    table.refuse(0, {"type": "give", "card": table.card("Reykjavik"), "to": 2}, "not_your_turn")


def test_only_the_two_team_mates_see_which_card_was_given():
    table = team_table()
    table.arrange(turn=0, hands={0: ["Reykjavik"]})
    before = table.state
    given = table.send(0, {"type": "give", "card": table.card("Reykjavik"), "to": 2})[0]
    assert view_event(given, 2, before, table.state)["card"]["title"] == "Reykjavik"
    for outsider in (1, 3, None):
        shown = view_event(given, outsider, before, table.state)
        assert "Reykjavik" not in json.dumps(shown) and shown["to"] == 2


def test_giving_without_a_cause_in_a_game_without_teams_still_needs_a_card_to_say_so():
    table = Table(players=3).start()
    table.arrange(turn=0, hands={0: ["Reykjavik"]})
    table.refuse(0, {"type": "give", "card": table.card("Reykjavik"), "to": 1}, "invalid")


# --- Team-mates are not opponents ----------------------------------------------------------------------------------


def test_team_mates_are_not_opponents_of_one_another():
    table = team_table()
    assert team_mates(table.state, 0) == [2]
    assert opponents(table.state, 0) == [1, 3]
    assert opponents(table.state, 1) == [0, 2]


def test_an_effect_on_an_opponent_cannot_be_carried_out_on_a_team_mate():
    table = team_table()
    table.arrange(turn=0, hands={0: [], 1: ["Frenzy"], 2: ["Reykjavik"]}, discard_pile=["Espionage"])
    espionage = table.card("Espionage")
    table.refuse(0, {"type": "take_random", "from": 2, "opponent": True, "cause": espionage}, "denied")
    table.send(0, {"type": "take_random", "from": 1, "opponent": True, "cause": espionage})
    assert table.hand(0) == ["Frenzy"]


def test_in_a_game_without_teams_every_other_player_is_an_opponent():
    table = Table(players=3).start()
    assert opponents(table.state, 1) == [0, 2]


# --- Winning ---------------------------------------------------------------------------------------------------------


def test_when_a_player_wins_their_team_is_victorious():
    table = team_table()
    table.arrange(turn=0, in_play={2: ["Big Brother"]})
    table.send(2, {"type": "win", "cause": table.card("Big Brother")})
    assert table.state.status == "finished"
    assert view_state(table.state, None)["winners"] == [0, 2]


def test_a_team_wins_when_the_players_of_all_other_teams_are_knocked_out():
    table = team_table()
    table.arrange(turn=0, in_play={0: ["Vorpal Blade"]})
    blade = table.card("Vorpal Blade")
    table.send(0, {"type": "eliminate", "seat": 1, "cause": blade})
    assert table.state.status == "active"
    table.send(0, {"type": "eliminate", "seat": 2, "cause": blade})  # a Red player out does not end it
    assert table.state.status == "active"
    table.send(0, {"type": "eliminate", "seat": 3, "cause": blade})
    assert table.state.status == "finished"
    assert list(table.state.winners) == [0, 2]  # the whole team wins, the knocked-out team-mate too
