"""Creative proposals that carry an effect: shown with the proposal, voted in with the text, in the card or
Special Rule that enters the game and in the deck written back after it; and a deck's confirmed effects copied
into a game."""

from __future__ import annotations

from dvorak_engine import replay, view_state
from dvorak_engine.rulesets.dvorak.aftermath import deck_after_game
from dvorak_engine.rulesets.dvorak.creative import voting_seats

from .conftest import Table, rulebook_deck

DRAW_TWO = [{"kind": "draw", "who": "you", "count": 2, "optional": False}]
HAND_OF_THREE = [{"kind": "set_rule", "param": "hand_limit", "value": 3}]
GREED = {"title": "Greed", "type": "Action", "text": "Draw two cards.", "effect": [{"kind": "draw", "count": 2}]}


def creative_table(players: int = 2, *, deck: dict | None = None) -> Table:
    return Table(players=players, deck=deck, creative=True).start()


def vote_in(table: Table, seat: int, **proposal) -> int:
    table.send(seat, {"type": "propose", **proposal})
    number = len(table.state.table.proposals)
    for voter in voting_seats(table.state, table.state.table.proposals[number - 1]):
        if table.state.table.proposals[number - 1].status == "open":
            table.send(voter, {"type": "vote", "proposal": number, "approve": True})
    return number


def test_a_proposed_cards_effect_is_shown_voted_in_and_written_back_with_the_deck():
    table = creative_table()
    table.send(0, {"type": "propose", "kind": "card", "card": GREED})
    shown = view_state(table.state, 1)["proposals"][0]["card"]
    assert shown["effect"] == DRAW_TWO  # everyone reads the effect they vote on, in full

    table.send(1, {"type": "vote", "proposal": 1, "approve": True})  # presented to the other player

    greed = next(card for card in table.state.table.cards.values() if card.title == "Greed")
    assert greed.effect == DRAW_TWO
    written_back = {card["title"]: card for card in deck_after_game(table.state)["cards"]}
    assert written_back["Greed"]["effect"] == DRAW_TWO
    assert "effect" not in written_back["Espionage"]  # no confirmed effect: none written
    assert replay(table.events) == table.state


def test_a_proposed_special_rules_effect_sets_its_params_and_the_hand_limit_at_once():
    table = creative_table()
    number = vote_in(table, 1, kind="special_rule", rule={
        "title": "Small hands", "text": "Hand size is three instead of five.", "effect": HAND_OF_THREE})

    assert table.state.table.proposals[number - 1].status == "accepted"
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 3
    rule = table.state.table.special_rules[-1]
    assert (rule.effect, rule.params) == (HAND_OF_THREE, {"hand_limit": 3})
    assert deck_after_game(table.state)["special_rules"][-1] == {
        "title": "Small hands", "text": "Hand size is three instead of five.", "params": {"hand_limit": 3},
        "effect": HAND_OF_THREE}


def test_an_amendment_changes_a_rules_effect_and_with_it_the_hand_limit():
    table = creative_table()
    vote_in(table, 0, kind="special_rule", rule={"title": "Small hands", "text": "Hand size is three.",
                                                 "effect": HAND_OF_THREE})
    rule_id = table.state.table.special_rules[-1].id
    vote_in(table, 1, kind="amend_rule", rule=rule_id, changes={
        "text": "Hand size is four.", "effect": [{"kind": "set_rule", "param": "hand_limit", "value": 4}]})

    assert view_state(table.state, 1)["rules"]["hand_limit"] == 4
    assert table.state.table.special_rules[-1].params == {"hand_limit": 4}


def test_a_malformed_effect_refuses_the_proposal_naming_its_place():
    table = creative_table()
    blanks = table.state.table.blank_cards

    refused = table.refuse(0, {"type": "propose", "kind": "card",
                               "card": {**GREED, "effect": [{"kind": "draw", "count": 1000}]}}, "invalid")
    assert refused.details["field"] == "card.effect[0].count"
    refused = table.refuse(0, {"type": "propose", "kind": "special_rule",
                               "rule": {"title": "X", "effect": {"kind": "draw"}}}, "invalid")
    assert refused.details["field"] == "rule.effect"
    assert table.state.table.proposals == () and table.state.table.blank_cards == blanks


def test_a_decks_confirmed_effects_are_copied_into_the_game():
    deck = rulebook_deck(special_rules=[{"id": 9, "title": "Small hands", "text": "Hand size is three.",
                                         "effect": HAND_OF_THREE}])
    deck["cards"][0] = {**deck["cards"][0], "effect": DRAW_TWO}
    table = Table(players=2, deck=deck).start()

    assert view_state(table.state, 0)["rules"]["hand_limit"] == 3  # derived from the effect, with no params
    assert any(card.effect == DRAW_TWO for card in table.state.table.cards.values())
    assert {card["title"]: card for card in deck_after_game(table.state)["cards"]}[deck["cards"][0]["title"]][
        "effect"] == DRAW_TWO
