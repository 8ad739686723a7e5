"""Helpers for tests that play whole games: which commands a seat may send now, and a random player.

``legal_commands`` lists commands the engine accepts from a seat in a state (a representative choice of the
effect moves and, in a creative game, of proposals and votes; not every possible one), so tests and API-level
fuzzing can drive games with random legal moves. ``random_game`` plays any Variant of Dvorak: team games seat
players in two teams, CCG games give each player a player deck of their own from one Card Set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dvorak_core import vote_rules
from dvorak_engine.events import Actor, Event
from dvorak_engine.game import create_game, decide, evolve
from dvorak_engine.rng import SeededRng
from dvorak_engine.rulesets.dvorak.aftermath import in_the_aftermath
from dvorak_engine.rulesets.dvorak.claims import claim_moves
from dvorak_engine.rulesets.dvorak.creative import vote_rule_of, voting_seats
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import (
    ACTION_ABILITY,
    CCG,
    DISCARD,
    DRAW,
    PLAY,
    STANDARD,
    TEAM,
    all_discard_piles,
    cards_visible_to,
    citation_refusal,
    is_action,
    may_be_played_out_of_turn,
    visible_modifiers,
)
from dvorak_engine.state import ACTIVE, PLAYING, VOTING, GameState, opponents, seats_standing, team_mates

# Effect moves and knock-outs are rarer than turn moves, so random games still run their course.
EFFECT_MOVES = ("move", "destroy", "take_random", "give", "counter", "roll", "reveal", "shuffle", "set_rule",
                "end_rule_effect", "discard")
ENDINGS = ("win", "eliminate", "concede")


def unique_title_deck(size: int = 30, *, special_rules: list[dict] | None = None) -> dict:
    """A deck of cards with unique titles (so a title found in a view names exactly one card)."""
    texts = ["", "Action: Draw a card.", "You may play this card at any time.", "Play onto a Thing."]
    cards = [
        {"title": f"Card {number:03d} Zq{number:03d}", "type": "Action" if number % 3 == 0 else "Thing",
         "text": texts[number % len(texts)], "flavor": "", "copies": 1, "corner_value": "", "creator": "",
         "stats": {}}
        for number in range(size)
    ]
    return {"slug": "test-deck", "title": "Test Deck", "ruleset": "dvorak", "special_rules": special_rules or [],
            "cards": cards}


def card_set_and_player_decks(players: int, cards_each: int = 12) -> tuple[dict, list[dict]]:
    """A CCG Card Set (unique titles) and one player deck per seat built from it, no title in two decks (so a
    title found in a view names exactly one card)."""
    card_set = {**unique_title_deck(players * cards_each), "slug": "test-set", "title": "Test Set"}
    decks = [
        {"id": 500 + seat, "name": f"Deck of player{seat}", "card_set": card_set["slug"], "version": 1,
         "cards": card_set["cards"][seat::players]}
        for seat in range(players)
    ]
    return card_set, decks


def team_of(seat: int) -> str:
    return f"Team {'AB'[seat % 2]}"


def legal_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    if state.seat(seat).status != PLAYING and not in_the_aftermath(state):
        return []
    if state.status == VOTING:
        return _vote_commands(state, seat)
    if state.status != ACTIVE:
        return []
    commands = _turn_commands(state, seat) + _out_of_turn_plays(state, seat)
    cause = _a_cause(state, seat)
    if cause is not None:
        commands += _effect_moves(state, seat, cause)
    if state.table.creative:
        commands += _proposals(state, seat)
    commands.append({"type": "concede"})
    return commands


def _vote_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    if state.table.open_claim() is not None:
        return claim_moves(state, seat)
    proposal = state.table.open_proposal()
    rule = vote_rule_of(state)
    commands: list[dict[str, Any]] = []
    if seat in voting_seats(state, proposal) and str(seat) not in proposal.votes:
        commands.append({"type": "vote", "proposal": proposal.number, "approve": True})
        cost = vote_rules.veto_cost(rule)
        if cost is None or state.table.player(seat).counters.get(cost.counter, 0) >= cost.amount:
            commands.append({"type": "vote", "proposal": proposal.number, "approve": False})
    if proposal.author == seat:
        commands.append({"type": "withdraw", "proposal": proposal.number})
    return commands


def _proposals(state: GameState, seat: int) -> list[dict[str, Any]]:
    """A new card, a bundle, a Special Rule changing the vote rule, and amendments and repeals of cards the
    proposer may see; every title new to the game (titles are unique, so a test can follow them)."""
    name = f"V{state.version:05d}s{seat}"
    player = state.table.player(seat)
    commands: list[dict[str, Any]] = [
        {"type": "propose", "kind": "special_rule",
         "rule": {"title": f"Rule {name}", "text": "Votes pass by majority.", "params": {"vote_rule": "majority"}}},
    ]
    if state.table.variant == CCG:
        return commands + _rule_proposals(state, name)  # a CCG deck's cards change only with the Card Set
    if state.table.blank_cards >= 2:
        # In a Multi-Deck game, a tit-for-tat bundle: an Egg for the proposer, a Flamethrower for the next seat.
        flamethrower_deck = {"deck": (seat + 1) % len(state.seats)} if state.table.has_own_decks else {}
        commands += [
            {"type": "propose", "kind": "card", "card": {"title": f"New {name}", "type": "Thing", "text": ""}},
            {"type": "propose", "kind": "bundle", "cards": [
                {"title": f"Egg {name}", "type": "Thing", "text": ""},
                {"title": f"Flamethrower {name}", "type": "Action", "text": "Destroy a Thing.",
                 **flamethrower_deck}]},
        ]
    if player.hand:
        commands += [
            {"type": "propose", "kind": "amend", "card": player.hand[0],
             "changes": {"title": f"Amended {name}", "text": "You may play this card at any time."}},
            {"type": "propose", "kind": "repeal", "card": player.hand[-1]},
        ]
    things = [c for p in state.table.players for c in p.in_play]
    if things:
        commands.append({"type": "propose", "kind": "repeal", "card": things[0]})
    if state.table.rejected:
        commands.append({"type": "propose", "kind": "card", "from_rejected": state.table.rejected[0]})
    return commands + _rule_proposals(state, name)


def _rule_proposals(state: GameState, name: str) -> list[dict[str, Any]]:
    if not state.table.special_rules:
        return []
    rule_id = state.table.special_rules[0].id
    return [
        {"type": "propose", "kind": "amend_rule", "rule": rule_id,
         "changes": {"title": f"Amended rule {name}", "params": {"vote_rule": "2/3"}}},
        {"type": "propose", "kind": "repeal_rule", "rule": rule_id},
    ]


def _turn_commands(state: GameState, seat: int) -> list[dict[str, Any]]:
    turn = state.table.turn
    if turn is None or turn.seat != seat:
        return []
    if turn.stage == DRAW:
        return [{"type": "draw"}]
    player = state.table.player(seat)
    limit = rule_value(state, "hand_limit", seat)
    over_limit = limit is not None and len(player.hand) > limit
    commands: list[dict[str, Any]] = []
    if over_limit:
        commands.append({"type": "discard", "cards": list(player.hand[: len(player.hand) - limit])})
    else:
        commands.append({"type": "end_turn"})
    if turn.stage == DISCARD:
        return commands
    actions_left = _below(rule_value(state, "actions_per_turn", seat), turn.actions_played)
    hosts = [c for p in state.table.players for c in p.in_play]
    # In one's own turn every card played counts against the turn's limits, one playable at any time too.
    for card_id in _within_limits(state, seat, player.hand):
        commands.append({"type": "play", "card": card_id})
        if not is_action(state, card_id) and hosts:
            commands.append({"type": "play", "card": card_id, "onto": hosts[-1]})
    if actions_left:
        commands += [{"type": "use", "card": c} for c in player.in_play
                     if ACTION_ABILITY.search(state.table.cards[c].text)]
        # Team Dvorak: a card to a team-mate in place of the Action.
        commands += [{"type": "give", "card": player.hand[-1], "to": mate} for mate in team_mates(state, seat)
                     if player.hand and state.seat(mate).status == PLAYING]
    return commands


def _below(limit: Any, used: int) -> bool:
    return limit is None or used < limit


def _within_limits(state: GameState, seat: int, cards: Any) -> list[str]:
    turn = state.table.turn
    things_left = _below(rule_value(state, "things_per_turn", seat), turn.things_played)
    actions_left = _below(rule_value(state, "actions_per_turn", seat), turn.actions_played)
    return [c for c in cards if (actions_left if is_action(state, c) else things_left)]


def _out_of_turn_plays(state: GameState, seat: int) -> list[dict[str, Any]]:
    turn = state.table.turn
    playable = [c for c in state.table.player(seat).hand if may_be_played_out_of_turn(state, c)]
    if turn is not None and turn.seat == seat:
        if turn.stage == PLAY:
            return []  # already listed with the turn's plays
        playable = _within_limits(state, seat, playable)
    return [{"type": "play", "card": c} for c in playable]


def _a_cause(state: GameState, seat: int) -> str | None:
    public = [*all_discard_piles(state), *(c for p in state.table.players for c in p.in_play)]
    if public:
        return public[-1]
    if state.table.special_rules:
        return state.table.special_rules[0].id
    return None


def _effect_moves(state: GameState, seat: int, cause: str) -> list[dict[str, Any]]:
    player = state.table.player(seat)
    others = [p.seat for p in state.seats if p.seat != seat]
    standing_others = [s for s in others if state.seat(s).status == PLAYING]
    things = [c for p in state.table.players for c in p.in_play]
    moves: list[dict[str, Any]] = [
        {"type": "roll", "cause": cause, "dice": "2d6"},
        {"type": "shuffle", "cause": cause, "pile": "draw"},
        {"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": 1},
        {"type": "win", "cause": cause},
        *_rule_changes(state, seat),
    ]
    if things:
        moves.append({"type": "destroy", "cause": cause, "card": things[0]})
    discarded = all_discard_piles(state)
    if discarded:
        moves.append({"type": "move", "cause": cause, "card": discarded[-1], "to": "hand"})
    if player.hand:
        moves += [
            {"type": "move", "cause": cause, "card": player.hand[0], "to": "draw_bottom"},
            {"type": "reveal", "cause": cause, "card": player.hand[0]},
            {"type": "discard", "cause": cause, "cards": [player.hand[0]]},
            {"type": "give", "cause": cause, "card": player.hand[-1], "to": others[0]},
        ]
    moves += [{"type": "take_random", "cause": cause, "from": s} for s in others if state.table.player(s).hand]
    moves += [{"type": "take_random", "cause": cause, "from": s, "opponent": True}
              for s in opponents(state, seat) if state.table.player(s).hand]
    if state.table.has_own_decks:
        moves.append({"type": "shuffle", "cause": cause, "pile": "discard", "seat": others[0]})
    moves += [{"type": "eliminate", "cause": cause, "seat": s} for s in standing_others]
    return moves


# Rule changes a random player makes, when it has a card to cite for them: (param, value, duration).
RULE_CHANGES = (
    ("hand_limit", 6, {}),
    ("draws_per_turn", 2, {"until": "end_of_turn", "turns": 2}),
    ("actions_per_turn", None, {"until": "end_of_turn"}),
)


def _rule_changes(state: GameState, seat: int) -> list[dict[str, Any]]:
    """``set_rule`` citing a card (or Special Rule) the seat may cite for each of ``RULE_CHANGES``, and
    ``end_rule_effect`` of each change in effect: its own, or another's with a card to cite for it."""
    turn = state.table.turn
    cards = [*state.table.player(seat).in_play, *(c for c, by in (turn.played.items() if turn else ()) if by == seat)]
    # Not a card gone from sight since, nor one back in the hand (a cause is never a card in hand).
    public = cards_visible_to(state, seat) - set(state.table.player(seat).hand)
    citable = [*(r.id for r in state.table.special_rules), *(c for c in cards if c in public)]

    def cause_for(param: str) -> str | None:
        return next((c for c in citable if citation_refusal(state, seat, c, param) is None), None)

    commands: list[dict[str, Any]] = []
    for param, value, duration in RULE_CHANGES:
        cause = cause_for(param)
        if cause is not None:
            commands.append({"type": "set_rule", "cause": cause, "param": param, "value": value, "seat": seat,
                             **duration})
    for modifier in visible_modifiers(state, seat):
        if modifier.by == seat:
            commands.append({"type": "end_rule_effect", "effect": modifier.order})
        elif modifier.by is not None and (cause := cause_for(modifier.param)) is not None:
            commands.append({"type": "end_rule_effect", "effect": modifier.order, "cause": cause})
    return commands


