"""Article II as a ruleset of the engine: its phases, each Style in play, and the winner, through the same
create_game / decide / evolve / view functions as every other game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    decide,
    evolve,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.article_ii import acting_seat
from dvorak_engine.rulesets.article_ii.ruleset import cards_visible_to
from tests.engine.test_article_ii_rules import article_ii_deck

DECK = article_ii_deck()
CARDS = {card["title"]: card for card in DECK["cards"]}


class DealtAsListed:
    """Randomness that changes nothing, so a test knows the deal: piles keep their order, seat 0 starts,
    ties keep seat order, and card ids count up."""

    def __init__(self) -> None:
        self.issued = 0

    def randbelow(self, n: int) -> int:
        return 0

    def shuffle(self, items: list) -> None:
        pass

    def token_hex(self, nbytes: int) -> str:
        self.issued += 1
        return f"{self.issued:0{2 * nbytes}x}"


class Game:
    """A game being played, its events, and the commands its players send."""

    def __init__(self, players: int, deck: dict, rng, options: dict | None = None) -> None:
        self.rng = rng
        self.actors = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(players)]
        self.events = []
        self.states = []
        self.record(create_game(ruleset="article_ii", deck=deck, variant="standard", creative=False,
                                max_players=players, options=options or {}, creator=self.actors[0], rng=rng))
        for actor in self.actors[1:]:
            self.send_as(actor, {"type": "join"})
        self.send(0, type="start")

    @property
    def state(self):
        return self.states[-1]

    def record(self, events):
        for event in events:
            self.events.append(event)
            self.states.append(evolve(self.states[-1] if self.states else None, event))
        return events

    def send_as(self, actor: Actor, command: dict):
        return self.record(decide(self.state, command, actor=actor, rng=self.rng))

    def send(self, seat: int, **command):
        return self.send_as(self.actors[seat], command)

    def refused(self, seat: int, **command) -> str:
        version = self.state.version
        with pytest.raises(DomainError) as refusal:
            self.send(seat, **command)
        assert self.state.version == version
        return refusal.value.code

    def card(self, seat: int, title: str) -> str:
        """The id of a card with this title in a seat's hand."""
        return next(c for c in self.state.table.player(seat).hand if self.state.table.cards[c].title == title)

    def play(self, seat: int, title: str, target: int, **fields):
        return self.send(seat, type="play", card=self.card(seat, title), target=target, **fields)

    def counters(self, seat: int) -> tuple[int, int]:
        counters = self.state.table.player(seat).counters
        return counters["electability"], counters["affiliation"]

    def in_play_titles(self, seat: int) -> list[str]:
        return [self.state.table.cards[c].title for c in self.state.table.player(seat).in_play]


def dealt(hands: list[list[str]], draw_pile: list[str] = ()) -> Game:
    """A game whose players are dealt exactly these hands (of equal size), seat 0 first; `draw_pile` lists
    what is left to draw, top first."""
    size = len(hands[0])
    deal_order = [hands[seat][round_] for round_ in range(size) for seat in range(len(hands))]
    # The top of the draw pile is its last card, so the deck is listed bottom first.
    titles = list(reversed(list(draw_pile))) + list(reversed(deal_order))
    deck = {**DECK, "cards": [{**CARDS[title], "copies": 1} for title in titles]}
    return Game(len(hands), deck, DealtAsListed(), options={"starting_hand": size})


def types(events) -> list[str]:
    return [event.type for event in events]


# --- Play order ---------------------------------------------------------------------------------------------


def test_in_each_phase_each_player_draws_seven_cards_and_a_random_player_starts():
    starters = set()
    for seed in range(12):
        game = Game(3, DECK, SeededRng(seed))
        assert [len(p.hand) for p in game.state.table.players] == [7, 7, 7]
        assert len(game.state.table.draw_pile) == 51 - 21
        assert game.state.table.phase == "primary"
        starters.add(game.state.table.turn.seat)
    assert starters == {0, 1, 2}


def test_players_take_turns_playing_one_card_each():
    game = dealt([["Tack Center", "Gaffe"], ["True Blue", "Gaffe"]])
    assert game.refused(1, type="play", card=game.card(1, "True Blue"), target=1) == "not_your_turn"
    game.play(0, "Tack Center", 0)
    assert game.state.table.turn.seat == 1
    assert game.refused(0, type="play", card=game.card(0, "Gaffe"), target=0) == "not_your_turn"


