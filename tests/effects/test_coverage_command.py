"""`manage.py effect_coverage` on the seeded archive: each deck with its share of cards and Special Rules read,
the unread phrases most common across the archive, and the aim of the first step reached."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.seeds import seed_decks

pytestmark = pytest.mark.django_db

AIM = 0.6


@pytest.fixture
def seeded():
    call_command("load_seed_decks", stdout=StringIO())


def run(*args: str) -> str:
    out = StringIO()
    call_command("effect_coverage", *args, stdout=out)
    return out.getvalue()


def test_it_prints_each_deck_with_its_shares_and_the_most_common_unread_phrases(seeded):
    printed = run("--top", "5")
    lines = printed.splitlines()
    for deck in seed_decks():
        row = next(line for line in lines if line.startswith(deck.slug + " "))
        assert deck.ruleset in row
        assert f"/{len(deck.cards)}" in row
    assert "filibuster-sample-set" in printed and "virtues-of-the-drake-sample" in printed
    total = next(line for line in lines if line.startswith("total "))
    assert "%" in total
    heading = lines.index("Most common unread phrases (top 5):")
    assert len(lines[heading + 1:]) == 5
    counts = [int(line.split()[0]) for line in lines[heading + 1:]]
    assert counts == sorted(counts, reverse=True)


def test_the_aim_share_of_cards_understood_is_reached_over_the_seed_and_sample_decks(seeded):
    figures = json.loads(run("--json"))
    decks = {row["slug"]: row for row in figures["decks"]}
    assert len(decks) == 9
    cards = sum(row["cards"] for row in decks.values())
    understood = sum(row["cards_understood"] for row in decks.values())
    assert cards == figures["total"]["cards"] > 100
    assert understood / cards >= AIM
    assert figures["total"]["cards_share"] >= AIM
    # The Basic Rules' own sort of card text is read nearly whole: stat lines, draws, points.
    assert decks["article-ii"]["cards_share"] == 1.0
    assert decks["filibuster-sample-set"]["cards_share"] >= 0.9


def test_one_deck_and_its_unread_phrases(seeded):
    figures = json.loads(run("--deck", "filibuster-sample-set", "--json", "--top", "50"))
    assert [row["slug"] for row in figures["decks"]] == ["filibuster-sample-set"]
    phrases = {item["phrase"] for item in figures["unread"]}
    assert "At the end of each campaign you pitched, gain 5 more points." in phrases
    assert "Gain 15 points." not in phrases


def test_an_unknown_deck_is_refused(seeded):
    with pytest.raises(CommandError, match="no deck"):
        run("--deck", "no-such-deck")


def test_a_confirmed_effect_counts_as_understood_and_is_counted_as_confirmed(seeded):
    from decks import services
    from decks.models import Deck

    deck = Deck.objects.get(slug="filibuster-sample-set")
    unread_card = next(card for card in deck.cards.all()
                       if card.text == "At the end of each campaign you pitched, gain 5 more points.")
    before = json.loads(run("--deck", deck.slug, "--json", "--top", "50"))
    Deck.objects.filter(pk=deck.pk).update(locked=False)  # the seed set may be locked; this is a curator's edit
    services.card_update(slug=deck.slug, card_id=unread_card.pk, author=None,
                         changes={"effect": [{"kind": "counter", "name": "points", "amount": 5}]})

    after = json.loads(run("--deck", deck.slug, "--json", "--top", "50"))

    assert after["decks"][0]["cards_understood"] == before["decks"][0]["cards_understood"] + 1
    assert (before["total"]["cards_confirmed"], after["total"]["cards_confirmed"]) == (0, 1)
    assert "At the end of each campaign you pitched, gain 5 more points." not in {
        item["phrase"] for item in after["unread"]}
    printed = run("--deck", deck.slug)
    assert "1 card(s), 0 rule(s)" in next(line for line in printed.splitlines() if line.startswith("total "))


def test_special_rules_a_ruleset_carries_out_are_counted_apart_from_those_understood(seeded):
    figures = json.loads(run("--json", "--top", "500"))
    decks = {row["slug"]: row for row in figures["decks"]}
    # The games' own procedures (setup, turns, scoring, winning) are carried out by their ruleset modules ...
    for slug in ("article-ii", "article-ii-updated", "socialism", "simplistic-wargame-with-four-stats-s-e-r-m",
                 "rock-paper-scissors-extreme-deck", "filibuster-ccg-set", "the-virtues-of-the-drake"):
        assert decks[slug]["special_rules_carried"] == decks[slug]["special_rules"] > 0
        assert decks[slug]["special_rules_carried_share"] == 1.0
    # ... but not understood: the reader has not read them into effects.
    assert figures["total"]["special_rules_understood"] == 0
    # A rule the ruleset does not implement is not carried (Filibuster checks no deck size). Every rule not
    # understood is a phrase to teach, a carried one too: the seed decks are played as Dvorak games, whose Special
    # Rules "are in effect throughout the game".
    assert decks["filibuster-sample-set"]["special_rules_carried"] == 1
    phrases = {item["phrase"] for item in figures["unread"]}
    assert "Decks of at least 20 cards." in phrases
    assert any(phrase.startswith("Determine the first player randomly") for phrase in phrases)
    # Those naming a Basic Rule number are counted: a Dvorak game of the deck leaves that number to its players.
    assert (decks["socialism"]["special_rules_suspending"], decks["socialism"]["unenforced"]) == (1, ["starting_hand"])
    assert decks["rock-paper-scissors-extreme-deck"]["unenforced"] == ["hand_limit", "starting_hand"]
    assert "socialism: starting_hand" in run("--top", "0")
    assert figures["total"]["special_rules_carried"] == figures["total"]["special_rules"] - 1
    printed = run("--top", "0")
    assert "carried by ruleset" in printed.splitlines()[0]
    socialism = next(line for line in printed.splitlines() if line.startswith("socialism "))
    assert "0/7     0%     7/7   100%" in socialism


def test_a_special_rule_its_ruleset_does_not_implement_is_not_carried(seeded):
    from decks import services
    from decks.models import Deck

    deck = Deck.objects.get(slug="socialism")
    Deck.objects.filter(pk=deck.pk).update(locked=False)
    rules = [{"title": rule.title, "text": rule.text} for rule in deck.special_rules.all()]
    rules.append({"title": "House rule", "text": "Every User accepts invitations on a 2 as well."})
    services.deck_update(slug=deck.slug, author=None, changes={"special_rules": rules})

    row = json.loads(run("--deck", "socialism", "--json", "--top", "50"))
    assert (row["decks"][0]["special_rules"], row["decks"][0]["special_rules_carried"]) == (8, 7)
    assert "Every User accepts invitations on a 2 as well." in {item["phrase"] for item in row["unread"]}


def test_a_ruleset_carries_a_rule_by_its_opening_words_whatever_its_spacing():
    from dvorak_engine.rulesets import get_ruleset

    socialism = get_ruleset("socialism")
    assert socialism.carries_special_rule("Surely, this is obvious?\nRemove the top card from the deck. When ...")
    assert not socialism.carries_special_rule("Remove the top card from the deck.")
    assert not socialism.carries_special_rule("")
    assert not get_ruleset("dvorak").carries_special_rule("Hand size is three instead of five.")
