"""The reader turns the rulebook's example cards, and common card text, into the effect language; what it cannot
read it reports word for word."""

from __future__ import annotations

import pytest

from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.effects import read_card, read_special_rule
from dvorak_core.effects.reader import number
from tests.seeds import original_path, requires_seeds, rulebook_example_cards

EXAMPLES = {card["title"]: card for card in rulebook_example_cards()}
# The rulebook's example Special Rule (its section "Winning"), which the example cards file does not hold.
VICTORY = ("Victory", "The first player to control five Laps wins the game.")


def read_example(title: str) -> L.Effect:
    card = EXAMPLES[title]
    reading = read_card(card["title"], card["type"], card["text"])
    assert reading.understood, reading.unread
    assert reading.unread == []
    return reading.effects


def test_espionage_takes_a_random_card_from_an_opponents_hand():
    assert read_example("Espionage") == (
        L.Take(L.Cards(count=1, owner="opponent", zone="hand", random=True)),)


def test_frenzy_lifts_the_limit_of_actions_per_turn():
    assert read_example("Frenzy") == (L.SetRule("actions_per_turn", None),)


def test_cardboard_box_lets_its_controller_draw_when_it_comes_into_play():
    assert read_example("Cardboard Box") == (
        L.When("comes_into_play", (L.Draw(who="controller", count=1, optional=True),)),)


def test_doomsday_device_destroys_all_locations_when_one_is_destroyed():
    assert read_example("Doomsday Device") == (
        L.When("destroyed", (L.Destroy(L.Cards(what="Location", count=None)),), cards=L.Cards(what="Location")),)


def test_flak_armour_is_played_onto_a_thing_and_gives_it_plus_two_to_defence_rolls():
    assert read_example("Flak Armour") == (
        L.PlayOnto(L.Cards(what="Thing")),
        L.Modify(L.Cards(what="Thing", host=True), stat="defence rolls", amount=2))


def test_short_circuit_forbids_its_host_to_use_its_actions():
    assert read_example("Short Circuit") == (
        L.PlayOnto(L.Cards(what="Thing")), L.Forbid(L.Cards(what="Thing", host=True), what="use_actions"))


def test_graverobber_is_an_action_taking_a_body_part_from_the_discard_pile():
    assert read_example("Graverobber") == (
        L.Ability((L.Take(L.Cards(what="Body Part", count=1, zone="discard_pile")),)),)


def test_vorpal_blade_is_an_action_destroying_a_monster_its_battle_cry_is_colour():
    assert read_example("Vorpal Blade") == (L.Ability((L.Destroy(L.Cards(what="Monster", count=1)),)),)


def test_big_brother_a_player_with_three_or_more_ministries_wins():
    assert read_example("Big Brother") == (
        L.If(L.Controls("any_player", (L.Counted(3, "Ministry"),)), (L.Win("that_player"),)),)


def test_lightning_strike_you_win_with_a_head_a_body_two_arms_and_two_legs():
    assert read_example("Lightning Strike") == (
        L.If(L.Controls("you", (L.Counted(1, "Head"), L.Counted(1, "Body"), L.Counted(2, "Arm"),
                                L.Counted(2, "Leg"))), (L.Win("you"),)),)


def test_the_victory_special_rule_the_first_to_control_five_laps_wins():
    reading = read_special_rule(*VICTORY)
    assert reading.understood
    assert reading.effects == (L.If(L.Controls("any_player", (L.Counted(5, "Lap"),)), (L.Win("that_player"),)),)


@requires_seeds
def test_the_victory_special_rule_is_the_rulebooks_own_text():
    rulebook = original_path("dvorak-rules-2000-2007.txt").read_text(encoding="utf-8")
    assert f"{VICTORY[0]}\nSpecial Rule\n{VICTORY[1]}" in rulebook


def test_a_blank_card_is_understood_as_having_no_effect():
    assert read_example("Reykjavik") == ()


def test_what_the_reader_cannot_read_is_reported_word_for_word():
    card = EXAMPLES["Take Off Every Zig"]
    reading = read_card(card["title"], card["type"], card["text"])
    assert not reading.understood
    assert reading.unread == ["For each Zig you control, destroy a Base."]
    mixed = read_card("Mixed", "Action", "Draw two cards. Sing a song about the sea. Gain 1 gold.")
    assert mixed.unread == ["Sing a song about the sea."]
    assert mixed.effects == (L.Draw(count=2), L.Counter("gold", 1))
    assert not mixed.understood


@pytest.mark.parametrize(("word", "value"), [
    ("a", 1), ("one", 1), ("two", 2), ("three", 3), ("five", 5), ("seven", 7), ("twelve", 12), ("twenty", 20),
    ("Three", 3), ("15", 15)])
def test_numbers_in_words(word, value):
    assert number(word) == value
    assert read_card("X", "Action", f"Draw {word} cards.").effects == (L.Draw(count=value),)


