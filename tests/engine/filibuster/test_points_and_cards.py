"""Points ("The first player to get 200 points wins"), card effects, and the card data a Filibuster deck must carry."""

from __future__ import annotations

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, create_game
from dvorak_engine.rulesets.filibuster.cards import card_problems
from tests.engine.filibuster.table import Table, sample_set
from tests.engine.filibuster.test_campaigns import at_beginning, main_step


def test_there_are_no_negative_points_a_point_total_would_simply_stay_at_0():
    t = Table()
    t.pitch(0)
    t.hand(0, "Endorsement")
    t.hand(1, "Poll Surge")
    t.points(1, 5)
    t.reopen_window()
    t.send(1, {"type": "filibuster"})
    t.send(1, {"type": "reveal_card", "card": t.card(1, "Poll Surge")})
    events = t.send(0, {"type": "reveal_card", "card": t.card(0, "Endorsement")})
    scored = next(e for e in events if e.type == "filibuster.scored")
    assert scored.data["points"] == 0 and scored.data["delta"] == -5
    assert t.view(0)["players"][1]["counters"] == {"points": 0}


def test_the_first_player_to_get_200_points_wins():
    t = main_step({0: ("Poll Surge",), 1: ()})
    t.points(0, 195)
    events = t.send(0, {"type": "pass"})
    assert t.types(events)[-2:] == ["filibuster.scored", "filibuster.finished"]
    assert t.state.status == "finished" and t.state.winners == (0,)
    assert t.moves(0) == t.moves(1) == []
    assert t.refused(1, {"type": "pass"}).code == "game_not_active"


def test_a_cards_simple_effects_in_stats_are_applied_points_to_a_player_draw_and_destroy_a_constant():
    t = main_step({0: ("Scandal", "Stump Speech"), 1: ("Recount",)})
    t.state = t.state.with_table(players=t.table.with_player(0, constants=(t.card(0, "Think Tank"),)).players)
    t.points(1, 40)
    scandal = t.card(0, "Scandal")
    assert {"type": "play", "card": scandal, "target": {"choose": 1, "from": [0, 1], "list": False}} in t.moves(0)
    assert t.refused(0, {"type": "play", "card": scandal}).code == "invalid"
    t.send(0, {"type": "play", "card": scandal, "target": 1})
    recount = t.card(1, "Recount")  # value 5 upon 10: it fizzles, and destroys nothing
    think_tank = t.card(0, "Think Tank")
    assert {"type": "play", "card": recount, "destroy": {"choose": 1, "from": [think_tank], "list": False}} in \
        t.moves(1)
    t.send(1, {"type": "play", "card": recount, "destroy": think_tank})
    assert think_tank in t.table.player(0).constants
    assert t.table.player(1).points == 40
    t.send(0, {"type": "pass"})
    assert t.table.player(1).points == 25  # Scandal: "A player of your choice loses 15 points."


def test_a_destroy_a_constant_effect_sends_it_to_its_owners_discard_pile():
    t = main_step({0: ("Recount",), 1: ()})
    office = t.card(1, "Campaign Office")
    t.state = t.state.with_table(players=t.table.with_player(1, constants=(office,)).players)
    events = t.send(0, {"type": "play", "card": t.card(0, "Recount"), "destroy": office})
    assert "filibuster.destroyed" in t.types(events)
    assert office in t.table.player(1).discard_pile and not t.table.player(1).constants


def test_a_text_only_effect_is_carried_out_by_effect_moves_that_name_the_card():
    t = main_step({0: ("Rebuttal", "Poll Surge"), 1: ()})
    rebuttal = t.card(0, "Rebuttal")
    t.points(1, 30)
    assert t.refused(0, {"type": "score", "cause": rebuttal, "seat": 1, "points": -5}).code == "invalid"
    t.send(0, {"type": "play", "card": rebuttal})
    # Nobody else holds a card: it resolves, and waits for its player to carry out its text, naming it.
    assert t.table.phase == "effect" and t.moves(0) == [{"type": "resolve"}] and t.moves(1) == []
    events = t.send(0, {"type": "score", "cause": rebuttal, "seat": 1, "points": -5})
    assert events[0].data == {"seat": 1, "delta": -5, "points": 25, "reason": "effect", "cause": rebuttal}
    assert t.refused(1, {"type": "score", "cause": rebuttal, "seat": 1, "points": 5}).code == "invalid"
    drew = t.send(0, {"type": "draw", "cause": rebuttal, "count": 2})
    assert sum(e.data["count"] for e in drew if e.type == "filibuster.drew") == 2
    events = t.send(0, {"type": "resolve"})
    assert t.types(events)[0] == "filibuster.resolved" and rebuttal in t.table.player(0).discard_pile
    assert t.refused(0, {"type": "score", "cause": rebuttal, "seat": 1, "points": -5}).code == "invalid"