def test_a_card_may_be_played_on_any_player_including_the_one_playing_it():
    game = dealt([["Tack Center", "Gaffe"], ["True Blue", "Gaffe"]])
    game.play(0, "Tack Center", 0)
    game.play(1, "True Blue", 0)
    assert game.counters(0) == (4, 2)
    assert game.counters(1) == (0, 0)
    assert game.in_play_titles(0) == ["Tack Center", "True Blue"]


def test_the_engine_changes_electability_and_affiliation_by_events():
    game = dealt([["Sister Soulja Moment", "Gaffe"], ["Gaffe", "Gaffe"]])
    events = game.play(0, "Sister Soulja Moment", 1)
    changed = [e.data for e in events if e.type == "attributes.changed"]
    assert changed == [{"seat": 1, "electability": 7, "affiliation": -7}]


def test_a_player_must_play_a_card_and_cannot_pass_the_turn():
    game = dealt([["Tack Center"], ["Gaffe"]])
    assert game.refused(0, type="pass") == "wrong_stage"


def test_refusals_name_the_problem():
    game = dealt([["Tack Center"], ["Gaffe"]])
    gaffe = game.card(1, "Gaffe")
    assert game.refused(0, type="play", card=gaffe, target=0) == "card_not_in_hand"
    assert game.refused(0, type="play", card=game.card(0, "Tack Center"), target=2) == "invalid"
    assert game.refused(0, type="play", card=game.card(0, "Tack Center")) == "invalid"
    assert game.refused(0, type="draw") == "unknown_command"
    # A turn is a card: it cannot be ended before one is played.
    assert game.refused(0, type="end_turn") == "wrong_stage"


def test_the_game_is_for_two_to_four_players():
    with pytest.raises(DomainError) as refusal:
        create_game(ruleset="article_ii", deck=DECK, variant="standard", creative=False, max_players=5,
                    options={}, creator=Actor(1, "host"), rng=SeededRng(2))
    assert (refusal.value.code, refusal.value.details["field"]) == ("invalid", "max_players")
    game = Game(2, DECK, SeededRng(3))
    assert game.state.status == "active"
    assert Game(4, DECK, SeededRng(4)).state.status == "active"


# --- the special cards ----------------------------------------------------------------------------------------


def test_unaffiliated_activity_the_player_it_is_played_on_draws_two_cards():
    game = dealt([["Unaffiliated Activity"], ["Gaffe"]], draw_pile=["True Blue", "Civil Debate"])
    game.play(0, "Unaffiliated Activity", 1)
    assert sorted(game.state.table.cards[c].title for c in game.state.table.player(1).hand) == [
        "Civil Debate", "Gaffe", "True Blue"]
    assert [game.state.table.cards[c].title for c in game.state.table.discard_pile] == ["Unaffiliated Activity"]


def test_voter_adhd_removes_one_card_from_play_and_its_effect_goes_with_it():
    game = dealt([["Tack Center", "Voter ADHD"], ["Gaffe", "Gaffe"]])
    game.play(0, "Tack Center", 1)
    game.play(1, "Gaffe", 1)
    assert game.counters(1) == (1, -6)
    tack_center = next(c for c in game.state.table.player(1).in_play if game.state.table.cards[c].title == "Tack Center")
    assert game.refused(0, type="play", card=game.card(0, "Voter ADHD"), target=1, remove="no-such-card") == "invalid"
    game.play(0, "Voter ADHD", 1, remove=tack_center)
    assert game.counters(1) == (-3, -3)
    assert [game.state.table.cards[c].title for c in game.state.table.discard_pile] == ["Voter ADHD", "Tack Center"]


def test_voter_adhd_with_nothing_in_play_still_gets_played():
    game = dealt([["Voter ADHD"], ["Gaffe"]])
    game.play(0, "Voter ADHD", 1)
    assert game.state.table.turn.seat == 1


# --- Styles -----------------------------------------------------------------------------------------------------


