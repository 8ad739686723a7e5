"""Article II without the traps a client fell into: Voter ADHD's removal has a default and a follow-up choice,
a turn ends by a documented command where the rules allow it (and only there), the seat that must act is in the
state and alone has moves, and a game that elects nobody says so.

Each test is named after the rule of "Article II, updated" that decides it (shared/seeds); a random game played
by the listed moves alone always ends, within a bound.
"""

from __future__ import annotations

import random

import pytest

from dvorak_engine import Actor, SeededRng, create_game, decide, evolve, legal_moves, view_event, view_state
from dvorak_engine.rulesets.article_ii import acting_seat
from dvorak_engine.rulesets.article_ii.ruleset import cards_visible_to
from tests.engine.test_article_ii import dealt, types
from tests.engine.test_legal_moves import ARTICLE_II_DECKS, card_ids_named, filled, seed_deck
from tests.sizes import size


def titles(game, card_ids) -> list[str]:
    return [game.state.table.cards[c].title for c in card_ids]


def in_front(game, seat: int, title: str) -> str:
    return next(c for c in game.state.table.player(seat).in_play if game.state.table.cards[c].title == title)


def event_data(events, event_type: str) -> dict:
    return next(e.data for e in events if e.type == event_type)


def accepted_as_listed(game, seat: int) -> None:
    """Each listed move of the seat, its choices filled every way, is accepted by the rules."""
    for move in legal_moves(game.state, seat):
        choice_keys = [key for key, value in move.items() if isinstance(value, dict)]
        fillings = [move] if not choice_keys else [
            {**move, choice_keys[0]: value} for value in move[choice_keys[0]]["from"]]
        for command in fillings:
            decide(game.state, command, actor=game.actors[seat], rng=SeededRng(0))


# --- 1. Voter ADHD: "Remove one card from play" ----------------------------------------------------------------


def test_voter_adhd_remove_one_card_from_play_takes_the_only_card_there_without_being_told():
    game = dealt([["Tack Center", "Voter ADHD"], ["Gaffe", "Gaffe"]])
    game.play(0, "Tack Center", 1)
    game.play(1, "Gaffe", 0)
    tack_center = in_front(game, 1, "Tack Center")
    events = game.play(0, "Voter ADHD", 1)  # no "remove": there is one card to remove, so it is that one
    assert event_data(events, "card.removed") == {"card": tack_center, "seat": 1, "cause": events[0].data["card"]}
    assert game.in_play_titles(1) == []
    assert game.counters(1) == (0, 0)
    assert game.state.table.removal is None


def test_voter_adhd_remove_one_card_from_play_with_several_there_the_player_names_it_after_playing():
    game = dealt([["Tack Center", "Voter ADHD", "Gaffe"], ["Gaffe", "True Blue", "Gaffe"]])
    game.play(0, "Tack Center", 1)
    game.play(1, "Gaffe", 1)
    voter_adhd = game.card(0, "Voter ADHD")
    events = game.play(0, "Voter ADHD", 1)  # accepted without "remove": the choice follows
    assert types(events) == ["card.played", "removal.pending"]
    choices = [in_front(game, 1, "Tack Center"), in_front(game, 1, "Gaffe")]
    pending = {"seat": 0, "target": 1, "cause": voter_adhd, "from": choices}
    assert view_state(game.state, 1)["removal"] == pending
    # The player who played it is the one to act, and has one thing to do: name the card.
    assert view_state(game.state, 1)["acting"] == acting_seat(game.state) == 0
    assert legal_moves(game.state, 0) == [{"type": "remove", "card": {"choose": 1, "from": choices, "list": False}}]
    assert legal_moves(game.state, 1) == []
    assert game.refused(1, type="remove", card=choices[0]) == "not_your_turn"
    assert game.refused(0, type="play", card=game.card(0, "Gaffe"), target=0) == "wrong_stage"
    assert game.refused(0, type="end_turn") == "wrong_stage"
    assert game.refused(0, type="remove", card=voter_adhd) == "invalid"
    events = game.send(0, type="remove", card=choices[0])
    assert types(events) == ["card.removed", "attributes.changed", "turn.began"]
    assert game.in_play_titles(1) == ["Gaffe"]
    assert game.counters(1) == (-3, -3)
    assert game.state.table.removal is None
    assert game.refused(1, type="remove", card=choices[1]) == "wrong_stage"  # nothing waits any more


