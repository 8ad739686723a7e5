"""A card set's versions carry each card's confirmed effect: proposed with the card, kept by the version build,
taken away when the card's words change without one, and brought by a player deck into a CCG game."""

from __future__ import annotations

import pytest

from ccg.selectors import player_deck_for_game
from tests.ccg.conftest import FILIBUSTER, accept, propose, set_cards
from tests.ccg.test_ccg_games import build_deck, create_ccg_game

pytestmark = pytest.mark.django_db

TEN_POINTS = [{"kind": "counter", "name": "points", "amount": 10, "who": "you", "instead_of": None}]
WHIP = [{"kind": "set_rule", "param": "filibuster_margin", "value": 1}]


def accepted(ann, bob, body: dict, capture) -> None:
    with capture(execute=True):
        accept(bob, propose(ann, body)["id"])


def test_a_cards_effect_goes_into_the_version_and_the_players_deck_and_goes_with_its_old_words(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    (ann_user, ann), (_, bob) = players
    capture = django_capture_on_commit_callbacks
    accepted(ann, bob, {"kind": "add", "content": {"title": "War Chest", "type": "Gambit", "corner_value": "4",
                                                   "text": "Gain 10 points.",
                                                   "effect": [{"kind": "counter", "name": "points", "amount": 10}]}},
             capture)
    cards = set_cards(ann)
    assert cards["War Chest"]["effect"] == TEN_POINTS  # kept in its full JSON
    assert "effect" not in cards["Pork Barrel"]  # a card without one reads as before

    # A change may confirm an effect on a card the set already has.
    whip = cards["Party Whip"]["id"]
    accepted(ann, bob, {"kind": "change", "card": whip, "content": {"effect": WHIP}}, capture)
    assert set_cards(ann)["Party Whip"]["effect"] == WHIP
    assert ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()[-1]["changelog"] == [
        "Changed card 'Party Whip': effect"]

    deck = build_deck(ann, set_cards(ann), "Effects")
    brought = {card["title"]: card for card in player_deck_for_game(user=ann_user, player_deck_id=deck["id"],
                                                                     formal=True)["cards"]}
    assert brought["War Chest"]["effect"] == TEN_POINTS and brought["Party Whip"]["effect"] == WHIP
    assert "effect" not in brought["Pork Barrel"]

    # New words without an effect: the old effect was theirs, and goes; the deck follows the version.
    accepted(ann, bob, {"kind": "change", "card": whip, "content": {"text": "Your filibusters need a card of value "
                                                                            "2 higher."}}, capture)
    assert "effect" not in set_cards(ann)["Party Whip"]
    brought = {card["title"]: card for card in player_deck_for_game(user=ann_user, player_deck_id=deck["id"],
                                                                     formal=True)["cards"]}
    assert "effect" not in brought["Party Whip"] and brought["War Chest"]["effect"] == TEN_POINTS
    # A change of other fields keeps it; "effect": null takes it away.
    war_chest = set_cards(ann)["War Chest"]["id"]
    accepted(ann, bob, {"kind": "change", "card": war_chest, "content": {"flavor": "Cash on hand."}}, capture)
    assert set_cards(ann)["War Chest"]["effect"] == TEN_POINTS
    accepted(ann, bob, {"kind": "change", "card": war_chest, "content": {"effect": None}}, capture)
    assert "effect" not in set_cards(ann)["War Chest"]


@pytest.mark.parametrize(("effect", "field"), [
    ([{"kind": "fly"}], "content.effect[0]"),
    ([{"kind": "draw", "count": 500}], "content.effect[0].count"),
    ({"kind": "draw"}, "content.effect"),
])
def test_a_malformed_effect_is_refused_when_proposed(filibuster_with_cards, players, effect, field):
    (_, ann), _ = players
    answer = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/", {"kind": "add", "content": {
        "title": "Bad Card", "type": "Gambit", "corner_value": "1", "effect": effect}}, format="json")
    assert answer.status_code == 400, answer.json()
    error = answer.json()["error"]
    assert error["code"] == "invalid"
    assert error["details"]["content"]["field"] == field


def test_a_ccg_game_understands_a_card_by_the_effect_its_version_carries(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    (_, ann), (_, bob) = players
    # Party Whip's words are beyond the reader; its confirmed effect is what the game goes by.
    accepted(ann, bob, {"kind": "change", "card": filibuster_with_cards["Party Whip"]["id"],
                        "content": {"effect": WHIP}}, django_capture_on_commit_callbacks)
    cards = set_cards(ann)
    ann_deck = build_deck(ann, cards, "Ann's")
    bob_deck = build_deck(bob, cards, "Bob's")
    game_id = create_ccg_game(ann, ann_deck["id"], formal=True).json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": bob_deck["id"]},
                    format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    # Every copy of it in the game, in both players' decks, carries it; the cards without one carry none.
    from dvorak_engine.rulesets.dvorak.effects import effect_of
    from dvorak_kit.eventstore import store
    from games.models import Game
    from games.services import state_at

    stream = Game.objects.get(pk=game_id).stream_id
    table = state_at(stream, store.current_version(stream))
    whips = [card_id for card_id, card in table.table.cards.items() if card.title == "Party Whip"]
    assert len(whips) == 10
    assert all(table.table.cards[card_id].effect == WHIP for card_id in whips)
    assert [effect.kind for effect in effect_of(table, whips[0])] == ["set_rule"]
    assert all(card.effect is None for card in table.table.cards.values() if card.title != "Party Whip")
    # A player sees it on the cards they hold.
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    me = next(player for player in state["players"] if player["seat"] == state["you"])
    for card in me["hand"]:
        assert card.get("effect") == (WHIP if card["title"] == "Party Whip" else None)
