"""What S.E.R.M.'s state declarations let each viewer see: the skirmish hides nothing on the table, so everything a
view shows is ``public`` and every viewer reads the same; what only the server keeps (how many activations were
played, the steps a Move tried, where a kill happens on its path) is declared for nobody and cannot be read. The
view is built from the state as its viewer sees it (``visibility.seen``)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from dvorak_engine.rulesets.serm.cards import SoldierCard
from dvorak_engine.rulesets.serm.geometry import Rect
from dvorak_engine.rulesets.serm.reading import enemies_in_sight
from dvorak_engine.rulesets.serm.table import REACT, Activation, Force, PendingMove, SermState, Soldier
from dvorak_engine.visibility import PUBLIC, Hidden, seen, visibility_of
from tests.engine.serm.skirmish import Skirmish

VIEWERS = (0, 1, None)
# What the server alone reads.
SERVER_ONLY = {SermState: {"activations"}, PendingMove: {"headings", "kill_step"}}


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility_of(field) for field in dataclasses.fields(kind)}


@pytest.mark.parametrize("kind", [SermState, Soldier, Force, Activation, PendingMove, SoldierCard, Rect])
def test_the_table_is_declared_public_but_for_the_server_s_own_fields(kind):
    fields = declared(kind)
    assert {name for name, how in fields.items() if how is None} == SERVER_ONLY.get(kind, set())
    assert {how for how in fields.values() if how is not None} == {PUBLIC}


@pytest.fixture(scope="module")
def game() -> Skirmish:
    """A Move under way that the enemy is asked to React to: every part of the table is in use."""
    game = Skirmish({"terrain": [{"x": 5, "y": 5, "width": 2, "height": 1}]})
    game.arrange(guardsman_0=(2, 2, "N"), guardsman_1=(6, 4, "S"), armored_1=(0, 11, "N"))
    game.send(0, {"type": "advance", "soldier": "0-guardsman", "direction": "E"}, dice=[4])
    assert game.state.table.phase == REACT and game.state.table.pending is not None
    return game


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_server_s_own_fields_are_read_by_no_viewer(game, viewer):
    table = seen(game.state, viewer).table
    with pytest.raises(Hidden):
        _ = table.activations
    with pytest.raises(Hidden):
        _ = table.pending.headings
    with pytest.raises(Hidden):
        _ = table.pending.kill_step
    assert table.pending.path == game.state.table.pending.path


def test_every_viewer_reads_the_same_table(game):
    raw = game.state.table
    for viewer in VIEWERS:
        table = seen(game.state, viewer).table
        for soldier in raw.soldiers:
            assert table.in_sight(soldier.id) == tuple(e.id for e in enemies_in_sight(raw, soldier))
    views = [game.view(viewer) for viewer in VIEWERS]
    for view in views:
        view.pop("you", None)
    assert json.dumps(views[0]) == json.dumps(views[1]) == json.dumps(views[2])
    assert views[0]["board"]["move"]["roll"] == {"dice": [[4]], "total": 4}
