"""The Notes of the Rock Paper Scissors Extreme deck, each quoted in the docstring of its tests."""

from __future__ import annotations

import inspect
import re
import sys
from dataclasses import replace

from tests.engine.rock_paper_scissors_extreme.match import Match, deck, notes, types


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_note_of_the_deck_is_quoted_by_a_test():
    module = sys.modules[__name__]
    docstrings = [_words(inspect.getdoc(test) or "") for name, test in inspect.getmembers(module, inspect.isfunction)
                  if name.startswith("test_") and test is not test_every_note_of_the_deck_is_quoted_by_a_test]
    missing = [note for note in notes() if not any(_words(note) in doc for doc in docstrings)]
    assert len(notes()) == 9
    assert missing == []


def test_a_diamond_item_against_a_sparkly_potion_is_a_tie():
    """If both players throw the same sign and both try to claim a win (if one has a relevant diamond item and the
    other drinks a rainbow or sparkly potion), then it is treated as a tie."""
    m = Match().arrange(items={0: ["Diamond Scroll"], 1: ["Sparkly Potion"]})
    m.throw("paper", "paper")
    events = m.drink(1, "Sparkly Potion")
    assert types(events)[-2:] == ["rpsx.potions_revealed", "rpsx.tied"]
    assert m.board.throw_winner is None and m.board.throw == 2


def test_a_diamond_item_against_a_rainbow_potion_simulating_it_is_a_tie():
    """If both players throw the same sign and both try to claim a win (if one has a relevant diamond item and the
    other drinks a rainbow or sparkly potion), then it is treated as a tie."""
    m = Match().arrange(items={0: ["Diamond Athame"], 1: ["Rainbow Potion"]})
    m.throw("scissors", "scissors")
    m.drink(1, "Rainbow Potion", simulate="Diamond Athame")
    assert m.board.throw_winner is None and m.board.phase == "throw"


def test_a_rainbow_potion_simulating_a_diamond_item_wins_a_tie_alone():
    """If both players throw the same sign and both try to claim a win (if one has a relevant diamond item and the
    other drinks a rainbow or sparkly potion), then it is treated as a tie: but one claim alone wins."""
    m = Match().arrange(items={1: ["Rainbow Potion"]}, center=["Diamond Totem", "Golden Scroll", "Ruby Scroll"])
    m.throw("rock", "rock")
    m.drink(1, "Rainbow Potion", simulate="Diamond Totem")
    assert m.board.throw_winner == 1


def test_broken_items_and_drunk_potions_share_the_discard_pile():
    """"Broken" items and "drunk" potions both go to the same discard pile."""
    m = Match().arrange(items={0: ["Onyx Totem", "Murky Red Potion"], 1: ["Golden Scroll", "Ruby Scroll"]},
                        points={1: 2}, discard_pile=[])
    m.throw("rock", "scissors")
    m.drink(0, "Murky Red Potion")
    m.claim(0, "score", break_="Ruby Scroll")
    assert m.discard_pile() == ["Murky Red Potion", "Ruby Scroll"]


def test_a_rainbow_potion_simulates_only_the_opponents_items_and_the_centers():
    """A rainbow potion can simulate any totem, scroll, or athame which is in your opponent's inventory or
    face-up in the center. You cannot simulate an item you already have in order to double its effects."""
    m = Match().arrange(items={0: ["Rainbow Potion", "Silver Totem"], 1: ["Golden Totem", "Black Potion"]},
                        center=["Ruby Totem", "Sparkly Potion", "Onyx Athame"], discard_pile=["Diamond Totem"])
    m.throw("rock", "scissors")
    [targets] = [move["simulate"]["from"] for move in m.moves(0) if "simulate" in move]
    assert sorted(m.titles(targets)) == ["Golden Totem", "Onyx Athame", "Ruby Totem"]
    for out_of_reach in ["Silver Totem", "Diamond Totem", "Sparkly Potion", "Black Potion"]:
        m.refuse(0, {"type": "drink", "potion": m.card("Rainbow Potion"), "simulate": m.card(out_of_reach)},
                 "invalid")
    m.refuse(0, {"type": "drink", "potion": m.card("Rainbow Potion")}, "invalid")


