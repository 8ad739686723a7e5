"""Whole drafts played by random listed moves in the engine, two to eight players, with the default options and
with the others: every listed move is accepted, every draft ends with each seat's picks, and replay and a snapshot
give the state played."""

from __future__ import annotations

import random

import pytest

from dvorak_engine import replay, state_from_json, state_to_json
from tests.engine.draft.table import Draft, rarity_set, sample_set

OPTIONS = [{}, {"pool": "one_each", "packs": 2}, {"packs": 1, "pack_size": 5, "rarity": {"rare": 2, "uncommon": 1}}]


@pytest.mark.parametrize("options", OPTIONS, ids=["defaults", "one-each", "one-pack"])
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_random_listed_moves_draft_to_the_end(players, options):
    chooser = random.Random(players * 10 + len(options))
    deck = rarity_set(80, 30, 10) if players > 3 else sample_set()
    draft = Draft(players, deck=deck, seed=players, options=options)
    size, rounds = draft.table.pack_size, options.get("packs", 3)
    for _ in range(players * rounds * size + 1):
        offers = [(seat, moves) for seat in range(players) if (moves := draft.moves(seat))]
        if not offers:
            break
        while offers:  # each seat asked picks, in a random order
            seat, moves = offers.pop(chooser.randrange(len(offers)))
            draft.send(seat, chooser.choice(moves))
    assert draft.state.status == "finished"
    assert [len(draft.picks(seat)) for seat in range(players)] == [rounds * size] * players
    assert replay(draft.events) == draft.state
    assert state_from_json(state_to_json(draft.state)) == draft.state
