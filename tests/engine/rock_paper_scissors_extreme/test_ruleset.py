"""Rock Paper Scissors Extreme on the ruleset contract, through the engine's entry points (``dvorak_engine``) as the
service calls them: a game created from the seed deck, its secrets hidden by the contract's own declarations,
malformed commands refused as ``invalid`` and nothing else ever raised, snapshots read back."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvorak_core.errors import STATUS_BY_CODE
from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    decide,
    evolve,
    legal_moves,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
    visibility,
)
from dvorak_engine.rulesets import get_ruleset
from tests.engine.rock_paper_scissors_extreme.match import deck, fill
from tests.sizes import size

NAME = "rock_paper_scissors_extreme"
PEOPLE = [Actor(user_id=1, username="ann"), Actor(user_id=2, username="bob")]


class Game:
    """A game as the service plays it: created, joined, started, and sent commands by seat."""

    def __init__(self, seed: int = 1, *, start: bool = True):
        self.rng = SeededRng(seed)
        self.events, self.states = [], [None]
        self.record(create_game(ruleset=NAME, deck=deck(), variant="standard", creative=False, max_players=2,
                                options={}, creator=PEOPLE[0], rng=self.rng))
        self.send(1, {"type": "join"})
        if start:
            self.send(0, {"type": "start"})

    @property
    def state(self):
        return self.states[-1]

    def record(self, events):
        for event in events:
            self.events.append(event)
            self.states.append(evolve(self.states[-1], event))
        return events

    def send(self, seat, command):
        return self.record(decide(self.state, command, actor=PEOPLE[seat], rng=self.rng))

    def seen(self, index: int, viewer) -> dict:
        """Event ``index`` as ``viewer`` sees it."""
        return view_event(self.events[index], viewer, self.states[index], self.states[index + 1])


def test_the_registry_names_the_ruleset_and_the_seed_deck_names_it_too():
    assert get_ruleset(NAME).name == deck()["ruleset"] == NAME


def test_a_new_game_waits_for_two_players_and_seat_0_starts_it():
    game = Game(start=False)
    assert game.state.status == "open" and view_state(game.state, 0)["board"] is None
    assert legal_moves(game.state, 0) == [{"type": "start"}, {"type": "cancel"}]
    assert legal_moves(game.state, 1) == [{"type": "leave"}]
    with pytest.raises(DomainError) as refused:
        decide(game.state, {"type": "join"}, actor=Actor(user_id=3, username="cy"), rng=game.rng)
    assert refused.value.code == "limit_reached"
    game.send(0, {"type": "start"})
    assert game.state.status == "active"
    assert legal_moves(game.state, 0) == legal_moves(game.state, 1) == [
        {"type": "throw", "sign": {"choose": 1, "from": ["rock", "paper", "scissors"], "list": False}}]


def test_the_state_keeps_the_envelope_and_adds_the_board():
    view = view_state(Game().state, 1)
    assert {"status", "version", "ruleset", "you", "players", "winners", "board"} <= set(view)
    assert view["ruleset"] == NAME and view["you"] == 1 and view["winners"] == []
    assert [{k: p[k] for k in ("seat", "username", "counters")} for p in view["players"]] == [
        {"seat": 0, "username": "ann", "counters": {"points": 0}}, {"seat": 1, "username": "bob", "counters": {"points": 0}}]
    assert view["board"]["phase"] == "throw" and len(view["board"]["center"]) == 3
    assert view["board"]["supply"] == {"count": 27}


def test_a_deck_these_rules_cannot_read_is_refused_when_the_game_is_created_with_the_list():
    cards = deck()["cards"] + [{"title": "Plastic Spoon", "type": "Thing", "text": "Stir.", "copies": 1},
                               {"title": "Pewter Totem", "type": "Thing", "text": "Shiny.", "copies": 1}]
    with pytest.raises(DomainError) as refused:
        create_game(ruleset=NAME, deck={**deck(), "cards": cards}, variant="standard", creative=False,
                    max_players=2, options={}, creator=PEOPLE[0], rng=SeededRng(1))
    assert (refused.value.code, refused.value.status) == ("denied", 409)
    assert refused.value.details == {"cards": ["Pewter Totem", "Plastic Spoon"]}


@pytest.mark.parametrize(("changes", "code", "field"), [
    ({"creative": True}, "invalid", "creative"),
    ({"variant": "team"}, "invalid", "variant"),
    ({"max_players": 3}, "invalid", "max_players"),
])
def test_no_creative_play_no_variant_and_two_players(changes, code, field):
    arguments = {"ruleset": NAME, "deck": deck(), "variant": "standard", "creative": False, "max_players": 2,
                 "options": {}, "creator": PEOPLE[0], "rng": SeededRng(1), **changes}
    with pytest.raises(DomainError) as refused:
        create_game(**arguments)
    assert refused.value.code == code and refused.value.details["field"] == field


def test_the_deck_is_only_counted_in_game_created():
    game = Game()
    for viewer in (0, 1, None):
        shown = game.seen(0, viewer)
        assert shown["cards"] == {"count": 30} and shown["deck"]["slug"] == "rock-paper-scissors-extreme-deck"


def test_the_contract_hides_a_pending_throw_in_the_state_and_in_its_event():
    game = Game()
    before = len(game.events)
    game.send(0, {"type": "throw", "sign": "paper"})
    board = game.state.table.board
    # The board's own declarations, read by the core's generic view: the sign is its seat's alone.
    assert visibility.state_view(board.throws, 1) == visibility.state_view(board.throws, None) == [{"seat": 0}]
    assert visibility.state_view(board.throws, 0) == [{"seat": 0, "sign": "paper"}]
    assert visibility.state_view(game.state.table, 1)["board"]["throws"] == [{"seat": 0}]
    for viewer in (1, None):
        assert "paper" not in json.dumps(view_state(game.state, viewer)["board"]["throws"])
        assert view_state(game.state, viewer)["board"]["throws"] == [{"seat": 0}]
        assert game.seen(before, viewer) == {"seat": 0}
    assert game.seen(before, 0) == {"seat": 0, "sign": "paper"}
    game.send(1, {"type": "throw", "sign": "rock"})
    revealed = next(i for i, e in enumerate(game.events) if e.type == "rpsx.revealed")
    for viewer in (0, 1, None):
        assert game.seen(revealed, viewer) == {"throws": [{"seat": 0, "sign": "paper"}, {"seat": 1, "sign": "rock"}]}


def test_every_event_type_says_who_sees_each_key_of_its_data():
    ruleset = get_ruleset(NAME)
    from dvorak_engine.rulesets.rock_paper_scissors_extreme import EVENT_TYPES

    assert set(EVENT_TYPES) <= set(ruleset.shows)
    assert ruleset.shows["rpsx.thrown"] == {"seat": "public", "sign": "owner"}
    assert ruleset.shows["rpsx.potion_chosen"] == {"seat": "public", "potion": "owner", "simulate": "owner"}


def play(seed: int, check=None) -> Game:
    """A whole game of moves ``legal_moves`` listed, filled at random."""
    game, chooser = Game(seed), random.Random(seed)
    for _ in range(3000):
        if game.state.status != "active":
            return game
        offers = [(seat, legal_moves(game.state, seat)) for seat in (0, 1)]
        seat, moves = chooser.choice([offer for offer in offers if offer[1]])
        before = game.state
        game.send(seat, fill(chooser.choice(moves), chooser.sample))
        if check:
            check(before, game)
    pytest.fail("the game did not end")


def test_a_game_of_listed_moves_ends_and_replays_and_snapshots_to_the_same_state():
    game = play(5)
    assert game.state.status == "finished" and max(p.points for p in game.state.table.board.players) >= 21
    assert game.state.winners == game.state.table.board.winners
    assert legal_moves(game.state, 0) == legal_moves(game.state, 1) == []
    state = None
    for event in game.events:
        state = evolve(state, event)
    assert state == game.state
    assert state_from_json(json.loads(json.dumps(state_to_json(game.state)))) == game.state
    middle = game.states[len(game.states) // 2]
    assert state_from_json(json.loads(json.dumps(state_to_json(middle)))) == middle


# --- malformed bodies: refused as invalid, whatever the stage, and nothing but DomainError ever raised ---------

MALFORMED = [
    {"type": "throw"}, {"type": "throw", "sign": None}, {"type": "throw", "sign": 1}, {"type": "throw", "sign": []},
    {"type": "throw", "sign": {"x": 1}}, {"type": "throw", "sign": "ROCK"}, {"type": "throw", "sign": True},
    {"type": "drink"}, {"type": "drink", "potion": 7}, {"type": "drink", "potion": ""},
    {"type": "drink", "potion": ["a"]}, {"type": "drink", "potion": "a", "simulate": 3},
    {"type": "drink", "potion": "a", "simulate": {}}, {"type": "claim"}, {"type": "claim", "choice": 1},
    {"type": "claim", "choice": ["take"]}, {"type": "claim", "choice": "both"},
    {"type": "claim", "choice": "score", "break": 5}, {"type": "claim", "choice": "score", "steal": [1]},
    {"type": "draw"}, {"type": "draw", "card": 4}, {"type": "draw", "card": None}, {"type": "draw", "card": ""},
    {"type": "discard"}, {"type": "discard", "cards": "a"}, {"type": "discard", "cards": []},
    {"type": "discard", "cards": [1]}, {"type": "discard", "cards": ["a", "b"]}, {"type": "discard", "cards": [""]},
    {"type": "discard", "card": "a"}, {"sign": "rock"}, {"type": 3}, ["throw"], "throw", None,
]


@pytest.mark.parametrize("body", MALFORMED, ids=lambda body: json.dumps(body))
def test_a_malformed_body_is_invalid_in_every_stage(body):
    def check(before, game):
        if game.state.status != "active":  # a finished game refuses every command alike: game_not_active
            return
        with pytest.raises(DomainError) as refused:
            decide(game.state, body, actor=PEOPLE[0], rng=game.rng)
        assert refused.value.code == "invalid", refused.value.message

    play(2, check)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children,
                                                                                      max_size=3), max_leaves=6)
FIELDS = ["sign", "potion", "simulate", "choice", "break", "steal", "card", "cards"]


@settings(max_examples=size("RPSX_BODIES", 150, 500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command_type=st.sampled_from(["throw", "drink", "pass", "claim", "draw", "discard"]),
       body=st.dictionaries(st.sampled_from(FIELDS), JSON, max_size=3), steps=st.integers(0, 120),
       seat=st.sampled_from([0, 1]))
def test_any_body_in_any_stage_is_accepted_or_refused_with_a_known_code(command_type, body, steps, seat):
    game, chooser = Game(7), random.Random(steps)
    for _ in range(steps):
        offers = [(s, legal_moves(game.state, s)) for s in (0, 1)]
        offers = [offer for offer in offers if offer[1]]
        if not offers:
            break
        s, moves = chooser.choice(offers)
        game.send(s, fill(chooser.choice(moves), chooser.sample))
    try:
        decide(game.state, {**body, "type": command_type}, actor=PEOPLE[seat], rng=game.rng)
    except DomainError as refused:
        assert refused.code in STATUS_BY_CODE
