"""The Special Rules of the Rock Paper Scissors Extreme deck, step by step, each test quoting the rule it checks."""

from __future__ import annotations

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine.rng import SeededRng
from dvorak_engine.rulesets import rock_paper_scissors_extreme as rpsx
from tests.engine.rock_paper_scissors_extreme.match import Match, deck, types

# --- setting up ----------------------------------------------------------------------------------------------


def test_three_cards_face_up_in_the_center_and_players_begin_with_none():
    """Shuffle the cards and place three face up in the center. Players begin with no cards"""
    m = Match()
    assert len(m.board.center) == 3
    assert m.items(0) == m.items(1) == [] and m.points(0) == m.points(1) == 0
    assert len(m.board.supply) == 27 and m.board.discard_pile == ()
    assert sorted(c.title for c in m.board.cards.values()) == sorted(c["title"] for c in deck()["cards"])
    assert m.board.phase == "throw" and m.waiting_for() == [0, 1]


def test_the_cards_are_shuffled():
    """Shuffle the cards"""
    matches = [Match(seed) for seed in range(5)]
    orders = {tuple(m.titles(m.board.supply) + m.center()) for m in matches}
    assert len(orders) == 5


def test_what_each_card_does_is_read_from_the_deck():
    """The deck, not the code, says what a card does: a Diamond Totem whose text names Paper wins ties of Paper."""
    cards = [{**c, "text": "If you and your opponent both throw Paper, it is a win for you."}
             if c["title"] == "Diamond Totem" else c for c in deck()["cards"]]
    m = Match(cards=cards).arrange(items={0: ["Diamond Totem"]})
    m.throw("rock", "rock")
    assert m.board.throw_winner is None
    m.throw("paper", "paper")
    assert m.board.throw_winner == 0


def test_a_deck_with_a_card_these_rules_cannot_read_is_refused_with_its_title():
    cards = deck()["cards"] + [{"title": "Plastic Spoon", "type": "Thing", "text": "Stir.", "copies": 1}]
    with pytest.raises(DomainError) as refused:
        rpsx.setup(cards, [0, 1], SeededRng(1))
    assert refused.value.code == "denied" and refused.value.details == {"cards": ["Plastic Spoon"]}


def test_a_deck_of_fewer_than_three_cards_is_refused():
    with pytest.raises(DomainError) as refused:
        rpsx.setup(deck()["cards"][:2], [0, 1], SeededRng(1))
    assert refused.value.code == "not_enough_cards"


@pytest.mark.parametrize("seats, code", [([0], "not_enough_players"), ([0, 1, 2], "limit_reached"),
                                         ([1, 1], "invalid")])
def test_the_game_is_for_two_players(seats, code):
    """Players 2"""
    with pytest.raises(DomainError) as refused:
        rpsx.setup(deck()["cards"], seats, SeededRng(1))
    assert refused.value.code == code


# --- 1. the throw --------------------------------------------------------------------------------------------


def test_the_players_throw_simultaneously():
    """1. The players simultaneously decide to throw Rock, Paper, or Scissors."""
    m = Match()
    assert m.moves(0) == m.moves(1) == [
        {"type": "throw", "sign": {"choose": 1, "from": ["rock", "paper", "scissors"], "list": False}}]
    assert types(m.send(1, {"type": "throw", "sign": "paper"})) == ["rpsx.thrown"]
    assert m.waiting_for() == [0] and m.moves(1) == []
    m.refuse(1, {"type": "throw", "sign": "rock"}, "not_your_turn")
    events = m.send(0, {"type": "throw", "sign": "rock"})
    assert types(events)[:2] == ["rpsx.thrown", "rpsx.revealed"]
    assert events[1]["data"] == {"throws": [{"seat": 0, "sign": "rock"}, {"seat": 1, "sign": "paper"}]}


@pytest.mark.parametrize("sign", ["Rock", "lizard", None, ["rock"]])
def test_a_throw_is_rock_paper_or_scissors(sign):
    """1. The players simultaneously decide to throw Rock, Paper, or Scissors."""
    Match().refuse(0, {"type": "throw", "sign": sign}, "invalid")


