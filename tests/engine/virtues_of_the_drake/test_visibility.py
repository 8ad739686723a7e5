"""What the Drake's state declarations let each viewer see: everything lies face up but the decks, which everyone
sees as counts only; every card is read by id only. The view is built from the state as its viewer sees it
(``visibility.seen``), so a declaration that shows too much would show in these views."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from dvorak_engine import view_state
from dvorak_engine.rulesets.virtues_of_the_drake.cards import DECKS
from dvorak_engine.rulesets.virtues_of_the_drake.ruleset import DrakeState
from dvorak_engine.visibility import LOOKUP, Hidden, seen, state_view, visibility_of
from tests.engine.test_legal_moves import filled
from tests.engine.virtues_of_the_drake.table import Table

PLAYERS = 4


def test_the_decks_are_declared_for_nobody_and_the_cards_by_id_only():
    declared = {field.name: visibility_of(field) for field in dataclasses.fields(DrakeState)}
    assert declared["decks"] is None
    assert declared["cards"] == LOOKUP


@pytest.fixture(scope="module")
def game() -> Table:
    """A game a few turns in: cards have left the decks for the table and the discards."""
    chooser = random.Random(7)
    game = Table(PLAYERS)
    for _ in range(12):
        seat = game.turn.seat
        game.send(seat, filled(chooser.choice(game.moves(seat)), chooser))
    return game


def in_the_decks(game: Table) -> set[str]:
    return {card for pile in game.table.decks.values() for card in pile}


@pytest.mark.parametrize("viewer", [None, *range(PLAYERS)])
def test_a_view_shows_the_decks_as_counts_and_none_of_their_cards(game, viewer):
    table = game.table
    assert in_the_decks(game) and game.state.status == "active"
    view = view_state(game.state, viewer)
    assert view["board"]["decks"] == {deck: {"count": len(table.decks[deck])} for deck in DECKS}
    text = json.dumps(view)
    assert not [card for card in in_the_decks(game) if card in text]
    assert all(card in text for card in (*table.gullet, *table.lair, *table.bed))
    # The declarations alone (the default view of a state) show neither the decks nor the cards by id.
    default = state_view(table, viewer)
    assert "decks" not in default and "cards" not in default
    assert not [card for card in in_the_decks(game) if card in json.dumps(default)]


@pytest.mark.parametrize("viewer", [None, *range(PLAYERS)])
def test_reading_the_decks_through_the_seen_state_is_refused(game, viewer):
    table = seen(game.state, viewer).table
    with pytest.raises(Hidden):
        table.decks  # noqa: B018
    assert table.deck_counts() == {deck: len(pile) for deck, pile in game.table.decks.items()}
    with pytest.raises(TypeError):
        list(table.cards)
    for card in (*game.table.gullet, *game.table.lair, *game.table.bed):
        assert table.cards[card].title == game.table.cards[card].title
