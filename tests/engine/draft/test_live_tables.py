"""A booster draft at a live table: the clock waits on the seats that have not picked; a player out of time leaves
the draft with their picks, the others passing among themselves, or, with one player left, that player wins on
time; an undo never goes back across a pass; computer players draft to the end, the greedy one taking the rarest
card of its pack."""

from __future__ import annotations

from dvorak_engine import SeededRng, bots
from dvorak_engine.rulesets import get_ruleset
from tests.engine.draft.table import rarity_set, sample_set
from tests.engine.test_live_tables_drake import (
    PER_MOVE,
    LiveTable,
    check_clock_follows,
    nothing_listed,
    play_bots,
)


def live(players: int = 3, *, deck: dict | None = None, **kwargs) -> LiveTable:
    return LiveTable("draft", deck or sample_set(), players, **kwargs)


def pick_first(table: LiveTable, seat: int) -> None:
    table.send(seat, {"type": "pick", "card": table.state.table.player(seat).pack[0]}, after=1)


def test_the_clock_waits_on_the_seats_that_have_not_picked():
    table = live(3)
    check_clock_follows(table)
    assert table.awaited == (0, 1, 2)
    pick_first(table, 1)
    assert table.awaited == (0, 2)
    check_clock_follows(table)


def test_a_player_out_of_time_leaves_the_draft_with_their_picks_and_the_others_pass_among_themselves():
    table = live(3, options={"pack_size": 3})
    for seat in range(3):
        pick_first(table, seat)
    pick_first(table, 0)
    pick_first(table, 2)
    before = {seat: table.state.table.player(seat).pack for seat in (0, 2)}
    events = table.expire(after=PER_MOVE + 1)
    assert table.types(events)[:2] == ["clock.expired", "drafters.out"]
    assert "choices.revealed" in table.types(events)  # the two who had picked have their picks taken now
    assert table.state.seat(1).status == "eliminated" and len(table.state.table.player(1).picks) == 1
    assert table.state.table.player(1).pack == () and table.moves(1) == []
    # Seat 0 passes left to the next seat still drafting, seat 2, and seat 2 to seat 0.
    assert table.state.table.player(2).pack == before[0][1:] and table.state.table.player(0).pack == before[2][1:]
    while table.state.status == "active":
        for seat in table.awaited:
            pick_first(table, seat)
    assert table.state.status == "finished" and table.state.winners == ()
    assert [len(table.state.table.player(seat).picks) for seat in range(3)] == [9, 1, 9]
    assert get_ruleset("draft").drafted(table.state)[1] == {table.state.table.player(1).picks[0]: 1}


def test_with_one_player_left_that_player_wins_on_time():
    table = live(2)
    pick_first(table, 0)
    events = table.expire(after=PER_MOVE + 1)
    assert table.types(events)[-1] == "game.won_on_time"
    assert (table.state.status, table.state.winners) == ("finished", (0,))
    assert nothing_listed(table) and table.state.choosing == ()


def test_a_pick_not_yet_taken_may_be_undone_but_no_undo_goes_back_across_a_pass():
    table = live(2, clock=False)
    start = table.state.version
    listed = table.moves(0)
    pick_first(table, 0)
    table.send(0, {"type": "undo", "to": start})
    assert table.types(table.send(1, {"type": "undo_answer", "accept": True}))[-1] == "game.undone"
    assert table.state.choices == {} and table.moves(0) == listed
    pick_first(table, 0)
    pick_first(table, 1)
    refused = table.refusal(0, {"type": "undo", "to": start})
    assert refused.code == "undo_not_possible"


def test_computer_players_draft_to_the_end():
    for levels in (["random", "greedy"], ["greedy", "greedy", "random"]):
        table = live(len(levels), clock=False)
        play_bots(table, levels, cap=200)
        assert table.state.status == "finished" and nothing_listed(table)


def test_the_greedy_computer_player_takes_the_rarest_card_of_its_pack():
    for seed in range(5):
        table = live(2, deck=rarity_set(100, 40, 20), clock=False, seed=seed)
        pack = table.state.table.player(0).pack
        command = bots.choose(table.state, 0, "greedy", SeededRng(seed))
        assert command == {"type": "pick", "card": pack[0]}  # the pack's one rare, listed first
        assert table.state.table.cards[pack[0]].stats["rarity"] == 3