def test_a_rainbow_potion_cannot_simulate_a_copy_of_an_item_already_held():
    """A rainbow potion can simulate any totem, scroll, or athame which is in your opponent's inventory or
    face-up in the center. You cannot simulate an item you already have in order to double its effects."""
    cards = [{**card, "copies": 2} if card["title"] == "Golden Totem" else card for card in deck()["cards"]]
    m = Match(cards=cards)
    golden = [c for c in m.board.cards.values() if c.title == "Golden Totem"]
    board = m.arrange(items={0: ["Rainbow Potion"]}, center=["Ruby Totem", "Onyx Athame", "Diamond Scroll"]).board
    # One copy in seat 0's items, the other in the center.
    m.board = replace(board, players=(replace(board.player(0), items=board.player(0).items + (golden[0].id,)),
                                      board.player(1)),
                      center=(golden[1].id,) + board.center[1:],
                      supply=tuple(c for c in board.supply if c not in {golden[0].id, golden[1].id}))
    m.throw("rock", "scissors")
    [targets] = [move["simulate"]["from"] for move in m.moves(0) if "simulate" in move]
    assert golden[1].id not in targets
    m.refuse(0, {"type": "drink", "potion": m.card("Rainbow Potion"), "simulate": golden[1].id}, "invalid")
    # Two copies do not double the effect either: still 2 points, not 3.
    m.pass_(0)
    m.claim(0, "score")
    assert m.points(0) == 2


def test_the_effects_of_several_relevant_items_combine():
    """If you win and have more than one relevant totem/scroll/athame, the effects combine."""
    m = Match().arrange(items={0: ["Golden Athame", "Ruby Athame", "Onyx Athame"], 1: ["Diamond Totem"]},
                        center=["Silver Scroll", "Golden Scroll", "Ruby Scroll"])
    m.throw("scissors", "paper")
    m.claim(0, "score", break_="Diamond Totem")
    assert m.points(0) == 2
    assert m.items(1) == [] and m.discard_pile()[-1:] == ["Diamond Totem"]
    assert m.board.drawers == (0, 1)


def test_a_rainbow_potion_adds_to_the_items_held():
    """If you win and have more than one relevant totem/scroll/athame, the effects combine: a simulated one too."""
    m = Match().arrange(items={0: ["Rainbow Potion", "Ruby Scroll"]},
                        center=["Golden Scroll", "Silver Scroll", "Onyx Totem"])
    m.throw("paper", "rock")
    m.drink(0, "Rainbow Potion", simulate="Golden Scroll")
    m.claim(0, "score")
    assert m.points(0) == 2 and m.board.drawers == (0, 1)


def test_a_green_potion_preempts_onyx_and_ruby_items():
    """Drinking a green potion preempts onyx and ruby items."""
    m = Match().arrange(items={0: ["Onyx Totem", "Ruby Totem", "Murky Green Potion"],
                               1: ["Golden Scroll", "Diamond Scroll"]},
                        center=["Silver Athame", "Golden Athame", "Onyx Scroll"])
    m.throw("rock", "scissors")
    m.drink(0, "Murky Green Potion")
    [claim] = m.moves(0)
    assert "break" not in claim
    m.refuse(0, {"type": "claim", "choice": "score", "steal": m.card("Golden Scroll"),
                 "break": m.card("Diamond Scroll")}, "invalid")
    m.claim(0, "score", steal="Golden Scroll")
    assert m.items(1) == ["Diamond Scroll"] and m.board.drawers == (1,)


def test_a_green_potion_with_nothing_left_to_steal_still_preempts_ruby():
    """Drinking a green potion preempts onyx and ruby items: even when the opponent drank its last item."""
    m = Match().arrange(items={0: ["Ruby Totem", "Murky Green Potion"], 1: ["Black Potion"]},
                        center=["Silver Athame", "Golden Athame", "Onyx Scroll"])
    m.throw("rock", "scissors")
    m.drink(0, "Murky Green Potion")
    m.drink(1, "Black Potion")
    assert m.items(1) == []
    [claim] = m.moves(0)
    assert "steal" not in claim and claim["choice"]["from"] == ["take", "score"]
    m.claim(0, "score")
    assert m.board.drawers == (1, 0)


