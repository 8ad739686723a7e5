"""Article II's rules as pure functions: each card's effect read from the deck, the twelve Styles, the
Candidates after the Primary Election and the President after the General Election."""

from __future__ import annotations

from collections import Counter

import pytest

from dvorak_engine.rulesets.article_ii.cards import (
    Attributes,
    CardEffect,
    Style,
    choose_candidates,
    compute_attributes,
    elect_president,
    parse_effect,
    primary_totals,
)
from tests.seeds import seed_deck


def article_ii_deck() -> dict:
    """"Article II, updated" (the version with Styles) from the archive's seed decks, its Special Rules
    numbered as the archive's records number them."""
    deck = seed_deck("article-ii-updated").to_dict()
    return {**deck, "special_rules": [{**rule, "id": str(number)}
                                      for number, rule in enumerate(deck["special_rules"], start=1)]}


@pytest.fixture(scope="module")
def cards_by_title() -> dict[str, dict]:
    return {card["title"]: card for card in article_ii_deck()["cards"]}


def base(electability: int = 0, affiliation: int = 0) -> Attributes:
    return Attributes(electability, affiliation)


# --- each card's effect, read from the deck's text -----------------------------------------------------------


def test_the_updated_deck_has_fifty_one_cards_and_twelve_styles(cards_by_title):
    assert sum(card["copies"] for card in cards_by_title.values()) == 51
    styles = [parse_effect(card).style for card in cards_by_title.values() if card["type"] == "Style"]
    assert Counter(styles) == Counter(set(Style))


@pytest.mark.parametrize(
    ("title", "effect"),
    [
        ("Tack Center", CardEffect(electability=4, affiliation=-3)),
        ("Toe the Line", CardEffect(electability=-3, affiliation=5)),
        ("Steal Their Position", CardEffect(electability=6, affiliation=-5)),
        ("Sister Soulja Moment", CardEffect(electability=7, affiliation=-7)),
        ("Gaffe", CardEffect(electability=-3, affiliation=-3)),
        ("Targeted by a Negative Ad", CardEffect(electability=-3)),
        ("True Blue", CardEffect(affiliation=5)),
        ("Strange Pronouncement", CardEffect(affiliation=2)),
        ("Newspaper Endorsement", CardEffect(electability=3)),
        ("Unaffiliated Activity", CardEffect(draws=2)),
        ("Voter ADHD", CardEffect(removes=1)),
    ],
)
def test_each_card_effect_is_read_from_its_text(cards_by_title, title, effect):
    assert parse_effect(cards_by_title[title]) == effect


@pytest.mark.parametrize(
    ("title", "style"),
    [
        ("Screaming Partisan", Style.SCREAMING_PARTISAN),
        ("Outsider Candidate", Style.OUTSIDER),
        ("Insider Candidate", Style.INSIDER),
        ("Great Debater", Style.GREAT_DEBATER),
        ("The Mudslinger", Style.MUDSLINGER),
        ("The Necromancer", Style.NECROMANCER),
        ("The Lesser Evil", Style.LESSER_EVIL),
        ("The Greater Evil", Style.GREATER_EVIL),
        ("The Highlander", Style.HIGHLANDER),
        ("The Hairpiece", Style.HAIRPIECE),
        ("Third-Party Candidate", Style.THIRD_PARTY),
        ("The Teflon Wonder", Style.TEFLON_WONDER),
    ],
)
def test_each_style_is_read_from_its_text_not_its_title(cards_by_title, title, style):
    card = cards_by_title[title]
    assert parse_effect({**card, "title": "Renamed"}).style is style


def test_the_effect_parser_ignores_a_quote_left_in_the_text_and_a_style_line():
    tack_center = {"title": "Tack Center", "type": "Thing",
                   "text": '"I meant to say that I am against taxes."\n+4 Electability\n-3 Affiliation'}
    assert parse_effect(tack_center) == CardEffect(electability=4, affiliation=-3)
    partisan = {"title": "Screaming Partisan", "type": "Thing",
                "text": "Style\nWhile a Screaming Partisan, your Affiliation is doubled."}
    assert parse_effect(partisan).style is Style.SCREAMING_PARTISAN


