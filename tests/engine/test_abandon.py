"""Abandoning a game of the ``dvorak`` ruleset (``rulesets/dvorak/abandon.py``), by the rulebook's Aftermath:

    "Once somebody has won the game, or the game has been abandoned through stalemate or boredom, any cards whose
    proposal was rejected can be reviewed and voted on again"

A game is abandoned by the agreement of every player still in it: ``abandon`` agrees, ``{"withdraw": true}`` takes
it back; the game then ends ``abandoned``, with no winner, and its Aftermath opens as after a win.
"""

from __future__ import annotations

from dvorak_engine import Actor, codec, legal_moves, replay, view_event, view_state
from dvorak_engine.rulesets.dvorak.aftermath import deck_after_game, in_the_aftermath
from dvorak_engine.rulesets.dvorak.state import FIRST_READING

from .conftest import Table
from .test_creative_rules import ARMAGEDDON, creative_table, everyone_votes, propose

AGREE, WITHDRAW = {"type": "abandon"}, {"type": "abandon", "withdraw": True}


def agreed(table: Table, viewer: int | None = None) -> list[int]:
    return view_state(table.state, viewer)["abandon"]["agreed"]


def abandon_moves(table: Table, seat: int) -> list[dict]:
    return [move for move in legal_moves(table.state, seat) if move["type"] == "abandon"]




# --- "the game has been abandoned": every player still in the game agrees -----------------------------------------


def test_abandoned_when_every_player_still_in_the_game_agrees_with_no_winner():
    table = Table(players=3).start()
    assert agreed(table) == []

    table.send(0, AGREE)
    table.send(1, AGREE)
    assert table.state.status == "active" and agreed(table, None) == [0, 1]  # the agreements are public
    table.send(1, WITHDRAW)
    assert agreed(table, 2) == [0]
    table.send(1, AGREE)
    events = table.send(2, AGREE)

    assert [event.type for event in events] == ["abandon.agreed", "game.abandoned"]
    assert table.state.status == "abandoned" and table.state.winners == ()
    view = view_state(table.state, None)
    assert view["status"] == "abandoned" and view["winners"] == [] and view["turn"] is None
    assert view["abandon"] == {"agreed": [0, 1, 2]}
    assert [view_event(event, None, None, table.state) for event in events] == [{"seat": 2}, {}]
    assert replay(table.events) == table.state


def test_abandoned_the_game_is_over_nothing_more_is_played():
    table = Table(players=2).start()
    table.send(0, AGREE)
    table.send(1, AGREE)
    seat = 0
    for command in ({"type": "draw"}, {"type": "end_turn"}, AGREE, WITHDRAW, {"type": "concede"}):
        table.refuse(seat, command, "game_not_active")
    assert legal_moves(table.state, 0) == legal_moves(table.state, 1) == []


def test_abandoned_in_team_dvorak_each_player_agrees_for_themselves():
    table = Table(players=4, variant="team", joins=[{"team": t} for t in ("Red", "Blue", "Red", "Blue")]).start()
    table.send(0, AGREE)
    table.send(1, AGREE)
    assert table.state.status == "active"  # Red's and Blue's other players have not agreed
    table.send(2, AGREE)
    table.send(3, AGREE)
    assert table.state.status == "abandoned" and table.state.winners == ()


# --- who may agree, and when ----------------------------------------------------------------------------------------


def test_abandon_withdrawing_without_having_agreed_is_refused_and_changes_nothing():
    table = Table(players=3).start()
    refused = table.refuse(1, WITHDRAW, "denied")
    assert refused.details == {"field": "withdraw", "agreed": []}
    table.send(0, AGREE)
    table.refuse(1, WITHDRAW, "denied")
    table.send(0, WITHDRAW)
    table.refuse(0, WITHDRAW, "denied")  # withdrawn already


def test_abandon_agreeing_twice_is_refused_while_others_have_not_agreed():
    table = Table(players=3).start()
    table.send(0, AGREE)
    refused = table.refuse(0, AGREE, "denied")
    assert refused.details == {"waiting_for": [1, 2]}


def test_abandon_is_for_the_players_still_in_the_game():
    table = Table(players=3).start()
    table.send(2, {"type": "concede"})
    table.refuse(2, AGREE, "eliminated")
    table.people.append(Actor(user_id=99, username="spectator"))  # not seated: a spectator
    table.refuse(3, AGREE, "forbidden")
    # The knocked-out player is not waited for: the two still in the game abandon it.
    table.send(0, AGREE)
    table.send(1, AGREE)
    assert table.state.status == "abandoned"