def test_the_same_sign_is_thrown_again():
    """If both players throw the same sign, they throw again, until there is a decided winner."""
    m = Match().arrange(items={0: [], 1: []})
    events = m.throw("scissors", "scissors")
    assert types(events)[-1] == "rpsx.tied"
    assert m.board.phase == "throw" and m.board.throw == 2 and m.waiting_for() == [0, 1]
    m.throw("scissors", "paper")
    assert m.board.throw_winner == 0 and m.board.challenge == 1


@pytest.mark.parametrize("winning, losing", [("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")])
def test_rock_breaks_scissors_scissors_cut_paper_paper_covers_rock(winning, losing):
    """Rock breaks Scissors, Scissors cut Paper, Paper covers Rock."""
    for seat, signs in ((0, (winning, losing)), (1, (losing, winning))):
        m = Match()
        events = m.throw(*signs)
        assert events[-1] == {"type": "rpsx.won", "data": {"seat": seat, "sign": winning}}


# --- 2. potions ----------------------------------------------------------------------------------------------


def test_items_work_by_themselves_and_nobody_without_a_potion_is_asked():
    """2. ... Totems, scrolls, and athames automatically have their effect (whenever the conditions on the card are
    met)."""
    m = Match().arrange(items={0: ["Diamond Totem", "Silver Totem"], 1: ["Golden Scroll"]})
    events = m.throw("rock", "rock")
    assert "rpsx.window_opened" not in types(events)
    assert m.board.throw_winner == 0 and m.points(0) == 1


def test_a_player_may_drink_a_potion_after_a_throw_or_pass():
    """2. After a throw, a player may discard a potion (if appropriate) for a one-time effect."""
    m = Match().arrange(items={0: ["Murky Purple Potion"], 1: ["Black Potion"]})
    m.throw("rock", "scissors")
    assert m.board.window == "win" and m.waiting_for() == [0, 1]
    assert m.moves(1) == [{"type": "pass"}, {"type": "drink", "potion": m.card("Black Potion")}]
    m.pass_(1)
    m.pass_(0)
    assert m.items(0) == ["Murky Purple Potion"] and m.items(1) == ["Black Potion"]
    assert m.board.phase == "claim"


def test_one_potion_a_throw():
    """2. After a throw, a player may discard a potion (if appropriate) for a one-time effect: one, so the sparkly
    potion's drinker is not asked again after winning that throw."""
    m = Match().arrange(items={0: ["Sparkly Potion", "Milky Purple Potion"], 1: ["Black Potion"]})
    m.throw("paper", "paper")
    m.drink(0, "Sparkly Potion")
    m.pass_(1)
    assert m.board.throw_winner == 0 and m.board.window == "win" and m.waiting_for() == [1]
    m.refuse(0, {"type": "drink", "potion": m.card("Milky Purple Potion")}, "not_your_turn")


def test_a_potion_must_be_held_to_be_drunk():
    m = Match().arrange(items={0: ["Black Potion"], 1: ["Sparkly Potion"]})
    m.throw("rock", "rock")
    m.refuse(0, {"type": "drink", "potion": m.card("Sparkly Potion")}, "card_not_in_hand")
    m.refuse(0, {"type": "drink", "potion": 7}, "invalid")  # not a card id at all: a malformed body
    m.refuse(0, {"type": "drink", "potion": m.card("Black Potion"), "simulate": m.card("Sparkly Potion")}, "invalid")


# --- 3. the winner's choice ----------------------------------------------------------------------------------


