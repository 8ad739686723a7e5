"""The rulebook's words where the first reading of them was wrong in a way players notice: Special Rules in effect
throughout the game (and the Basic Rule numbers the server stops holding players to when it cannot read a Special
Rule that changes them), a card presented to the *other* players, the Blank Card Pile topped up, and games created
before this reading keeping the one they were created under."""

from __future__ import annotations

import pytest

from dvorak_core.rule_params import named_numbers
from dvorak_engine import DomainError, legal_moves, view_state
from dvorak_engine.rulesets.dvorak.state import FIRST_READING, READING
from tests.engine.conftest import Table, rulebook_deck

FILLER = [f"Card {n:03d} Zq{n:03d}" for n in range(20)]
ARMAGEDDON = {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}


def rule(text: str, title: str = "House Rule", rule_id: str = "r1", **more) -> dict:
    return {"id": rule_id, "title": title, "text": text, **more}


def deck_with(*rules: dict) -> dict:
    return rulebook_deck(special_rules=list(rules))


# --- Special Rules are in effect throughout the game ----------------------------------------------------------------
# "a Dvorak deck may have any number of Special Rules - these are additions or alterations to the basic Dvorak
# rules, and are in effect throughout the game. An addition might be something like ..., an alteration could be
# "Hand size is three instead of five.""


def test_an_alteration_the_server_reads_takes_effect_with_default_options():
    table = Table(players=2, deck=deck_with(rule("Hand size is seven instead of five."))).start()
    seat = table.state.table.turn.seat
    table.arrange(turn=seat, hands={seat: FILLER[:6]})
    assert view_state(table.state, seat)["rules"]["hand_limit"] == 7
    assert {"type": "end_turn"} in legal_moves(table.state, seat)
    table.send(seat, {"type": "end_turn"})  # six cards, under a hand size of seven
    assert table.state.table.turn.seat != seat


def test_a_special_rule_the_server_cannot_read_suspends_the_number_it_names_and_the_players_keep_it():
    moons = rule("Your hand limit is the number of moons in the sky tonight.")
    table = Table(players=2, deck=deck_with(moons)).start()
    seat = table.state.table.turn.seat
    assert view_state(table.state, seat)["unenforced"] == ["hand_limit"]
    assert view_state(table.state, None)["unenforced"] == ["hand_limit"]  # the table's rules are everyone's
    table.arrange(turn=seat, hands={seat: FILLER[:8]})
    assert {"type": "end_turn"} in legal_moves(table.state, seat)  # the server never enforces what it contradicts
    table.send(seat, {"type": "discard", "cards": [table.card(FILLER[0])]})  # as the rule says, one card
    table.send(seat, {"type": "end_turn"})  # seven in hand
    assert len(table.state.table.player(seat).hand) == 7


def test_a_value_set_citing_the_unread_rule_is_enforced_again():
    moons = rule("Your hand limit is the number of moons in the sky tonight.")
    table = Table(players=2, deck=deck_with(moons)).start()
    seat = table.state.table.turn.seat
    table.arrange(turn=seat, hands={seat: FILLER[:8]})
    table.send(seat, {"type": "set_rule", "cause": "r1", "param": "hand_limit", "value": 6})
    assert view_state(table.state, seat)["unenforced"] == []
    table.refuse(seat, {"type": "end_turn"}, "limit_reached")


def test_an_unread_rule_about_drawing_lets_the_player_say_how_many_they_draw():
    ministries = rule("In the draw step, draw one card for each Ministry you control.")
    table = Table(players=2, deck=deck_with(ministries)).start()
    seat = table.state.table.turn.seat
    assert view_state(table.state, seat)["unenforced"] == ["draws_per_turn"]
    before = len(table.state.table.player(seat).hand)
    table.send(seat, {"type": "draw", "count": 3})
    assert len(table.state.table.player(seat).hand) == before + 3


def test_count_is_refused_where_the_server_holds_the_number_of_draws():
    table = Table(players=2).start()
    seat = table.state.table.turn.seat
    table.refuse(seat, {"type": "draw", "count": 3}, "invalid")
    table.send(seat, {"type": "draw"})  # the Basic Rules' one card


