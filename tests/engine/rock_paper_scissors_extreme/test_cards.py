"""Each card of the Rock Paper Scissors Extreme deck, named and quoted as the deck gives it.

Every parameter list below quotes cards word for word; ``test_every_card_of_the_deck_is_quoted_here`` keeps the
quotes and the deck's texts the same.
"""

from __future__ import annotations

import pytest

from dvorak_engine.rulesets.rock_paper_scissors_extreme.cards import BEATS
from tests.engine.rock_paper_scissors_extreme.match import Match, deck, types

# The sign that beats each sign.
BEATEN_BY = {beaten: winner for winner, beaten in BEATS.items()}


def card(title: str, text: str, sign: str | None = None):
    return pytest.param(title, text, sign, id=title)


DIAMONDS = [
    card("Diamond Totem", "If you and your opponent both throw Rock, it is a win for you.", "rock"),
    card("Diamond Scroll", "If you and your opponent both throw Paper, it is a win for you.", "paper"),
    card("Diamond Athame", "If you and your opponent both throw Scissors, it is a win for you.", "scissors"),
]
GOLDENS = [
    card("Golden Totem", "If you win with Rock and choose to score, you score 2 points instead of 1.", "rock"),
    card("Golden Scroll", "If you win with Paper and choose to score, you score 2 points instead of 1.", "paper"),
    card("Golden Athame", "If you win with Scissors and choose to score, you score 2 points instead of 1.",
         "scissors"),
]
ONYXES = [
    card("Onyx Totem", "If you win with Rock, break one of your opponent's items.", "rock"),
    card("Onyx Scroll", "If you win with Paper, break one of your opponent's items.", "paper"),
    card("Onyx Athame", "If you win with Scissors, break one of your opponent's items.", "scissors"),
]
SILVERS = [
    card("Silver Totem", "If you throw Rock and win or tie, you get 1 free point. If you throw Rock and lose, your "
         "opponent gets 1 free point.", "rock"),
    card("Silver Scroll", "If you throw Paper and win or tie, you get 1 free point. If you throw Paper and lose, "
         "your opponent gets 1 free point.", "paper"),
    card("Silver Athame", "If you throw Scissors and win or tie, you get 1 free point. If you throw Scissors and "
         "lose, your opponent gets 1 free point.", "scissors"),
]
RUBIES = [
    card("Ruby Totem", "If you win with Rock, you draw first even when you choose to score.", "rock"),
    card("Ruby Scroll", "If you win with Paper, you draw first even when you choose to score.", "paper"),
    card("Ruby Athame", "If you win with Scissors, you draw first even when you choose to score.", "scissors"),
]
RAINBOW = card("Rainbow Potion", "Drink to simulate any non-potion item in sight.")
BLACK = card("Black Potion", "Drink to negate the effects of all non-potion items for the rest of the challenge.")
SPARKLY = card("Sparkly Potion", "Drink when you and your opponent throw the same sign to count it as a win for you.")
PURPLES = [
    card("Murky Purple Potion", "Drink after you win with Rock to score 2 points and draw first.", "rock"),
    card("Milky Purple Potion", "Drink after you win with Paper to score 2 points and draw first.", "paper"),
    card("Metallic Purple Potion", "Drink after you win with Scissors to score 2 points and draw first.", "scissors"),
]
GREENS = [
    card("Murky Green Potion", "Drink after you win with Rock to steal an item from your opponent instead of "
         "drawing normally.", "rock"),
    card("Milky Green Potion", "Drink after you win with Paper to steal an item from your opponent instead of "
         "drawing normally.", "paper"),
    card("Metallic Green Potion", "Drink after you win with Scissors to steal an item from your opponent instead "
         "of drawing normally.", "scissors"),
]
BLUES = [
    card("Murky Blue Potion", "Drink after you win with Rock to break all your opponent's items.", "rock"),
    card("Milky Blue Potion", "Drink after you win with Paper to break all your opponent's items.", "paper"),
    card("Metallic Blue Potion", "Drink after you win with Scissors to break all your opponent's items.", "scissors"),
]
REDS = [
    card("Murky Red Potion", "Drink after you win with Rock to make your opponent lose 1 point.", "rock"),
    card("Milky Red Potion", "Drink after you win with Paper to make your opponent lose 1 point.", "paper"),
    card("Metallic Red Potion", "Drink after you win with Scissors to make your opponent lose 1 point.", "scissors"),
]
ALL_CARDS = [*DIAMONDS, *GOLDENS, *ONYXES, *SILVERS, *RUBIES, RAINBOW, BLACK, SPARKLY, *PURPLES, *GREENS, *BLUES,
             *REDS]