def test_voter_adhd_names_the_card_at_once_with_remove_and_remove_lists_it_as_a_choice():
    game = dealt([["Tack Center", "Voter ADHD"], ["Gaffe", "Gaffe"]])
    game.play(0, "Tack Center", 1)
    game.play(1, "Gaffe", 1)
    voter_adhd = game.card(0, "Voter ADHD")
    choices = [in_front(game, 1, "Tack Center"), in_front(game, 1, "Gaffe")]
    moves = legal_moves(game.state, 0)
    assert {"type": "play", "card": voter_adhd, "target": 1} in moves
    assert {"type": "play", "card": voter_adhd, "target": 1,
            "remove": {"choose": 1, "from": choices, "list": False}} in moves
    accepted_as_listed(game, 0)
    events = game.play(0, "Voter ADHD", 1, remove=choices[1])
    assert "removal.pending" not in types(events)
    assert game.in_play_titles(1) == ["Tack Center"]


def test_voter_adhd_with_nothing_in_play_in_front_of_the_target_removes_nothing_and_is_still_played():
    game = dealt([["Voter ADHD"], ["Gaffe"]])
    assert {"type": "play", "card": game.card(0, "Voter ADHD"), "target": 1} in legal_moves(game.state, 0)
    assert game.refused(0, type="play", card=game.card(0, "Voter ADHD"), target=1, remove="x") == "invalid"
    events = game.play(0, "Voter ADHD", 1)
    assert "card.removed" not in types(events) and game.state.table.turn.seat == 1


def test_an_outsider_may_not_decrease_their_affiliation_so_voter_adhd_removes_only_what_does_not():
    """"While an Outsider ... you may not play cards on other players that would decrease their Affiliation":
    of True Blue (+5 Affiliation) and Tack Center (-3), Voter ADHD may remove only Tack Center, so the server
    removes it; with True Blue alone, the play is refused."""
    game = dealt([["Outsider Candidate", "Voter ADHD", "Newspaper Endorsement"], ["True Blue", "Tack Center", "Gaffe"]])
    game.play(0, "Outsider Candidate", 0)
    game.play(1, "True Blue", 1)
    assert game.refused(0, type="play", card=game.card(0, "Voter ADHD"), target=1) == "denied"
    voter_adhd = game.card(0, "Voter ADHD")
    assert not any(m["card"] == voter_adhd and m["target"] == 1 for m in legal_moves(game.state, 0))
    game.play(0, "Newspaper Endorsement", 0)
    game.play(1, "Tack Center", 1)
    events = game.play(0, "Voter ADHD", 1)
    assert titles(game, [event_data(events, "card.removed")["card"]]) == ["Tack Center"]
    assert game.in_play_titles(1) == ["True Blue"]


def test_voter_adhd_in_a_great_debaters_reply_waits_for_its_card_then_the_debater_draws():
    """"When someone plays a card on you, you may immediately play a card on them, then draw a card": a reply
    that removes a card names it first, and the draw and the turn follow."""
    game = dealt([["Tack Center", "Gaffe", "Gaffe"], ["Great Debater", "Gaffe", "Voter ADHD"]],
                 draw_pile=["True Blue"])
    game.play(0, "Tack Center", 0)
    game.play(1, "Great Debater", 1)
    game.play(0, "Gaffe", 0)
    game.play(1, "Gaffe", 1)
    game.play(0, "Gaffe", 1)
    assert game.state.table.reply == {"seat": 1, "to": 0}
    events = game.play(1, "Voter ADHD", 0)
    assert types(events) == ["card.played", "removal.pending"]
    assert acting_seat(game.state) == 1 and game.state.table.turn.seat == 0
    assert legal_moves(game.state, 0) == []
    events = game.send(1, type="remove", card=in_front(game, 0, "Tack Center"))
    assert types(events) == ["card.removed", "attributes.changed", "card.drawn", "turn.began"]
    assert titles(game, game.state.table.player(1).hand) == ["True Blue"]
    assert game.state.table.turn.seat == 1  # the reply was no turn: seat 0's turn is over, seat 1's begins


# --- 2. Ending a turn: "Each player takes turns playing one card each until the hands are exhausted" --------------


def test_each_player_takes_turns_playing_one_card_each_so_no_turn_ends_before_its_card():
    game = dealt([["Tack Center", "Gaffe"], ["True Blue", "Gaffe"]])
    for command in ("end_turn", "pass"):
        assert game.refused(0, type=command) == "wrong_stage"
    moves = legal_moves(game.state, 0)
    assert {m["type"] for m in moves} == {"play"}
    # "A card may be played on any player, including the one playing the card": every card, on yourself.
    for card_id in game.state.table.player(0).hand:
        assert {"type": "play", "card": card_id, "target": 0} in moves


