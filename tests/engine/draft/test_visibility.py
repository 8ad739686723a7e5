"""What a draft shows each viewer (``dvorak_engine.visibility``): the pack a player holds and the cards they picked
only to that player, the packs still to be opened to nobody, a pick made to its picker alone until all have picked
and after. A declaration that showed a secret fails here, through the view and the state as a viewer sees it, and
through every view of every event of random games (the leak scan)."""

from __future__ import annotations

import json
import random
from dataclasses import fields

import pytest

from dvorak_engine import evolve, view_event, view_state
from dvorak_engine.rulesets.draft.state import Drafter, DraftState
from dvorak_engine.visibility import LOOKUP, OWNER, Hidden, seen, visibility_of
from tests.engine.draft.table import Draft, rarity_set
from tests.sizes import size

LEAK_SCAN_GAMES = size("DRAFT_LEAK_SCAN_GAMES", 3, 30)


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility_of(field) for field in fields(kind)}


def test_packs_and_picks_are_their_holder_s_and_the_packs_to_come_nobody_s():
    assert declared(Drafter)["pack"] == declared(Drafter)["picks"] == OWNER
    table = declared(DraftState)
    assert table["cards"] == LOOKUP and table["unopened"] is None and table["copies"] is None


def test_a_seat_sees_its_own_pack_and_picks_and_nobody_else_s():
    draft = Draft(3, deck=rarity_set(), options={"pool": "one_each", "pack_size": 3})
    draft.pick_each()
    for viewer in (0, 1, 2, None):
        view = draft.view(viewer)
        for shown in view["players"]:
            player = draft.table.player(shown["seat"])
            assert (shown["pack_count"], shown["picks_count"]) == (len(player.pack), len(player.picks)) == (2, 1)
            if shown["seat"] == viewer:
                assert [card["id"] for card in shown["pack"]] == list(player.pack)
                assert [card["id"] for card in shown["picks"]] == list(player.picks)
            else:
                assert "pack" not in shown and "picks" not in shown
    as_seen = seen(draft.state, 1).table
    assert as_seen.player(1).pack == draft.pack(1)
    for other in (0, 2):
        with pytest.raises(Hidden):
            as_seen.player(other).pack  # noqa: B018
        with pytest.raises(Hidden):
            as_seen.player(other).picks  # noqa: B018
    with pytest.raises(Hidden):
        as_seen.unopened  # noqa: B018
    with pytest.raises(TypeError):
        list(as_seen.cards)


def test_a_pick_is_shown_to_its_picker_alone_before_the_reveal_and_after_it():
    draft = Draft(2, deck=rarity_set(), options={"pool": "one_each", "pack_size": 4})
    mine = draft.pack(0)[0]
    [made] = draft.send(0, {"type": "pick", "card": mine})
    before = draft.state
    assert draft.view(0)["choices"]["made"] == [{"seat": 0, "choice": mine}]
    assert draft.view(1)["choices"]["made"] == [{"seat": 0}] and draft.view(None)["choices"]["made"] == [{"seat": 0}]
    assert view_event(made, 1, before, draft.state) == {"seat": 0}
    theirs = draft.pack(1)[0]
    events = draft.send(1, {"type": "pick", "card": theirs})
    [reveal] = [event for event in events if event.type == "choices.revealed"]
    assert view_event(reveal, 0, None, draft.state) == {"choices": {"0": mine}}
    assert view_event(reveal, 1, None, draft.state) == {"choices": {"1": theirs}}
    assert view_event(reveal, None, None, draft.state) == {"choices": {}}


def hidden_from(state, viewer: int | None) -> set[str]:
    """Every card of the game ``viewer`` may not see now: all but its own pack and picks (each card of the set is
    dealt once at most, ``one_each``, so a card is in one place only)."""
    table = state.table
    everything = {card for packs in table.unopened for pack in packs for card in pack}
    everything |= {card for player in table.players for card in (*player.pack, *player.picks)}
    if viewer is None:
        return everything
    own = table.player(viewer)
    return everything - set(own.pack) - set(own.picks)


@pytest.mark.parametrize("number", range(LEAK_SCAN_GAMES))
def test_no_view_of_a_state_or_an_event_shows_a_card_hidden_from_its_viewer(number):
    chooser = random.Random(number)
    players = 2 + number % 4
    draft = Draft(players, deck=rarity_set(40, 16, 8), seed=number,
                  options={"pool": "one_each", "packs": 2, "pack_size": 64 // (players * 2)})
    titles = {card_id: card.title for card_id, card in draft.table.cards.items()}
    scanned = 0
    while draft.state.status == "active":
        seat = chooser.choice([seat for seat in range(players) if draft.moves(seat)])
        state = draft.state
        for event in draft.send(seat, chooser.choice(draft.moves(seat))):
            before, state = state, evolve(state, event)
            for viewer in (*range(players), None):
                secret = hidden_from(before, viewer) & hidden_from(state, viewer)
                shown = json.dumps([view_state(state, viewer), view_event(event, viewer, before, state)])
                leaked = [card for card in secret if f'"{card}"' in shown or f'"{titles[card]}"' in shown]
                assert not leaked, (viewer, event.type, leaked)
                scanned += 1
    assert draft.state.status == "finished" and scanned
