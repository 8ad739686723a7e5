"""What a viewer may see of a game and of each of its events.

A viewer is a seat, or None for a spectator. Nobody but its holder sees a hand's cards; nobody sees the order
of the draw pile or the ids in it (only how many cards it holds); Things in play and the discard pile are
public. A card a viewer may not see does not appear at all, not even its id.

In a Multi-Deck or CCG game each player's view carries their own ``"draw_pile": {"count"}`` and
``"discard_pile": [cards, top last]`` (and in CCG the ``"deck"`` they brought: id, name, card_set, version); the
top-level ``draw_pile.count`` is then the sum of all draw piles and the top-level ``discard_pile`` lists every
player's discard pile one after the other, in seat order. ``"teams"`` maps each team's name to its seats.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from games.engine.precedence import rule_value
from games.engine.state import (
    Card,
    GameState,
    Proposal,
    all_discard_piles,
    all_draw_piles,
    cards_visible_to,
    teams,
)

# Keys of event data that hold the order of the draw pile: never shown, only counted.
SECRET_ORDER_KEYS = frozenset({"draw_pile"})
# Keys of event data that map each seat to the order of their own draw pile (Multi-Deck Dvorak).
SECRET_ORDERS_BY_SEAT_KEYS = frozenset({"draw_piles"})


def card_json(card: Card) -> dict[str, Any]:
    return asdict(card)


def _things_in_play(state: GameState, seat: int) -> list[dict[str, Any]]:
    children: dict[str, list[str]] = {}
    for child, host in state.attached_to.items():
        children.setdefault(host, []).append(child)

    def render(card_id: str) -> dict[str, Any]:
        return {**card_json(state.cards[card_id]),
                "attached": [render(child) for child in children.get(card_id, [])]}

    player = state.player(seat)
    return [render(card_id) for card_id in player.in_play if card_id not in state.attached_to]


def _player_view(state: GameState, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.player(seat)
    view: dict[str, Any] = {
        "seat": player.seat,
        "username": player.username,
        "team": player.team,
        "hand_count": len(player.hand),
        "in_play": _things_in_play(state, seat),
        "counters": dict(player.counters),
        "status": player.status,
    }
    if state.has_own_decks:
        view["draw_pile"] = {"count": len(player.draw_pile)}
        view["discard_pile"] = [card_json(state.cards[card_id]) for card_id in player.discard_pile]
    if player.deck is not None:
        view["deck"] = dict(player.deck)
    if seat == viewer:
        view["hand"] = [card_json(state.cards[card_id]) for card_id in player.hand]
    return view


def _modifiers_view(state: GameState, viewer: int | None) -> list[dict[str, Any]]:
    """Modifiers in effect; a source or target card the viewer cannot see (an Action since shuffled back into
    the draw pile, say) is left out (a modifier of a hidden card: the whole modifier), so ids cannot be followed."""
    visible = cards_visible_to(state, viewer)

    def shown(card_id: str | None) -> str | None:
        return None if card_id in state.cards and card_id not in visible else card_id

    return [
        {"source": shown(m.source), "param": m.param, "value": m.value, "seat": m.seat, "card": m.card,
         "deny": m.deny}
        for m in state.modifiers
        if shown(m.card) == m.card
    ]


def card_content(card: Card) -> dict[str, Any]:
    """A card without its id: what a proposal shows everyone of the card it amends or repeals."""
    return {key: value for key, value in card_json(card).items() if key != "id"}


def proposal_view(state: GameState, proposal: Proposal, viewer: int | None) -> dict[str, Any]:
    """API.md's proposal: number, kind, author (a seat), status, votes, and what it proposes. A card's id is
    shown only to a viewer who can see the card where it is now."""
    visible = cards_visible_to(state, viewer)

    def shown(card_id: str, content: dict[str, Any]) -> dict[str, Any]:
        return {"id": card_id, **content} if card_id in visible else dict(content)

    view: dict[str, Any] = {"number": proposal.number, "kind": proposal.kind, "author": proposal.author,
                            "status": proposal.status, "votes": dict(proposal.votes)}
    if proposal.kind in ("card", "bundle"):
        view["cards"] = [shown(c, card_content(state.cards[c])) for c in proposal.cards if c in state.cards]
        if proposal.kind == "card" and view["cards"]:
            view["card"] = view["cards"][0]
    elif proposal.kind in ("amend", "repeal"):
        view["card"] = shown(proposal.target, proposal.original)
    elif proposal.kind == "special_rule":
        view["rule"] = dict(proposal.rule)
    else:
        view["rule"] = dict(proposal.original)
    if proposal.changes:
        view["changes"] = dict(proposal.changes)
    return view


def render_state(state: GameState, viewer: int | None) -> dict[str, Any]:
    """API.md "The state a seat sees" (without the game's ``id``, which the service knows)."""
    turn = state.turn
    return {
        "status": state.status,
        "version": state.version,
        "ruleset": state.ruleset,
        "variant": state.variant,
        "creative": state.creative,
        "deck": dict(state.deck),
        "you": viewer,
        "turn": None if turn is None else {
            "seat": turn.seat, "stage": turn.stage,
            "things_played": turn.things_played, "actions_played": turn.actions_played,
        },
        "players": [_player_view(state, p.seat, viewer) for p in state.players],
        "teams": teams(state),
        "draw_pile": {"count": len(all_draw_piles(state))},
        "discard_pile": [card_json(state.cards[card_id]) for card_id in all_discard_piles(state)],
        "blank_cards": state.blank_cards,
        "rules": {param: rule_value(state, param, viewer) for param in state.base_rules},
        "modifiers": _modifiers_view(state, viewer),
        "special_rules": [{"id": r.id, "title": r.title, "text": r.text} for r in state.special_rules],
        "proposals": [proposal_view(state, proposal, viewer) for proposal in state.proposals],
        "rejected": [card_json(state.cards[card_id]) for card_id in state.rejected],
        "winners": list(state.winners),
    }


def redact_event_data(
    data: dict[str, Any], viewer: int | None, before: GameState | None, after: GameState,
    also_visible: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """An event's data for one viewer: a card id becomes the card when the viewer could see it before or after
    the event (or it is in ``also_visible``), and disappears otherwise; a draw pile order becomes its count."""
    visible = cards_visible_to(after, viewer) | set(also_visible)
    if before is not None:
        visible |= cards_visible_to(before, viewer)
    return _redact(data, after, visible)


_HIDDEN = object()


def _redact(value: Any, state: GameState, visible: set[str]) -> Any:
    if isinstance(value, dict):
        shown = {}
        for key, item in value.items():
            if key in SECRET_ORDER_KEYS and isinstance(item, list):
                shown[key] = {"count": len(item)}
                continue
            if key in SECRET_ORDERS_BY_SEAT_KEYS and isinstance(item, dict):
                shown[key] = {seat: {"count": len(order)} for seat, order in item.items()}
                continue
            redacted = _redact(item, state, visible)
            if redacted is not _HIDDEN:
                shown[key] = redacted
        return shown
    if isinstance(value, list):
        return [r for r in (_redact(item, state, visible) for item in value) if r is not _HIDDEN]
    if isinstance(value, str) and value in state.cards:
        return card_json(state.cards[value]) if value in visible else _HIDDEN
    return value