def test_hands_and_draw_piles_are_hidden_from_the_other_players():
    t = Table(2)
    own, other = t.view(0), t.view(1)
    assert [c["id"] for c in own["players"][0]["hand"]] == list(t.table.player(0).hand)
    assert "hand" not in other["players"][0]
    assert other["players"][0]["draw_pile"] == {"count": len(t.table.player(0).draw_pile)}
    for card_id in t.table.player(0).hand:
        assert card_id not in str(other) and card_id not in str(t.view(None))
    from dvorak_engine import view_event
    drew = next(e for e in t.events if e.type == "filibuster.drew" and e.data["seat"] == 0)
    assert view_event(drew, 1, None, t.state) == {"seat": 0, "cards": [], "count": 5}
    assert [c["id"] for c in view_event(drew, 0, None, t.state)["cards"]] == drew.data["cards"]


def test_a_ccg_game_is_played_with_each_players_own_deck_built_from_the_set():
    card_set = sample_set()
    deck = {"id": 7, "name": "Ann's", "card_set": card_set["slug"], "version": 1,
            "cards": [dict(card, copies=1) for card in card_set["cards"]]}
    t = Table(2, variant="ccg", joins=[{"player_deck": deck}, {"player_deck": {**deck, "id": 8}}])
    assert [p.deck["id"] for p in t.table.players] == [7, 8]
    assert all(len(p.hand) + len(p.draw_pile) == len(card_set["cards"]) for p in t.table.players)
    assert "player_deck" not in t.state.options  # its cards are never shown in the game's options
    with pytest.raises(DomainError) as refusal:
        Table(2, variant="ccg", joins=[{"player_deck": deck}, {}])
    assert refusal.value.code == "invalid"


# --- card data --------------------------------------------------------------------------------------------------


def problems_of(*cards: dict) -> list[tuple]:
    return [(p["card"], p["field"], p["problem"]) for p in card_problems({"cards": list(cards)})]


def test_a_cards_type_is_campaign_gambit_or_constant():
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": "3"}) == []
    assert problems_of({"title": "A", "type": "Thing", "corner_value": "3"}) == [(0, "type", "missing")]
    assert problems_of({"title": "A", "type": "Spell", "corner_value": "3"}) == [(0, "type", "invalid")]


def test_a_cards_value_is_the_number_in_its_top_right_hand_corner():
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": ""}) == [(0, "corner_value", "missing")]
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": "high"}) == [
        (0, "corner_value", "invalid")]
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": " 12 "}) == []


def test_effect_stats_must_be_in_range():
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": "1", "stats": {"draw": 0}}) == [
        (0, "stats.draw", "invalid")]
    assert problems_of({"title": "A", "type": "Gambit", "corner_value": "1",
                        "stats": {"destroy_constant": 2, "points": 10, "flavour": 3}}) == [
        (0, "stats.destroy_constant", "invalid")]


def test_the_sample_set_carries_everything_and_a_set_without_cards_is_refused():
    assert card_problems(sample_set()) == []
    with pytest.raises(DomainError) as refusal:
        create_game(ruleset="filibuster", deck={"slug": "filibuster-ccg-set", "title": "Filibuster CCG set",
                                                "cards": []}, variant="standard", creative=False, max_players=2,
                    options={}, creator=Actor(1, "ann"), rng=SeededRng(1))
    assert refusal.value.code == "card_data_missing"
    assert refusal.value.details["cards"][0]["field"] == "cards"


def test_a_game_needs_a_campaign_card_in_some_deck():
    deck = {"slug": "g", "title": "Gambits only", "cards": [{"title": "G", "type": "Gambit", "corner_value": "1"}]}
    t = Table(2, deck=deck, start=False)
    assert t.refused(0, {"type": "start"}).code == "not_enough_cards"
    assert t.moves(0) == [{"type": "cancel"}]  # not start: the table may only be given up


def test_at_beginning_helper_leaves_the_campaign_to_the_pitcher():
    t = at_beginning(1, {1: ("Televised Debate",), 0: ("Poll Surge",)})
    assert t.table.acting == 1
