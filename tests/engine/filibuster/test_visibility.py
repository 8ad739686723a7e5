"""What Filibuster's state declares to each viewer (``dvorak_engine.visibility``): a hand only to its holder, a draw
pile only as a count, the cards and their owners by the ids a viewer is shown. A declaration that showed a secret
fails here, through the view and through the state as a viewer sees it."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from dvorak_engine import visibility
from dvorak_engine.rulesets.filibuster.state import Filibuster, FilibusterState, Player
from dvorak_engine.visibility import Counted, Hidden, seen
from tests.engine.filibuster.table import Table
from tests.engine.filibuster.test_filibusters import filibuster


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility.visibility_of(field) for field in fields(kind)}


def secret_ids(t: Table, viewer: int | None) -> set[str]:
    """The card ids ``viewer`` may not see: every other hand, and every draw pile."""
    hidden = set()
    for player in t.table.players:
        hidden.update(player.draw_pile)
        if player.seat != viewer:
            hidden.update(player.hand)
    return hidden


def test_hands_draw_piles_cards_and_aims_are_not_declared_public():
    player, table = declared(Player), declared(FilibusterState)
    assert player["hand"] == visibility.OWNER and player["draw_pile"] == visibility.COUNT
    assert table["cards"] == table["owners"] == table["aims"] == visibility.LOOKUP
    assert table["deck_cards"] is None and table["last_stacker"] is None
    assert all(how == visibility.PUBLIC for how in declared(Filibuster).values())


def test_a_seat_sees_its_own_hand_and_no_other_hand_or_draw_pile_mid_game():
    t = Table(3)
    t.send(t.table.window[0], {"type": "pass"})  # the game goes on: a window answered
    for viewer in (0, 1, 2, None):
        view = t.view(viewer)
        text = json.dumps(view)
        assert not [card for card in secret_ids(t, viewer) if card in text]
        for shown in view["players"]:
            player = t.table.player(shown["seat"])
            assert shown["hand_count"] == len(player.hand) > 0
            assert shown["draw_pile"] == {"count": len(player.draw_pile)}
            if shown["seat"] == viewer:
                assert [card["id"] for card in shown["hand"]] == list(player.hand)
            else:
                assert "hand" not in shown


def test_the_state_as_a_seat_sees_it_refuses_another_hand_and_any_draw_pile_or_card_list():
    t = Table(3)
    table = seen(t.state, 1).table
    assert table.player(1).hand == t.table.player(1).hand
    assert table.player(1).hand_count() == len(t.table.player(1).hand)
    for other in (0, 2):
        with pytest.raises(Hidden):
            table.player(other).hand  # noqa: B018
        assert table.player(other).hand_count() == len(t.table.player(other).hand)
    assert table.player(1).draw_pile == Counted(len(t.table.player(1).draw_pile))
    for listing in (table.cards, table.owners, table.aims):
        with pytest.raises(TypeError):
            list(listing)
    with pytest.raises(Hidden):
        seen(t.state, None).table.player(1).hand  # noqa: B018
    with pytest.raises(Hidden):
        table.last_stacker  # noqa: B018
    with pytest.raises(Hidden):
        seen(t.state, 1).choices  # noqa: B018


def test_during_a_reveal_everyone_sees_who_has_chosen_and_nobody_else_what():
    t = filibuster(("Scandal", "Poll Surge"), ("Endorsement",))
    scandal = t.card(1, "Scandal")
    t.send(1, {"type": "reveal_card", "card": scandal})
    for viewer in (0, None):
        assert t.view(viewer)["board"]["waiting_for"] == [0]
        assert scandal not in json.dumps(t.view(viewer))
    assert seen(t.state, 0).chosen() == (1,)
