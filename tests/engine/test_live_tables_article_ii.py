"""Article II at a live table (issue 34): the clock waits on the one player who must act (the player whose turn it
is, a Great Debater offered a reply, a Voter ADHD's player naming its card); a player out of time is out of the
election, their turn, reply or removal settled and later turns skipping them, or, with one player left, that player
wins; an undo never goes back across a card drawn; two computer players play an election to its end; the greedy one
plays for its own lead.

The live-table harness (``LiveTable``, ``History``, ``play_bots``...) is the one the other rulesets' tests share
(``tests.engine.test_live_tables_drake``).
"""

from __future__ import annotations

import random

import pytest

from dvorak_engine import SeededRng, bots, view_state
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.article_ii import acting_seat
from dvorak_engine.rulesets.article_ii.cards import effect_of
from tests.engine.test_article_ii import CARDS, DECK, DealtAsListed, Game
from tests.engine.test_legal_moves import filled
from tests.engine.test_live_tables_drake import (
    PER_MOVE,
    START,
    LiveTable,
    check_clock_follows,
    nothing_listed,
    play_bots,
)

RULES = get_ruleset("article_ii")


def election(players: int = 2, seed: int = 1, **kwargs) -> LiveTable:
    return LiveTable("article_ii", DECK, players, seed=seed, **kwargs)


class DealtTable(LiveTable):
    """A clocked election whose players are dealt exactly these hands (of equal size), seat 0 first, as
    ``tests.engine.test_article_ii.dealt`` deals them. The clock starts with the first command sent."""

    def __init__(self, hands: list[list[str]], draw_pile: tuple[str, ...] = ()) -> None:
        size = len(hands[0])
        deal_order = [hands[seat][round_] for round_ in range(size) for seat in range(len(hands))]
        titles = list(reversed(draw_pile)) + list(reversed(deal_order))
        deck = {**DECK, "cards": [{**CARDS[title], "copies": 1} for title in titles]}
        game = Game(len(hands), deck, DealtAsListed(),
                    options={"starting_hand": size, "clock": {"per_move": PER_MOVE}})
        self.ruleset, self.rules, self.rng, self.now = "article_ii", RULES, game.rng, START
        self.people, self.events, self.state = game.actors, list(game.events), game.state

    def card(self, seat: int, title: str) -> str:
        return next(c for c in self.state.table.player(seat).hand if self.state.table.cards[c].title == title)

    def play(self, seat: int, title: str, target: int, **fields) -> list:
        return self.send(seat, {"type": "play", "card": self.card(seat, title), "target": target, **fields}, after=1)


def random_move(live: LiveTable, chooser: random.Random) -> list:
    """A listed move of the seat that must act, one second after the last command."""
    seat = acting_seat(live.state)
    return live.send(seat, filled(chooser.choice(live.playable(seat)), chooser), after=1)


# --- the clock -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_clock_waits_on_the_player_who_must_act_from_the_first_card_to_the_president(players):
    live = election(players, seed=players)
    chooser = random.Random(players)
    first = acting_seat(live.state)
    assert live.awaited == (first,) and live.deadlines == {first: START + PER_MOVE}
    for _ in range(300):
        random_move(live, chooser)
        if live.state.status != "active":
            break
        check_clock_follows(live)
        # Whoever acts next (the next player, or the same one for an Insider's second card) decides afresh.
        mover = acting_seat(live.state)
        assert live.awaited == (mover,) and live.deadlines == {mover: live.now + PER_MOVE}
    assert live.state.status == "finished"
    assert live.awaited == () and live.deadlines == {} and nothing_listed(live)


def test_an_expire_before_the_deadline_is_refused():
    live = election()
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE - 0.01).code == "clock_running"
    assert live.state.status == "active"


def test_two_players_the_one_out_of_time_loses_and_nothing_is_left_to_play():
    live = election(seed=3)
    late = acting_seat(live.state)
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [late]}
    assert live.state.status == "finished" and list(live.state.winners) == [1 - late]
    assert live.awaited == () and live.deadlines == {} and nothing_listed(live)
    shown = view_state(live.state, 1 - late)
    assert shown["players"][late]["status"] == "eliminated"
    assert shown["turn"] is None and shown["acting"] is None
    assert live.refusal(None, {"type": "expire"}, after=PER_MOVE).code == "game_not_active"


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_the_election_goes_on_without_the_player_out_of_time(players):
    live = election(players, seed=players + 10)
    chooser = random.Random(players)
    for _ in range(4):
        random_move(live, chooser)
    late = acting_seat(live.state)
    expired_at = len(live.events)
    events = live.expire(after=PER_MOVE)
    assert live.types(events)[:2] == ["clock.expired", "turn.began"] and "clock" in events[-1].data
    assert live.state.status == "active"
    mover = acting_seat(live.state)
    assert mover != late and live.deadlines == {mover: live.now + PER_MOVE}
    check_clock_follows(live)
    assert live.moves(late) == []
    card = live.state.table.player(late).hand[0]
    assert live.refusal(late, {"type": "play", "card": card, "target": late}).code == "eliminated"
    # Nobody may play a card on them any more.
    assert all(move.get("target") != late for move in live.playable(mover))
    assert live.refusal(mover, {"type": "play", "card": live.state.table.player(mover).hand[0],
                                "target": late}).code == "denied"

    play_bots(live, ["random", "greedy"] * 2, cap=400)
    assert live.state.status == "finished"
    later = live.events[expired_at:]
    # They take no turn, are dealt no card, and are neither Candidate nor President.
    assert all(event.data["seat"] != late for event in later if event.type in ("turn.began", "card.drawn"))
    assert all(event.data.get("target") != late for event in later if event.type == "card.played")
    primary, general = live.state.table.results["primary"], live.state.table.results["general"]
    assert late not in primary["candidates"] and late not in primary["spoilers"]
    assert late not in general["president"] and late not in live.state.winners


