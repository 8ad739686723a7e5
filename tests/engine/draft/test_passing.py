"""Picks and passes: every seat picks at once, in secret; once all have picked the picks are taken and the packs
pass left (to the next seat) in the first round, right in the second, left in the third; the draft ends when the
last round's packs are empty, each seat holding its picks."""

from __future__ import annotations

from collections import Counter

from dvorak_engine import replay
from dvorak_engine.rulesets import get_ruleset
from tests.engine.draft.table import Draft


def test_a_pick_waits_for_the_others_then_the_packs_pass_left_in_the_first_round():
    draft = Draft(3, options={"pack_size": 3})
    held = {seat: draft.pack(seat) for seat in range(3)}
    assert draft.moves(0) == [{"type": "pick", "card": card} for card in dict.fromkeys(held[0])]
    first = draft.send(0, {"type": "pick", "card": held[0][0]})
    assert [event.type for event in first] == ["choice.made"] and draft.pack(0) == held[0]
    assert draft.moves(0) == [] and draft.refused(0, {"type": "pick", "card": held[0][1]}).code == "denied"
    draft.send(1, {"type": "pick", "card": held[1][0]})
    last = draft.send(2, {"type": "pick", "card": held[2][0]})
    assert [event.type for event in last] == ["choice.made", "choices.revealed", "packs.passed", "choices.requested"]
    # Left: each seat hands its pack to the next seat, so seat s now holds what is left of seat s-1's.
    assert [draft.pack(seat) for seat in range(3)] == [held[2][1:], held[0][1:], held[1][1:]]
    assert [draft.picks(seat) for seat in range(3)] == [(held[seat][0],) for seat in range(3)]
    assert (draft.table.round, draft.table.pick, draft.table.direction) == (1, 2, "left")


def test_the_second_round_passes_right_and_the_third_left_again():
    draft = Draft(3, options={"pack_size": 2})
    for number, direction in ((1, "left"), (2, "right"), (3, "left")):
        assert (draft.table.round, draft.table.direction) == (number, direction)
        assert draft.view(None)["board"]["direction"] == direction
        held = {seat: draft.pack(seat) for seat in range(3)}
        draft.pick_each()
        step = 1 if direction == "left" else -1
        assert [draft.pack(seat) for seat in range(3)] == [held[(seat - step) % 3][1:] for seat in range(3)]
        draft.pick_each()  # the packs are empty: the next round opens, or the draft ends
    assert draft.state.status == "finished"


def test_a_card_not_in_the_pack_held_is_refused_and_nothing_happens():
    draft = Draft(2)
    elsewhere = next(card for card in draft.pack(1) if card not in draft.pack(0))
    refused = draft.refused(0, {"type": "pick", "card": elsewhere})
    assert refused.code == "card_not_in_hand" and refused.details == {"field": "card"}
    assert draft.refused(0, {"type": "pick"}).code == "invalid"


def test_the_draft_ends_when_the_last_packs_are_empty_each_seat_holding_its_picks():
    draft = Draft(2)
    dealt = Counter(card for packs in draft.table.unopened for pack in packs for card in pack)
    for _ in range(3 * 4):
        assert draft.state.status == "active"
        events = draft.pick_each(lambda pack: pack[-1])
    assert [event.type for event in events][-1] == "draft.finished"
    assert events[-1].data == {"picks": {"0": 12, "1": 12}}
    assert (draft.state.status, draft.state.winners) == ("finished", ())
    assert Counter(draft.picks(0)) + Counter(draft.picks(1)) == dealt
    assert draft.moves(0) == draft.moves(1) == []
    assert draft.refused(0, {"type": "pick", "card": draft.picks(0)[0]}).code == "game_not_active"
    drafted = get_ruleset("draft").drafted(draft.state)
    assert drafted == {seat: dict(Counter(draft.picks(seat))) for seat in (0, 1)}
    assert replay(draft.events) == draft.state


def test_nothing_is_drafted_before_the_end():
    draft = Draft(2)
    draft.pick_each()
    assert get_ruleset("draft").drafted(draft.state) == {}
