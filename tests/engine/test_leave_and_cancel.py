"""Leaving an open table and cancelling an open game (issue 34, "Live tables"):

    "`POST /games/{id}/leave/` frees a player's seat in an open game (the creator's leaving cancels it);
    `DELETE /games/{id}/` by the creator cancels an open game ... An active game is left by `concede`, as today."

In the engine: the core commands ``leave`` (a seated player of an open game: ``player.left``; the creator's:
``game.cancelled``) and ``cancel`` (the creator, seat 0: ``game.cancelled``). After a player leaves, the seats stay
0 to n-1 (later seats move down one) and every ruleset's per-seat state follows (``Ruleset.left``). A cancelled game
has status ``cancelled``: nobody may join, start or play it. Games created before list no such moves.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine import (
    Actor,
    SeededRng,
    codec,
    create_game,
    decide,
    evolve,
    legal_moves,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.events import Event
from dvorak_engine.rulesets import REGISTERED
from tests.engine.draft.table import sample_set as draft_set
from tests.engine.dvorak_games import card_set_and_player_decks, unique_title_deck
from tests.engine.recorded_streams import SAMPLE_DATA, SEED_DATA, deck
from tests.engine.test_legal_moves import filled

LEAVE, CANCEL = {"type": "leave"}, {"type": "cancel"}
# Ways out that end a game early: the random players below play their game on instead.
WAYS_OUT = {"leave", "cancel", "abandon", "concede"}


class Table:
    """An open game of any ruleset: created by person 0, joined by the people named."""

    def __init__(self, ruleset: str, game_deck: dict, *, max_players: int, variant: str = "standard",
                 options: dict | None = None, joins: dict[int, dict] | None = None, seed: int = 1):
        self.rng, self.chooser = SeededRng(seed), random.Random(seed)
        self.people = [Actor(user_id=100 + n, username=f"person{n}") for n in range(8)]
        self.joins = joins or {}
        self.events: list[Event] = []
        self.state = None
        self.record(create_game(ruleset=ruleset, deck=game_deck, variant=variant, creative=False,
                                max_players=max_players, options={**(options or {}), **self.joins.get(0, {})},
                                creator=self.people[0], rng=self.rng))

    def record(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)
        return events

    def by(self, person: int, command: dict[str, Any]) -> list[Event]:
        return self.record(decide(self.state, command, actor=self.people[person], rng=self.rng))

    def join(self, person: int) -> list[Event]:
        return self.by(person, {"type": "join", **self.joins.get(person, {})})

    def seat_of(self, person: int) -> int | None:
        return next((s.seat for s in self.state.seats if s.user_id == self.people[person].user_id), None)

    def person_at(self, seat: int) -> int:
        return next(n for n, actor in enumerate(self.people) if actor.user_id == self.state.seats[seat].user_id)

    def play(self, commands: int = 150) -> None:
        """Random legal moves of every seat (ways out left aside), each listed move accepted as listed."""
        for _ in range(commands):
            if self.state.status not in ("active", "voting"):
                return
            offered = [(seat, move) for seat in range(len(self.state.seats))
                       for move in legal_moves(self.state, seat) if move["type"] not in WAYS_OUT]
            if not offered:
                return
            seat, move = self.chooser.choice(offered)
            self.by(self.person_at(seat), filled(move, self.chooser))


def ccg_set() -> tuple[dict, dict[int, dict]]:
    card_set, player_decks = card_set_and_player_decks(4)
    return card_set, {n: {"player_deck": player_deck} for n, player_deck in enumerate(player_decks)}


def tables() -> dict[str, Any]:
    """For each registered ruleset (and Dvorak's variants whose seats bring cards), how its table is set: three
    people seated where the ruleset takes three, else two."""
    card_set, ccg_joins = ccg_set()
    filibuster = deck(SAMPLE_DATA / "filibuster-sample-set.json")
    return {
        "dvorak": lambda: Table("dvorak", unique_title_deck(), max_players=4),
        "dvorak-multi_deck": lambda: Table("dvorak", unique_title_deck(), max_players=4, variant="multi_deck"),
        "dvorak-ccg": lambda: Table("dvorak", card_set, max_players=4, variant="ccg", joins=ccg_joins),
        "article_ii": lambda: Table("article_ii", deck(SEED_DATA / "article-ii.json"), max_players=4),
        "socialism": lambda: Table("socialism", deck(SEED_DATA / "socialism.json"), max_players=4),
        "virtues_of_the_drake": lambda: Table("virtues_of_the_drake",
                                              deck(SAMPLE_DATA / "virtues-of-the-drake-sample.json"), max_players=4),
        "filibuster": lambda: Table("filibuster", filibuster, max_players=3, variant="standard"),
        "rock_paper_scissors_extreme": lambda: Table(
            "rock_paper_scissors_extreme", deck(SEED_DATA / "rock-paper-scissors-extreme-deck.json"), max_players=2),
        "serm": lambda: Table("serm", deck(SEED_DATA / "simplistic-wargame-with-four-stats-s-e-r-m.json"),
                              max_players=2),
        "odds_and_evens": lambda: Table("odds_and_evens", {"cards": []}, max_players=2),
        "draft": lambda: Table("draft", draft_set(), max_players=4),
    }


TABLES = tables()


def test_every_registered_ruleset_is_left_and_cancelled_here():
    assert {name.split("-")[0] for name in TABLES} == set(REGISTERED)


def per_seat(state) -> list[int]:
    """The seat numbers the ruleset's own state keeps per player, where it keeps any."""
    for name in ("players", "scores"):
        entries = getattr(state.table, name, None)
        if entries:
            return [entry.seat for entry in entries]
    return []


@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_player_leaves_an_open_table_and_the_rest_play_the_game(name):
    """ "frees a player's seat in an open game": the seat goes, later seats move down one (with everything the
    ruleset keeps for them), the freed seat is taken again, and the game starts and is played as ever."""
    table = TABLES[name]()
    three = table.state.max_players >= 3
    for person in ((1, 2) if three else (1,)):
        table.join(person)
    seated = len(table.state.seats)
    assert legal_moves(table.state, 1) == [LEAVE]
    assert LEAVE not in legal_moves(table.state, 0) and CANCEL in legal_moves(table.state, 0)

    events = table.by(1, LEAVE)
    assert [(e.type, e.data) for e in events] == [("player.left", {"seat": 1})]
    assert table.seat_of(1) is None and len(table.state.seats) == seated - 1
    assert [s.seat for s in table.state.seats] == list(range(seated - 1))
    if three:  # person 2 moved down to seat 1, with their per-seat state
        assert table.seat_of(2) == 1 and table.state.seats[1].username == "person2"
    assert per_seat(table.state) in ([], list(range(seated - 1)))
    view = view_state(table.state, None)
    if "players" in view and isinstance(view["players"], list) and view["players"] \
            and isinstance(view["players"][0], dict) and "username" in view["players"][0]:
        assert "person1" not in [player["username"] for player in view["players"]]
    assert table.state.status == "open"

    # The seat is free again: someone else takes it (the leaver could too), and the game is played.
    table.joins.setdefault(3, table.joins.get(1, {}))
    table.join(3)
    assert [s.seat for s in table.state.seats] == list(range(seated))
    assert per_seat(table.state) in ([], list(range(seated)))
    table.by(0, {"type": "start"})
    assert table.state.status in ("active", "voting")
    table.play()
    assert table.state.version > len(table.events) - 1 >= seated + 5
    # Replay, and a snapshot read back, give the same game.
    assert replay(table.events) == table.state
    assert state_from_json(json.loads(json.dumps(state_to_json(table.state)))) == table.state


@pytest.mark.parametrize("name", sorted(TABLES))
def test_the_creator_cancels_an_open_game_and_nothing_more_happens_in_it(name):
    """ "`DELETE /games/{id}/` by the creator cancels an open game ... the game then shows status `cancelled`" """
    table = TABLES[name]()
    table.join(1)
    with pytest.raises(DomainError) as refused:
        table.by(1, CANCEL)
    assert refused.value.code == "forbidden"
    events = table.by(0, CANCEL)
    assert [(e.type, e.data) for e in events] == [("game.cancelled", {"by": 0})]
    assert table.state.status == "cancelled" and view_state(table.state, 1)["status"] == "cancelled"
    for seat in range(len(table.state.seats)):
        assert legal_moves(table.state, seat) == []
    for person, command in ((0, {"type": "start"}), (2, {"type": "join", **table.joins.get(2, {})}),
                            (1, LEAVE), (0, CANCEL)):
        with pytest.raises(DomainError) as refused:
            table.by(person, command)
        assert refused.value.code == "game_not_open"


def test_the_creators_leaving_cancels_the_game():
    """ "(the creator's leaving cancels it)" """
    table = TABLES["socialism"]()
    table.join(1)
    events = table.by(0, LEAVE)
    assert [(e.type, e.data) for e in events] == [("game.cancelled", {"by": 0})]
    assert table.state.status == "cancelled"


def test_a_game_being_played_is_not_left_nor_cancelled_but_conceded():
    """ "An active game is left by `concede`, as today." """
    table = TABLES["dvorak"]()
    table.join(1)
    table.by(0, {"type": "start"})
    for person, command in ((1, LEAVE), (0, CANCEL), (0, LEAVE)):
        with pytest.raises(DomainError) as refused:
            table.by(person, command)
        assert refused.value.code == "game_not_open"
    assert all(move["type"] not in ("leave", "cancel") for seat in (0, 1) for move in legal_moves(table.state, seat))
    table.by(1, {"type": "concede"})
    assert table.state.status == "finished"


def test_someone_not_seated_neither_leaves_nor_cancels():
    table = TABLES["dvorak"]()
    for command in (LEAVE, CANCEL):
        with pytest.raises(DomainError) as refused:
            table.by(5, command)
        assert refused.value.code == "forbidden"


@pytest.mark.parametrize("name", ["dvorak-ccg", "dvorak-multi_deck", "filibuster"])
def test_the_cards_a_leaver_brought_leave_with_them_and_no_card_id_is_shown(name):
    """A player of an open table holds no hand yet: what they brought (a CCG player deck, a side's deck) leaves
    with them, later seats keep their own cards, and no viewer is shown a card id by the leaving."""
    table = TABLES[name]()
    table.join(1)
    table.join(2)
    brought = {seat: {card for card, owner in table.state.table.owners.items() if owner == seat} for seat in (1, 2)}
    assert brought[1] and brought[2]
    before = table.state
    event = table.by(1, LEAVE)[0]
    owners = table.state.table.owners
    assert not brought[1] & set(table.state.table.cards) and not brought[1] & set(owners)
    assert {card for card, owner in owners.items() if owner == 1} == brought[2]
    for viewer in (0, 1, None):
        assert view_event(event, viewer, before, table.state) == {"seat": 1}
    shown = json.dumps([view_state(table.state, viewer) for viewer in (0, 1, None)])
    assert not any(card in shown for card in brought[1])


def test_a_game_created_before_lists_its_open_tables_moves_as_it_did():
    """Games created before leaving existed (their ``game.created`` without ``may_leave``) list no new moves, so a
    stored game shows what it showed; its state is written as before."""
    table = TABLES["dvorak"]()
    table.join(1)
    created = table.events[0]
    old_created = Event(created.type, {k: v for k, v in created.data.items() if k != "may_leave"}, created.schema)
    old = replay([old_created, *table.events[1:]])
    assert legal_moves(old, 0) == [{"type": "start"}] and legal_moves(old, 1) == []
    assert "may_leave" not in codec.to_json_as_before(old)
    assert "may_leave" not in view_event(old_created, 0, None, replay([old_created]))
    assert legal_moves(table.state, 0) == [{"type": "start"}, CANCEL]
