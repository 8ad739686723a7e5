"""Live tables in Dvorak (issue 34; ``rulesets/dvorak/live.py``): whom a clock waits on, a player whose time runs
out, undo by agreement, and computer players.

    "Each seat waited on has a `deadline` ... the player whose turn it is, the voters of an open vote ... whoever must
    answer. When a deadline passes ... each is out of the game, as if it had conceded. With two sides left, the other
    wins; with more, the game goes on without the seat." (docs/api.md, Clocks)
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, bots, decide, legal_moves, replay, view_state
from dvorak_engine.ruleset import FREE_MOVES
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.rulesets.dvorak.state import DRAW, PLAY, VARIANTS, is_action
from dvorak_engine.state import ACTIVE, VOTING, GameState
from dvorak_engine.values import replace
from tests.engine.conftest import Table
from tests.engine.dvorak_games import _choose as choose_command
from tests.engine.dvorak_games import actors, random_game, team_of, unique_title_deck
from tests.engine.test_legal_moves import filled, seed_deck

RULES = get_ruleset("dvorak")
CLOCK = Actor(user_id=0, username="(clock)")
T = 1_800_000_000.0  # the server's time when the game starts
TURN_MOVES = {"draw", "end_turn", "discard"}
ANSWERS = {"vote", "accept", "dispute"}
THREE_THINGS = {"id": "three-things", "title": "Winning",
                "text": "The first player to control three Things wins the game.", "params": {}}
ODDITY = {"id": "oddity", "title": "Oddity", "text": "Players may do odd things with gold.", "params": {}}


class Past:
    """The game's history as the server hands it to an undo: its state at a version, and the events after one."""

    def __init__(self, events: list) -> None:
        self.stored = list(events)

    def state(self, version: int) -> GameState:
        return replay(self.stored[:version])

    def events(self, after: int) -> list:
        return self.stored[after:]


class LiveTable(Table):
    """A game whose commands are decided at a time (``now``) and with the game's history, as the server decides
    them."""

    def send_as(self, actor: Actor, command: dict, now: float | None = None) -> list:
        return self._apply(decide(self.state, command, actor=actor, rng=self.rng, now=now, past=Past(self.events)))

    def send(self, seat: int, command: dict, now: float | None = None) -> list:
        return self.send_as(self.people[seat], command, now)

    def expire(self, now: float) -> list:
        return self.send_as(CLOCK, {"type": "expire"}, now)

    def refused(self, seat: int | None, command: dict, now: float | None = None) -> str:
        actor = CLOCK if seat is None else self.people[seat]
        with pytest.raises(DomainError) as refusal:
            decide(self.state, command, actor=actor, rng=self.rng, now=now, past=Past(self.events))
        return refusal.value.code

    @property
    def turn(self) -> int:
        return self.state.table.turn.seat

    def deadlines(self) -> dict[int, float]:
        return {int(seat): deadline for seat, deadline in self.state.deadlines.items()}


def clocked(players: int, clock: dict, **kwargs: Any) -> LiveTable:
    table = LiveTable(players, deck=kwargs.pop("deck", unique_title_deck()), options={"clock": clock,
                                                                                    **kwargs.pop("options", {})},
                      **kwargs)
    table.send(0, {"type": "start"}, now=T)
    return table


def types(events: list) -> list[str]:
    return [event.type for event in events]


def waited_for(state: GameState) -> set[int]:
    """The seats whose listed moves say the game needs them: the turn's own moves, or an answer to a vote or
    claim."""
    needed = TURN_MOVES if state.status == ACTIVE else ANSWERS
    return {seat.seat for seat in state.seats
            if any(move["type"] in needed and "cause" not in move for move in legal_moves(state, seat.seat))}


