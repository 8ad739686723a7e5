"""What each viewer sees of the state and of each event (API.md "The state a seat sees")."""

from __future__ import annotations

import json

from dvorak_engine import view_event, view_state

from .conftest import Table


def test_only_the_holder_sees_a_hand_and_a_spectator_sees_none(table):
    table.arrange(turn=0, hands={0: ["Espionage"], 1: ["Reykjavik", "Frenzy"]})
    mine = view_state(table.state, 1)
    assert mine["you"] == 1
    assert [c["title"] for c in mine["players"][1]["hand"]] == ["Reykjavik", "Frenzy"]
    assert "hand" not in mine["players"][0] and mine["players"][0]["hand_count"] == 1
    spectator = view_state(table.state, None)
    assert spectator["you"] is None
    assert all("hand" not in p for p in spectator["players"])
    assert "Espionage" not in json.dumps(spectator) and table.card("Espionage") not in json.dumps(spectator)


def test_the_draw_pile_shows_only_its_count_and_the_discard_pile_is_public(table):
    table.arrange(turn=0, draw_pile=["Frenzy", "Reykjavik"], discard_pile=["Espionage"])
    seen = view_state(table.state, 2)
    assert seen["draw_pile"] == {"count": 2}
    assert "Frenzy" not in json.dumps(seen)
    assert [c["title"] for c in seen["discard_pile"]] == ["Espionage"]


def test_another_players_draw_shows_only_their_seat(table):
    table.arrange(turn=1, stage="draw", draw_pile=["Frenzy"], hands={1: []})
    before = table.state
    drawn = table.send(1, {"type": "draw"})[0]
    assert view_event(drawn, 0, before, table.state) == {"seat": 1}
    assert view_event(drawn, 1, before, table.state)["card"]["title"] == "Frenzy"


def test_only_the_two_players_involved_learn_which_card_was_taken_at_random(table):
    table.arrange(turn=0, hands={0: ["Espionage"], 1: ["Frenzy"]})
    before = table.state
    taken = table.send(0, {"type": "take_random", "from": 1, "cause": table.card("Espionage")})[0]
    assert view_event(taken, 0, before, table.state)["card"]["title"] == "Frenzy"
    assert view_event(taken, 1, before, table.state)["card"]["title"] == "Frenzy"
    assert view_event(taken, 2, before, table.state) == {"from": 1, "to": 0}


def test_a_revealed_card_is_shown_to_everyone(table):
    table.arrange(turn=0, hands={0: ["Espionage"]}, in_play={0: ["Cardboard Box"]})
    before = table.state
    revealed = table.send(0, {"type": "reveal", "card": table.card("Espionage"),
                              "cause": table.card("Cardboard Box")})[0]
    assert view_event(revealed, None, before, table.state)["card"]["title"] == "Espionage"


def test_the_games_first_event_does_not_list_the_card_ids():
    table = Table(players=2)
    created = table.events[0]
    seen = view_event(created, 0, None, table.state)
    assert seen["cards"] == {"count": len(table.state.table.cards)}
    assert not any(card_id in json.dumps(seen) for card_id in table.state.table.cards)


def test_the_start_shows_each_player_only_their_own_hand():
    table = Table(players=2)
    before = table.state
    events = table.send(0, {"type": "start"})
    after = table.state
    dealt = [e for e in events if e.type == "cards.dealt"]
    started = next(e for e in events if e.type == "game.started")
    assert view_event(started, 1, before, after)["draw_pile"] == {"count": len(after.table.draw_pile)}
    assert len(view_event(dealt[1], 1, before, after)["cards"]) == 5
    assert view_event(dealt[1], 0, before, after) == {"seat": 1, "cards": [], "count": 5}