# Center cards that change nothing in these tests (nobody holds or simulates them).
QUIET_CENTER = ["Diamond Scroll", "Ruby Athame", "Onyx Scroll"]


def other_signs(sign: str) -> list[str]:
    return [s for s in BEATS if s != sign]


def test_every_card_of_the_deck_is_quoted_here():
    quoted = {(p.values[0], p.values[1]) for p in ALL_CARDS}
    assert quoted == {(c["title"], c["text"]) for c in deck()["cards"]}


def a_match(items: dict[int, list[str]], center: list[str] | None = None, **kwargs) -> Match:
    center = center or [t for t in ["Diamond Scroll", "Ruby Athame", "Onyx Scroll", "Golden Athame", "Onyx Athame"]
                        if t not in {i for held in items.values() for i in held}][:3]
    return Match().arrange(items=items, center=center, **kwargs)


# --- Diamond -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", DIAMONDS)
def test_a_diamond_item_wins_when_both_throw_its_sign(title, text, sign):
    m = a_match({0: [title]})
    events = m.throw(sign, sign)
    assert types(events)[-2:] == ["rpsx.revealed", "rpsx.won"]
    assert m.board.throw_winner == 0 and m.board.phase == "claim"


@pytest.mark.parametrize("title, text, sign", DIAMONDS)
def test_a_diamond_item_leaves_a_tie_of_another_sign_a_tie(title, text, sign):
    m = a_match({0: [title]})
    for other in other_signs(sign):
        m.throw(other, other)
        assert m.board.throw_winner is None and m.board.phase == "throw"
    assert m.board.throw == 3


# --- Golden --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", GOLDENS)
def test_a_golden_item_scores_2_for_a_win_with_its_sign(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, BEATS[sign])
    m.claim(0, "score")
    assert m.points(0) == 2


@pytest.mark.parametrize("title, text, sign", GOLDENS)
def test_a_golden_item_adds_nothing_when_the_winner_takes_an_item(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, BEATS[sign])
    m.claim(0, "take")
    assert m.points(0) == 0 and m.waiting_for() == [0]


@pytest.mark.parametrize("title, text, sign", GOLDENS)
def test_a_golden_item_adds_nothing_to_a_win_with_another_sign(title, text, sign):
    for other in other_signs(sign):
        m = a_match({0: [title]})
        m.throw(other, BEATS[other])
        m.claim(0, "score")
        assert m.points(0) == 1


# --- Onyx ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", ONYXES)
def test_an_onyx_item_breaks_an_item_of_the_opponents_chosen_by_the_winner(title, text, sign):
    m = a_match({0: [title], 1: ["Golden Totem", "Murky Red Potion"]}, center=QUIET_CENTER)
    m.throw(sign, BEATS[sign])
    [claim] = m.moves(0)
    assert sorted(m.titles(claim["break"]["from"])) == ["Golden Totem", "Murky Red Potion"]
    m.claim(0, "take", break_="Murky Red Potion")
    assert m.items(1) == ["Golden Totem"]
    assert m.discard_pile() == ["Murky Red Potion"]


@pytest.mark.parametrize("title, text, sign", ONYXES)
def test_an_onyx_item_breaks_nothing_after_a_win_with_another_sign(title, text, sign):
    other = other_signs(sign)[0]
    m = a_match({0: [title], 1: ["Golden Totem"]}, center=QUIET_CENTER)
    m.throw(other, BEATS[other])
    assert "break" not in m.moves(0)[0]
    m.refuse(0, {"type": "claim", "choice": "take", "break": m.card("Golden Totem")}, "invalid")
    m.claim(0, "take")
    assert m.items(1) == ["Golden Totem"]


# --- Silver --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", SILVERS)
def test_a_silver_item_gives_a_free_point_for_a_win_with_its_sign(title, text, sign):
    m = a_match({0: [title]})
    events = m.throw(sign, BEATS[sign])
    assert {"type": "rpsx.scored", "data": {"seat": 0, "points": 1, "cause": m.card(title)}} in events
    assert m.points(0) == 1 and m.board.phase == "claim"
    m.claim(0, "score")
    assert m.points(0) == 2