def check_awaited(state: GameState) -> None:
    """The seats awaited are those whose listed moves say the game needs them; each has a move to make."""
    awaited = RULES.awaited(state)
    assert len(set(awaited)) == len(awaited)
    for seat in awaited:
        assert any(move["type"] not in FREE_MOVES for move in legal_moves(state, seat)), (seat, state.status)
    if state.status == ACTIVE:
        assert awaited == (state.table.turn.seat,)
    proposal = state.table.open_proposal() if state.table is not None else None
    if state.status not in (ACTIVE, VOTING) or proposal is not None and proposal.during != ACTIVE:
        assert awaited == ()
    else:
        assert set(awaited) == waited_for(state) and awaited


# --- awaited: the player whose turn it is, the voters, whoever must answer a claim ---------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_the_game_waits_on_the_player_whose_turn_it_is_in_every_stage(players):
    table = LiveTable(players, deck=unique_title_deck()).start()
    seen_stages, turns = set(), []
    for _ in range(60):
        check_awaited(table.state)
        seat = table.turn
        assert RULES.awaited(table.state) == (seat,)
        seen_stages.add(table.state.table.turn.stage)
        turns.append(seat)
        move = next(move for move in legal_moves(table.state, seat) if move["type"] in TURN_MOVES)
        table.send(seat, filled(move, random.Random(len(turns))))
    assert seen_stages >= {DRAW, PLAY}
    assert set(turns) == set(range(players))


def test_an_any_time_card_does_not_make_its_holder_awaited():
    table = LiveTable(2, deck=unique_title_deck()).start()
    seat = table.turn
    any_time = next(card.title for card in table.state.table.cards.values()
                    if "at any time" in card.text and card.type == "Action")
    table.arrange(hands={1 - seat: [any_time]}, stage=DRAW)
    assert {"type": "play", "card": table.card(any_time)} in legal_moves(table.state, 1 - seat)
    assert RULES.awaited(table.state) == (seat,)


def test_the_voters_of_a_proposal_are_awaited_until_each_has_voted():
    table = LiveTable(3, deck=unique_title_deck(), creative=True, options={"blank_cards": 10}).start()
    turn = table.turn
    author = (turn + 1) % 3
    table.send(author, {"type": "propose", "kind": "card", "card": {"title": "Egg", "type": "Thing", "text": ""}})
    assert table.state.status == "voting"
    voters = [seat for seat in range(3) if seat != author]  # not its author (the rulebook presents it to the others)
    assert RULES.awaited(table.state) == tuple(voters)
    check_awaited(table.state)
    table.send(voters[0], {"type": "vote", "proposal": 1, "approve": True})
    assert RULES.awaited(table.state) == (voters[1],)
    table.send(voters[1], {"type": "vote", "proposal": 1, "approve": True})
    assert table.state.status == "active" and table.state.table.proposals[0].status == "accepted"
    assert RULES.awaited(table.state) == (turn,)


def test_no_clock_runs_for_a_vote_before_the_game_starts_or_in_its_aftermath():
    table = LiveTable(2, deck=unique_title_deck(), creative=True, options={"blank_cards": 10})
    table.send(0, {"type": "propose", "kind": "card", "card": {"title": "Early", "type": "Thing", "text": ""}})
    assert table.state.status == "voting" and RULES.awaited(table.state) == ()
    table.send(1, {"type": "vote", "proposal": 1, "approve": True})
    table.start()
    table.send(table.turn, {"type": "concede"})
    assert table.state.status == "finished" and RULES.awaited(table.state) == ()
    table.send(0, {"type": "propose", "kind": "card", "card": {"title": "Late", "type": "Thing", "text": ""}})
    assert table.state.status == "voting" and RULES.awaited(table.state) == ()


def claim_table(players: int) -> LiveTable:
    """A game whose cards the server reads, with a Special Rule it cannot read: citing it opens a claim (a
    disputed claim passes by majority)."""
    return LiveTable(players, deck=unique_title_deck(special_rules=[ODDITY]),
                     options={"unread_effects": "claim", "vote_rule": "majority"}).start()