@dataclass
class RandomGame:
    """A game played by random legal moves: its events and the state after each of them."""

    events: list[Event] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.states[-1]

    def record(self, events: list[Event]) -> None:
        for event in events:
            before = self.states[-1] if self.states else None
            self.events.append(event)
            self.states.append(evolve(before, event))


def actors(count: int) -> list[Actor]:
    return [Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(count)]


def random_game(seed: int, *, players: int, deck: dict | None = None, steps: int = 200,
                options: dict | None = None, creative: bool = False, variant: str = STANDARD) -> RandomGame:
    """Seat ``players`` players, start, then send ``steps`` random legal commands (fewer if the game ends).
    A ``creative`` game also proposes cards and rules, and votes on them. A ``team`` game seats players in two
    teams, alternately (it needs three players or more); a ``ccg`` game plays ``card_set_and_player_decks``
    (``deck`` is then ignored)."""
    rng = SeededRng(seed)
    chooser = random.Random(seed)
    people = actors(players)
    joins: list[dict[str, Any]] = [{} for _ in people]
    if variant == TEAM:
        joins = [{"team": team_of(seat)} for seat in range(players)]
    if variant == CCG:
        deck, player_decks = card_set_and_player_decks(players)
        joins = [{"player_deck": player_deck} for player_deck in player_decks]
    game = RandomGame()
    game.record(create_game(ruleset="dvorak", deck=deck or unique_title_deck(), variant=variant,
                            creative=creative, max_players=players, options={**(options or {}), **joins[0]},
                            creator=people[0], rng=rng))
    for person, join in zip(people[1:], joins[1:], strict=True):
        game.record(decide(game.state, {"type": "join", **join}, actor=person, rng=rng))
    game.record(decide(game.state, {"type": "start"}, actor=people[0], rng=rng))
    for _ in range(steps):
        if game.state.status not in (ACTIVE, VOTING):
            break
        seat, command = _choose(game.state, chooser)
        game.record(decide(game.state, command, actor=people[seat], rng=rng))
    return game


