"""What a viewer may see of a ``dvorak`` game and of each of its events.

A viewer is a seat, or None for a spectator. Nobody but its holder sees a hand's cards; nobody sees the order
of the draw pile or the ids in it (only how many cards it holds); Things in play and the discard pile are
public. A card a viewer may not see does not appear at all, not even its id.

The state's JSON (API.md "The state a seat sees") is built here from the state as the viewer may see it
(``visibility.seen``): each field of ``DvorakState`` says who sees it, so a hand is read only for its holder, a draw
pile only as a count, a card only by an id the viewer was shown, and a field added without a declaration cannot be
read at all. An event's data is first cut down by
the keys its type declares (``@applies(..., shows=...)``); then every card id in it becomes the card for a
viewer who could see it before or after the event, and disappears for anyone else.

In a Multi-Deck or CCG game each player's view carries their own ``"draw_pile": {"count"}`` and
``"discard_pile": [cards, top last]`` (and in CCG the ``"deck"`` they brought: id, name, card_set, version); the
top-level ``draw_pile.count`` is then the sum of all draw piles and the top-level ``discard_pile`` lists every
player's discard pile one after the other, in seat order. ``"teams"`` maps each team's name to its seats.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine.cards import card_content, card_json, hide_unseen_cards
from dvorak_engine.events import Event
from dvorak_engine.ruleset import redacts
from dvorak_engine.rulesets.dvorak.precedence import rule_value
from dvorak_engine.rulesets.dvorak.state import OWN_DECK_VARIANTS, READING, cards_visible_to
from dvorak_engine.state import GameState, teams
from dvorak_engine.visibility import Seen


def _things_in_play(table: Seen, seat: int) -> list[dict[str, Any]]:
    children: dict[str, list[str]] = {}
    for child, host in table.attached_to.items():
        children.setdefault(host, []).append(child)

    def render(card_id: str) -> dict[str, Any]:
        return {**card_json(table.cards[card_id]),
                "attached": [render(child) for child in children.get(card_id, [])]}

    return [render(card_id) for card_id in table.players[seat].in_play if card_id not in table.attached_to]


def _visible(table: Seen) -> set[str]:
    """The ids of the cards the viewer may see, from what it may read: Things in play, the discard piles, its own
    hand, and the Creative Rules' cards everyone sees (those in the open vote, those rejected). The same set as
    ``state.cards_visible_to``, which works on the whole state for the events' redaction."""
    visible = {*table.discard_pile, *table.rejected}
    proposal = next((p for p in table.proposals if p.status == "open"), None)
    if proposal is not None:
        visible.update(proposal.cards)
    for player in table.players:
        visible.update(player.discard_pile)
        visible.update(player.in_play)
        if player.shows("hand"):
            visible.update(player.hand)
    return visible


def player_view(state: Seen, seat: int) -> dict[str, Any]:
    table, person = state.table, state.seats[seat]
    player = table.players[seat]
    view: dict[str, Any] = {
        "seat": person.seat,
        "username": person.username,
        "team": person.team,
        "hand_count": player.hand_count(),
        "in_play": _things_in_play(table, seat),
        "counters": dict(player.counters),
        "status": person.status,
    }
    if table.variant in OWN_DECK_VARIANTS:
        view["draw_pile"] = {"count": len(player.draw_pile)}
        view["discard_pile"] = [card_json(table.cards[card_id]) for card_id in player.discard_pile]
    if player.deck is not None:
        view["deck"] = dict(player.deck)
    if player.shows("hand"):
        view["hand"] = [card_json(table.cards[card_id]) for card_id in player.hand]
    return view


def _modifiers_view(table: Seen, visible: set[str]) -> list[dict[str, Any]]:
    """Rule changes in effect: each with its number (``id``, for ``end_rule_effect``), who made it and until
    when; a source card the viewer cannot see (an Action since shuffled back into the draw pile, say) is shown as
    null, and a change made for a card the viewer cannot see is left out, so ids cannot be followed."""

    def shown(card_id: str | None) -> str | None:
        return None if card_id in table.cards and card_id not in visible else card_id

    views = []
    for m in table.modifiers:
        if m.card is not None and m.card in table.cards and m.card not in visible:
            continue
        view = {"id": m.order, "source": shown(m.source), "param": m.param, "value": m.value, "seat": m.seat,
                "card": m.card, "deny": m.deny, "by": m.by, "until": m.until}
        if m.ends_at_turn is not None:
            view["turns_left"] = m.ends_at_turn - table.turn_number
        views.append(view)
    return views


def proposal_view(table: Seen, proposal: Seen, visible: set[str]) -> dict[str, Any]:
    """API.md's proposal: number, kind, author (a seat), status, votes, and what it proposes. A card's id is
    shown only to a viewer who can see the card where it is now."""
    cards = table.cards

    def shown(card_id: str, content: dict[str, Any]) -> dict[str, Any]:
        return {"id": card_id, **content} if card_id in visible else dict(content)

    view: dict[str, Any] = {"number": proposal.number, "kind": proposal.kind, "author": proposal.author,
                            "status": proposal.status, "votes": dict(proposal.votes)}
    if proposal.kind in ("card", "bundle"):
        view["cards"] = [shown(c, card_content(cards[c])) for c in proposal.cards if c in cards]
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


