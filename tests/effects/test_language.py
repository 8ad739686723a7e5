"""The effect language's JSON: every effect round-trips, and malformed effect JSON is refused with a clear error."""

from __future__ import annotations

import json
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dvorak_core import rule_params
from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.effects import read_card
from tests.sizes import size

words = st.text(alphabet=st.characters(whitelist_categories=("Lu", "Ll")), min_size=1, max_size=12)
who = st.sampled_from(typing.get_args(L.Who))
zone = st.sampled_from(typing.get_args(L.Zone))
count = st.integers(0, L.MAX_COUNT)
amount = st.integers(-rule_params.COUNTER_BOUND, rule_params.COUNTER_BOUND)
cards = st.builds(L.Cards, what=st.none() | words, count=st.none() | count, owner=st.none() | who, zone=zone,
                  random=st.booleans(), other=st.booleans(), host=st.booleans())
counted = st.builds(L.Counted, count=st.integers(1, L.MAX_COUNT), what=words)
conditions = st.one_of(
    st.builds(L.Controls, who=who, items=st.lists(counted, min_size=1, max_size=4).map(tuple)),
    st.builds(L.Contains, place=words, count=count, what=words),
    st.builds(L.Happens, who=who, verb=words, with_=st.none() | words,
              outcomes=st.lists(st.sampled_from(["win", "lose", "tie"]), max_size=3).map(tuple)),
    st.builds(L.Reaches, who=who, name=words, value=amount),
)
set_rules = st.one_of(
    *[st.builds(L.SetRule, param=st.just(param), value=st.none() | st.integers(least, most))
      for param, (least, most) in rule_params.NUMBERS.items()])
simple_effects = st.one_of(
    st.builds(L.Draw, who=who, count=count, optional=st.booleans()),
    st.builds(L.Discard, who=who, count=st.none() | count, random=st.booleans(), cards=st.none() | cards),
    st.builds(L.Destroy, cards=cards), st.builds(L.Take, cards=cards), st.builds(L.Give, cards=cards, to=who),
    st.builds(L.Move, cards=cards, to=zone), st.builds(L.Shuffle, source=zone, into=zone),
    st.builds(L.Reveal, who=who, count=st.none() | count, to=who, random=st.booleans()),
    st.builds(L.Counter, name=words, amount=amount, who=who, instead_of=st.none() | amount),
    st.builds(L.SetCounter, name=words, value=amount, who=who),
    st.builds(L.Roll, dice=st.integers(1, L.MAX_DICE), sides=st.integers(2, L.MAX_SIDES)),
    st.builds(L.ExtraTurn, who=who), set_rules,
    st.builds(L.Modify, cards=cards, stat=words, amount=amount),
    st.builds(L.Forbid, cards=cards, what=words), st.builds(L.Protect, cards=cards),
    st.builds(L.Skip, step=st.sampled_from(["draw", "play", "turn"]), who=who),
    st.builds(L.Outcome, result=st.sampled_from(["win", "lose", "tie"]), who=who), st.builds(L.DrawFirst, who=who),
    st.builds(L.Win, who=who), st.builds(L.Lose, who=who), st.builds(L.PlayOnto, cards=cards),
    st.builds(L.AnyTime),
)
effects = st.recursive(simple_effects, lambda inner: st.one_of(
    st.builds(L.Ability, effects=st.lists(inner, min_size=1, max_size=3).map(tuple), once=st.booleans(),
              condition=st.none() | conditions),
    st.builds(L.When, event=st.sampled_from(typing.get_args(L.Event)),
              effects=st.lists(inner, min_size=1, max_size=3).map(tuple), cards=st.none() | cards),
    st.builds(L.If, condition=conditions, effects=st.lists(inner, min_size=1, max_size=3).map(tuple)),
    st.builds(L.Lasting, duration=st.sampled_from(typing.get_args(L.Duration)),
              effects=st.lists(inner, min_size=1, max_size=3).map(tuple)),
), max_leaves=6)