def test_a_style_replaces_any_existing_style():
    game = dealt([["Screaming Partisan", "Tack Center"], ["The Lesser Evil", "Gaffe"]])
    game.play(0, "Screaming Partisan", 1)
    events = game.play(1, "The Lesser Evil", 1)
    assert "card.removed" in types(events)
    assert game.in_play_titles(1) == ["The Lesser Evil"]
    assert [game.state.table.cards[c].title for c in game.state.table.discard_pile] == ["Screaming Partisan"]
    assert view_state(game.state, 0)["players"][1]["style"]["name"] == "lesser_evil"


def test_screaming_partisan_doubles_affiliation_in_play():
    game = dealt([["True Blue", "Gaffe"], ["Screaming Partisan", "Gaffe"]])
    game.play(0, "True Blue", 1)
    game.play(1, "Screaming Partisan", 1)
    assert game.counters(1) == (0, 10)


def test_outsider_may_not_play_cards_on_other_players_that_would_decrease_their_affiliation():
    game = dealt([["Outsider Candidate", "Gaffe", "Party Endorsement", "Voter ADHD"],
                  ["True Blue", "Tack Center", "Gaffe", "Gaffe"]])
    game.play(0, "Outsider Candidate", 0)
    game.play(1, "True Blue", 1)
    assert game.refused(0, type="play", card=game.card(0, "Gaffe"), target=1) == "denied"
    true_blue = game.state.table.player(1).in_play[0]
    assert game.refused(0, type="play", card=game.card(0, "Voter ADHD"), target=1, remove=true_blue) == "denied"
    game.play(0, "Party Endorsement", 1)
    assert game.counters(1) == (0, 10)
    game.play(1, "Tack Center", 0)
    game.play(0, "Gaffe", 0)
    assert game.counters(0) == (1, 0)


def test_insider_halves_electability_and_plays_two_cards_then_draws_one():
    game = dealt([["Insider Candidate", "Steal Their Position", "Gaffe", "Gaffe"],
                  ["Civil Debate", "Gaffe", "Gaffe", "Gaffe"]], draw_pile=["True Blue"])
    game.play(0, "Insider Candidate", 0)
    assert game.state.table.turn.seat == 0  # an Insider already, so a second card may follow
    game.send(0, type="pass")
    game.play(1, "Civil Debate", 1)
    game.play(0, "Steal Their Position", 0)
    assert game.counters(0) == (3, -5)
    assert game.state.table.turn.seat == 0
    game.play(0, "Gaffe", 1)
    assert game.state.table.turn.seat == 1
    assert sorted(game.state.table.cards[c].title for c in game.state.table.player(0).hand) == ["Gaffe", "True Blue"]


def test_insider_may_pass_the_second_card():
    game = dealt([["Insider Candidate", "Gaffe", "Gaffe"], ["Civil Debate", "Gaffe", "Gaffe"]])
    game.play(0, "Insider Candidate", 0)
    game.send(0, type="pass")
    game.play(1, "Civil Debate", 1)
    game.play(0, "Gaffe", 1)
    game.send(0, type="pass")
    assert game.state.table.turn.seat == 1
    assert len(game.state.table.player(0).hand) == 1


def test_great_debater_may_immediately_play_a_card_back_then_draws_a_card():
    game = dealt([["Gaffe", "Gaffe"], ["Great Debater", "Tack Center"], ["Gaffe", "Gaffe"]],
                 draw_pile=["True Blue"])
    game.play(0, "Gaffe", 2)
    game.play(1, "Great Debater", 1)
    game.play(2, "Gaffe", 1)
    assert view_state(game.state, None)["reply"] == {"seat": 1, "to": 2}
    assert game.refused(0, type="play", card=game.card(0, "Gaffe"), target=0) == "not_your_turn"
    assert game.refused(1, type="play", card=game.card(1, "Tack Center"), target=0) == "denied"
    game.play(1, "Tack Center", 2)
    assert game.counters(2) == (1, -6)
    assert [game.state.table.cards[c].title for c in game.state.table.player(1).hand] == ["True Blue"]
    # The reply was no turn of its own: the turn goes on from seat 2 to seat 0.
    assert game.state.table.turn.seat == 0


def test_great_debater_may_decline_the_reply():
    game = dealt([["Great Debater", "Gaffe"], ["Gaffe", "Gaffe"]])
    game.play(0, "Great Debater", 0)
    assert game.state.table.reply is None  # played on oneself: nobody to answer
    game.play(1, "Gaffe", 0)
    assert game.state.table.reply == {"seat": 0, "to": 1}
    assert game.refused(1, type="pass") == "not_your_turn"
    game.send(0, type="pass")
    assert game.state.table.reply is None
    assert game.state.table.turn.seat == 0
    assert len(game.state.table.player(0).hand) == 1