def test_the_winner_who_takes_an_item_draws_first():
    """3. The winner either takes an item from the center ... The other player then draws a card from the two
    remaining."""
    m = Match().arrange(center=["Golden Totem", "Ruby Scroll", "Onyx Athame"])
    m.throw("paper", "rock")
    assert m.moves(0) == [{"type": "claim", "choice": {"choose": 1, "from": ["take", "score"], "list": False}}]
    m.claim(0, "take")
    assert m.points(0) == 0 and m.waiting_for() == [0]
    m.refuse(1, {"type": "draw", "card": m.card("Golden Totem")}, "not_your_turn")
    m.draw(0, "Golden Totem")
    assert sorted(m.titles(m.moves(1)[0]["card"]["from"])) == ["Onyx Athame", "Ruby Scroll"]
    m.draw(1, "Onyx Athame")
    assert m.items(0) == ["Golden Totem"] and m.items(1) == ["Onyx Athame"]


def test_the_winner_who_scores_gets_a_point_and_draws_second():
    """3. The winner either takes an item from the center or scores 1 point and allows the opponent first choice.
    The other player then draws a card from the two remaining."""
    m = Match().arrange(center=["Golden Totem", "Ruby Scroll", "Onyx Athame"])
    m.throw("paper", "rock")
    m.claim(0, "score")
    assert m.points(0) == 1 and m.waiting_for() == [1]
    m.draw(1, "Golden Totem")
    m.draw(0, "Ruby Scroll")
    assert m.items(1) == ["Golden Totem"] and m.items(0) == ["Ruby Scroll"]


def test_only_the_winner_claims_and_only_as_offered():
    m = Match()
    m.throw("paper", "rock")
    m.refuse(1, {"type": "claim", "choice": "score"}, "not_your_turn")
    m.refuse(0, {"type": "claim", "choice": "both"}, "invalid")
    m.refuse(0, {"type": "claim", "choice": "score", "steal": m.board.center[0]}, "invalid")
    m.refuse(0, {"type": "throw", "sign": "rock"}, "wrong_stage")
    m.refuse(0, {"type": "draw", "card": m.board.center[0]}, "wrong_stage")
    m.refuse(0, {"type": "pass"}, "wrong_stage")


def test_a_draw_is_a_card_of_the_center():
    m = Match()
    m.throw("paper", "rock")
    m.claim(0, "take")
    m.refuse(0, {"type": "draw", "card": m.board.supply[0]}, "invalid")
    m.refuse(0, {"type": "draw"}, "invalid")


def test_above_three_items_a_player_discards_one_but_not_the_card_just_drawn():
    """If either player now has more than three cards, he or she must discard one (but not the card he or she just
    drew)."""
    m = Match().arrange(items={0: ["Golden Totem", "Ruby Totem", "Onyx Totem"],
                               1: ["Golden Scroll", "Ruby Scroll", "Onyx Scroll"]},
                        center=["Diamond Totem", "Diamond Scroll", "Diamond Athame"])
    m.throw("scissors", "paper")
    m.claim(0, "take")
    m.draw(0, "Diamond Totem")
    m.draw(1, "Diamond Athame")
    assert m.board.phase == "discard" and m.waiting_for() == [0, 1]
    assert sorted(m.titles(m.moves(0)[0]["cards"]["from"])) == ["Golden Totem", "Onyx Totem", "Ruby Totem"]
    refused = m.refuse(0, {"type": "discard", "cards": [m.card("Diamond Totem")]}, "denied")
    assert "just drew" in refused.message
    m.refuse(0, {"type": "discard", "cards": [m.card("Golden Scroll")]}, "card_not_in_hand")
    m.discard(1, "Onyx Scroll")
    assert m.waiting_for() == [0] and m.board.challenge == 1
    m.refuse(1, {"type": "discard", "cards": [m.card("Ruby Scroll")]}, "not_your_turn")
    m.discard(0, "Onyx Totem")
    assert m.discard_pile()[-2:] == ["Onyx Scroll", "Onyx Totem"]
    assert len(m.items(0)) == len(m.items(1)) == 3 and m.board.challenge == 2


# --- 4. the center and the supply ----------------------------------------------------------------------------


