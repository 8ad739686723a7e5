"""The deck's Variation, as an Article II game's option ``variation: "parties"``:

"Divide the four players into two parties, and count points. When a player becomes a Candidate, that player gets
a point, and when a player is elected President, that player gains two points and other party members gain one.
After four games, the player with the most points wins."

The four games are one match, played in one game's event stream: four elections, each with the whole deck.
"""

from __future__ import annotations

from collections import Counter

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, create_game, decide, replay, view_state
from dvorak_engine.rulesets.article_ii.cards import most_points, president_points
from tests.engine.test_article_ii import CARDS, DECK, DealtAsListed, Game, types
from tests.engine.test_article_ii_clients import event_data, play_by_legal_moves

PARTIES = {"variation": "parties"}

# One election, dealt the same each time (the randomness changes nothing): the Primary's hands, then the
# General's. Seat 0 starts each phase.
PRIMARY_HANDS = ["Newspaper Endorsement", "True Blue", "Gaffe", "Targeted by a Negative Ad"]
GENERAL_HANDS = ["Newspaper Endorsement", "Civil Debate", "Gaffe", "Gaffe"]


class Match(Game):
    """A game of the party Variation: four players, each naming a party (a team) or none."""

    def __init__(self, parties: list[str | None], rng=None, deck: dict | None = None, options: dict | None = None):
        self.rng = rng or DealtAsListed()
        self.actors = [Actor(user_id=10 + seat, username=f"player{seat}") for seat in range(len(parties))]
        self.events, self.states = [], []
        options = {**PARTIES, **(options or {}), **({"team": parties[0]} if parties[0] else {})}
        self.record(create_game(ruleset="article_ii", deck=deck or one_election_deck(), variant="standard",
                                creative=False, max_players=len(parties), options=options, creator=self.actors[0],
                                rng=self.rng))
        for actor, party in zip(self.actors[1:], parties[1:], strict=True):
            self.send_as(actor, {"type": "join", **({"team": party} if party else {})})
        self.send(0, type="start")

    def play_election(self):
        """Each player plays their one card on themselves, in the Primary and then in the General."""
        events = []
        for _ in ("primary", "general"):
            for seat, title in enumerate(titles_in_hands(self)):
                events += self.play(seat, title, seat)
        return events


def titles_in_hands(game) -> list[str]:
    return [game.state.table.cards[game.state.table.player(seat).hand[0]].title for seat in range(4)]


def one_election_deck() -> dict:
    """The cards of one election, stacked so that the Primary deals PRIMARY_HANDS and the General GENERAL_HANDS
    (the draw pile's top is its last card)."""
    titles = list(reversed(GENERAL_HANDS)) + list(reversed(PRIMARY_HANDS))
    return {**DECK, "cards": [{**CARDS[title], "copies": 1} for title in titles]}


def test_the_variation_is_an_option_of_a_four_player_game():
    with pytest.raises(DomainError) as refusal:
        Match([None, None, None], options={"starting_hand": 1})
    assert (refusal.value.code, refusal.value.details["field"]) == ("invalid", "max_players")
    with pytest.raises(DomainError) as refusal:
        create_game(ruleset="article_ii", deck=DECK, variant="standard", creative=False, max_players=4,
                    options={"variation": "coalitions"}, creator=Actor(1, "host"), rng=SeededRng(1))
    assert (refusal.value.code, refusal.value.details["field"]) == ("invalid", "options.variation")


def test_divide_the_four_players_into_two_parties_named_by_the_players_or_drawn():
    match = Match(["Blue", None, "Blue", None], options={"starting_hand": 1})
    formed = event_data(match.events, "parties.formed")
    assert formed == {"parties": [{"name": "Blue", "seats": [0, 2]}, {"name": "Party A", "seats": [1, 3]}]}
    view = view_state(match.state, 3)
    assert [p["team"] for p in view["players"]] == ["Blue", "Party A", "Blue", "Party A"]
    assert view["match"]["parties"] == [{"name": "Blue", "seats": [0, 2], "points": 0},
                                        {"name": "Party A", "seats": [1, 3], "points": 0}]
    assert (view["match"]["election"], view["match"]["elections"]) == (1, 4)
    # Nobody named a party: the server divides the four at random, two and two.
    divisions = set()
    for seed in range(12):
        match = Match([None] * 4, rng=SeededRng(seed), deck=DECK)
        parties = event_data(match.events, "parties.formed")["parties"]
        assert sorted(len(p["seats"]) for p in parties) == [2, 2]
        assert sorted(s for p in parties for s in p["seats"]) == [0, 1, 2, 3]
        divisions.add(tuple(sorted(tuple(p["seats"]) for p in parties)))
    assert len(divisions) == 3


def test_two_parties_of_two_and_four_players_to_start():
    events = create_game(ruleset="article_ii", deck=DECK, variant="standard", creative=False, max_players=4,
                         options={**PARTIES, "team": "Blue"}, creator=Actor(1, "ann"), rng=SeededRng(1))
    state = replay(events)

    def join(state, user_id, team):
        return replay(decide(state, {"type": "join", "team": team}, actor=Actor(user_id, f"u{user_id}"),
                             rng=SeededRng(1)), state)

    state = join(state, 2, "Blue")
    with pytest.raises(DomainError) as refusal:
        join(state, 3, "Blue")
    assert refusal.value.code == "limit_reached"
    state = join(state, 3, "Red")
    with pytest.raises(DomainError) as refusal:
        join(state, 4, "Green")
    assert (refusal.value.code, refusal.value.details["parties"]) == ("invalid", ["Blue", "Red"])
    with pytest.raises(DomainError) as refusal:
        decide(state, {"type": "start"}, actor=Actor(1, "ann"), rng=SeededRng(1))
    assert refusal.value.code == "not_enough_players"