def test_great_debater_without_cards_is_offered_no_reply():
    game = dealt([["Gaffe"], ["Great Debater"], ["Gaffe"]], draw_pile=["True Blue"])
    game.play(0, "Gaffe", 1)  # no Style yet: no reply
    game.play(1, "Great Debater", 1)
    game.play(2, "Gaffe", 1)
    assert game.state.table.reply is None
    assert game.state.table.phase == "general"


def test_the_mudslinger_subtracts_its_affiliation_from_everyones_electability():
    game = dealt([["True Blue", "Gaffe"], ["The Mudslinger", "Gaffe"], ["Tack Center", "Gaffe"]])
    game.play(0, "True Blue", 1)
    game.play(1, "The Mudslinger", 1)
    assert [game.counters(seat) for seat in range(3)] == [(-5, 0), (-5, 5), (-5, 0)]
    game.play(2, "Tack Center", 2)
    assert game.counters(2) == (-1, -3)


def test_greater_evil_sets_the_opponents_affiliation_to_zero():
    game = dealt([["True Blue", "Gaffe"], ["The Greater Evil", "Gaffe"]])
    game.play(0, "True Blue", 0)
    game.play(1, "The Greater Evil", 1)
    assert game.counters(0) == (0, 0)


def test_the_hairpiece_replaces_a_style_and_has_no_effects():
    game = dealt([["True Blue", "The Hairpiece"], ["Screaming Partisan", "Gaffe"]])
    game.play(0, "True Blue", 1)
    game.play(1, "Screaming Partisan", 1)
    assert game.counters(1) == (0, 10)
    game.play(0, "The Hairpiece", 1)
    assert game.counters(1) == (0, 5)


def test_third_party_candidate_ignores_the_mudslinger_and_has_no_affiliation():
    game = dealt([["True Blue", "Party Endorsement"], ["The Mudslinger", "Third-Party Candidate"]])
    game.play(0, "True Blue", 1)
    game.play(1, "The Mudslinger", 1)
    game.play(0, "Party Endorsement", 0)
    assert game.counters(0) == (-5, 5)
    game.play(1, "Third-Party Candidate", 0)
    assert game.counters(0) == (0, 0)


def test_the_teflon_wonder_may_remove_a_card_played_on_it_before_playing():
    game = dealt([["The Teflon Wonder", "Gaffe", "Gaffe"], ["Gaffe", "Gaffe", "Gaffe"]])
    game.play(0, "The Teflon Wonder", 0)
    game.play(1, "Gaffe", 0)
    gaffe = next(c for c in game.state.table.player(0).in_play if game.state.table.cards[c].title == "Gaffe")
    assert game.counters(0) == (-3, -3)
    game.play(0, "Gaffe", 1, remove_before=gaffe)
    assert game.counters(0) == (0, 0)
    assert game.refused(1, type="play", card=game.card(1, "Gaffe"), target=1, remove_before=gaffe) == "denied"


# --- Phases and the winner -------------------------------------------------------------------------------------


def test_after_the_primary_the_two_highest_totals_are_candidates_and_the_rest_spoilers():
    game = dealt([["Tack Center"], ["True Blue"], ["Gaffe"]], draw_pile=["Gaffe"] * 3)
    game.play(0, "Tack Center", 0)  # 4 - 3 = 1
    game.play(1, "True Blue", 1)  # 5
    events = game.play(2, "Gaffe", 2)  # -6
    ended = next(e for e in events if e.type == "phase.ended")
    assert ended.data["candidates"] == [0, 1]
    assert [p["role"] for p in view_state(game.state, 2)["players"]] == ["candidate", "candidate", "spoiler"]
    # The General Election deals new hands; what was played stays in play.
    assert game.state.table.phase == "general"
    assert [len(p.hand) for p in game.state.table.players] == [1, 1, 1]
    assert game.counters(1) == (0, 5)


