"""What Socialism's state declarations let each viewer see: a seat reads its own hand and nobody else's, everyone
counts the hands and the draw pile, and every card is read by id only. The view is built from the state as its
viewer sees it (``visibility.seen``), so a declaration that shows too much would show in these views."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dvorak_engine import view_state
from dvorak_engine.rulesets.socialism.board import Player, SocialismState
from dvorak_engine.visibility import COUNT, LOOKUP, OWNER, Counted, Hidden, seen, state_view, visibility_of
from tests.engine.socialism.table import Table

PLAYERS = 3


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility_of(field) for field in dataclasses.fields(kind)}


def test_the_secrets_are_declared_for_their_owner_or_as_counts_and_the_cards_by_id_only():
    assert declared(Player)["hand"] == OWNER
    assert declared(SocialismState)["draw_pile"] == COUNT
    assert declared(SocialismState)["cards"] == LOOKUP


@pytest.fixture(scope="module")
def game() -> Table:
    """A game under way: the first player has drawn, so the hands differ in size."""
    game = Table(PLAYERS)
    game.send(game.table.turn.seat, {"type": "draw"})
    return game


def hidden_from(game: Table, viewer: int | None) -> set[str]:
    """The card ids the viewer may not see: every other seat's hand and the draw pile."""
    table = game.table
    hidden = set(table.draw_pile)
    for player in table.players:
        if player.seat != viewer:
            hidden.update(player.hand)
    return hidden


@pytest.mark.parametrize("viewer", [None, *range(PLAYERS)])
def test_a_view_shows_its_own_hand_and_of_the_others_hands_and_the_draw_pile_only_how_many(game, viewer):
    table = game.table
    assert hidden_from(game, viewer) and len({len(p.hand) for p in table.players}) == 2
    view = view_state(game.state, viewer)
    text = json.dumps(view)
    assert not [card for card in hidden_from(game, viewer) if card in text]
    for player, shown in zip(table.players, view["players"], strict=True):
        assert shown["hand_count"] == len(player.hand)
        if player.seat == viewer:
            assert [card["id"] for card in shown["hand"]] == list(player.hand)
        else:
            assert "hand" not in shown
    assert view["board"]["draw_pile"] == {"count": len(table.draw_pile)}
    # The declarations alone (the default view of a state) show no secret either, nor the cards by id.
    default = state_view(table, viewer)
    assert "cards" not in default and default["draw_pile"] == {"count": len(table.draw_pile)}
    assert not [card for card in hidden_from(game, viewer) if card in json.dumps(default)]


@pytest.mark.parametrize("viewer", [None, *range(PLAYERS)])
def test_reading_another_seats_hand_through_the_seen_state_is_refused(game, viewer):
    table = seen(game.state, viewer).table
    for player in game.table.players:
        if player.seat == viewer:
            assert table.players[player.seat].hand == player.hand
        else:
            with pytest.raises(Hidden):
                table.players[player.seat].hand  # noqa: B018
        assert table.players[player.seat].hand_count() == len(player.hand)
    assert table.draw_pile == Counted(len(game.table.draw_pile))
    with pytest.raises(TypeError):
        list(table.cards)
    on_the_discard_or_the_grid = [*game.table.discard_pile, *(p.card for p in game.table.grid)]
    for card in on_the_discard_or_the_grid:
        assert table.cards[card].title == game.table.cards[card].title