def test_an_unread_rule_about_things_a_turn_lifts_the_limit_the_server_held():
    zigs = rule("You may play one extra Thing each turn for every Zig you control.")
    table = Table(players=2, deck=deck_with(zigs)).start()
    seat = table.state.table.turn.seat
    assert view_state(table.state, seat)["unenforced"] == ["things_per_turn"]
    things = [t for t in FILLER if not table.state.table.cards[table.card(t)].type == "Action"][:3]
    table.arrange(turn=seat, hands={seat: things})
    for title in things:
        table.send(seat, {"type": "play", "card": table.card(title)})
    assert table.in_play(seat) == things


def test_a_rule_that_only_speaks_of_a_hand_names_no_number_and_the_limits_hold():
    table = Table(players=2, deck=deck_with(rule("At any time, you may show your hand to another player."))).start()
    seat = table.state.table.turn.seat
    assert view_state(table.state, seat)["unenforced"] == []
    table.arrange(turn=seat, hands={seat: FILLER[:7]})
    table.refuse(seat, {"type": "end_turn"}, "limit_reached")


@pytest.mark.parametrize(("text", "named"), [
    ("Hand size is three instead of five.", ("hand_limit",)),  # the rulebook's own alteration
    ("Each player has an amount of Gold, which starts at zero and is affected by cards.", ()),  # its addition
    ("Players begin with no cards and can have a maximum of three.", ("hand_limit", "starting_hand")),
    ("Deal seven cards to each player.", ("starting_hand",)),
    ("Draw two cards each turn.", ("draws_per_turn",)),
    ("Players do not draw at the start of their turn.", ("draws_per_turn",)),
    ("Any number of Actions may be played each turn.", ("actions_per_turn",)),
    ("Discard your hand.", ()),
    ("One User can have up to eight Friends in play.", ()),
])
def test_the_basic_rule_numbers_a_special_rule_names(text, named):
    assert named_numbers(text) == named


def test_a_special_rule_voted_in_takes_effect_at_once_and_an_amendment_changes_what_it_sets():
    """Creative Special Rules "start taking effect immediately, if they are accepted. They can be amended and
    repealed in the same way as a card in play would be.\""""
    table = Table(players=2, creative=True).start()
    table.send(0, {"type": "propose", "kind": "special_rule",
                   "rule": {"title": "Big Hands", "text": "Hand size is seven instead of five."}})
    assert view_state(table.state, 1)["proposals"][0]["rule"]["params"] == {"hand_limit": 7}  # voted on in full
    table.send(1, {"type": "vote", "proposal": 1, "approve": True})
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 7
    rule_id = table.state.table.special_rules[-1].id
    table.send(1, {"type": "propose", "kind": "amend_rule", "rule": rule_id,
                   "changes": {"text": "Hand size is six instead of five."}})
    table.send(0, {"type": "vote", "proposal": 2, "approve": True})
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 6


# --- A new card is presented to the other players ------------------------------------------------------------------
# "After a card has been created, it is presented to the other players for their immediate judgment - the game
# stops while they decide, and each player must say whether they are in favour of the card, or against it."