def test_the_general_hands_come_from_the_discard_pile_when_the_draw_pile_is_empty():
    game = dealt([["Voter ADHD"], ["Voter ADHD"]])
    game.play(0, "Voter ADHD", 0)
    events = game.play(1, "Voter ADHD", 1)
    assert "draw_pile.refilled" in types(events)
    assert game.state.table.phase == "general"
    assert [len(p.hand) for p in game.state.table.players] == [1, 1]


def play_out(game: Game, plays: list[tuple[int, str, int]]):
    for seat, title, target in plays:
        game.play(seat, title, target)
    return game


def test_after_the_general_the_candidate_with_the_highest_positive_total_becomes_president():
    game = dealt([["Tack Center", "Newspaper Endorsement"], ["True Blue", "Tack Center"],
                  ["Gaffe", "Gaffe"]], draw_pile=[])
    play_out(game, [(0, "Tack Center", 0), (1, "True Blue", 1), (2, "Gaffe", 2),
                    (0, "Newspaper Endorsement", 0), (1, "Tack Center", 1), (2, "Gaffe", 2)])
    # Primary totals 4, 6 and -12; in the General seat 0 has 7 - (-3) = 10 and seat 1 has 4 - 2 = 2.
    # No cards are left for the General Election, so it ends at once.
    assert game.state.status == "finished"
    assert game.state.winners == (0,)
    assert game.state.table.results["general"]["totals"] == [{"seat": 0, "total": 10}, {"seat": 1, "total": 2}]
    assert game.refused(1, type="pass") == "game_not_active"


def test_spoiler_rule_the_spoiler_with_the_highest_electability_becomes_president():
    game = dealt([["True Blue"], ["Party Endorsement"], ["Newspaper Endorsement"]])
    play_out(game, [(0, "True Blue", 0), (1, "Party Endorsement", 1), (2, "Newspaper Endorsement", 2)])
    # Candidates 0 and 1 (total 5 each) have -5 in the General; the Spoiler has Electability 3.
    assert game.state.winners == (2,)
    assert game.state.table.results["general"]["decided_by"] == "spoilers"


def test_the_highlander_spoiler_runs_in_the_general_as_if_a_candidate():
    game = dealt([["True Blue", "The Highlander"], ["Party Endorsement", "Strange Pronouncement"],
                  ["Newspaper Endorsement", "Policy Proposal"], ["Steal Their Position", "Civil Debate"]])
    play_out(game, [(0, "True Blue", 0), (1, "Party Endorsement", 1), (2, "Newspaper Endorsement", 2),
                    (3, "Steal Their Position", 3), (0, "The Highlander", 2), (1, "Strange Pronouncement", 1),
                    (2, "Policy Proposal", 3), (3, "Civil Debate", 0)])
    # Primary totals 8, 7, 3 and 4; in the General the Candidates have -8 and -7. The Spoiler rule would
    # elect seat 3 (Electability 6), but the Highlander in seat 2 runs with 3 - 0 = 3.
    assert game.state.table.candidates == (0, 1)
    assert game.state.winners == (2,)
    assert game.state.table.results["general"]["decided_by"] == "candidates"


def test_the_necromancer_subtracts_the_other_candidates_affiliation():
    game = dealt([["True Blue", "Newspaper Endorsement"], ["Tack Center", "The Necromancer"]])
    play_out(game, [(0, "True Blue", 0), (1, "Tack Center", 1), (0, "Newspaper Endorsement", 0),
                    (1, "The Necromancer", 1)])
    # Without the Necromancer seat 1 would have 4 - (-3) = 7; with it, 4 - 5 = -1. Seat 0: 3 - 5 = -2.
    assert game.state.table.results["general"]["totals"] == [{"seat": 0, "total": -2}, {"seat": 1, "total": -1}]
    assert game.state.winners == ()


def test_two_player_game_both_are_candidates_and_without_a_positive_total_nobody_is_president():
    game = dealt([["True Blue"], ["Gaffe"]], draw_pile=[])
    play_out(game, [(0, "True Blue", 0), (1, "Gaffe", 1)])
    assert game.state.table.candidates == (0, 1)
    assert game.state.status == "finished"
    assert game.state.winners == ()
    assert game.state.table.results["general"]["decided_by"] == "nobody"


def test_two_player_game_the_positive_candidate_wins():
    game = dealt([["Newspaper Endorsement"], ["Gaffe"]], draw_pile=[])
    play_out(game, [(0, "Newspaper Endorsement", 0), (1, "Gaffe", 1)])
    assert game.state.winners == (0,)


