"""What a Virtues of the Drake deck must carry ("the stats for each of the cards", which the seed never posted), and
what the engine reads of each card: its deck by type, its stats, its own action, the Sangria All's updated text."""

from __future__ import annotations

import pytest

from dvorak_engine.cards import Card
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.virtues_of_the_drake.cards import (
    DISCARD_FROM_BED,
    DISCARD_FROM_GULLET,
    DISCARD_FROM_LAIR,
    DISCARD_KNIGHT,
    DISCARD_MAIDEN,
    SANGRIA_ALL_TEXT,
    SHUFFLE_DISCARDS,
    SWALLOW_MAIDEN,
    CardAction,
    action_of,
    card_problems,
    game_card,
)
from tests.engine.virtues_of_the_drake.table import card, drake_deck, sample_deck
from tests.seeds import seed_deck


def found(problems: list[dict]) -> list[tuple]:
    return [(p["card"], p["title"], p["field"], p["problem"]) for p in problems]


def test_the_seed_entry_has_no_cards_so_it_lacks_the_four_virtues_and_the_three_decks():
    """"In the next post, I will detail the stats for each of the cards": the entry stays as the seed gives it."""
    deck = seed_deck("the-virtues-of-the-drake").to_dict()
    assert deck["cards"] == [] and deck["ruleset"] == "virtues_of_the_drake"
    problems = card_problems(deck)
    assert found(problems) == [
        (None, "Gluttony", "type", "missing"), (None, "Greed", "type", "missing"), (None, "Wrath", "type", "missing"),
        (None, "Pride", "type", "missing"), (None, "Maiden cards", "type", "missing"),
        (None, "Knight cards", "type", "missing"), (None, "Treasure cards", "type", "missing")]
    assert "needs at least 2 Maiden cards" in problems[4]["message"]
    assert get_ruleset("virtues_of_the_drake").card_problems(deck) == problems


def test_the_sample_set_has_everything_the_game_needs():
    deck = sample_deck()
    assert card_problems(deck) == []
    assert "sample" in deck["title"].lower() and "Dvorak service project" in deck["title"]
    assert deck["ruleset"] == "virtues_of_the_drake"
    assert all(c["creator"] == "The Dvorak service project" for c in deck["cards"])


def test_a_maiden_needs_chastity_a_knight_strength_and_wealth_a_treasure_value():
    deck = drake_deck(card("Lady", "Maiden"), card("Sir Bors", "Knight", strength=3),
                      card("Goblet", "Treasure", worth=3), card("Pride", "Virtue"))
    problems = [p for p in card_problems(deck) if p["title"] in {"Lady", "Sir Bors", "Goblet", "Pride"}]
    assert found(problems) == [
        (31, "Lady", "stats.chastity", "missing"), (32, "Sir Bors", "stats.wealth", "missing"),
        (33, "Goblet", "stats.value", "missing"), (34, "Pride", "copies", "invalid")]
    assert problems[1]["message"] == "A Knight's wealth, a whole number (0 or more)."


@pytest.mark.parametrize(("typed", "problem"), [("", "missing"), ("Thing", "missing"), ("Action", "invalid"),
                                                ("Dragon", "invalid")])
def test_a_card_of_no_type_yet_is_missing_and_a_type_of_another_game_is_invalid(typed, problem):
    deck = drake_deck(card("Stray", typed))
    assert found(card_problems(deck)) == [(31, "Stray", "type", problem)]


def test_types_and_stat_names_are_read_in_any_case_as_a_wiki_listing_writes_them():
    deck = drake_deck(card("Lady", "maiden", Chastity=3), card("Sir Bors", "KNIGHT", Strength=3, WEALTH=2))
    assert card_problems(deck) == []
    assert game_card(deck["cards"][-2]) == {**deck["cards"][-2], "type": "Maiden", "stats": {"chastity": 3}}