def test_the_proposer_is_not_offered_a_vote_on_their_own_card_and_the_others_decide():
    table = Table(players=3, creative=True).start()
    table.send(1, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    assert not [m for m in legal_moves(table.state, 1) if m["type"] == "vote"]
    assert {"type": "withdraw", "proposal": 1} in legal_moves(table.state, 1)
    table.refuse(1, {"type": "vote", "proposal": 1, "approve": True}, "denied")
    table.send(0, {"type": "vote", "proposal": 1, "approve": True})
    assert table.state.status == "voting"
    table.send(2, {"type": "vote", "proposal": 1, "approve": True})
    assert table.state.table.proposals[0].status == "accepted"
    assert table.state.table.proposals[0].votes == {"0": True, "2": True}


def test_with_proposer_votes_the_proposer_votes_too():
    table = Table(players=2, creative=True, options={"proposer_votes": True}).start()
    table.send(0, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    assert {"type": "vote", "proposal": 1, "approve": True} in legal_moves(table.state, 0)
    table.send(0, {"type": "vote", "proposal": 1, "approve": True})
    assert table.state.table.proposals[0].status == "open"
    table.send(1, {"type": "vote", "proposal": 1, "approve": True})
    assert table.state.table.proposals[0].status == "accepted"


def test_a_creator_alone_at_the_table_judges_their_own_cards():
    """"Before a Creative game of Dvorak begins, players should create new cards": a creator waiting for the others
    is the only one who could judge them."""
    alone = Table(players=1, creative=True, deck={"slug": "new", "title": "New", "cards": []})
    alone.send(0, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    assert {"type": "vote", "proposal": 1, "approve": True} in legal_moves(alone.state, 0)
    alone.send(0, {"type": "vote", "proposal": 1, "approve": True})
    assert alone.state.table.proposals[0].status == "accepted"


def test_proposer_votes_is_true_or_false():
    with pytest.raises(DomainError) as refused:
        Table(players=2, creative=True, options={"proposer_votes": "sometimes"})
    assert refused.value.code == "invalid" and refused.value.details["field"] == "options.proposer_votes"


# --- The Blank Card Pile -------------------------------------------------------------------------------------------
# "If the Blank Card Pile ever runs empty, it can be topped up with a fresh pack of blank cards. If your immediate
# environment runs out of blank cards, or your pens run out of ink, no new cards may be created."


def test_an_empty_blank_card_pile_is_topped_up_with_a_fresh_pack_by_any_player():
    table = Table(players=2, creative=True, options={"blank_cards": 1}).start()
    assert {"type": "top_up_blank_cards"} not in legal_moves(table.state, 1)
    table.refuse(1, {"type": "top_up_blank_cards"}, "denied")  # not before it runs empty
    table.send(0, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    table.send(1, {"type": "vote", "proposal": 1, "approve": True})
    assert view_state(table.state, 1)["blank_cards"] == 0
    table.refuse(1, {"type": "propose", "kind": "card", "card": ARMAGEDDON}, "limit_reached")
    assert {"type": "top_up_blank_cards"} in legal_moves(table.state, 1)
    table.send(1, {"type": "top_up_blank_cards"})
    assert view_state(table.state, 0)["blank_cards"] == 1  # a pack as large as the game's first
    table.send(1, {"type": "propose", "kind": "card", "card": ARMAGEDDON})


def test_with_by_card_only_a_card_or_rule_that_says_so_tops_it_up():
    blanks = rule("Whenever the Blank Card Pile is empty, add ten blank cards to it.")
    table = Table(players=2, creative=True, deck=deck_with(blanks),
                  options={"blank_cards": 0, "blank_cards_top_up": "by_card"}).start()
    assert {"type": "top_up_blank_cards"} not in legal_moves(table.state, 0)
    table.refuse(0, {"type": "top_up_blank_cards"}, "denied")
    table.send(0, {"type": "top_up_blank_cards", "cause": "r1", "count": 10})
    assert view_state(table.state, 1)["blank_cards"] == 10


def test_a_cause_that_says_nothing_of_blank_cards_tops_nothing_up():
    table = Table(players=2, creative=True, deck=deck_with(rule("Hand size is seven instead of five.")),
                  options={"blank_cards": 0}).start()
    table.refuse(0, {"type": "top_up_blank_cards", "cause": "r1", "count": 5}, "denied")
    table.refuse(0, {"type": "top_up_blank_cards", "count": 5}, "invalid")  # a fresh pack is the game's size
    table.refuse(0, {"type": "top_up_blank_cards", "cause": "r1"}, "invalid")  # a card says how many


def test_a_game_that_is_not_creative_has_no_blank_card_pile():
    Table(players=2).start().refuse(0, {"type": "top_up_blank_cards"}, "denied")
    with pytest.raises(DomainError):
        Table(players=2, creative=True, options={"blank_cards_top_up": "whenever"})


# --- A game keeps the reading it was created under ----------------------------------------------------------------




def test_a_game_created_before_keeps_its_reading():
    new = Table(players=3, creative=True, deck=deck_with(rule("Your hand limit is the number of moons.")))
    assert new.state.table.reading == READING and new.events[0].data["reading"] == READING
    old = new.as_first_reading().start()
    assert old.state.table.reading == FIRST_READING
    assert "unenforced" not in view_state(old.state, 0)
    seat = old.state.table.turn.seat
    old.arrange(turn=seat, hands={seat: FILLER[:7]})
    old.refuse(seat, {"type": "end_turn"}, "limit_reached")  # the Basic Rules' five, as it was played
    old.send(seat, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    assert {"type": "vote", "proposal": 1, "approve": True} in legal_moves(old.state, seat)  # its author voted