def test_the_rulebook_spelling_electabilty_still_counts():
    assert parse_effect({"title": "x", "type": "Action", "text": "+2 Electabilty"}).electability == 2


def test_cards_that_change_attributes_and_styles_stay_in_play_the_others_do_not(cards_by_title):
    assert parse_effect(cards_by_title["Gaffe"]).lasts
    assert parse_effect(cards_by_title["The Hairpiece"]).lasts
    assert not parse_effect(cards_by_title["Voter ADHD"]).lasts
    assert not parse_effect(cards_by_title["Unaffiliated Activity"]).lasts


# --- the twelve Styles ---------------------------------------------------------------------------------------


def test_without_styles_attributes_are_the_sums_of_the_cards():
    assert compute_attributes({0: base(4, -3), 1: base(-3, 5)}, {}) == {0: base(4, -3), 1: base(-3, 5)}


def test_screaming_partisan_doubles_affiliation():
    assert compute_attributes({0: base(1, 3)}, {0: Style.SCREAMING_PARTISAN})[0] == base(1, 6)


def test_outsider_affiliation_is_zero():
    assert compute_attributes({0: base(1, 8)}, {0: Style.OUTSIDER})[0] == base(1, 0)


def test_insider_electability_is_halved_toward_zero():
    assert compute_attributes({0: base(7, 2), 1: base(-3, 0)}, {0: Style.INSIDER, 1: Style.INSIDER}) == {
        0: base(3, 2), 1: base(-1, 0)}


def test_mudslinger_subtracts_its_affiliation_from_everyones_electability():
    attributes = compute_attributes({0: base(5, 4), 1: base(6, 1), 2: base(0, 0)}, {0: Style.MUDSLINGER})
    assert attributes == {0: base(1, 4), 1: base(2, 1), 2: base(-4, 0)}


def test_a_negative_mudslinger_affiliation_adds_to_electability():
    assert compute_attributes({0: base(0, -3), 1: base(2, 0)}, {0: Style.MUDSLINGER})[1] == base(5, 0)


def test_lesser_evil_affiliation_is_zero():
    assert compute_attributes({0: base(2, -6), 1: base(0, 5)}, {0: Style.LESSER_EVIL}) == {
        0: base(2, 0), 1: base(0, 5)}


def test_greater_evil_makes_the_opponents_affiliation_zero_but_not_its_own():
    attributes = compute_attributes({0: base(1, 5), 1: base(1, 5), 2: base(1, -2)}, {0: Style.GREATER_EVIL})
    assert attributes == {0: base(1, 5), 1: base(1, 0), 2: base(1, 0)}


def test_hairpiece_style_has_no_effects():
    bases = {0: base(7, 3), 1: base(2, 2)}
    assert compute_attributes(bases, {0: Style.HAIRPIECE}) == bases


def test_third_party_affiliation_is_zero_and_ignores_a_mudslingers_affiliation():
    attributes = compute_attributes({0: base(3, 9), 1: base(2, 4)}, {0: Style.THIRD_PARTY, 1: Style.MUDSLINGER})
    assert attributes == {0: base(3, 0), 1: base(-2, 4)}


def test_styles_without_attribute_modifiers_leave_attributes_alone():
    bases = {0: base(3, 2), 1: base(-1, 4)}
    for style in (Style.GREAT_DEBATER, Style.NECROMANCER, Style.HIGHLANDER, Style.TEFLON_WONDER):
        assert compute_attributes(bases, {0: style, 1: style}) == bases