# --- what each viewer sees ---------------------------------------------------------------------------------------


def test_each_player_sees_the_phase_styles_counters_and_only_their_own_hand():
    game = Game(3, DECK, SeededRng(5))
    view = view_state(game.state, 1)
    assert view["phase"] == "primary"
    assert [p.get("hand") is not None for p in view["players"]] == [False, True, False]
    assert all(p["counters"] == {"electability": 0, "affiliation": 0} for p in view["players"])
    assert all(p["style"] is None and p["role"] is None for p in view["players"])
    assert view["draw_pile"] == {"count": 30}


def test_nobody_sees_another_players_draw():
    game = Game(2, DECK, SeededRng(6))
    for before, after, event in zip(game.states[:-1], game.states[1:], game.events[1:], strict=True):
        if event.type == "card.drawn":
            other = 1 - event.data["seat"]
            assert "card" not in view_event(event, other, before, after)
            assert view_event(event, event.data["seat"], before, after)["card"]["id"] == event.data["card"]
        if event.type == "game.started":
            assert view_event(event, None, before, after)["draw_pile"] == {"count": 51}


# --- whole games --------------------------------------------------------------------------------------------------


def legal_commands(state, seat: int) -> list[dict]:
    """Commands a seat may send now (a representative choice of `remove` for each target)."""
    if state.status != "active" or acting_seat(state) != seat:
        return []
    if state.table.removal is not None:
        return [{"type": "remove", "card": card} for card in state.table.removal["from"]]
    commands = []
    reply = state.table.reply
    targets = [reply["to"]] if reply else range(len(state.table.players))
    for card_id in state.table.player(seat).hand:
        for target in targets:
            in_front = state.table.player(target).in_play
            command = {"type": "play", "card": card_id, "target": target}
            commands += [command] + ([{**command, "remove": in_front[-1]}] if in_front else [])
            if state.table.player(seat).in_play:
                commands.append({**command, "remove_before": state.table.player(seat).in_play[0]})
    if reply or state.table.turn.things_played:
        commands += [{"type": "pass"}, {"type": "end_turn"}]
    return commands


def random_game(seed: int, players: int) -> Game:
    chooser = random.Random(seed)
    game = Game(players, DECK, SeededRng(seed))
    while game.state.status == "active" and len(game.events) < 2000:
        seat = acting_seat(game.state)
        commands = legal_commands(game.state, seat)
        chooser.shuffle(commands)
        for command in commands:
            try:
                game.send(seat, **command)
                break
            except DomainError as refusal:
                # A representative choice may miss: a `remove` that is not allowed for that card or Style.
                assert refusal.code in {"invalid", "denied"}
        else:
            pytest.fail(f"seat {seat} had no legal command in game {seed}")
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_always_end_with_a_president_or_a_clear_outcome(players):
    outcomes = Counter()
    for seed in range(15):
        game = random_game(seed * 10 + players, players)
        state = game.state
        assert state.status == "finished"
        general = state.table.results["general"]
        outcomes[general["decided_by"]] += 1
        if general["decided_by"] == "nobody":
            assert players == 2 and state.winners == ()
        else:
            assert state.winners
        assert len(state.table.candidates) == 2
        # Every card is somewhere, once.
        places = [*state.table.draw_pile, *state.table.discard_pile] + [c for p in state.table.players for c in (*p.hand, *p.in_play)]
        assert Counter(places) == Counter(state.table.cards.keys())
    assert outcomes["candidates"] > 0


def test_replay_equals_the_state_built_step_by_step_and_snapshots_round_trip():
    for seed in range(6):
        game = random_game(seed, 2 + seed % 3)
        assert replay(game.events) == game.state
        for state in game.states[::25]:
            assert state_from_json(state_to_json(state)) == state


def test_no_view_shows_a_card_its_viewer_cannot_see():
    game = random_game(3, 3)
    for before, after, event in zip(game.states[:-1], game.states[1:], game.events[1:], strict=True):
        for viewer in (None, 0, 1, 2):
            visible = cards_visible_to(after, viewer) | cards_visible_to(before, viewer)
            hidden = set(after.table.cards) - visible
            shown = repr(view_event(event, viewer, before, after)) + repr(view_state(after, viewer))
            assert not any(card_id in shown for card_id in hidden)