def test_every_kind_of_effect_is_built_by_the_strategy():
    assert set(L.EFFECT_KINDS) == {
        "draw", "discard", "destroy", "take", "give", "move", "shuffle", "reveal", "counter", "set_counter",
        "roll", "extra_turn", "set_rule", "modify", "forbid", "protect", "skip", "outcome", "draw_first", "win",
        "lose",
        "play_onto", "any_time", "ability", "when", "if", "lasting"}


@settings(max_examples=size("EFFECT_ROUND_TRIPS", 100, 300), deadline=None)
@given(effects)
def test_any_effect_round_trips_through_json(effect):
    data = json.loads(json.dumps(L.to_json(effect)))
    assert data["kind"] == effect.kind
    assert L.from_json(data) == effect


@settings(max_examples=size("EFFECT_LIST_ROUND_TRIPS", 50, 150), deadline=None)
@given(st.lists(effects, max_size=4).map(tuple))
def test_a_list_of_effects_round_trips(many):
    assert L.effects_from_json(json.loads(json.dumps(L.to_json(many)))) == many


def test_read_cards_round_trip():
    reading = read_card("Lightning Strike", "Action",
                        "If you control a Head, a Body, two Arms and two Legs, you win the game.")
    assert L.effects_from_json(L.to_json(reading.effects)) == reading.effects
    assert L.to_json(reading.effects)[0]["condition"]["items"][2] == {"kind": "counted", "count": 2, "what": "Arm"}


@pytest.mark.parametrize(("data", "path", "says"), [
    ({"kind": "fly"}, "$", "\"kind\" is one of"),
    ({"kind": {"kind": "draw"}}, "$", "\"kind\" is one of"),  # a kind that is no text (once a server error)
    ({"kind": ["draw"]}, "$", "\"kind\" is one of"),
    ("draw", "$", "\"kind\" is one of"),
    ({"kind": "draw", "count": "two"}, "$.count", "whole number"),
    ({"kind": "draw", "count": True}, "$.count", "whole number"),
    ({"kind": "draw", "count": 101}, "$.count", "from 0 to 100"),
    ({"kind": "draw", "count": -1}, "$.count", "from 0 to 100"),
    ({"kind": "draw", "who": "everyone"}, "$.who", "expected one of"),
    ({"kind": "draw", "cards": 2}, "$", "unknown field(s) cards"),
    ({"kind": "destroy"}, "$", "missing field \"cards\""),
    ({"kind": "destroy", "cards": {"kind": "counted", "count": 1, "what": "X"}}, "$.cards", "\"kind\" is cards"),
    ({"kind": "counter", "name": "gold", "amount": 2_000_000}, "$.amount", "from -1000000 to 1000000"),
    ({"kind": "counter", "name": "", "amount": 1}, "$.name", "1 to 100 characters"),
    ({"kind": "set_rule", "param": "hand_limit", "value": 500}, "$.value", "hand_limit is a whole number"),
    ({"kind": "set_rule", "param": "Hand Limit", "value": 5}, "$.param", "snake_case"),
    ({"kind": "roll", "dice": 0}, "$.dice", "from 1 to 20"),
    ({"kind": "ability", "effects": []}, "$.effects", "at least one effect"),
    ({"kind": "ability", "effects": [{"kind": "draw", "count": 1.5}]}, "$.effects[0].count", "whole number"),
    ({"kind": "if", "condition": {"kind": "controls", "who": "you", "items": []}, "effects": [{"kind": "win"}]},
     "$.condition.items", "at least one item"),
    ({"kind": "if", "condition": {"kind": "draw"}, "effects": [{"kind": "win"}]}, "$.condition",
     "\"kind\" is one of"),
])
def test_malformed_effect_json_is_refused_with_a_clear_error(data, path, says):
    with pytest.raises(L.InvalidEffect) as refused:
        L.from_json(data)
    assert refused.value.code == "invalid"
    assert refused.value.details == {"field": path}
    assert refused.value.message.startswith(f"{path}: ")
    assert says in refused.value.message


def test_a_list_of_effects_must_be_a_list():
    with pytest.raises(L.InvalidEffect, match="expected a list"):
        L.effects_from_json({"kind": "draw"})
