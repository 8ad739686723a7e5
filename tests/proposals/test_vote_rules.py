"""dvorak_core.vote_rules: who may vote and what passes, for every vote rule the Creative Rules mention."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dvorak_core.vote_rules import (
    InvalidVoteRule,
    VetoCost,
    VoteRule,
    may_vote,
    outcome,
    parse_vote_rule,
    veto_cost,
    voters,
)

FOUR = [0, 1, 2, 3]


def test_unanimity_is_the_default_and_one_vote_against_rejects():
    assert parse_vote_rule("unanimity") == VoteRule()
    assert outcome("unanimity", {0: True, 1: True, 2: True}, FOUR) == "open"
    assert outcome("unanimity", {0: True, 1: True, 2: True, 3: True}, FOUR) == "accepted"
    assert outcome("unanimity", {0: False}, FOUR) == "rejected"


def test_majority_needs_more_than_half_in_favour():
    assert outcome("majority", {0: True, 1: True}, FOUR) == "open"
    assert outcome("majority", {0: True, 1: True, 2: True}, FOUR) == "accepted"
    assert outcome("majority", {0: False, 1: False}, FOUR) == "rejected"  # two of four can no longer pass
    assert outcome("majority", {0: True, 1: True, 2: False, 3: False}, FOUR) == "rejected"


def test_a_fraction_needs_at_least_that_share_in_favour():
    assert parse_vote_rule(" 2 / 3 ").passing == "2/3"
    assert outcome("2/3", {0: True, 1: True}, [0, 1, 2]) == "accepted"
    assert outcome("2/3", {0: True, 1: False}, [0, 1, 2]) == "open"
    assert outcome("2/3", {0: False, 1: False}, [0, 1, 2]) == "rejected"


def test_no_objection_passes_unless_someone_objects():
    assert outcome("no_objection", {0: True}, FOUR) == "open"
    assert outcome("no_objection", {0: True}, FOUR, final=True) == "accepted"
    assert outcome("no_objection", {}, FOUR, final=True) == "accepted"
    assert outcome("no_objection", {0: True, 3: False}, FOUR) == "rejected"


def test_a_final_count_treats_missing_votes_as_not_in_favour():
    assert outcome("unanimity", {0: True, 1: True}, FOUR, final=True) == "rejected"
    assert outcome("majority", {0: True, 1: True, 2: True}, FOUR, final=True) == "accepted"


def test_votes_of_players_without_a_vote_do_not_count():
    assert outcome("unanimity", {0: True, 9: False}, [0]) == "accepted"


def test_every_player_votes_unless_the_rule_names_the_voters():
    assert voters("majority", [2, 0, 1]) == [0, 1, 2]
    dictator = {"pass": "unanimity", "voters": [1]}
    assert voters(dictator, FOUR) == [1]
    assert may_vote(dictator, 1, FOUR) and not may_vote(dictator, 0, FOUR)


def test_a_dictator_out_of_the_game_gives_the_vote_back_to_everyone():
    assert voters({"voters": [3]}, [0, 1]) == [0, 1]


def test_a_veto_may_cost_a_counter():
    rule = parse_vote_rule({"pass": "majority", "veto_cost": {"counter": "gold", "amount": 2}})
    assert rule.veto_cost == VetoCost("gold", 2)
    assert veto_cost(rule.to_json()) == VetoCost("gold", 2)
    assert veto_cost("unanimity") is None


@pytest.mark.parametrize("bad", [
    "dictatorship", "3/2", "0/3", "", 5, None, ["majority"],
    {"pass": "majority", "quorum": 3},
    {"voters": []}, {"voters": [-1]}, {"voters": [True]},
    {"veto_cost": {"counter": "Gold!", "amount": 1}}, {"veto_cost": {"counter": "gold", "amount": 0}},
    {"veto_cost": {"counter": "gold"}},
])
def test_a_value_that_is_no_vote_rule_is_refused_with_a_reason(bad):
    with pytest.raises(InvalidVoteRule) as refused:
        parse_vote_rule(bad)
    assert str(refused.value)


@given(rule=st.sampled_from(["unanimity", "majority", "2/3", "1/3", "no_objection",
                             {"pass": "majority", "voters": [0, 2]}]),
       votes=st.lists(st.booleans(), min_size=0, max_size=5))
def test_a_vote_rule_round_trips_and_more_votes_never_reopen_a_decided_vote(rule, votes):
    assert parse_vote_rule(parse_vote_rule(rule).to_json()) == parse_vote_rule(rule)
    seats = voters(rule, range(5))
    decided = None
    for count in range(len(votes) + 1):
        result = outcome(rule, dict(enumerate(votes[:count])), seats)
        if decided is not None:
            assert result == decided
        elif result != "open":
            decided = result
    if len(votes) == 5:
        assert outcome(rule, dict(enumerate(votes)), seats) != "open"
