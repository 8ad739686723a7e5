"""Vote rules: who may vote on a proposal and what passes. Pure Python, no Django.

The Creative Rules pass a card only if every player is in favour; players may vote in other rules ("reducing the
pass requirement from unanimity to a majority", "requiring costs to be paid for veto votes", a dictator denying
everyone else a vote). A vote rule is written as a JSON value, so it can sit in a game's rules or a Special
Rule's ``params``:

- ``"unanimity"``: passes when every voter is in favour; one vote against rejects it (the default);
- ``"majority"``: passes when more than half of the voters are in favour;
- ``"p/q"`` (``"2/3"``): passes when at least that fraction of the voters is in favour;
- ``"no_objection"``: passes only if no voter objects (a CCG card set's changes): one objection rejects it, and
  a proposal closed with ``final=True`` passes when nobody objected, however many did not vote;
- ``{"pass": <one of the above>, "voters": [seats], "veto_cost": {"counter": "gold", "amount": 1}}``: the same,
  with the vote given only to some seats and/or a vote against costing an amount of a counter the deck counts.

``parse_vote_rule`` checks a value and gives a ``VoteRule``; ``voters``, ``outcome`` and ``veto_cost`` answer
the questions the engine asks.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

UNANIMITY, MAJORITY, NO_OBJECTION = "unanimity", "majority", "no_objection"
ACCEPTED, REJECTED, OPEN = "accepted", "rejected", "open"
DEFAULT_VOTE_RULE = UNANIMITY

_FRACTION = re.compile(r"^\s*(\d{1,3})\s*/\s*(\d{1,3})\s*$")
_COUNTER_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")


class InvalidVoteRule(ValueError):
    """A value that is not a vote rule; the message says what is wrong, for a person."""


@dataclass(frozen=True)
class VetoCost:
    counter: str
    amount: int


@dataclass(frozen=True)
class VoteRule:
    """``passing``: ``"unanimity"``, ``"majority"``, ``"no_objection"`` or a fraction ``"p/q"``;
    ``voters``: the only seats that may vote (None: every player); ``veto_cost``: the price of a vote against."""

    passing: str = UNANIMITY
    voters: tuple[int, ...] | None = None
    veto_cost: VetoCost | None = None

    def to_json(self) -> Any:
        if self.voters is None and self.veto_cost is None:
            return self.passing
        value: dict[str, Any] = {"pass": self.passing}
        if self.voters is not None:
            value["voters"] = list(self.voters)
        if self.veto_cost is not None:
            value["veto_cost"] = {"counter": self.veto_cost.counter, "amount": self.veto_cost.amount}
        return value


def parse_vote_rule(value: Any) -> VoteRule:
    """The vote rule a JSON value names, or InvalidVoteRule."""
    if isinstance(value, VoteRule):
        return value
    if isinstance(value, str):
        return VoteRule(passing=_passing(value))
    if not isinstance(value, dict):
        raise InvalidVoteRule("A vote rule is a name like \"majority\", a fraction like \"2/3\", or an object.")
    unknown = set(value) - {"pass", "voters", "veto_cost"}
    if unknown:
        raise InvalidVoteRule(f"A vote rule has no {', '.join(sorted(unknown))}.")
    return VoteRule(passing=_passing(value.get("pass", UNANIMITY)), voters=_voters(value.get("voters")),
                    veto_cost=_veto_cost(value.get("veto_cost")))


def _passing(value: Any) -> str:
    if value in (UNANIMITY, MAJORITY, NO_OBJECTION):
        return value
    match = _FRACTION.match(value) if isinstance(value, str) else None
    if match is None:
        raise InvalidVoteRule(f"{value!r} is not a vote rule: use unanimity, majority, no_objection or a "
                              "fraction like \"2/3\".")
    numerator, denominator = int(match[1]), int(match[2])
    if not 0 < numerator <= denominator:
        raise InvalidVoteRule(f"{value!r} must be a fraction between 0 and 1, like \"2/3\".")
    return f"{numerator}/{denominator}"


def _voters(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if (not isinstance(value, list) or not value
            or not all(isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0 for seat in value)):
        raise InvalidVoteRule("\"voters\" must list at least one seat.")
    return tuple(sorted(set(value)))


def _veto_cost(value: Any) -> VetoCost | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"counter", "amount"}:
        raise InvalidVoteRule("\"veto_cost\" is {\"counter\": name, \"amount\": a whole number}.")
    counter, amount = value["counter"], value["amount"]
    if not isinstance(counter, str) or not _COUNTER_NAME.match(counter):
        raise InvalidVoteRule("\"veto_cost\" names a counter in snake_case, like \"gold\".")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise InvalidVoteRule("A veto costs a whole number of at least 1.")
    return VetoCost(counter=counter, amount=amount)


def voters(rule: Any, players: Iterable[int]) -> list[int]:
    """Who votes: the players given (those still in the game), narrowed to the rule's voters. If none of those
    is still playing, everyone playing votes, so that no proposal can be left open for ever."""
    rule = parse_vote_rule(rule)
    players = sorted(players)
    if rule.voters is None:
        return players
    chosen = [seat for seat in players if seat in rule.voters]
    return chosen or players


def may_vote(rule: Any, seat: int, players: Iterable[int]) -> bool:
    return seat in voters(rule, players)


def veto_cost(rule: Any) -> VetoCost | None:
    """What a vote against costs under this rule (None: nothing)."""
    return parse_vote_rule(rule).veto_cost


def outcome(rule: Any, votes: Mapping[int, bool], voters: Collection[int], *, final: bool = False) -> str:
    """``"accepted"``, ``"rejected"`` or ``"open"`` (more votes could still change it).

    ``votes`` maps a seat to True (in favour) or False (against); votes of seats not among ``voters`` do not
    count. ``final``: no more votes will come (a deadline passed), so whoever has not voted counts as not in
    favour, and under ``no_objection`` as not objecting.
    """
    rule = parse_vote_rule(rule)
    counted = {seat: approve for seat, approve in votes.items() if seat in voters}
    in_favour = sum(counted.values())
    against = len(counted) - in_favour
    undecided = 0 if final else len(voters) - len(counted)
    if rule.passing == NO_OBJECTION:
        if against:
            return REJECTED
        return ACCEPTED if undecided == 0 else OPEN
    if _passes(rule.passing, in_favour, len(voters)):
        return ACCEPTED
    if not _passes(rule.passing, in_favour + undecided, len(voters)):
        return REJECTED
    return OPEN


def _passes(passing: str, in_favour: int, voter_count: int) -> bool:
    if voter_count == 0:
        return False
    if passing == UNANIMITY:
        return in_favour == voter_count
    if passing == MAJORITY:
        return 2 * in_favour > voter_count
    return Fraction(in_favour, voter_count) >= Fraction(passing)