def test_when_a_player_becomes_a_candidate_that_player_gets_a_point():
    match = Match(["Blue", None, "Blue", None], options={"starting_hand": 1})
    events = []
    for seat, title in enumerate(PRIMARY_HANDS):
        events += match.play(seat, title, seat)
    # Primary totals 3, 5, -6 and -3: seats 0 and 1 are the Candidates.
    assert event_data(events, "phase.ended")["candidates"] == [0, 1]
    assert event_data(events, "points.scored") == {
        "election": 1, "for": "candidate", "gains": [{"seat": 0, "points": 1}, {"seat": 1, "points": 1}]}
    assert match.state.table.points == (1, 1, 0, 0)


def test_when_a_player_is_elected_president_that_player_gains_two_points_and_other_party_members_gain_one():
    match = Match(["Blue", None, "Blue", None], options={"starting_hand": 1})
    events = match.play_election()
    # In the General seat 0 has 6 - 0 = 6 and seat 1 has 0 - 8 = -8: seat 0 is President, and seat 2 is of
    # seat 0's party, Blue. Seat 1, the other Candidate, keeps its Candidate's point.
    scored = [e.data for e in events if e.type == "points.scored"]
    assert scored[1] == {"election": 1, "for": "president",
                         "gains": [{"seat": 0, "points": 2}, {"seat": 2, "points": 1}]}
    assert match.state.table.points == (3, 1, 1, 0)
    # The election is over but not the match: the next of the four games begins with the whole deck again.
    assert match.state.status == "active"
    assert event_data(events, "election.began")["election"] == 2
    assert view_state(match.state, 0)["match"]["history"] == [
        {"election": 1, "candidates": [0, 1], "president": [0], "outcome": "president"}]
    assert [len(p.hand) for p in match.state.table.players] == [1, 1, 1, 1]
    assert all(p.in_play == () and p.counters == {"electability": 0, "affiliation": 0}
               for p in match.state.table.players)
    assert match.state.table.phase == "primary" and match.state.table.roles == (None,) * 4


def test_after_four_games_the_player_with_the_most_points_wins():
    match = Match(["Blue", None, "Blue", None], options={"starting_hand": 1})
    for _ in range(3):
        match.play_election()
    assert match.state.status == "active"
    events = match.play_election()
    assert "election.began" not in types(events)
    finished = event_data(events, "game.finished")
    assert finished == {"winners": [0], "decided_by": "points", "outcome": "most_points",
                        "points": [{"seat": 0, "points": 12}, {"seat": 1, "points": 4}, {"seat": 2, "points": 4},
                                   {"seat": 3, "points": 0}],
                        "reason": "After four games, the player with the most points wins."}
    view = view_state(match.state, None)
    assert view["winners"] == [0] and view["outcome"]["outcome"] == "most_points"
    assert view["match"]["parties"] == [{"name": "Blue", "seats": [0, 2], "points": 16},
                                        {"name": "Party A", "seats": [1, 3], "points": 4}]
    assert [record["election"] for record in view["match"]["history"]] == [1, 2, 3, 4]


def test_a_president_shared_by_a_tie_gains_two_points_each_and_their_party_members_one():
    parties = {"Blue": (0, 2), "Red": (1, 3)}
    assert president_points([0], parties) == {0: 2, 2: 1}
    assert president_points([0, 1], parties) == {0: 2, 2: 1, 1: 2, 3: 1}
    assert president_points([0, 2], parties) == {0: 2, 2: 2}  # both of a party: each is President
    assert president_points([], parties) == {}
    assert most_points([12, 4, 12, 0]) == [0, 2]


@pytest.mark.parametrize("seed", range(3))
def test_a_match_played_by_its_legal_moves_alone_ends_after_four_games_with_the_points_the_rules_give(seed):
    state, _ = play_by_legal_moves(seed, 4, PARTIES, check_views=seed == 0)
    table = state.table
    assert state.status == "finished" and [r["election"] for r in table.elections] == [1, 2, 3, 4]
    # The points, counted again from the match's record by the Variation's words.
    expected = Counter()
    for record in table.elections:
        expected.update(dict.fromkeys(record["candidates"], 1))
        for president in record["president"]:
            expected[president] += 2
            party = next(seats for seats in table.parties.values() if president in seats)
            expected.update({mate: 1 for mate in party if mate not in record["president"]})
    assert table.points == tuple(expected[seat] for seat in range(4))
    best = max(table.points)
    assert list(state.winners) == [seat for seat in range(4) if table.points[seat] == best]
    # Every card of the deck is somewhere, once: each game was dealt from the whole deck.
    places = [*table.draw_pile, *table.discard_pile, *(c for p in table.players for c in (*p.hand, *p.in_play))]
    assert Counter(places) == Counter(table.cards.keys())