def test_a_claim_awaits_the_players_who_answer_it_then_those_who_vote_on_it():
    table = claim_table(3)
    claimant = table.turn
    others = [seat for seat in range(3) if seat != claimant]
    events = table.send(claimant, {"type": "counter", "cause": "oddity", "seat": claimant, "name": "gold",
                                   "delta": 2})
    assert types(events) == ["claim.opened"] and table.state.status == "voting"
    assert RULES.awaited(table.state) == tuple(others)
    check_awaited(table.state)
    table.send(others[0], {"type": "dispute", "claim": 1})
    # Disputed: put to the vote, the claimant counted in favour and the disputer against; the last one decides.
    assert RULES.awaited(table.state) == (others[1],)
    check_awaited(table.state)
    table.send(others[1], {"type": "vote", "claim": 1, "approve": True})
    assert table.state.status == "active" and RULES.awaited(table.state) == (claimant,)
    assert table.state.table.player(claimant).counters["gold"] == 2


GAMES = [
    # (seed, players, variant, creative)
    (1, 2, "standard", False), (2, 3, "standard", True), (3, 4, "team", False), (4, 3, "team", True),
    (5, 2, "multi_deck", True), (6, 3, "multi_deck", False), (7, 2, "ccg", False), (8, 3, "ccg", True),
]


def played(seed: int, players: int, variant: str, creative: bool, steps: int) -> list[GameState]:
    """The states of a game played by random commands (``dvorak_games``), as each command left it."""
    game = random_game(seed, players=players, variant=variant, creative=creative, steps=0,
                       options={"blank_cards": 20} if creative else {})
    people, chooser, rng = actors(players), random.Random(seed), SeededRng(seed)
    states = [game.state]
    for _ in range(steps):
        if game.state.status not in (ACTIVE, VOTING):
            break
        seat, command = choose_command(game.state, chooser)
        game.record(decide(game.state, command, actor=people[seat], rng=rng))
        states.append(game.state)
    return states


@pytest.mark.parametrize(("seed", "players", "variant", "creative"), GAMES)
def test_in_every_variant_the_game_waits_on_exactly_the_seats_it_needs(seed, players, variant, creative):
    assert variant in VARIANTS
    states = played(seed, players, variant, creative, steps=150)
    for state in states:
        check_awaited(state)
    assert {state.status for state in states} >= {"active"}


# --- a clock running out ---------------------------------------------------------------------------------------


def test_each_decision_of_the_player_to_move_has_its_own_seconds():
    table = clocked(2, {"per_move": 5})
    seat = table.turn
    assert table.deadlines() == {seat: T + 5}
    events = table.send(seat, {"type": "draw"}, now=T + 2)
    assert events[-1].data["clock"] == {"deadlines": {str(seat): T + 7}, "banks": {}}
    assert table.deadlines() == {seat: T + 7}
    view = view_state(table.state, 1 - seat)
    assert [entry["deadline"] is not None for entry in view["clock"]["seats"]] == [s == seat for s in range(2)]


