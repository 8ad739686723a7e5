"""The old Dvorak Engine's MUSH commands, translated to the engine's commands and views. Pure: no Django.

``run_line(state, line, seat=...)`` reads one line a player typed. A question is answered at once from
``engine.view_state(state, seat)`` (so it shows exactly what that seat may see): ``Query(lines)``. An action
becomes ``Command(command, describe)``: ``command`` is the JSON command for ``engine.decide``, and
``describe(events)`` turns the caller's redacted views of the events it produced (each ``{"type", "data"}``,
as the events API gives them) into lines of text.

A line that is no command raises ``DomainError`` with code ``unknown_command``; a malformed one ``invalid``, with
a message saying how to write it; a command the game's ruleset cannot take ``mush_command_unavailable``
(``available_commands`` decides it from the commands the ruleset declares and the table its view shows).

N is a card's position (from 1) in the list the player last saw: ``viewhand`` for ``playcard``, ``discard``,
``givecard`` and ``readcard``; ``viewplay`` for ``destroy`` and ``readcard play``; ``viewdisc`` for
``readcard disc``; ``viewvote`` numbers proposals for ``approve``, ``reject`` and ``repeal``. PLAYER is a
username or a seat number. ``docs/mush.md`` gives each command, the engine command it becomes, and how it
differs from the old engine's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import dvorak_engine as engine
from dvorak_engine import DomainError, GameState
from dvorak_engine.rulesets import get_ruleset


@dataclass(frozen=True)
class Query:
    lines: list[str]


@dataclass(frozen=True)
class Command:
    command: dict
    describe: Callable[[list[dict]], list[str]]


MushResult = Query | Command

# What the commands read of a game's view: a table of cards, as the rulesets played with Dvorak's cards show it.
TABLE_KEYS = frozenset({"players", "turn", "discard_pile", "draw_pile", "proposals", "rejected", "rules",
                        "special_rules"})

# The help text: each command as it is written, in the old engine's groups.
HELP_GROUPS = [
    ["drawcard", "playcard N", "discard N", "destroy N", "givecard N to PLAYER", "endturn"],
    ["viewhand", "viewplay", "viewdisc", "viewvote", "viewrep", "viewall", "count PLAYER", "countdraw"],
    ["readcard N (your hand)", "readcard play N", "readcard disc N"],
    ["newcard Name/A|T/text", "approve N", "reject N", "repeal N", "help"],
]


def run_line(state: GameState, line: str, *, seat: int | None) -> MushResult:
    if not isinstance(line, str) or not line.strip():
        raise DomainError("Type a command; \"help\" lists them.", code="invalid", details={"field": "line"})
    word, _, rest = line.strip().partition(" ")
    name = word.lower()
    if name not in _COMMANDS:
        raise DomainError(f"There is no command {word!r}; \"help\" lists them.",
                          code="unknown_command", details={"known": sorted(_COMMANDS)})
    view = engine.view_state(state, seat)
    available = available_commands(state, view)
    if name not in available:
        why = _unavailable(name, state.ruleset, has_table=_has_table(view))
        raise DomainError(why, code="mush_command_unavailable",
                          details={"command": name, "ruleset": state.ruleset, "available": available})
    if name == "help":
        return Query(_help(available))
    return _COMMANDS[name].handler(view, rest.strip())


def available_commands(state: GameState, view: dict) -> list[str]:
    """The MUSH commands this game takes, decided by what its ruleset declares, so that a ruleset added later
    gets them without a change here: a question needs a table of Dvorak cards to read (hands, piles,
    proposals), an action also the engine command it becomes; ``help`` is always there."""
    declared = get_ruleset(state.ruleset).commands
    has_table = _has_table(view)
    return sorted(
        name for name, mush_command in _COMMANDS.items()
        if name == "help" or (has_table and (mush_command.sends is None or mush_command.sends in declared))
    )


def _has_table(view: dict) -> bool:
    return TABLE_KEYS <= set(view)


def _unavailable(name: str, ruleset: str, *, has_table: bool) -> str:
    if not has_table:
        return (f"{name!r} is not available for this ruleset: the MUSH text commands play a table of Dvorak cards, "
                f"which the {ruleset} ruleset does not lay out. Send its JSON commands instead.")
    return (f"{name!r} is not available for this ruleset: it is the engine's {_COMMANDS[name].sends!r} command, "
            f"which the {ruleset} ruleset does not have. \"help\" lists the commands this game takes.")


# --- reading the view ----------------------------------------------------------------------------------------


def _card_line(card: dict) -> str:
    kind = "Action" if card["type"].lower() == "action" else card["type"]
    return f"{card['title']} ({kind})" + (f": {card['text']}" if card.get("text") else "")


def _numbered(cards: list[dict]) -> list[str]:
    return [f"{number}. {_card_line(card)}" for number, card in enumerate(cards, start=1)]


def _hand(view: dict) -> list[dict]:
    if view["you"] is None:
        raise DomainError("You are not playing in this game, so you hold no cards.", code="forbidden")
    return view["players"][view["you"]].get("hand", [])


def _things_in_play(view: dict) -> list[tuple[str, dict]]:
    """Every Thing in play, in seat order, with the Things played onto it after it."""
    things: list[tuple[str, dict]] = []

    def add(owner: str, card: dict) -> None:
        things.append((owner, card))
        for attached in card.get("attached", []):
            add(owner, attached)

    for player in view["players"]:
        for card in player["in_play"]:
            add(player["username"], card)
    return things


def _discard_top_first(view: dict) -> list[dict]:
    return list(reversed(view["discard_pile"]))


def _position(text: str, cards: list, what: str) -> Any:
    if not text.isdigit() or not 1 <= int(text) <= len(cards):
        raise DomainError(f"N must be the number of a card in {what} (1 to {len(cards)}).",
                          code="invalid", details={"field": "line"})
    return cards[int(text) - 1]


def _player(view: dict, name: str) -> dict:
    for player in view["players"]:
        if player["username"].lower() == name.lower() or name == str(player["seat"]):
            return player
    raise DomainError(f"No player is called {name!r}; name a username or a seat number.",
                      code="invalid", details={"field": "line"})


def _cause(view: dict) -> str:
    """The card whose effect a destroy carries out: the top of the discard pile."""
    if not view["discard_pile"]:
        raise DomainError("Play the card that lets you do this first: the discard pile is empty.",
                          code="invalid", details={"field": "line"})
    return view["discard_pile"][-1]["id"]


def _proposal_number(text: str) -> int:
    if not text.isdigit():
        raise DomainError("N must be a proposal's number, as viewvote lists them.", code="invalid", details={"field": "line"})
    return int(text)


# --- describing what happened ------------------------------------------------------------------------------


def _describer(view: dict) -> Callable[[list[dict]], list[str]]:
    names = {player["seat"]: player["username"] for player in view["players"]}
    you = view["you"]

    def who(seat: Any) -> str:
        return "You" if seat == you else names.get(seat, "Someone")

    def line(event: dict) -> str | None:
        data, kind = event.get("data", {}), event.get("type", "")
        card = data.get("card")
        title = card["title"] if isinstance(card, dict) else None
        if kind == "card.drawn":
            return f"{who(data.get('seat'))} drew {title}." if title else f"{who(data.get('seat'))} drew a card."
        if kind == "card.played":
            return f"{who(data['seat'])} played {title}."
        if kind == "cards.discarded":
            titles = [c["title"] for c in data.get("cards", []) if isinstance(c, dict)]
            return f"{who(data['seat'])} discarded {', '.join(titles) or 'cards'}."
        if kind == "thing.destroyed":
            return f"{title} was destroyed."
        if kind == "card.given":
            return f"{who(data['from'])} gave {title or 'a card'} to {who(data['to'])}."
        if kind == "turn.began":
            return f"It is {names.get(data['seat'])}'s turn."
        if kind == "proposal.opened":
            subject = "; ".join(_card_line(c) for c in data.get("cards", [])) or data["kind"].replace("_", " ")
            return f"Proposal {data['number']} is open for the vote: {subject}"
        if kind == "proposal.voted":
            return f"{who(data['seat'])} voted {'for' if data['approve'] else 'against'} proposal {data['number']}."
        if kind == "proposal.resolved":
            return f"Proposal {data['number']} was {data['status']}."
        if kind == "draw_pile.refilled":
            return "The discard pile was shuffled into a new draw pile."
        return None

    return lambda events: [text for text in map(line, events) if text]


def _command(view: dict, command: dict) -> Command:
    return Command(command=command, describe=_describer(view))


# --- the commands --------------------------------------------------------------------------------------------


def _drawcard(view: dict, rest: str) -> Command:
    return _command(view, {"type": "draw"})


def _playcard(view: dict, rest: str) -> Command:
    card = _position(rest, _hand(view), "your hand")
    return _command(view, {"type": "play", "card": card["id"]})


def _discard(view: dict, rest: str) -> Command:
    card = _position(rest, _hand(view), "your hand")
    return _command(view, {"type": "discard", "cards": [card["id"]]})


def _destroy(view: dict, rest: str) -> Command:
    _, card = _position(rest, _things_in_play(view), "play")
    return _command(view, {"type": "destroy", "card": card["id"], "cause": _cause(view)})


def _givecard(view: dict, rest: str) -> Command:
    """Team Dvorak's give: a card from your hand to a team-mate, spending the turn's Action (the engine's
    ``give`` without a ``cause``). A card whose effect gives a card away is carried out with the JSON ``give``."""
    number, _, receiver = rest.partition(" to ")
    if not receiver.strip():
        raise DomainError("Write it as: givecard N to PLAYER.", code="invalid", details={"field": "line"})
    card = _position(number.strip(), _hand(view), "your hand")
    if view["players"][view["you"]].get("team") is None:
        raise DomainError("givecard gives a card to a team-mate in place of your Action (Team Dvorak), and you "
                          "play in no team.", code="denied", details={"field": "line"})
    return _command(view, {"type": "give", "card": card["id"], "to": _player(view, receiver.strip())["seat"]})


def _endturn(view: dict, rest: str) -> Command:
    return _command(view, {"type": "end_turn"})


def _newcard(view: dict, rest: str) -> Command:
    parts = rest.split("/", 2)
    if len(parts) < 2 or parts[1].strip().upper() not in ("A", "T") or not parts[0].strip():
        raise DomainError("Write it as: newcard Name/A|T/text, e.g. newcard Armageddon/A/Destroy all "
                                     "Things.", code="invalid", details={"field": "line"})
    card_type = "Action" if parts[1].strip().upper() == "A" else "Thing"
    text = parts[2].strip() if len(parts) == 3 else ""
    return _command(view, {"type": "propose", "kind": "card",
                           "card": {"title": parts[0].strip(), "type": card_type, "text": text}})


def _vote(approve: bool) -> Callable[[dict, str], Command]:
    return lambda view, rest: _command(view, {"type": "vote", "proposal": _proposal_number(rest),
                                              "approve": approve})


def _viewhand(view: dict, rest: str) -> Query:
    if rest:
        # The old engine's "viewhand PLAYER" showed an opponent's hand; hands are hidden here.
        raise DomainError("viewhand shows your own hand only; count PLAYER says how many cards another holds.",
                          code="invalid", details={"field": "line"})
    return Query(_numbered(_hand(view)) or ["Your hand is empty."])


def _viewplay(view: dict, rest: str) -> Query:
    things = _things_in_play(view)
    return Query([f"{n}. {_card_line(card)} [{owner}]" for n, (owner, card) in enumerate(things, start=1)]
                 or ["No Things are in play."])


def _viewdisc(view: dict, rest: str) -> Query:
    return Query(_numbered(_discard_top_first(view)) or ["The discard pile is empty."])


def _viewrep(view: dict, rest: str) -> Query:
    return Query(_numbered(view.get("rejected", [])) or ["The repeal pile is empty."])


def _viewvote(view: dict, rest: str) -> Query:
    names = {player["seat"]: player["username"] for player in view["players"]}
    lines = []
    for proposal in view["proposals"]:
        subject = proposal.get("cards") or [proposal.get("card") or proposal.get("rule") or {}]
        what = "; ".join(_card_line(c) if "type" in c else c.get("title", "") for c in subject)
        votes = ", ".join(f"{names[int(seat)]} {'yes' if vote else 'no'}" for seat, vote in proposal["votes"].items())
        lines.append(f"{proposal['number']}. [{proposal['status']}] {proposal['kind']} by "
                     f"{names[proposal['author']]}: {what}" + (f" (votes: {votes})" if votes else ""))
    return Query(lines or ["Nothing has been proposed."])


def _count(view: dict, rest: str) -> Query:
    player = _player(view, rest)
    return Query([f"{player['username']} holds {player['hand_count']} cards."])


def _countdraw(view: dict, rest: str) -> Query:
    return Query([f"The draw pile holds {view['draw_pile']['count']} cards."])


def _viewall(view: dict, rest: str) -> Query:
    turn = view["turn"]
    lines = [f"Game: {view['status']}" + (f", {view['players'][turn['seat']]['username']}'s turn ({turn['stage']})"
                                          if turn else "")]
    for player in view["players"]:
        things = ", ".join(card["title"] for card in player["in_play"]) or "no Things"
        lines.append(f"{player['username']} (seat {player['seat']}, {player['status']}): {player['hand_count']} "
                     f"cards in hand; {things}")
    lines.append(f"Draw pile: {view['draw_pile']['count']} cards. Discard pile: {len(view['discard_pile'])} "
                 f"cards. Blank cards: {view['blank_cards']}.")
    lines.append("Rules: " + ", ".join(f"{param} {value}" for param, value in view["rules"].items()))
    lines += [f"Special Rule {rule['title']}: {rule['text']}" for rule in view["special_rules"]]
    return Query(lines)


def _readcard(view: dict, rest: str) -> Query:
    where, _, number = rest.partition(" ")
    if where.lower() == "play":
        _, card = _position(number, _things_in_play(view), "play")
    elif where.lower() == "disc":
        card = _position(number, _discard_top_first(view), "the discard pile")
    else:
        card = _position(rest, _hand(view), "your hand")
    lines = [_card_line(card)]
    lines += [f"Flavour: {card['flavor']}"] if card.get("flavor") else []
    lines += [f"Created by {card['creator']}."] if card.get("creator") else []
    return Query(lines)


def _help(available: list[str]) -> list[str]:
    lines = [", ".join(entry for entry in group if entry.split(" ")[0] in available) for group in HELP_GROUPS]
    return [line for line in lines if line]


@dataclass(frozen=True)
class MushCommand:
    """A command of the old engine: how it reads a line, and the engine command it becomes (None: a question,
    answered from the caller's view)."""

    handler: Callable[[dict, str], MushResult] | None
    sends: str | None


_COMMANDS: dict[str, MushCommand] = {
    "drawcard": MushCommand(_drawcard, "draw"),
    "playcard": MushCommand(_playcard, "play"),
    "discard": MushCommand(_discard, "discard"),
    "destroy": MushCommand(_destroy, "destroy"),
    "givecard": MushCommand(_givecard, "give"),
    "endturn": MushCommand(_endturn, "end_turn"),
    "newcard": MushCommand(_newcard, "propose"),
    "approve": MushCommand(_vote(True), "vote"),
    "reject": MushCommand(_vote(False), "vote"),
    "repeal": MushCommand(_vote(False), "vote"),
    "viewhand": MushCommand(_viewhand, None),
    "viewplay": MushCommand(_viewplay, None),
    "viewdisc": MushCommand(_viewdisc, None),
    "viewrep": MushCommand(_viewrep, None),
    "viewvote": MushCommand(_viewvote, None),
    "viewall": MushCommand(_viewall, None),
    "count": MushCommand(_count, None),
    "countdraw": MushCommand(_countdraw, None),
    "readcard": MushCommand(_readcard, None),
    "help": MushCommand(None, None),  # answered from the commands the game takes
}