def test_a_great_debaters_reply_not_made_in_time_is_passed_and_the_turns_go_round_without_them():
    live = DealtTable([["Gaffe", "Gaffe"], ["Great Debater", "Tack Center"], ["Gaffe", "Gaffe"]],
                      draw_pile=("True Blue",))
    live.play(0, "Gaffe", 2)
    live.play(1, "Great Debater", 1)
    live.play(2, "Gaffe", 1)
    assert live.state.table.reply == {"seat": 1, "to": 2}
    assert live.awaited == (1,) and live.deadlines == {1: live.now + PER_MOVE}
    events = live.expire(after=PER_MOVE)
    assert live.types(events) == ["clock.expired", "reply.passed", "turn.began"] and "clock" in events[-1].data
    assert live.state.table.reply is None and acting_seat(live.state) == 0
    live.play(0, "Gaffe", 0)
    # Seat 1 still holds a card, but is skipped: seat 2 plays the last card, and the General begins.
    assert acting_seat(live.state) == 2
    events = live.play(2, "Gaffe", 2)
    assert "phase.began" in live.types(events)
    assert live.state.table.results["primary"]["candidates"] == [0, 2]


def test_a_voter_adhd_whose_player_names_no_card_in_time_removes_one_the_server_draws():
    live = DealtTable([["Voter ADHD", "Gaffe"], ["Tack Center", "Gaffe"], ["True Blue", "Gaffe"]])
    live.play(0, "Gaffe", 2)
    live.play(1, "Tack Center", 2)
    live.play(2, "True Blue", 2)
    in_front = list(live.state.table.player(2).in_play)
    live.play(0, "Voter ADHD", 2)
    assert live.state.table.removal["from"] == in_front and live.awaited == (0,)
    events = live.expire(after=PER_MOVE)
    [removed] = [event.data for event in events if event.type == "card.removed"]
    assert removed["card"] in in_front and removed["seat"] == 2
    assert live.state.table.removal is None
    assert acting_seat(live.state) == 1 and live.awaited == (1,)
    check_clock_follows(live)


# --- undo ------------------------------------------------------------------------------------------------------


def test_an_undo_across_a_card_drawn_is_refused_one_across_a_card_played_is_agreed():
    live = election(seed=5)
    started = next(version for version, event in enumerate(live.events, start=1) if event.type == "game.started")
    seat = acting_seat(live.state)
    # The hands were dealt after the game started: no going back to before the deal.
    refused = live.refusal(seat, {"type": "undo", "to": started})
    assert refused.code == "undo_not_possible" and refused.details["type"] == "card.drawn"

    before = live.state
    play = next(move for move in live.playable(seat)
                if effect_of(live.state.table.cards[move["card"]]).draws == 0 and "remove" not in move
                and "remove_before" not in move)
    live.send(seat, play, after=1)
    assert play["card"] not in live.state.table.player(seat).hand
    live.send(seat, {"type": "undo", "to": before.version})
    events = live.send(1 - seat, {"type": "undo_answer", "accept": True}, after=1)
    assert live.types(events)[:2] == ["undo.answered", "game.undone"]
    assert live.state.table == before.table
    assert play["card"] in live.state.table.player(seat).hand and live.awaited == (seat,)


# --- computer players ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("levels", [("random", "greedy"), ("greedy", "greedy")])
def test_computer_players_play_an_election_to_its_end(levels, players):
    live = election(players, seed=players, clock=False)
    sent = play_bots(live, [*levels, *levels][:players], cap=400)
    assert live.state.status == "finished", f"not over after {sent} commands"
    assert live.events[-1].type == "game.finished"


def test_greedy_plays_electability_on_itself_rather_than_a_gaffe():
    live = DealtTable([["Newspaper Endorsement", "Gaffe"], ["Gaffe", "Gaffe"]])
    endorsement = live.card(0, "Newspaper Endorsement")
    for seed in range(6):
        chosen = bots.choose(live.state, 0, "greedy", SeededRng(seed))
        assert chosen == {"type": "play", "card": endorsement, "target": 0}


def test_the_greedy_score_is_the_lead_over_the_best_opponent():
    live = DealtTable([["Newspaper Endorsement", "Gaffe"], ["Gaffe", "Gaffe"], ["Gaffe", "Gaffe"]])
    live.play(0, "Newspaper Endorsement", 0)
    scores = [RULES.evaluate(view_state(live.state, seat), seat) for seat in range(3)]
    # +3 Electability: three ahead in the General's terms, and in the Primary's against the second-best rival.
    assert scores == [6, -3, -3]