def test_the_clock_rides_on_the_commands_last_event_and_every_fold_agrees_on_it():
    """A clocked command writes no event of the clock's own: its last event carries the deadlines and banks. The
    server's one fold as it decides (``decide_folded``), folding event by event, and replay all give the same state;
    a game stored when the clock was an event of its own (``clock.set``) replays to the same clock."""
    from dvorak_engine import decide_folded, evolve
    from dvorak_engine.events import Event

    table = clocked(3, {"initial": 60, "increment": 2})
    chooser = random.Random(7)
    for step in range(40):
        if table.state.status not in (ACTIVE, VOTING):
            break
        seat, command = choose_command(table.state, chooser)
        now = T + 3 * (step + 1)
        before = table.state
        events, states = decide_folded(before, command, actor=table.people[seat], rng=SeededRng(step), now=now,
                                       past=Past(table.events))
        assert "clock.set" not in types(events)
        assert all("clock" not in event.data for event in events[:-1])
        one_by_one = before
        for event, state in zip(events, states, strict=True):
            one_by_one = evolve(one_by_one, event)
            assert one_by_one == state
        assert replay(events, before) == states[-1]
        table._apply(events)
        assert table.state == states[-1]
    carried = [event for event in table.events if "clock" in event.data]
    assert len(carried) > 10 and table.state.banks and table.state.deadlines
    # The same game as it would have been stored before: each carried clock an event of its own after its command.
    legacy = []
    for event in table.events:
        timing = event.data.get("clock")
        legacy.append(Event(event.type, {k: v for k, v in event.data.items() if k != "clock"}, event.schema))
        if timing is not None:
            legacy.append(Event("clock.set", timing))
    old = replay(legacy)
    assert (old.deadlines, old.banks) == (table.state.deadlines, table.state.banks)
    assert old.version == table.state.version + len(carried)
    # What every viewer sees of the event: the clock, beside the event's own data.
    shown = view_state(table.state, None)["clock"]
    assert {entry["seat"]: entry["bank"] for entry in shown["seats"]} == {
        int(seat): bank for seat, bank in table.state.banks.items()}


def test_in_a_two_player_game_the_other_wins_when_the_time_runs_out():
    table = clocked(2, {"per_move": 5})
    late = table.turn
    assert table.refused(None, {"type": "expire"}, now=T + 4.9) == "clock_running"
    events = table.expire(now=T + 5)
    assert types(events) == ["clock.expired", "game.won_on_time"]
    assert events[0].data == {"seats": [late]} and events[1].data == {"winners": [1 - late]}
    assert table.state.status == "finished" and table.state.winners == (1 - late,)
    assert table.state.seat(late).status == "eliminated"
    assert legal_moves(table.state, 0) == [] and legal_moves(table.state, 1) == []
    assert RULES.awaited(table.state) == () and table.state.deadlines == {}
    view = view_state(table.state, 1 - late)
    assert view["turn"] is None and view["winners"] == [1 - late]
    assert replay(table.events) == table.state


def test_in_a_three_player_game_the_turn_passes_on_without_the_player_out_of_time():
    table = clocked(3, {"per_move": 5})
    late = table.turn
    table.send(late, {"type": "draw"}, now=T + 1)
    events = table.expire(now=T + 6)
    following = (late + 1) % 3
    assert types(events) == ["clock.expired", "turn.began"] and "clock" in events[-1].data
    assert table.state.status == "active" and table.turn == following
    assert RULES.awaited(table.state) == (following,) and table.deadlines() == {following: T + 11}
    assert legal_moves(table.state, late) == []
    assert table.refused(late, {"type": "draw"}, now=T + 7) == "eliminated"
    # The two left play on, turn and turn about.
    now = T + 7
    while table.turn == following:
        move = next(move for move in legal_moves(table.state, following) if move["type"] in TURN_MOVES)
        table.send(following, filled(move, random.Random(0)), now=now)
    assert table.turn == next(seat for seat in range(3) if seat not in (late, following))
    check_awaited(table.state)
    last = table.turn
    events = table.expire(now=table.deadlines()[last])
    assert types(events) == ["clock.expired", "game.won_on_time"]
    assert table.state.winners == (following,)


def test_a_team_is_beaten_on_time_once_all_its_players_have_run_out():
    joins = [{"team": team_of(seat)} for seat in range(4)]
    table = clocked(4, {"per_move": 10}, variant="team", joins=joins)
    out: list[int] = []
    while table.state.status == "active":
        [late] = RULES.awaited(table.state)
        table.expire(now=table.deadlines()[late])
        out.append(late)
    losers = team_of(out[-1])
    winners = tuple(seat for seat in range(4) if team_of(seat) != losers)
    assert {seat for seat in range(4) if team_of(seat) == losers} <= set(out)
    # The whole team wins, its player who ran out of time before too (as after a knock-out in Team Dvorak).
    assert set(winners) & set(out)
    assert table.state.status == "finished" and table.state.winners == winners
    assert types(table.events[-2:]) == ["clock.expired", "game.won_on_time"]
    assert table.events[-1].data == {"winners": list(winners)}