def test_the_center_is_dealt_back_to_three_from_the_supply():
    """4. Deal cards from the supply so that there are once again three face up cards in the center."""
    m = Match().arrange(center=["Golden Totem", "Ruby Scroll", "Onyx Athame"])
    top_two = m.titles(m.board.supply[:2])
    m.throw("paper", "rock")
    m.claim(0, "take")
    m.draw(0, "Golden Totem")
    events = m.draw(1, "Onyx Athame")
    assert m.center() == ["Ruby Scroll", *top_two]
    assert types(events)[-2:] == ["rpsx.dealt", "rpsx.challenge_started"]


def test_an_empty_supply_is_made_again_from_the_discard_pile():
    """If at any moment the supply is empty, reshuffle the discard pile into a new supply."""
    m = Match().arrange(center=["Golden Totem", "Ruby Scroll", "Onyx Athame"], supply=["Diamond Totem"],
                        discard_pile=["Silver Totem", "Silver Scroll", "Silver Athame"])
    m.throw("paper", "rock")
    m.claim(0, "take")
    m.draw(0, "Golden Totem")
    events = m.draw(1, "Onyx Athame")
    assert types(events)[-4:] == ["rpsx.dealt", "rpsx.reshuffled", "rpsx.dealt", "rpsx.challenge_started"]
    assert m.center()[:2] == ["Ruby Scroll", "Diamond Totem"]
    assert m.center()[2].startswith("Silver") and len(m.board.supply) == 2 and m.board.discard_pile == ()


def test_a_card_discarded_while_the_supply_is_empty_is_reshuffled_at_once():
    """If at any moment the supply is empty, reshuffle the discard pile into a new supply."""
    m = Match().arrange(items={0: ["Black Potion"]}, center=["Golden Totem", "Ruby Scroll", "Onyx Athame"],
                        supply=[], discard_pile=[])
    m.throw("rock", "rock")
    events = m.drink(0, "Black Potion")
    assert types(events)[-1] == "rpsx.reshuffled"
    assert m.titles(m.board.supply) == ["Black Potion"] and m.board.discard_pile == ()


def test_with_the_center_empty_the_winner_can_only_score_and_nobody_draws():
    m = Match().arrange(center=[], supply=[], discard_pile=[])
    m.throw("paper", "rock")
    assert m.moves(0) == [{"type": "claim", "choice": "score"}]
    events = m.claim(0, "score")
    assert "rpsx.drew" not in types(events) and m.board.challenge == 2 and m.points(0) == 1


# --- the end -------------------------------------------------------------------------------------------------


def test_a_player_who_scores_21_wins():
    """... until one player wins by scoring 21 (or more) points."""
    m = Match().arrange(items={0: ["Golden Totem"]}, points={0: 20, 1: 20})
    m.throw("rock", "scissors")
    events = m.claim(0, "score")
    assert events[-1] == {"type": "rpsx.finished", "data": {"winners": [0]}}
    assert m.points(0) == 22 and rpsx.winners(m.board) == [0]
    assert m.moves(0) == m.moves(1) == [] and m.waiting_for() == []
    m.refuse(1, {"type": "throw", "sign": "rock"}, "game_not_active")


def test_a_silver_point_can_end_the_game_in_the_middle_of_a_challenge():
    """... until one player wins by scoring 21 (or more) points."""
    m = Match().arrange(items={1: ["Silver Scroll"]}, points={1: 20})
    events = m.throw("paper", "paper")
    assert types(events)[-2:] == ["rpsx.scored", "rpsx.finished"] and rpsx.winners(m.board) == [1]


def test_two_players_reaching_21_together_share_the_win():
    """... until one player wins by scoring 21 (or more) points: both at once, level, both win."""
    m = Match().arrange(items={0: ["Silver Totem"], 1: ["Rainbow Potion"]}, points={0: 20, 1: 20})
    m.throw("rock", "rock")
    m.drink(1, "Rainbow Potion", simulate="Silver Totem")
    assert rpsx.winners(m.board) == [0, 1]


def test_commands_the_game_does_not_know_are_refused():
    m = Match()
    m.refuse(0, {"type": "draw_card"}, "unknown_command")
    m.refuse(0, {"sign": "rock"}, "invalid")
    m.refuse(2, {"type": "throw", "sign": "rock"}, "forbidden")