@pytest.mark.parametrize("title, text, sign", SILVERS)
def test_a_silver_item_gives_a_free_point_for_each_tie_of_its_sign(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, sign)
    m.throw(sign, sign)
    assert m.points(0) == 2 and m.points(1) == 0 and m.board.phase == "throw"


@pytest.mark.parametrize("title, text, sign", SILVERS)
def test_a_silver_item_gives_the_opponent_a_free_point_when_its_holder_loses_with_its_sign(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, BEATEN_BY[sign])
    assert m.points(1) == 1 and m.points(0) == 0 and m.board.throw_winner == 1


@pytest.mark.parametrize("title, text, sign", SILVERS)
def test_a_silver_item_does_nothing_for_another_sign(title, text, sign):
    other = other_signs(sign)[0]
    m = a_match({0: [title]})
    m.throw(other, other)
    m.throw(other, BEATEN_BY[other])
    assert m.points(0) == m.points(1) == 0


# --- Ruby ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", RUBIES)
def test_a_ruby_item_lets_the_winner_with_its_sign_score_and_draw_first(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, BEATS[sign])
    m.claim(0, "score")
    assert m.points(0) == 1
    assert m.board.drawers == (0, 1) and m.waiting_for() == [0]


@pytest.mark.parametrize("title, text, sign", RUBIES)
def test_a_ruby_item_leaves_first_choice_to_the_opponent_after_a_win_with_another_sign(title, text, sign):
    other = other_signs(sign)[0]
    m = a_match({0: [title]})
    m.throw(other, BEATS[other])
    m.claim(0, "score")
    assert m.board.drawers == (1, 0)


# --- Rainbow, Black, Sparkly ---------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", [RAINBOW])
def test_the_rainbow_potion_simulates_an_item_in_sight(title, text, sign):
    m = a_match({0: [title], 1: ["Ruby Totem", "Black Potion"]}, center=["Golden Totem", "Sparkly Potion",
                                                                          "Onyx Scroll"])
    m.throw("rock", "scissors")
    assert m.board.window == "win"
    drink = next(move for move in m.moves(0) if move.get("potion") == m.card(title))
    # Items in sight: the opponent's and the center's, but no potion.
    assert sorted(m.titles(drink["simulate"]["from"])) == ["Golden Totem", "Onyx Scroll", "Ruby Totem"]
    m.drink(0, title, simulate="Golden Totem")
    m.pass_(1)
    m.claim(0, "score")
    # The Golden Totem simulated: 2 points, and the Ruby Totem too would have let the winner draw first.
    assert m.points(0) == 2
    assert m.discard_pile() == [title]
    assert m.center() == ["Golden Totem", "Sparkly Potion", "Onyx Scroll"]


@pytest.mark.parametrize("title, text, sign", [BLACK])
def test_the_black_potion_negates_all_items_for_the_rest_of_the_challenge(title, text, sign):
    m = a_match({0: ["Diamond Totem", "Silver Totem"], 1: [title]})
    m.throw("rock", "rock")
    assert m.board.window == "tie" and m.waiting_for() == [1]
    m.drink(1, title)
    # The Diamond Totem no longer wins the tie, and the Silver Totem scores nothing for it ...
    assert m.board.throw_winner is None and m.points(0) == 0
    # ... on the next throws of the challenge too,
    m.throw("rock", "rock")
    assert m.board.throw_winner is None and m.points(0) == 0
    m.throw("rock", "scissors")
    assert m.points(0) == 0
    m.claim(0, "take")
    m.draw(0, m.center()[0])
    m.draw(1, m.center()[0])
    # ... but not in the next challenge.
    m.throw("rock", "rock")
    assert m.board.throw_winner == 0 and m.points(0) == 1


@pytest.mark.parametrize("title, text, sign", [SPARKLY])
def test_the_sparkly_potion_wins_a_throw_of_the_same_sign(title, text, sign):
    m = a_match({1: [title]})
    m.throw("paper", "paper")
    assert m.board.window == "tie" and m.waiting_for() == [1]
    events = m.drink(1, title)
    assert types(events)[-2:] == ["rpsx.potions_revealed", "rpsx.won"]
    assert m.board.throw_winner == 1