def test_a_voter_running_out_settles_the_vote_it_held_up():
    table = clocked(3, {"per_move": 5}, creative=True, options={"blank_cards": 10})
    turn = table.turn
    author = (turn + 1) % 3
    table.send(author, {"type": "propose", "kind": "card", "card": {"title": "Egg", "type": "Thing", "text": ""}},
               now=T + 1)
    assert set(table.deadlines()) == {turn, (turn + 2) % 3}
    voter, late = (turn + 2) % 3, turn
    table.send(voter, {"type": "vote", "proposal": 1, "approve": True}, now=T + 2)
    events = table.expire(now=T + 6)
    # The one voter left approved: the proposal passes; the turn was the late player's, so it passes on too.
    assert types(events)[:3] == ["clock.expired", "proposal.resolved", "turn.began"]
    assert table.state.table.proposals[0].status == "accepted" and table.state.status == "active"
    assert table.turn == author  # the next player still in the game
    assert late not in RULES.awaited(table.state) and RULES.awaited(table.state) == (table.turn,)
    assert table.deadlines() == {table.turn: T + 11}


def test_the_game_never_ends_with_a_vote_hanging():
    table = clocked(2, {"per_move": 5}, creative=True, options={"blank_cards": 10})
    author = table.turn
    table.send(author, {"type": "propose", "kind": "card", "card": {"title": "Egg", "type": "Thing", "text": ""}},
               now=T + 1)
    assert table.deadlines() == {1 - author: T + 6}
    events = table.expire(now=T + 6)
    assert types(events) == ["clock.expired", "proposal.resolved", "game.won_on_time"]
    assert table.state.table.proposals[0].status == "rejected"
    assert table.state.status == "finished" and table.state.winners == (author,)
    # The Aftermath: the rejected card may be proposed again, by the whole table.
    assert table.state.table.rejected == table.state.table.proposals[0].cards


def test_a_claim_is_accepted_when_the_last_player_to_answer_it_runs_out():
    table = clocked(3, {"per_move": 5}, deck=unique_title_deck(special_rules=[ODDITY]),
                    options={"unread_effects": "claim"})
    claimant = table.turn
    others = [seat for seat in range(3) if seat != claimant]
    table.send(claimant, {"type": "counter", "cause": "oddity", "seat": claimant, "name": "gold", "delta": 2},
               now=T + 1)
    assert table.deadlines() == {others[0]: T + 6, others[1]: T + 6}
    table.send(others[0], {"type": "accept", "claim": 1}, now=T + 2)
    events = table.expire(now=T + 6)
    # Every other player still in the game has accepted it: the move is carried out.
    assert types(events)[:3] == ["clock.expired", "claim.resolved", "counter.changed"]
    assert table.state.status == "active" and table.state.table.player(claimant).counters["gold"] == 2
    assert RULES.awaited(table.state) == (claimant,)


def test_an_agreement_to_abandon_is_no_decision_the_clock_waits_for():
    table = clocked(3, {"per_move": 5})
    turn = table.turn
    agreeing = (turn + 1) % 3
    events = table.send(agreeing, {"type": "abandon"}, now=T + 1)
    assert all("clock" not in event.data for event in events) and table.deadlines() == {turn: T + 5}
    table.expire(now=T + 5)
    # Two left, one of whom agreed: the game goes on until the other agrees too.
    assert table.state.status == "active" and table.state.table.agreed_to_abandon == (agreeing,)
    other = next(seat for seat in range(3) if seat not in (turn, agreeing))
    assert {"type": "abandon"} in legal_moves(table.state, other)
    table.send(other, {"type": "abandon"}, now=T + 6)
    assert table.state.status == "abandoned"


