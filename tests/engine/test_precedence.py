"""The rulebook's "Conflicts and Precedence", as ``resolve`` decides them."""

from __future__ import annotations

from dvorak_engine.rulesets.dvorak.precedence import resolve
from dvorak_engine.rulesets.dvorak.state import Modifier


def hand_size(value, *, seat=None, card=None, deny=False, order=1, source="x") -> Modifier:
    return Modifier(source=source, param="hand_limit", value=value, seat=seat, card=card, deny=deny, order=order)


def test_a_denial_beats_a_permission():
    permission = hand_size(6, seat=0, order=9)
    denial = hand_size(0, deny=True, order=1)
    assert resolve([permission, denial], "hand_limit", 0) is denial


def test_the_more_specific_beats_the_more_general():
    everyone_four = hand_size(4, order=5)
    this_controller_six = hand_size(6, seat=1, order=2)
    assert resolve([everyone_four, this_controller_six], "hand_limit", 1).value == 6
    assert resolve([everyone_four, this_controller_six], "hand_limit", 0).value == 4


def test_one_card_is_more_specific_than_one_player():
    player_may = Modifier(source="a", param="use_actions", value=True, seat=0, order=5)
    card_may_not = Modifier(source="b", param="use_actions", value=False, card="c1", order=1)
    assert resolve([player_may, card_may_not], "use_actions", 0, card="c1") is card_may_not
    assert resolve([player_may, card_may_not], "use_actions", 0, card="c2") is player_may


def test_between_equals_the_most_recent_wins():
    older_four = hand_size(4, order=3)
    newer_six = hand_size(6, order=8)
    assert resolve([newer_six, older_four], "hand_limit", 0).value == 6
    assert resolve([older_four], "hand_limit", 0).value == 4


def test_modifiers_of_other_parameters_and_other_seats_do_not_apply():
    assert resolve([hand_size(3, seat=1), Modifier("y", "draws_per_turn", 2)], "hand_limit", 0) is None
