"""The old Dvorak Engine's MUSH commands, translated to the engine's commands and views. Pure: no Django.

``run_line(state, line, seat=...)`` reads one line a player typed. A question is answered at once from
``engine.view_state(state, seat)`` (so it shows exactly what that seat may see): ``Query(lines)``. An action
becomes ``Command(command, describe)``: ``command`` is the JSON command for ``engine.decide``, and
``describe(events)`` turns the caller's redacted views of the events it produced (each ``{"type", "data"}``,
as the events API gives them) into lines of text. A line that is not a command raises
``DomainError`` with code ``unknown_command``; a malformed one with code ``invalid``, with a message saying how to
write it.

N is a card's position (from 1) in the list the player last saw: ``viewhand`` for ``playcard``, ``discard``,
``givecard`` and ``readcard``; ``viewplay`` for ``destroy`` and ``readcard play``; ``viewdisc`` for
``readcard disc``; ``viewvote`` numbers proposals for ``approve``, ``reject`` and ``repeal``. PLAYER is a
username or a seat number.

Commands:

- ``drawcard``: draw the turn's card.
- ``playcard N``: play card N of your hand (a Thing into play, an Action onto the discard pile).
- ``discard N``: discard card N of your hand (down to the hand limit at the end of your turn).
- ``destroy N``: destroy Thing N in play, as the effect of the card on top of the discard pile (the Action
  just played); the engine checks that you may.
- ``givecard N to PLAYER``: give card N of your hand to PLAYER, as the effect of the card on top of the
  discard pile (Team Dvorak: an Action spent to give a team-mate a card).
- ``endturn``: end your turn.
- ``viewhand``: your hand. ``viewplay``: every Thing in play. ``viewdisc``: the discard pile, top first.
- ``count PLAYER``: how many cards PLAYER holds. ``countdraw``: how many cards the draw pile holds.
- ``viewvote``: the proposals and their votes. ``viewrep``: the repeal pile (the rejected cards).
- ``viewall``: the whole table: turn, players, piles, rules and Special Rules.
- ``readcard N`` / ``readcard play N`` / ``readcard disc N``: one card's full text.
- ``newcard Name/A|T/text``: propose a new card (A: Action, T: Thing), e.g. ``newcard Armageddon/A/Destroy
  all Things.``
- ``approve N``: vote in favour of proposal N. ``reject N``: vote against it.
- ``repeal N``: toss proposal N into the repeal pile: as on the old engine, where a rejected card went to the
  repeal pile, it is a vote against (under unanimity one is enough).
- ``help``: this list.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import DomainError, GameState


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

HELP = [
    "drawcard, playcard N, discard N, destroy N, givecard N to PLAYER, endturn",
    "viewhand, viewplay, viewdisc, viewvote, viewrep, viewall, count PLAYER, countdraw",
    "readcard N (your hand), readcard play N, readcard disc N",
    "newcard Name/A|T/text, approve N, reject N, repeal N, help",
]


def run_line(state: GameState, line: str, *, seat: int | None) -> MushResult:
    if not isinstance(line, str) or not line.strip():
        raise DomainError("Type a command; \"help\" lists them.", code="invalid", details={"field": "line"})
    word, _, rest = line.strip().partition(" ")
    handler = _COMMANDS.get(word.lower())
    if handler is None:
        raise DomainError(f"There is no command {word!r}; \"help\" lists them.",
                          code="unknown_command", details={"known": sorted(_COMMANDS)})
    view = engine.view_state(state, seat)
    if not TABLE_KEYS <= set(view):
        raise DomainError(f"The MUSH text commands play a table of Dvorak cards; a {state.ruleset} game has none.",
                          code="unknown_command", details={"ruleset": state.ruleset})
    return handler(view, rest.strip())


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
    """The card whose effect a destroy or a gift carries out: the top of the discard pile."""
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
    number, _, receiver = rest.partition(" to ")
    if not receiver.strip():
        raise DomainError("Write it as: givecard N to PLAYER.", code="invalid", details={"field": "line"})
    card = _position(number.strip(), _hand(view), "your hand")
    return _command(view, {"type": "give", "card": card["id"], "to": _player(view, receiver.strip())["seat"],
                           "cause": _cause(view)})


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


def _help(view: dict, rest: str) -> Query:
    return Query(list(HELP))


_COMMANDS: dict[str, Callable[[dict, str], MushResult]] = {
    "drawcard": _drawcard, "playcard": _playcard, "discard": _discard, "destroy": _destroy,
    "givecard": _givecard, "endturn": _endturn, "newcard": _newcard,
    "approve": _vote(True), "reject": _vote(False), "repeal": _vote(False),
    "viewhand": _viewhand, "viewplay": _viewplay, "viewdisc": _viewdisc, "viewrep": _viewrep,
    "viewvote": _viewvote, "viewall": _viewall, "count": _count, "countdraw": _countdraw,
    "readcard": _readcard, "help": _help,
}