def expired_at_random(state: GameState, chooser: random.Random) -> GameState:
    """``state`` after the deadlines of some of the seats it waits on passed (at least one)."""
    awaited = list(RULES.awaited(state))
    late = chooser.sample(awaited, chooser.randint(1, len(awaited)))
    state = replace(state, deadlines={str(seat): 1.0 for seat in late})
    events = decide(state, {"type": "expire"}, actor=CLOCK, rng=SeededRng(0), now=2.0)
    return RULES.fold(state, events)


@pytest.mark.parametrize(("seed", "players", "variant", "creative"), [game for game in GAMES if game[1] >= 3])
def test_after_any_run_out_the_game_is_over_or_goes_on_without_those_players(seed, players, variant, creative):
    chooser = random.Random(seed)
    tried = 0
    for state in played(seed, players, variant, creative, steps=120)[::2]:
        if state.status not in (ACTIVE, VOTING) or not RULES.awaited(state):
            continue
        after = expired_at_random(state, chooser)
        tried += 1
        assert after.table.open_claim() is None or after.status == VOTING
        if after.status == "finished":
            assert after.winners and after.table.turn is None
            assert after.table.open_proposal() is None and after.table.open_claim() is None
            assert not any(legal_moves(after, seat.seat) for seat in after.seats) or after.table.creative
            continue
        assert after.status in (ACTIVE, VOTING)
        check_awaited(after)
        assert all(after.seat(seat).status == "playing" for seat in RULES.awaited(after))
    assert tried > 10


def test_a_bank_clock_runs_down_while_the_player_thinks_and_takes_its_increment():
    table = clocked(2, {"initial": 30, "increment": 5})
    seat = table.turn
    assert table.state.banks == {"0": 30.0, "1": 30.0} and table.deadlines() == {seat: T + 30}
    table.send(seat, {"type": "draw"}, now=T + 10)
    assert table.state.banks[str(seat)] == 25 and table.deadlines() == {seat: T + 35}
    now = T + 20
    while table.turn == seat:  # a discard down to the hand limit, if need be, then the end of the turn
        deadline = table.deadlines()[seat]
        move = next(move for move in legal_moves(table.state, seat) if move["type"] in ("discard", "end_turn"))
        table.send(seat, filled(move, random.Random(0)), now=now)
        assert table.state.banks[str(seat)] == deadline - now + 5
    # The turn passed: the player keeps what was left plus the increment; the other's bank runs from now.
    assert table.deadlines() == {1 - seat: now + 30}
    assert table.state.banks[str(1 - seat)] == 30


# --- undo by agreement ----------------------------------------------------------------------------------------------


def drawn_and_played(table: LiveTable) -> tuple[int, int, str]:
    """The player to move draws, then plays a Thing: (their seat, the version after the draw, the Thing)."""
    seat = table.turn
    table.send(seat, {"type": "draw"})
    after_draw = table.state.version
    thing = next(card for card in table.state.table.player(seat).hand if not is_action(table.state, card))
    table.send(seat, {"type": "play", "card": thing})
    return seat, after_draw, thing


def test_an_agreed_undo_takes_a_play_back_the_card_back_in_hand():
    table = LiveTable(2, deck=unique_title_deck()).start()
    seat, after_draw, thing = drawn_and_played(table)
    assert thing in table.state.table.player(seat).in_play
    table.send(seat, {"type": "undo", "to": after_draw})
    assert {"type": "undo_answer", "accept": True} in legal_moves(table.state, 1 - seat)
    events = table.send(1 - seat, {"type": "undo_answer", "accept": True})
    assert types(events) == ["undo.answered", "game.undone"]
    hand = [card["id"] for card in view_state(table.state, seat)["players"][seat]["hand"]]
    assert thing in hand and thing not in table.state.table.player(seat).in_play
    assert table.state.table.turn.stage == PLAY and RULES.awaited(table.state) == (seat,)
    assert replay(table.events) == table.state