def test_abandon_only_while_the_game_is_played_not_before_it_starts_nor_during_a_vote():
    table = creative_table()
    before = Table(players=2, creative=True)
    before.refuse(0, AGREE, "game_not_active")  # an open game is left, not abandoned
    number = propose(table, 1, kind="card", card=ARMAGEDDON)
    table.refuse(0, AGREE, "vote_in_progress")  # "the game stops while they decide"
    everyone_votes(table, number)
    table.send(0, AGREE)
    assert agreed(table) == [0]


def test_abandon_an_agreement_stands_while_play_goes_on():
    table = Table(players=2).start()
    seat = table.state.table.turn.seat
    table.send(1 - seat, AGREE)
    table.send(seat, {"type": "draw"})
    table.arrange(turn=seat, hands={seat: []})
    table.send(seat, {"type": "end_turn"})
    assert table.state.table.turn.seat == 1 - seat and agreed(table) == [1 - seat]
    table.send(seat, AGREE)
    assert table.state.status == "abandoned"


def test_abandon_when_the_last_player_who_had_not_agreed_leaves_those_who_agreed_end_it():
    table = Table(players=3).start()
    table.send(0, AGREE)
    table.send(1, AGREE)
    table.send(2, {"type": "concede"})
    assert table.state.status == "active"  # two players still in: nobody has won
    assert abandon_moves(table, 0) == [AGREE, WITHDRAW]
    table.send(0, AGREE)
    assert table.state.status == "abandoned" and table.state.winners == ()


# --- legal moves ----------------------------------------------------------------------------------------------------


def test_abandon_legal_moves_once_somebody_agreed_the_others_may_agree_and_the_agreed_withdraw():
    table = Table(players=3).start()
    # "abandon" is listed in /moves/: every player still in the game may agree.
    assert all(abandon_moves(table, seat) == [AGREE] for seat in range(3))
    table.send(0, AGREE)
    assert abandon_moves(table, 0) == [WITHDRAW]
    assert abandon_moves(table, 1) == abandon_moves(table, 2) == [AGREE]
    assert legal_moves(table.state, None) == []
    table.send(2, {"type": "concede"})
    assert abandon_moves(table, 2) == []
    assert abandon_moves(table, 1) == [AGREE]
    table.send(1, AGREE)
    assert table.state.status == "abandoned" and legal_moves(table.state, 0) == []


# --- the Aftermath of an abandoned game -----------------------------------------------------------------------------


def test_the_aftermath_opens_after_an_abandoned_game_as_after_a_win():
    """"any cards whose proposal was rejected can be reviewed and voted on again": a card rejected during play is
    voted in after the game is abandoned, the player knocked out voting too, and the deck is ready for the
    archive."""
    table = creative_table()
    number = propose(table, 1, kind="card", card=ARMAGEDDON)
    table.send(0, {"type": "vote", "proposal": number, "approve": False})
    table.send(2, {"type": "concede"})
    table.send(0, AGREE)
    table.send(1, AGREE)
    assert table.state.status == "abandoned" and in_the_aftermath(table.state)

    number = propose(table, 0, kind="card", from_rejected=table.card("Armageddon"))
    assert table.state.status == "voting" and in_the_aftermath(table.state)
    table.send(1, {"type": "vote", "proposal": number, "approve": True})
    assert {"type": "vote", "proposal": number, "approve": True} in legal_moves(table.state, 2)
    table.send(2, {"type": "vote", "proposal": number, "approve": True})  # the whole table reviews the deck
    assert table.state.status == "abandoned" and table.state.winners == ()  # back to abandoned, not to play
    assert table.where("Armageddon") == "draw_pile"
    table.refuse(0, {"type": "draw"}, "game_not_active")
    assert "Armageddon" in {card["title"] for card in deck_after_game(table.state)["cards"]}
    assert replay(table.events) == table.state


# --- games stored before: unchanged until someone agrees -----------------------------------------------------------


def test_a_game_created_before_shows_no_agreements_until_someone_agrees():
    old = Table(players=2).as_first_reading().start()
    assert old.state.table.reading == FIRST_READING
    assert "abandon" not in view_state(old.state, 0)
    assert "agreed_to_abandon" not in codec.to_json_as_before(old.state)["table"]  # its digests as they were
    assert all(abandon_moves(old, seat) == [] for seat in range(2))  # its moves as they were listed
    old.send(1, AGREE)  # an old game stuck in a stalemate may be abandoned too
    assert view_state(old.state, 0)["abandon"] == {"agreed": [1]}
    assert codec.to_json_as_before(old.state)["table"]["agreed_to_abandon"] == [1]
    assert abandon_moves(old, 0) == [AGREE]
    old.send(0, AGREE)
    assert old.state.status == "abandoned"
