"""What Article II's state declares to each viewer (``dvorak_engine.visibility``): a hand only to its holder (its
size to everyone), the draw pile only as a count, the cards by the ids a viewer is shown. A declaration that
showed a secret fails here, through the view and through the state as a viewer sees it."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from dvorak_engine import SeededRng, view_state, visibility
from dvorak_engine.rulesets.article_ii import acting_seat
from dvorak_engine.rulesets.article_ii.ruleset import ArticleIIState, Player
from dvorak_engine.visibility import Counted, Hidden, seen
from tests.engine.test_article_ii import DECK, Game


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility.visibility_of(field) for field in fields(kind)}


def mid_game() -> Game:
    """Three players, a few cards played: some in front of players, the rest in hands and the draw pile."""
    game = Game(3, DECK, SeededRng(5))
    for _ in range(4):
        seat = acting_seat(game.state)
        table = game.state.table
        if table.removal is not None:
            game.send(seat, type="remove", card=table.removal["from"][0])
        elif table.reply is not None or table.turn.things_played:
            game.send(seat, type="pass")
        else:
            game.send(seat, type="play", card=table.player(seat).hand[0], target=seat)
    return game


def secret_ids(game: Game, viewer: int | None) -> set[str]:
    """The card ids ``viewer`` may not see: the draw pile and every other hand."""
    table = game.state.table
    hidden = set(table.draw_pile)
    for player in table.players:
        if player.seat != viewer:
            hidden.update(player.hand)
    return hidden


def test_hands_the_draw_pile_and_the_cards_are_not_declared_public():
    player, table = declared(Player), declared(ArticleIIState)
    assert player["hand"] == visibility.OWNER
    assert table["draw_pile"] == visibility.COUNT and table["cards"] == visibility.LOOKUP


def test_a_seat_sees_its_own_hand_and_no_other_hand_or_the_draw_pile_mid_game():
    game = mid_game()
    assert any(player.in_play for player in game.state.table.players)
    for viewer in (0, 1, 2, None):
        view = view_state(game.state, viewer)
        text = json.dumps(view)
        assert not [card for card in secret_ids(game, viewer) if card in text]
        assert view["draw_pile"] == {"count": len(game.state.table.draw_pile)}
        for shown in view["players"]:
            player = game.state.table.player(shown["seat"])
            assert shown["hand_count"] == len(player.hand)
            assert [card["id"] for card in shown["in_play"]] == list(player.in_play)
            if shown["seat"] == viewer:
                assert [card["id"] for card in shown["hand"]] == list(player.hand)
            else:
                assert "hand" not in shown


def test_the_state_as_a_seat_sees_it_refuses_another_hand_the_draw_pile_and_the_card_list():
    game = mid_game()
    table = seen(game.state, 1).table
    assert table.player(1).hand == game.state.table.player(1).hand
    for other in (0, 2):
        with pytest.raises(Hidden):
            table.player(other).hand  # noqa: B018
        assert table.player(other).hand_count() == len(game.state.table.player(other).hand)
    assert table.draw_pile == Counted(len(game.state.table.draw_pile))
    with pytest.raises(TypeError):
        list(table.cards)
    with pytest.raises(Hidden):
        seen(game.state, None).table.player(1).hand  # noqa: B018
    with pytest.raises(Hidden):
        table.candidates  # noqa: B018