def test_no_undo_across_a_card_drawn():
    table = LiveTable(2, deck=unique_title_deck()).start()
    started = table.state.version
    seat, _, _ = drawn_and_played(table)
    assert table.refused(seat, {"type": "undo", "to": started}) == "undo_not_possible"


@pytest.mark.parametrize(("effect", "event"), [
    ({"type": "roll", "cause": "oddity", "dice": "2d6"}, "dice.rolled"),
    ({"type": "take_random", "cause": "oddity", "from": "other"}, "card.taken"),
    ({"type": "reveal", "cause": "oddity", "card": "mine"}, "card.revealed"),
])
def test_no_undo_across_a_card_or_a_throw_shown(effect, event):
    table = LiveTable(2, deck=unique_title_deck(special_rules=[ODDITY])).start()
    seat = table.turn
    before = table.state.version
    command = {**effect, **({"from": 1 - seat} if effect.get("from") == "other" else {}),
               **({"card": table.state.table.player(seat).hand[0]} if effect.get("card") == "mine" else {})}
    assert types(table.send(seat, command)) == [event]
    assert table.refused(seat, {"type": "undo", "to": before}) == "undo_not_possible"


def test_an_undo_across_a_discard_by_choice_is_agreed_like_a_play():
    table = LiveTable(2, deck=unique_title_deck(special_rules=[ODDITY])).start()
    seat = table.turn
    before = table.state.version
    card = table.state.table.player(seat).hand[0]
    table.send(seat, {"type": "discard", "cause": "oddity", "cards": [card]})
    table.send(seat, {"type": "undo", "to": before})
    table.send(1 - seat, {"type": "undo_answer", "accept": True})
    assert card in table.state.table.player(seat).hand


# --- computer players -----------------------------------------------------------------------------------------------


def win_deck(slug: str, things: int) -> dict:
    deck = seed_deck(slug)
    rule = {**THREE_THINGS, "text": f"The first player to control {things} Things wins the game."}
    deck["special_rules"] = [*deck.get("special_rules", []), rule]
    return deck


def test_a_win_a_special_rule_gives_is_listed_once_it_holds():
    table = LiveTable(2, deck=unique_title_deck(special_rules=[THREE_THINGS]),
                      options={"unread_effects": "claim"}).start()
    seat = table.turn
    things = [card.title for card in table.state.table.cards.values() if card.type == "Thing" and not card.text]
    table.arrange(in_play={seat: things[:2], 1 - seat: things[2:5]})
    win = {"type": "win", "cause": "three-things"}
    assert win not in legal_moves(table.state, seat) and win in legal_moves(table.state, 1 - seat)
    table.arrange(in_play={seat: things[:3], 1 - seat: things[3:5]})
    assert win in legal_moves(table.state, seat)
    table.send(seat, win)
    assert table.state.status == "finished" and table.state.winners == (seat,)


def test_greedy_plays_a_thing_rather_than_end_its_turn():
    table = LiveTable(2, deck=unique_title_deck()).start()
    seat = table.turn
    plain = [card for card in table.state.table.cards.values() if not card.text]
    thing = next(card.title for card in plain if card.type == "Thing")
    action = next(card.title for card in plain if card.type == "Action")
    table.arrange(hands={seat: [thing, action]}, stage=PLAY)
    for attempt in range(5):
        command = bots.choose(table.state, seat, "greedy", SeededRng(f"greedy-{attempt}"))
        assert command["type"] == "play" and command["card"] == table.card(thing), command