def _choose(state: GameState, chooser: random.Random) -> tuple[int, dict[str, Any]]:
    """Mostly the player whose turn it is plays the turn; now and then anyone carries out a card's effect or
    proposes something; while a proposal is open, players vote (mostly in favour) or its author withdraws it."""
    if state.status == VOTING:
        return _choose_vote(state, chooser)
    seat = state.table.turn.seat
    roll = chooser.random()
    if roll < 0.8:
        turn_moves = _turn_commands(state, seat)
        if turn_moves:
            return seat, chooser.choice(turn_moves)
    standing = seats_standing(state)
    seat = chooser.choice(standing)
    options = [c for c in legal_commands(state, seat)
               if (c["type"] not in ENDINGS or roll > 0.995) and (c["type"] != "propose" or roll > 0.95)]
    if not options:
        return state.table.turn.seat, chooser.choice(_turn_commands(state, state.table.turn.seat))
    return seat, chooser.choice(options)


def _choose_vote(state: GameState, chooser: random.Random) -> tuple[int, dict[str, Any]]:
    choices = [(seat.seat, command) for seat in state.seats for command in legal_commands(state, seat.seat)]
    weights = [8 if command.get("approve") else 1 if command["type"] == "withdraw" else 2
               for _, command in choices]
    return chooser.choices(choices, weights=weights)[0]


def public_titles(state: GameState) -> set[str]:
    """Titles made public by proposals: every card proposed, amended or repealed is read by all who vote."""
    titles = set()
    for proposal in state.table.proposals:
        titles.update(state.table.cards[c].title for c in proposal.cards if c in state.table.cards)
        titles.update(t for t in (proposal.original.get("title"), proposal.changes.get("title")) if t)
    return titles


def visible_titles_and_ids(state: GameState, viewer: int | None) -> set[str]:
    """Titles and ids of the cards this viewer may see in this state."""
    visible = cards_visible_to(state, viewer)
    return visible | {state.table.cards[c].title for c in visible}