def test_a_style_that_changes_an_attribute_to_zero_stops_other_modifiers():
    # Halving 1 gives zero, so the Mudslinger's subtraction no longer applies to that Electability.
    attributes = compute_attributes({0: base(1, 0), 1: base(0, 3)}, {0: Style.INSIDER, 1: Style.MUDSLINGER})
    assert attributes[0] == base(0, 0)
    # A Screaming Partisan zeroed by a Greater Evil stays at zero instead of doubling.
    attributes = compute_attributes({0: base(0, 4), 1: base(0, 0)},
                                    {0: Style.SCREAMING_PARTISAN, 1: Style.GREATER_EVIL})
    assert attributes[0] == base(0, 0)


# --- phases: Candidates and Spoilers, the President ---------------------------------------------------------


def test_after_the_primary_affiliation_is_added_to_electability():
    assert primary_totals({0: base(4, 3), 1: base(-2, 5)}) == {0: 7, 1: 3}


def test_the_two_highest_primary_totals_become_the_candidates():
    attributes = {0: base(1, 1), 1: base(5, 5), 2: base(0, 9), 3: base(2, 0)}
    assert choose_candidates(attributes, tiebreak=[0, 1, 2, 3]) == [1, 2]


def test_a_tie_for_candidate_is_broken_by_the_random_order_drawn_for_it():
    attributes = {0: base(9, 0), 1: base(2, 2), 2: base(4, 0), 3: base(0, 0)}
    assert choose_candidates(attributes, tiebreak=[3, 2, 1, 0]) == [0, 2]
    assert choose_candidates(attributes, tiebreak=[1, 0, 2, 3]) == [0, 1]


def test_in_a_two_player_game_both_players_are_candidates():
    assert choose_candidates({0: base(-9, -9), 1: base(1, 1)}, tiebreak=[0, 1]) == [0, 1]


def test_after_the_general_affiliation_is_subtracted_and_the_highest_positive_candidate_is_president():
    attributes = {0: base(10, 3), 1: base(9, 1), 2: base(20, 0)}
    election = elect_president(attributes, {}, candidates=[0, 1])
    assert (election.winners, election.decided_by, election.totals) == ([1], "candidates", {0: 7, 1: 8})


def test_spoiler_rule_when_neither_candidate_is_positive_the_spoiler_with_highest_electability_wins():
    attributes = {0: base(3, 3), 1: base(2, 5), 2: base(4, 9), 3: base(6, -20)}
    election = elect_president(attributes, {}, candidates=[0, 1])
    assert (election.winners, election.decided_by) == ([3], "spoilers")


def test_the_spoiler_rule_ignores_affiliation():
    attributes = {0: base(0, 0), 1: base(0, 0), 2: base(5, 40), 3: base(4, -40)}
    assert elect_president(attributes, {}, candidates=[0, 1]).winners == [2]


def test_two_player_game_without_a_positive_candidate_has_no_president():
    election = elect_president({0: base(1, 1), 1: base(2, 4)}, {}, candidates=[0, 1])
    assert (election.winners, election.decided_by) == ([], "nobody")


def test_equal_highest_totals_share_the_win():
    election = elect_president({0: base(5, 1), 1: base(6, 2), 2: base(0, 0)}, {}, candidates=[0, 1])
    assert election.winners == [0, 1]


def test_necromancer_subtracts_the_other_candidates_affiliation_in_the_general():
    attributes = {0: base(5, 9), 1: base(5, 1)}
    election = elect_president(attributes, {0: Style.NECROMANCER}, candidates=[0, 1])
    assert election.totals == {0: 4, 1: 4}
    assert elect_president(attributes, {}, candidates=[0, 1]).winners == [1]


def test_highlander_spoiler_runs_in_the_general_as_if_a_candidate():
    attributes = {0: base(5, 1), 1: base(3, 0), 2: base(9, 2)}
    assert elect_president(attributes, {}, candidates=[0, 1]).winners == [0]
    election = elect_president(attributes, {2: Style.HIGHLANDER}, candidates=[0, 1])
    assert (election.winners, election.totals[2]) == ([2], 7)
