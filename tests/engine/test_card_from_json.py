"""A card read back from an event is the card ``Card(**data)`` makes: the same fields, in the same order, the same
defaults, a stats mapping of its own, and the same refusals."""

from __future__ import annotations

import pytest

from dvorak_engine.cards import Card, card_from_json, card_json, cards_from_json

WHOLE = {"id": "a1", "title": "Gold Mine", "type": "Thing", "text": "Gain 1 Gold.", "flavor": "Shiny.",
         "corner_value": "3", "creator": "kai", "stats": {"gold": 1}, "out_of_turn": True,
         "effect": [{"do": "counter", "name": "gold", "delta": 1}]}
BARE = {"id": "b2", "title": "Nothing", "type": "Action"}


@pytest.mark.parametrize("data", [WHOLE, BARE, {**BARE, "stats": {}}, {"type": "Thing", "title": "T", "id": "c"}])
def test_a_card_from_its_json_is_the_card_init_makes(data):
    made, read = Card(**data), card_from_json(data)
    assert read == made and type(read) is Card
    assert list(vars(read).items()) == list(vars(made).items())
    assert card_json(read) == card_json(made)
    with pytest.raises(AttributeError):  # still frozen
        read.title = "changed"


def test_each_card_without_stats_gets_a_mapping_of_its_own():
    first, second = card_from_json(BARE), card_from_json(BARE)
    assert first.stats == second.stats == {} and first.stats is not second.stats


@pytest.mark.parametrize("data", [{**BARE, "colour": "red"}, {"id": "d", "type": "Thing"}])
def test_a_card_init_refuses_is_refused_alike(data):
    with pytest.raises(TypeError) as made:
        Card(**data)
    with pytest.raises(TypeError) as read:
        card_from_json(data)
    assert str(read.value) == str(made.value)


def test_a_deck_is_read_by_id():
    cards = cards_from_json([WHOLE, BARE])
    assert list(cards) == ["a1", "b2"] and cards["b2"] == Card(**BARE)