def test_an_insider_may_play_two_cards_each_turn_and_end_turn_after_the_first():
    game = dealt([["Insider Candidate", "Gaffe", "Gaffe"], ["Civil Debate", "Gaffe", "Gaffe"]])
    game.play(0, "Insider Candidate", 0)
    assert {"type": "end_turn"} in legal_moves(game.state, 0) and {"type": "pass"} in legal_moves(game.state, 0)
    events = game.send(0, type="end_turn")
    assert types(events) == ["turn.began"] and game.state.table.turn.seat == 1
    assert len(game.state.table.player(0).hand) == 2


def test_a_great_debater_may_decline_to_play_a_card_back_with_end_turn():
    game = dealt([["Great Debater", "Gaffe"], ["Gaffe", "Gaffe"]])
    game.play(0, "Great Debater", 0)
    game.play(1, "Gaffe", 0)
    assert {"type": "end_turn"} in legal_moves(game.state, 0)
    events = game.send(0, type="end_turn")
    assert types(events) == ["reply.passed", "turn.began"]
    assert game.state.table.reply is None and game.state.table.turn.seat == 0


def test_a_player_whose_hand_is_exhausted_is_skipped():
    game = dealt([["Unaffiliated Activity", "Gaffe"], ["Gaffe", "Gaffe"]], draw_pile=["True Blue", "Civil Debate"])
    game.play(0, "Unaffiliated Activity", 0)  # seat 0 draws two: three cards against seat 1's two
    game.play(1, "Gaffe", 1)
    game.play(0, "Gaffe", 0)
    events = game.play(1, "Gaffe", 1)  # seat 1's hand is exhausted: seat 0 plays on alone
    assert event_data(events, "turn.began") == {"seat": 0}
    game.play(0, "True Blue", 0)
    assert game.state.table.turn.seat == 0 and legal_moves(game.state, 1) == []


# --- 3. Who must act: during a Great Debater's reply, not the player whose turn it is ---------------------------


def test_when_someone_plays_a_card_on_a_great_debater_the_debater_is_the_seat_to_act():
    game = dealt([["Gaffe", "Gaffe"], ["Great Debater", "Tack Center"], ["Gaffe", "Gaffe"]])
    game.play(0, "Gaffe", 2)
    game.play(1, "Great Debater", 1)
    game.play(2, "Gaffe", 1)
    for viewer in (None, 0, 1, 2):
        view = view_state(game.state, viewer)
        assert (view["turn"]["seat"], view["acting"], view["reply"]) == (2, 1, {"seat": 1, "to": 2})
    # The debater's moves: a card back on the player who played on them, each card of the hand, or declining.
    hand = game.state.table.player(1).hand
    assert legal_moves(game.state, 1) == [
        *({"type": "play", "card": card_id, "target": 2} for card_id in hand), {"type": "pass"}, {"type": "end_turn"}]
    accepted_as_listed(game, 1)
    # Nothing for the player whose turn it is, nor for anyone else.
    assert legal_moves(game.state, 2) == legal_moves(game.state, 0) == []
    assert game.refused(2, type="end_turn") == "not_your_turn"


# --- 5. The outcome: "The Candidate with the highest positive total becomes President" -----------------------------


def test_if_neither_candidate_has_a_positive_total_in_a_two_player_game_nobody_is_president_and_it_is_said():
    """"If neither Candidate has a positive total, the Spoiler with the highest Electability ... becomes
    President", and "In a two player game ... the two players automatically become the Candidates": there is
    no Spoiler, so nobody is elected, and the game's end says so."""
    game = dealt([["True Blue"], ["Gaffe"]])
    events = game.play(0, "True Blue", 0)
    events += game.play(1, "Gaffe", 1)
    finished = event_data(events, "game.finished")
    assert finished["winners"] == [] and finished["outcome"] == "no_president"
    assert "no Spoiler" in finished["reason"] and finished["decided_by"] == "nobody"
    general = event_data([e for e in events if e.data.get("phase") == "general"], "phase.ended")
    assert (general["outcome"], general["president"]) == ("no_president", [])
    view = view_state(game.state, None)
    assert view["outcome"] == {"outcome": "no_president", "decided_by": "nobody", "reason": finished["reason"]}
    assert view["winners"] == [] and view["results"]["general"]["outcome"] == "no_president"
    assert view_event(game.events[-1], 1, game.states[-2], game.states[-1])["outcome"] == "no_president"