@pytest.mark.parametrize(("text", "effects"), [
    ("Hand size is three instead of five.", (L.SetRule("hand_limit", 3),)),
    ("Action: gain 1 gold.", (L.Ability((L.Counter("gold", 1),)),)),
    ("If you control three or more Ministries, you win the game.",
     (L.If(L.Controls("you", (L.Counted(3, "Ministry"),)), (L.Win("you"),)),)),
    ("May be played at any time.", (L.AnyTime(),)),
    ("Play this card out of turn.", (L.AnyTime(),)),
    ("Destroy target Thing.", (L.Destroy(L.Cards(what="Thing", count=1)),)),
    ("Until your next turn, you may play two Things each turn.",
     (L.Lasting("until_your_next_turn", (L.SetRule("things_per_turn", 2),)),)),
    ("While this is in play, each player draws two cards each turn.",
     (L.Lasting("while_in_play", (L.SetRule("draws_per_turn", 2),)),)),
    ("Draw three cards, then discard two cards at random.",
     (L.Draw(count=3), L.Discard(count=2, random=True))),
    ("Each player draws a card.", (L.Draw(who="each_player", count=1),)),
    ("Take an extra turn.", (L.ExtraTurn(),)),
    ("Skip your next turn.", (L.Skip("turn"),)),
    ("Roll two dice.", (L.Roll(dice=2, sides=6),)),
    ("Give two cards from your hand to an opponent.",
     (L.Give(L.Cards(count=2, owner="you", zone="hand"), to="opponent"),)),
    ("Reveal your hand.", (L.Reveal(who="you", count=None, to="each_player"),)),
    ("Look at an opponent's hand.", (L.Reveal(who="opponent", count=None, to="you"),)),
    ("All players discard their hands.", (L.Discard(who="each_player", count=None),)),
    ("Shuffle the discard pile into the draw pile.", (L.Shuffle(),)),
    ("Put a card from your hand on top of the draw pile.",
     (L.Move(L.Cards(count=1, owner="you", zone="hand"), to="draw_pile"),)),
    ("A player of your choice loses 5 points.", (L.Counter("points", -5, who="chosen_player"),)),
    ("+4 Electability -3 Affiliation", (L.Counter("electability", 4), L.Counter("affiliation", -3))),
    ("Your other Constants cannot be destroyed.",
     (L.Protect(L.Cards(what="Constant", count=None, owner="you", other=True)),)),
    ("When it comes into play, gain 15 points.", (L.When("comes_into_play", (L.Counter("points", 15),)),)),
    ("You lose the game.", (L.Lose("you"),)),
    ("The first player to get 200 points wins.",
     (L.If(L.Reaches("any_player", "points", 200), (L.Win("that_player"),)),)),
])
def test_common_card_text(text, effects):
    reading = read_card("Some Card", "Thing", text)
    assert reading.unread == []
    assert reading.effects == effects


def test_a_sentence_half_understood_is_left_whole_in_unread():
    reading = read_card("X", "Action", "Draw two cards and dance.")
    assert reading.effects == ()
    assert reading.unread == ["Draw two cards and dance."]


def test_reading_is_deterministic():
    text = " ".join(card["text"] for card in EXAMPLES.values())
    assert read_card("All", "Thing", text) == read_card("All", "Thing", text)


# --- Rock-Paper-Scissors Extreme's items and potions (the seed deck's own words) ---

@pytest.mark.parametrize("sign", ["Rock", "Paper", "Scissors"])
def test_a_golden_item_scores_two_points_instead_of_one_when_its_sign_wins(sign):
    reading = read_card("Golden Totem", "Item", f"If you win with {sign} and choose to score, you score 2 points "
                                                "instead of 1.")
    assert reading.unread == []
    assert reading.effects == (L.If(L.Happens("you", "win", sign), (L.Counter("points", 2, instead_of=1),)),)


@pytest.mark.parametrize("sign", ["Rock", "Paper", "Scissors"])
def test_a_ruby_item_lets_its_winner_draw_first_even_when_scoring(sign):
    reading = read_card("Ruby Totem", "Item", f"If you win with {sign}, you draw first even when you choose to score.")
    assert reading.unread == []
    assert reading.effects == (L.If(L.Happens("you", "win", sign), (L.DrawFirst("you"),)),)


def test_the_sparkly_potion_is_drunk_on_a_tie_to_count_it_as_a_win():
    reading = read_card("Sparkly Potion", "Potion",
                        "Drink when you and your opponent throw the same sign to count it as a win for you.")
    assert reading.unread == []
    assert reading.effects == (L.Ability((L.Outcome("win"),), once=True, condition=L.Happens("you", "tie")),)


def test_choosing_to_score_is_read_only_where_a_score_replaces_the_usual_one():
    # "and choose to score" is the usual score that "instead of" replaces; with no such score it is not read.
    assert not read_card("X", "Item", "If you win with Rock and choose to score, draw a card.").understood
    # The purple potions' 2 points are the winner's claim in place of the usual 1, which their words do not say:
    # left unread rather than read as 2 points more.
    purple = read_card("Murky Purple Potion", "Potion", "Drink after you win with Rock to score 2 points and draw "
                                                        "first.")
    assert not purple.understood