@pytest.mark.parametrize("title, text, sign", [SPARKLY])
def test_the_sparkly_potion_cannot_be_drunk_after_different_signs(title, text, sign):
    m = a_match({1: [title, "Black Potion"]})
    m.throw("paper", "rock")
    assert m.board.window == "win"
    assert all(move.get("potion") != m.card(title) for move in m.moves(1))
    m.refuse(1, {"type": "drink", "potion": m.card(title)}, "denied")


# --- Purple, Green, Blue, Red --------------------------------------------------------------------------------


@pytest.mark.parametrize("title, text, sign", PURPLES)
def test_a_purple_potion_scores_2_and_draws_first_after_a_win_with_its_sign(title, text, sign):
    m = a_match({0: [title]})
    m.throw(sign, BEATS[sign])
    assert m.board.window == "win" and m.waiting_for() == [0]
    m.drink(0, title)
    assert m.moves(0) == [{"type": "claim", "choice": "score"}]
    m.claim(0, "score")
    assert m.points(0) == 2 and m.board.drawers == (0, 1)


@pytest.mark.parametrize("title, text, sign", PURPLES + GREENS + BLUES + REDS)
def test_a_potion_for_a_win_with_one_sign_cannot_be_drunk_after_a_win_with_another(title, text, sign):
    for other in other_signs(sign):
        m = a_match({0: [title, "Black Potion"]})
        m.throw(other, BEATS[other])
        m.refuse(0, {"type": "drink", "potion": m.card(title)}, "denied")
        assert [move.get("potion") for move in m.moves(0)] == [None, m.card("Black Potion")]


@pytest.mark.parametrize("title, text, sign", PURPLES + GREENS + BLUES + REDS)
def test_a_potion_for_a_win_cannot_be_drunk_by_the_loser(title, text, sign):
    m = a_match({0: ["Black Potion"], 1: [title]})
    m.throw(BEATEN_BY[sign], sign)
    assert m.board.throw_winner == 0 and m.waiting_for() == [0]
    m.refuse(1, {"type": "drink", "potion": m.card(title)}, "not_your_turn")


@pytest.mark.parametrize("title, text, sign", GREENS)
def test_a_green_potion_steals_an_item_instead_of_drawing(title, text, sign):
    m = a_match({0: [title], 1: ["Golden Totem", "Ruby Totem"]}, center=QUIET_CENTER)
    m.throw(sign, BEATS[sign])
    m.drink(0, title)
    [claim] = m.moves(0)
    assert claim["choice"] == "score"
    assert sorted(m.titles(claim["steal"]["from"])) == ["Golden Totem", "Ruby Totem"]
    m.claim(0, "score", steal="Golden Totem")
    assert m.items(0) == ["Golden Totem"] and m.items(1) == ["Ruby Totem"]
    # The winner draws nothing from the center: only the opponent does.
    assert m.board.drawers == (1,)
    m.draw(1, "Ruby Athame")
    assert m.items(0) == ["Golden Totem"] and m.center() == ["Diamond Scroll", "Onyx Scroll", m.center()[2]]
    assert m.board.challenge == 2


@pytest.mark.parametrize("title, text, sign", BLUES)
def test_a_blue_potion_breaks_all_the_opponents_items(title, text, sign):
    m = a_match({0: [title], 1: ["Golden Totem", "Ruby Totem", "Onyx Totem"]}, center=QUIET_CENTER)
    m.throw(sign, BEATS[sign])
    events = m.drink(0, title)
    assert m.items(1) == []
    assert {"Golden Totem", "Ruby Totem", "Onyx Totem", title} == set(m.discard_pile())
    assert "rpsx.broken" in types(events)
    # In addition to the normal choices.
    assert m.moves(0)[0]["choice"] == {"choose": 1, "from": ["take", "score"], "list": False}


@pytest.mark.parametrize("title, text, sign", REDS)
def test_a_red_potion_makes_the_opponent_lose_1_point(title, text, sign):
    m = a_match({0: [title]}, points={0: 3, 1: 5})
    m.throw(sign, BEATS[sign])
    m.drink(0, title)
    assert m.points(1) == 4
    m.claim(0, "score")
    assert m.points(0) == 4