def test_the_candidate_with_the_highest_positive_total_becomes_president_and_wins_and_it_is_said():
    game = dealt([["Newspaper Endorsement"], ["Gaffe"]])
    game.play(0, "Newspaper Endorsement", 0)
    events = game.play(1, "Gaffe", 1)
    finished = event_data(events, "game.finished")
    assert (finished["winners"], finished["outcome"], finished["decided_by"]) == ([0], "president", "candidates")
    assert finished["reason"].startswith("The Candidate with the highest positive total becomes President")


def test_the_spoiler_with_the_highest_electability_becomes_president_and_it_is_said():
    game = dealt([["True Blue"], ["Party Endorsement"], ["Newspaper Endorsement"]])
    game.play(0, "True Blue", 0)
    game.play(1, "Party Endorsement", 1)
    events = game.play(2, "Newspaper Endorsement", 2)
    finished = event_data(events, "game.finished")
    assert (finished["winners"], finished["outcome"], finished["decided_by"]) == ([2], "president", "spoilers")
    assert "the Spoiler with the highest Electability" in finished["reason"]


# --- no game gets stuck ---------------------------------------------------------------------------------------------


def dealt_cards(players: int) -> int:
    """Cards dealt in one election: "In each phase, each player draws seven cards", and there are two phases."""
    return 2 * 7 * players


def shows_no_unseen_card(before, after, events, players: int) -> None:
    """No view of these events, nor of the state after them, names a card its viewer may not see."""
    for viewer in (None, *range(players)):
        hidden = set(after.table.cards) - cards_visible_to(after, viewer) - cards_visible_to(before, viewer)
        shown = repr(view_state(after, viewer)) + repr([view_event(e, viewer, before, after) for e in events])
        assert not any(card_id in shown for card_id in hidden)


def play_by_legal_moves(seed: int, players: int, options: dict | None = None, *, check_views: bool = False):
    """A game played by a client that knows only the legal moves: at every step exactly one seat (the one the
    state names in ``acting``) has moves, every card of its hand among them, and it sends one at random."""
    chooser, rng = random.Random(seed), SeededRng(seed)
    actors = [Actor(user_id=200 + seat, username=f"voter{seat}") for seat in range(players)]
    state = None
    events = create_game(ruleset="article_ii", deck=seed_deck(ARTICLE_II_DECKS[seed % 2]), variant="standard",
                         creative=False, max_players=players, options=options or {}, creator=actors[0], rng=rng)
    for actor in actors[1:]:
        for event in events:
            state = evolve(state, event)
        events = decide(state, {"type": "join"}, actor=actor, rng=rng)
    for event in events:
        state = evolve(state, event)
    elections = 4 if options else 1
    bound = 3 * dealt_cards(players) * elections
    commands = 0
    for event in decide(state, {"type": "start"}, actor=actors[0], rng=rng):
        state = evolve(state, event)
    while state.status == "active":
        assert commands < bound, f"game {seed} is not over after {bound} commands"
        view = view_state(state, None)
        listed = {seat: legal_moves(state, seat) for seat in range(players)}
        assert [seat for seat, moves in listed.items() if moves] == [view["acting"]], (listed, view["acting"])
        moves = listed[view["acting"]]
        assert card_ids_named(moves) <= cards_visible_to(state, view["acting"])
        if state.table.removal is None:
            plays = {m["card"] for m in moves if m["type"] == "play"}
            assert plays == set(state.table.player(view["acting"]).hand)
        command = filled(chooser.choice(moves), chooser)
        before, events = state, decide(state, command, actor=actors[view["acting"]], rng=rng)
        for event in events:
            state = evolve(state, event)
        if check_views:
            shows_no_unseen_card(before, state, events, players)
        commands += 1
    return state, commands


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(size("ARTICLE_II_LEGAL_GAMES", 10, 40)))
def test_a_game_played_by_its_legal_moves_alone_always_ends_within_a_bound(players, seed):
    state, commands = play_by_legal_moves(seed * 7 + players, players, check_views=seed == 0)
    assert state.status == "finished"
    assert state.table.outcome["outcome"] in {"president", "no_president"}
    assert bool(state.winners) == (state.table.outcome["outcome"] == "president")
    assert commands >= dealt_cards(players)  # every dealt card was played: each by a command of its own
