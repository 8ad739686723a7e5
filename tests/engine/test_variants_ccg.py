"""CCG Dvorak (the rulebook's "The Variants of Dvorak"): each player brings a deck built from one Card Set, and the
decks are played against each other as in Multi-Deck Dvorak."""

from __future__ import annotations

import json

import pytest

from dvorak_engine import Actor, DomainError, decide, view_event, view_state
from tests.engine.dvorak_games import card_set_and_player_decks
from tests.seeds import seed_deck

from .conftest import Table


def filibuster_rule() -> dict:
    """The Filibuster CCG set's winning rule, read from the archive's seed deck."""
    rules = seed_deck("filibuster-ccg-set").special_rules
    line = next(rule.text for rule in rules if rule.text.startswith("The first player to get 200 points"))
    return {"id": "filibuster-1", "title": "Points", "text": line, "params": {"counters": {"points": 0}}}


def ccg_table(players: int = 2, *, creative: bool = False) -> tuple[Table, dict, list[dict]]:
    card_set, decks = card_set_and_player_decks(players)
    card_set = {**card_set, "title": "Filibuster CCG set", "special_rules": [filibuster_rule()]}
    table = Table(players=players, deck=card_set, variant="ccg", creative=creative,
                  joins=[{"player_deck": deck} for deck in decks])
    return table, card_set, decks


def test_ccg_each_player_plays_the_deck_they_built():
    table, card_set, decks = ccg_table(players=3)
    table.start()
    for seat, deck in enumerate(decks):
        own = {c for c, owner in table.state.table.owners.items() if owner == seat}
        assert {table.title(c) for c in own} == {card["title"] for card in deck["cards"]}
        player = table.state.table.player(seat)
        assert set(player.hand) | set(player.draw_pile) == own
    # The Card Set's own cards are not dealt: only the decks the players brought are.
    assert len(table.state.table.cards) == sum(len(deck["cards"]) for deck in decks)


def test_ccg_a_card_copied_into_a_deck_several_times_is_several_cards():
    card_set, decks = card_set_and_player_decks(2)
    decks[1] = {**decks[1], "cards": [{**decks[1]["cards"][0], "copies": 4}, *decks[1]["cards"][1:]]}
    table = Table(players=2, deck=card_set, variant="ccg", joins=[{"player_deck": deck} for deck in decks])
    title = decks[1]["cards"][0]["title"]
    copies = [c for c, card in table.state.table.cards.items() if card.title == title]
    assert len(copies) == 4 and {table.state.table.owners[c] for c in copies} == {1}


def test_ccg_the_card_sets_special_rules_and_title_are_the_games():
    table, card_set, _ = ccg_table()
    table.start()
    seen = view_state(table.state, 0)
    assert seen["deck"]["title"] == "Filibuster CCG set"
    assert [rule["text"] for rule in seen["special_rules"]] == [filibuster_rule()["text"]]
    assert [p["counters"]["points"] for p in seen["players"]] == [0, 0]


def test_ccg_joining_without_a_player_deck_is_refused():
    table, card_set, decks = ccg_table()
    with pytest.raises(DomainError) as refused:
        Table(players=2, deck=card_set, variant="ccg")
    assert refused.value.code == "invalid" and refused.value.details["field"] == "player_deck"
    late = Actor(77, "late")
    open_table = Table(players=1, deck=card_set, variant="ccg", joins=[{"player_deck": decks[0]}])
    with pytest.raises(DomainError) as refused:
        decide(open_table.state, {"type": "join"}, actor=late, rng=open_table.rng)
    assert refused.value.code == "invalid"


@pytest.mark.parametrize("broken", [
    {"card_set": "another-set"},
    {"cards": []},
    {"cards": [{"title": "", "type": "Thing"}]},
    {"cards": [{"title": "Gambit", "type": "Action", "copies": 0}]},
    {"cards": [{"title": "Gambit", "type": "Action", "copies": 501}]},
])
def test_ccg_a_player_deck_of_another_set_or_without_cards_is_refused(broken):
    table, card_set, decks = ccg_table()
    open_table = Table(players=1, deck=card_set, variant="ccg", joins=[{"player_deck": decks[0]}])
    with pytest.raises(DomainError) as refused:
        decide(open_table.state, {"type": "join", "player_deck": {**decks[1], **broken}}, actor=Actor(77, "late"),
               rng=open_table.rng)
    assert refused.value.code == "invalid"
    assert len(open_table.state.table.players) == 1


def test_ccg_everyone_sees_which_deck_each_player_brought_but_not_its_cards():
    table, _, decks = ccg_table()
    joined = table.events[-1]
    seen = view_event(joined, 0, table.state, table.state)
    assert seen["player_deck"] == {"id": decks[1]["id"], "name": decks[1]["name"], "card_set": "test-set",
                                   "version": 1}
    assert seen["cards"] == {"count": len(decks[1]["cards"])}
    table.start()
    state_view = view_state(table.state, 0)
    assert state_view["players"][1]["deck"]["name"] == decks[1]["name"]
    text = json.dumps(state_view)
    assert not [c for c in table.state.table.player(1).hand if c in text or table.title(c) in text]


def test_ccg_players_may_not_propose_new_cards_nor_amend_cards():
    table, _, _ = ccg_table(creative=True)
    table.start()
    held = table.state.table.player(0).hand[0]
    table.refuse(0, {"type": "propose", "kind": "card", "card": {"title": "Egg", "type": "Thing"}}, "denied")
    table.refuse(0, {"type": "propose", "kind": "amend", "card": held, "changes": {"text": "Win."}}, "denied")
    table.send(0, {"type": "propose", "kind": "special_rule", "rule": {"title": "Majority", "text": "",
                                                                       "params": {"vote_rule": "majority"}}})
    assert table.state.status == "voting"