@pytest.mark.parametrize("value", [-1, 2.5, "3", True])
def test_a_stat_is_a_whole_number_zero_or_more(value):
    deck = drake_deck(card("Lady", "Maiden", chastity=value))
    assert found(card_problems(deck)) == [(31, "Lady", "stats.chastity", "invalid")]


def test_a_stat_given_twice_in_two_cases_is_invalid():
    deck = drake_deck(card("Lady", "Maiden", chastity=3, Chastity=4))
    assert found(card_problems(deck)) == [(31, "Lady", "stats.chastity", "invalid")]


def test_four_virtue_cards_one_each_of_gluttony_greed_wrath_and_pride():
    deck = drake_deck(card("Sloth", "Virtue"), card("The Greed", "Virtue"))
    assert found(card_problems(deck)) == [(31, "Sloth", "title", "invalid"), (32, "The Greed", "copies", "invalid")]
    lacking = {**drake_deck(), "cards": [c for c in drake_deck()["cards"] if c["title"] != "Wrath"]}
    assert found(card_problems(lacking)) == [(None, "Wrath", "type", "missing")]


def test_each_communal_deck_needs_two_cards_one_to_start_its_location():
    deck = drake_deck(per_deck=1)
    assert [p["title"] for p in card_problems(deck)] == ["Maiden cards", "Knight cards", "Treasure cards"]
    assert card_problems(drake_deck(per_deck=2)) == []
    copies = drake_deck(card("Twins", "Maiden", copies=2, chastity=1), per_deck=1)
    assert [p["title"] for p in card_problems(copies)] == ["Knight cards", "Treasure cards"]


# --- a card's own action ---------------------------------------------------------------------------------------


def game_copy(title: str, text: str, card_type: str = "Treasure") -> Card:
    return Card(id="c1", title=title, type=card_type, text=text)


@pytest.mark.parametrize(("text", "action"), [
    ("As an action, swallow the Maiden in play, even if a Knight guards her.", CardAction(SWALLOW_MAIDEN, False)),
    ("As an action, discard the Maiden in play.", CardAction(DISCARD_MAIDEN, False)),
    ("As an action, discard the Knight in play: he carries her away.", CardAction(DISCARD_KNIGHT, False)),
    ("As an action, discard the rightmost Maiden from the Gullet.", CardAction(DISCARD_FROM_GULLET, False)),
    ("as an action: discard the rightmost Knight in the Lair.", CardAction(DISCARD_FROM_LAIR, False)),
    ("As an action, discard this card to discard the rightmost Treasure from the Bed.",
     CardAction(DISCARD_FROM_BED, True)),
    ("Pretty. As an action, discard the Lute to shuffle all discards back into their decks.",
     CardAction(SHUFFLE_DISCARDS, True)),
    ("As an action, sing.", CardAction(None, False)),
])
def test_card_texts_with_as_an_action_are_actions(text, action):
    assert action_of(game_copy("Lute", text)) == action


def test_a_card_without_as_an_action_has_no_action():
    assert action_of(game_copy("Gold Crown", "Heavy on the head.")) is None
    assert action_of(game_copy("Gold Crown", "")) is None


def test_a_virtue_card_is_never_discarded_by_its_own_action():
    assert action_of(game_copy("Pride", "As an action, discard this card to discard the Maiden in play.",
                               "Virtue")) == CardAction(DISCARD_MAIDEN, False)


def test_the_sangria_all_now_has_the_text():
    """"The Sangria All now has the text: Discard the Sangria All to shuffle all discards back into their decks." """
    copied = game_card(card("Sangria All", "Treasure", "An old text.", value=5))
    assert copied["text"] == SANGRIA_ALL_TEXT
    assert game_card(card("The Sangria All", "Treasure", value=5))["text"] == SANGRIA_ALL_TEXT
    assert action_of(Card(id="s", title="Sangria All", type="Treasure", text=copied["text"])) == CardAction(
        SHUFFLE_DISCARDS, True)