def test_greedy_takes_the_win_it_is_offered():
    table = LiveTable(2, deck=unique_title_deck(special_rules=[THREE_THINGS]),
                      options={"unread_effects": "claim"}).start()
    seat = table.turn
    things = [card.title for card in table.state.table.cards.values() if card.type == "Thing" and not card.text]
    table.arrange(in_play={1 - seat: things[:3]}, stage=DRAW)
    assert bots.choose(table.state, 1 - seat, "greedy", SeededRng(1)) == {"type": "win", "cause": "three-things"}


def test_the_evaluation_counts_a_sides_things_counters_and_hand_from_the_seats_view():
    def player(seat: int, team: str | None, things: int, *, gold: int = 0, hand: int = 0,
               status: str = "playing") -> dict:
        return {"seat": seat, "team": team, "status": status, "hand_count": hand, "counters": {"gold": gold},
                "in_play": [{"title": f"T{n}", "attached": []} for n in range(things)]}

    def score(*players: dict) -> float:
        return RULES.evaluate({"players": list(players), "rules": {"hand_limit": 5}}, 0)

    base = score(player(0, None, 1), player(1, None, 1))
    assert base == 0
    assert score(player(0, None, 2), player(1, None, 1)) > base > score(player(0, None, 1), player(1, None, 2))
    assert score(player(0, None, 1, gold=2), player(1, None, 1)) > base
    # A Thing played onto another counts; cards in hand count a little, up to the hand limit.
    attached = player(0, None, 1)
    attached["in_play"][0]["attached"] = [{"title": "Armour", "attached": []}]
    assert score(attached, player(1, None, 1)) == score(player(0, None, 2), player(1, None, 1))
    assert 0 < score(player(0, None, 1, hand=3), player(1, None, 1)) - base < 1
    assert score(player(0, None, 1, hand=9), player(1, None, 1)) == score(player(0, None, 1, hand=5),
                                                                          player(1, None, 1))
    # A team-mate's Things are the side's; a player knocked out is nobody's opponent any more.
    assert score(player(0, "A", 1), player(1, "B", 1), player(2, "A", 3)) > score(player(0, "A", 1),
                                                                                  player(1, "B", 1))
    assert score(player(0, None, 1), player(1, None, 5, status="eliminated"), player(2, None, 1)) == base


def bot_game(slug: str, levels: tuple[str, str], seed: int, timings: list[float], *, step_cap: int = 1500
             ) -> GameState:
    """Two computer players play a game of ``slug`` with a Special Rule that ends it, each sending the command it
    chooses as soon as the game waits on it (now and then a move one may make at any time)."""
    table = LiveTable(2, deck=win_deck(slug, 5), seed=seed, options={"unread_effects": "claim"}).start()
    chooser = random.Random(seed)
    for step in range(step_cap):
        if table.state.status not in (ACTIVE, VOTING):
            return table.state
        awaited = RULES.awaited(table.state)
        movers = [seat for seat in range(2) if bots.playable(table.state, seat)]
        assert set(awaited) <= set(movers)
        seat = awaited[0] if awaited and chooser.random() < 0.9 else chooser.choice(movers)
        started = time.process_time()  # the time this process spends deciding, however busy the machine is
        command = bots.choose(table.state, seat, levels[seat], SeededRng(f"{seed}-{step}"))
        timings.append(time.process_time() - started)
        table.send(seat, command)  # refused (DomainError) would fail the test
    raise AssertionError(f"not over after {step_cap} commands: {table.state.status}")


DECIDING = [("socialism", 1), ("rock-paper-scissors-extreme-deck", 2), ("article-ii-updated", 3),
            ("simplistic-wargame-with-four-stats-s-e-r-m", 4)]


@pytest.mark.parametrize(("slug", "seed"), DECIDING)
@pytest.mark.parametrize("levels", [("random", "random"), ("greedy", "greedy"), ("random", "greedy")])
def test_two_computer_players_play_a_game_to_its_end(slug, seed, levels):
    timings: list[float] = []
    state = bot_game(slug, levels, seed, timings)
    assert state.status == "finished" and len(state.winners) == 1
    assert len(timings) > 10
