"""What each viewer sees: throws and potion answers stay secret until both are in; the supply's order and ids
never show; everything else on the table is face up."""

from __future__ import annotations

import json

from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from tests.engine.rock_paper_scissors_extreme.match import Match

VIEWERS = (0, 1, None)


def seen(board, viewer) -> str:
    return json.dumps(rpsx.view(board, viewer))


def test_a_throw_is_hidden_from_the_opponent_until_both_are_in():
    """A throw is hidden from the opponent until both are in."""
    m = Match()
    [thrown] = m.send(0, {"type": "throw", "sign": "scissors"})
    assert rpsx.view(m.board, 0)["throws"] == [{"seat": 0, "sign": "scissors"}]
    for viewer in (1, None):
        assert rpsx.view(m.board, viewer)["throws"] == [{"seat": 0}]
        assert rpsx.view_event(thrown, viewer) == {"type": "rpsx.thrown", "data": {"seat": 0}}
    assert rpsx.view_event(thrown, 0) == thrown
    events = m.send(1, {"type": "throw", "sign": "rock"})
    revealed = next(e for e in events if e["type"] == "rpsx.revealed")
    for viewer in VIEWERS:
        assert rpsx.view_event(revealed, viewer)["data"]["throws"] == [{"seat": 0, "sign": "scissors"},
                                                                       {"seat": 1, "sign": "rock"}]
        assert rpsx.view(m.board, viewer)["revealed"] == revealed["data"]["throws"]


def test_a_potion_answer_is_hidden_from_the_opponent_until_both_are_in():
    m = Match().arrange(items={0: ["Black Potion"], 1: ["Sparkly Potion"]})
    m.throw("paper", "paper")
    [chosen] = m.drink(1, "Sparkly Potion")
    assert rpsx.view_event(chosen, 0) == {"type": "rpsx.potion_chosen", "data": {"seat": 1}}
    assert rpsx.view(m.board, 0)["answers"] == [{"seat": 1}]
    assert m.card("Sparkly Potion") in json.dumps(rpsx.view(m.board, 1)["answers"])
    # A pass looks the same as a drink until the reveal.
    n = Match().arrange(items={0: ["Black Potion"], 1: ["Sparkly Potion"]})
    n.throw("paper", "paper")
    [passed] = n.pass_(1)
    assert rpsx.view_event(passed, 0) == rpsx.view_event(chosen, 0)
    events = m.pass_(0)
    assert events[1]["type"] == "rpsx.potions_revealed"
    assert rpsx.view_event(events[1], 0)["data"]["drunk"] == [
        {"seat": 1, "potion": m.card("Sparkly Potion"), "simulate": None}]


def test_the_items_the_center_and_the_discard_pile_are_face_up():
    m = Match().arrange(items={0: ["Golden Totem"], 1: ["Murky Red Potion"]}, discard_pile=["Onyx Scroll"])
    for viewer in VIEWERS:
        view = rpsx.view(m.board, viewer)
        assert [c["title"] for c in view["players"][1]["items"]] == ["Murky Red Potion"]
        assert [c["title"] for c in view["players"][0]["items"]] == ["Golden Totem"]
        assert [c["title"] for c in view["discard_pile"]] == ["Onyx Scroll"]
        assert [c["id"] for c in view["center"]] == list(m.board.center)


def test_the_supply_shows_only_its_size():
    m = Match()
    for viewer in VIEWERS:
        view = seen(m.board, viewer)
        assert json.loads(view)["supply"] == {"count": 27}
        assert not any(card_id in view for card_id in m.board.supply)
        setup = rpsx.view_event(m.events[0], viewer)
        assert setup["data"] == {"seats": [0, 1], "cards": 30, "supply": {"count": 30}}
        assert not any(card_id in json.dumps(setup) for card_id in m.board.cards)


def test_a_reshuffle_shows_only_the_new_supplys_size():
    m = Match().arrange(supply=[], discard_pile=["Golden Totem", "Ruby Totem"])
    [reshuffle] = [e for e in m.send(0, {"type": "throw", "sign": "rock"}) if e["type"] == "rpsx.reshuffled"]
    assert sorted(reshuffle["data"]["supply"]) == sorted([m.card("Golden Totem"), m.card("Ruby Totem")])
    for viewer in VIEWERS:
        assert rpsx.view_event(reshuffle, viewer) == {"type": "rpsx.reshuffled", "data": {"supply": {"count": 2}}}


def test_an_event_type_the_views_do_not_know_shows_nothing():
    secret = {"type": "rpsx.something_new", "data": {"seat": 0, "sign": "rock"}}
    assert rpsx.view_event(secret, 1) == {"type": "rpsx.something_new", "data": {}}


def test_the_view_says_whose_move_it_is():
    m = Match()
    m.send(1, {"type": "throw", "sign": "rock"})
    assert rpsx.view(m.board, None)["waiting_for"] == [0]