def render_table(state: Seen, viewer: int | None) -> dict[str, Any]:
    """API.md "The state a seat sees", but for the core's part (id, status, version, ruleset, you, winners), from
    the state as the viewer may see it."""
    table = state.table
    turn = table.turn
    visible = _visible(table)
    return {
        "variant": table.variant,
        "creative": table.creative,
        "deck": dict(table.deck),
        "turn": None if turn is None else {
            "seat": turn.seat, "stage": turn.stage,
            "things_played": turn.things_played, "actions_played": turn.actions_played,
        },
        "players": [player_view(state, seat.seat) for seat in state.seats],
        "teams": teams(state),
        "draw_pile": {"count": len(table.draw_pile) + sum(len(p.draw_pile) for p in table.players)},
        "discard_pile": [card_json(table.cards[card_id])
                         for card_id in (*table.discard_pile, *(c for p in table.players for c in p.discard_pile))],
        "blank_cards": table.blank_cards,
        "rules": {param: rule_value(state, param, viewer) for param in table.base_rules},
        **({"unenforced": list(table.unenforced())} if table.reading >= READING else {}),
        "modifiers": _modifiers_view(table, visible),
        "special_rules": [{"id": rule.id, "title": rule.title, "text": rule.text,
                           "effect": table.rule_effect(rule.id)} for rule in table.special_rules],
        "proposals": [proposal_view(table, proposal, visible) for proposal in table.proposals],
        "rejected": [card_json(table.cards[card_id]) for card_id in table.rejected],
        "claims": [claim_view(table, claim, visible) for claim in table.claims],
        # Who agrees to abandon the game (``abandon``): in a game of the second reading, or once anyone agrees (an
        # older game's view is otherwise as it was).
        **({"abandon": {"agreed": list(table.agreed_to_abandon)}}
           if table.reading >= READING or table.agreed_to_abandon else {}),
    }


def claim_view(table: Seen, claim: Seen, visible: set[str]) -> dict[str, Any]:
    """A claim as a viewer sees it: the cited card's content for all, its id (and the ids in the move) only to
    those who can see them."""
    view = {"number": claim.number, "seat": claim.seat, "type": claim.move.get("type"),
            "move": hide_unseen_cards(dict(claim.move), table.cards, visible), "card": dict(claim.card),
            "stage": claim.stage, "status": claim.status, "answers": dict(claim.answers),
            "votes": dict(claim.votes)}
    if claim.cause not in table.cards or claim.cause in visible:
        view["cause"] = claim.cause
    return view


def redact_cards(
    data: dict[str, Any], viewer: int | None, before: GameState | None, after: GameState,
    also_visible: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """An event's data for one viewer: a card id becomes the card when the viewer could see it before or after
    the event (or it is in ``also_visible``), and disappears otherwise."""
    result: dict[str, Any] = hide_unseen_cards(data, after.table.cards, VisibleAround(viewer, before, after, also_visible))
    return result


class VisibleAround:
    """The ids of the cards a viewer could see before or after an event, or ``also``: made the first time a card
    is looked up in it, as most events name no card (a turn ended, a vote cast)."""

    __slots__ = ("viewer", "before", "after", "also", "ids")

    def __init__(self, viewer: int | None, before: GameState | None, after: GameState, also: frozenset[str]):
        self.viewer, self.before, self.after, self.also = viewer, before, after, also
        self.ids: set[str] | None = None

    def __contains__(self, card_id: object) -> bool:
        if self.ids is None:
            self.ids = cards_visible_to(self.after, self.viewer) | set(self.also)
            if self.before is not None and self.before.table is not None:
                self.ids |= cards_visible_to(self.before, self.viewer)
        return card_id in self.ids


class DvorakViews:
    """The views of the ``dvorak`` ruleset, mixed into it."""

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        return render_table(state, viewer)

    def redact_event(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                     after: GameState) -> dict[str, Any]:
        return redact_cards(shown, viewer, before, after)

    @redacts("game.created")
    def view_game_created(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                          after: GameState) -> dict[str, Any]:
        # Its card ids are already counted, not shown; the rest is the deck's, public in the archive anyway.
        return shown

    @redacts("player.joined")
    def view_player_joined(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                           after: GameState) -> dict[str, Any]:
        return shown

    @redacts("card.revealed")
    def view_card_revealed(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                           after: GameState) -> dict[str, Any]:
        return redact_cards(shown, viewer, before, after, also_visible=frozenset({event.data["card"]}))

    @redacts("proposal.opened")
    def view_proposal_opened(self, event: Event, shown: dict[str, Any], viewer: int | None, before: GameState | None,
                             after: GameState) -> dict[str, Any]:
        """Everyone reads what they vote on: the new cards, and the content of a card amended or repealed; the
        id of a card someone cannot see stays hidden from them (its content is in ``original``)."""
        table = after.table
        data = dict(shown)
        data["cards"] = [card_json(table.cards[c]) for c in table.proposals[data["number"] - 1].cards]
        target = data.get("target")
        if target in table.cards and target not in cards_visible_to(after, viewer):
            del data["target"]
        return data