def test_breaking_happens_before_drawing_from_the_center():
    """Breaking and stealing items happens _before_ drawing cards from the center."""
    m = Match().arrange(items={0: ["Onyx Scroll"],
                               1: ["Golden Totem", "Ruby Totem", "Silver Athame"]},
                        center=["Diamond Totem", "Golden Athame", "Ruby Athame"])
    m.throw("paper", "rock")
    events = m.claim(0, "take", break_="Ruby Totem")
    events += m.draw(0, "Diamond Totem")
    events += m.draw(1, "Golden Athame")
    assert types(events).index("rpsx.broken") < types(events).index("rpsx.drew")
    # Three items after the draw, not four: nothing to discard, the next challenge has begun.
    assert sorted(m.items(1)) == ["Golden Athame", "Golden Totem", "Silver Athame"]
    assert m.board.challenge == 2 and m.board.phase == "throw"


def test_stealing_happens_before_drawing_from_the_center():
    """Breaking and stealing items happens _before_ drawing cards from the center."""
    m = Match().arrange(items={0: ["Milky Green Potion"], 1: ["Golden Totem", "Ruby Totem", "Silver Athame"]},
                        center=["Diamond Totem", "Golden Athame", "Ruby Athame"])
    m.throw("paper", "rock")
    m.drink(0, "Milky Green Potion")
    events = m.claim(0, "score", steal="Silver Athame") + m.draw(1, "Diamond Totem")
    assert types(events).index("rpsx.stolen") < types(events).index("rpsx.drew")
    assert sorted(m.items(1)) == ["Diamond Totem", "Golden Totem", "Ruby Totem"]
    assert m.items(0) == ["Silver Athame"] and m.board.challenge == 2


def test_a_black_potion_lasts_from_its_throw_to_the_next_decisive_throw():
    """Drinking a black potion nullifies all effects for all the throws in a single challenge, starting with the
    throw when it is drunk and ending after the next decisive throw. It does not retroactively prevent scoring
    from silver items on previous throws."""
    m = Match().arrange(items={0: ["Silver Totem", "Golden Totem"], 1: ["Black Potion"]},
                        center=["Diamond Scroll", "Ruby Athame", "Onyx Scroll"])
    m.throw("rock", "rock")
    m.pass_(1)
    assert m.points(0) == 1  # the first tie, before the black potion
    m.throw("rock", "rock")
    m.drink(1, "Black Potion")
    assert m.points(0) == 1  # the throw it is drunk on
    m.throw("rock", "rock")
    assert m.points(0) == 1  # a later throw of the challenge
    m.throw("rock", "scissors")
    m.claim(0, "score")
    assert m.points(0) == 2  # the decisive throw: no silver point, and 1 point, not the golden 2
    m.draw(1, "Diamond Scroll")
    m.draw(0, "Ruby Athame")
    m.throw("rock", "scissors")
    m.claim(0, "score")
    assert m.points(0) == 2 + 1 + 2  # the next challenge: silver and golden again


def test_a_black_potion_nullifies_a_rainbow_potion():
    """Drinking a black potion does nullify the effect of a rainbow potion."""
    m = Match().arrange(items={0: ["Rainbow Potion"], 1: ["Black Potion"]},
                        center=["Golden Totem", "Ruby Athame", "Onyx Scroll"])
    m.throw("rock", "scissors")
    assert m.waiting_for() == [0, 1]
    m.drink(0, "Rainbow Potion", simulate="Golden Totem")
    m.drink(1, "Black Potion")
    m.claim(0, "score")
    assert m.points(0) == 1


def test_a_black_potion_nullifies_a_rainbow_potion_simulating_a_diamond():
    """Drinking a black potion does nullify the effect of a rainbow potion: the simulated diamond wins nothing."""
    m = Match().arrange(items={0: ["Rainbow Potion"], 1: ["Black Potion"]},
                        center=["Diamond Totem", "Ruby Athame", "Onyx Scroll"])
    m.throw("rock", "rock")
    m.drink(0, "Rainbow Potion", simulate="Diamond Totem")
    m.drink(1, "Black Potion")
    assert m.board.throw_winner is None and m.board.phase == "throw"


def test_a_red_potion_cannot_decrease_a_score_below_zero():
    """A red potion cannot decrease anyone's score below zero."""
    m = Match().arrange(items={0: ["Metallic Red Potion"]})
    m.throw("scissors", "paper")
    events = m.drink(0, "Metallic Red Potion")
    assert m.points(1) == 0
    assert not any(e["type"] == "rpsx.scored" and e["data"]["seat"] == 1 for e in events)
