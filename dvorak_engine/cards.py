"""What card games share: a card's copy in a game, its JSON, a deck copied card by card with opaque ids, and
card ids in events shown only to those who may see the card.

Rulesets played with the cards of an archive deck (``dvorak``, ``article_ii``) use these; the core does not.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

from dvorak_core.deckdata import CardData, DeckData, SpecialRuleData
from dvorak_core.effects import checked_effect, rule_params_with_effect
from dvorak_core.event_schemas import upcaster
from dvorak_engine.rng import Rng
from dvorak_engine.state import GameState
from dvorak_engine.visibility import public


@dataclass(frozen=True)
class Card:
    # A card's content is seen by whoever is shown its id (the state's ``lookup`` of cards): every field is public.
    id: str = public()
    title: str = public()
    type: str = public()
    text: str = public("")
    flavor: str = public("")
    corner_value: str = public("")
    creator: str = public("")
    stats: dict[str, Any] = public(default_factory=dict)
    # The deck marks it as playable out of turn (its text may say so too: "at any time", "out of turn").
    out_of_turn: bool = public(False)
    # Its confirmed effect (the effect language's JSON list, ``dvorak_core.effects``): from the archive's deck, or
    # voted in with the card in a creative game. None: nobody confirmed one.
    effect: list[dict[str, Any]] | None = public(None)


CARD_FIELDS = tuple(f.name for f in fields(Card))


def card_json(card: Card) -> dict[str, Any]:
    """The card as JSON; ``effect`` only when it has one, so cards without read as they always have. As
    ``dataclasses.asdict`` makes it (each field in order, its lists and mappings copied), in a third of the time:
    every card an event shows is made so."""
    data = {name: _copied(getattr(card, name)) for name in CARD_FIELDS}
    if data["effect"] is None:
        del data["effect"]
    return data


def _copied(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_copied(item) for item in value)
    return value  # a string, a number, a boolean, None: immutable


def card_content(card: Card) -> dict[str, Any]:
    """A card without its id."""
    return {key: value for key, value in card_json(card).items() if key != "id"}


def deck_card_content(card: dict[str, Any]) -> dict[str, Any]:
    """A deck's card as the game copies it: every field a Card has but its id, and how many copies."""
    return {
        "title": str(card.get("title", "")),
        "type": str(card.get("type") or "Thing"),
        "text": str(card.get("text") or ""),
        "flavor": str(card.get("flavor") or ""),
        "corner_value": str(card.get("corner_value") or ""),
        "creator": str(card.get("creator") or ""),
        "stats": dict(card.get("stats") or {}),
        "out_of_turn": card.get("out_of_turn") is True,
        "copies": max(int(card.get("copies", 1) or 1), 1),
    } | ({} if card.get("effect") is None else {"effect": checked_effect(card["effect"], field="cards.effect")})


def copy_deck_cards(deck: dict[str, Any], rng: Rng, taken: set[str] | None = None) -> list[dict[str, Any]]:
    """One card per copy, each with a fresh opaque id (none of ``taken``), in a shuffled order so the order
    reveals nothing."""
    copies: list[dict[str, Any]] = []
    used: set[str] = set(taken or ())
    for card in deck.get("cards", []):
        content = deck_card_content(card)
        for _ in range(content.pop("copies")):
            card_id = rng.token_hex(8)
            while card_id in used:
                card_id = rng.token_hex(8)
            used.add(card_id)
            copies.append({"id": card_id, **content, "stats": dict(content["stats"])})
    rng.shuffle(copies)
    return copies


def compact_cards(cards: Any) -> Any:
    """A list of cards as ``game.created`` writes them since its schema 2: each card without the fields that hold
    their defaults (no flavour, no corner value, no stats, not out of turn...), which ``card_from_json`` fills in
    again. The first event of a game copies every card of its deck, so this is most of the largest row of each
    game (a fifth of a seed deck's). Anything but a list of cards with ids, each made only of a Card's fields, is
    left as it is (a ruleset's own cards: S.E.R.M.'s soldiers, Filibuster's points)."""
    if not isinstance(cards, list) or not all(
            isinstance(card, dict) and "id" in card and card.keys() <= _CARD_NAMES for card in cards):
        return cards
    return [{name: value for name, value in card.items() if value != _CARD_EMPTY[name]} for card in cards]


@upcaster("game.created", from_schema=1)
def _game_created_compact(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 wrote every field of every card of the deck; schema 2 leaves out those at their defaults."""
    return {**data, "cards": compact_cards(data["cards"])} if "cards" in data else data


def cards_from_json(cards: list[dict[str, Any]]) -> dict[str, Card]:
    return {card["id"]: card_from_json(card) for card in cards}


_CARD_DEFAULTS = {f.name: f.default for f in fields(Card)}  # MISSING where a field has none (it is in the card)
_CARD_EMPTY: dict[str, Any] = {**_CARD_DEFAULTS, "stats": {}}  # each field's value when the card has none of its own
_CARD_REQUIRED = frozenset(f.name for f in fields(Card) if f.default is MISSING and f.default_factory is MISSING)
_CARD_NAMES = frozenset(CARD_FIELDS)
_new = object.__new__
_set = object.__setattr__


def card_from_json(card: dict[str, Any]) -> Card:
    """``Card(**card)``, a third of its time: a game replayed from its start makes every card of its deck (a cold
    load of a game of 300 cards spent a millisecond on it). The fields are set by the card's ``__dict__``, as
    ``dvorak_engine.values.replace`` copies one; a card with a name that is not a field, or without a title, goes
    through ``__init__`` and is refused as it refuses it."""
    if not (_CARD_REQUIRED <= card.keys() <= _CARD_NAMES):
        return Card(**card)
    values = _CARD_DEFAULTS.copy()  # every field, in order: the card's own values replace them where they stand
    values.update(card)
    if "stats" not in card:
        values["stats"] = {}
    new = _new(Card)
    _set(new, "__dict__", values)
    return new


def deck_special_rules(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """The deck's Special Rules as a game copies them; a rule's confirmed effect with it, and in its ``params`` what
    the effect sets (``set_rule``), as the archive keeps them."""
    rules = []
    for rule in deck.get("special_rules", []):
        copied = {"id": str(rule["id"]), "title": rule.get("title", ""), "text": rule.get("text", ""),
                  "params": dict(rule.get("params") or {})}
        if rule.get("effect") is not None:
            field = f"special_rules.{copied['id']}"
            copied["effect"] = checked_effect(rule["effect"], field=f"{field}.effect")
            copied["params"] = rule_params_with_effect(copied["params"], copied["effect"], field=f"{field}.params")
        rules.append(copied)
    return rules


_HIDDEN = object()


def hide_unseen_cards(value: Any, cards: dict[str, Card], visible: Container[str]) -> Any:
    """An event's data for one viewer: each card id (in any list or mapping) becomes the card when it is in
    ``visible``, and disappears otherwise, so an id never lets anyone follow a card they may not see."""
    if isinstance(value, dict):
        shown = {}
        for key, item in value.items():
            redacted = hide_unseen_cards(item, cards, visible)
            if redacted is not _HIDDEN:
                shown[key] = redacted
        return shown
    if isinstance(value, list | tuple):
        return [r for r in (hide_unseen_cards(item, cards, visible) for item in value) if r is not _HIDDEN]
    if isinstance(value, str) and value in cards:
        return card_json(cards[value]) if value in visible else _HIDDEN
    return value


def _copy_key(card: Card) -> tuple[Any, ...]:
    return (card.title, card.type, card.text, card.flavor, card.corner_value, card.creator,
            tuple(card.stats.items()), json.dumps(card.effect, sort_keys=True))


def published_deck(state: GameState, cards: list[tuple[Card, int | None]],
                   special_rules: Iterable[Mapping[str, Any]], *, deck: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``DeckData.to_dict()`` of a game's deck (``deck``'s slug and title name it; by default the game's own,
    ``state.table.deck``): these cards, each with the seat whose own deck holds it (None for a shared deck),
    identical cards counted as copies, and these Special Rules (each ``{"title", "text", "params", "effect"?}``: a
    rule's parameters and confirmed effect go with it, so the archived deck plays as the game did; a card's
    confirmed effect too). The players are its designers."""
    # When several players each have a copy of the one deck, count a card's copies in one player's deck (the one
    # holding the most), not in all of them, or the published deck would be N decks in one.
    per_deck: dict[tuple[Any, ...], dict[int | None, int]] = {}
    first: dict[tuple[Any, ...], Card] = {}
    for card, owner in cards:
        key = _copy_key(card)
        counts = per_deck.setdefault(key, {})
        counts[owner] = counts.get(owner, 0) + 1
        first.setdefault(key, card)
    copies = {key: max(counts.values()) for key, counts in per_deck.items()}
    ordered = sorted(first.items(), key=lambda item: (item[1].title.lower(), item[1].type, item[1].text))
    named = state.table.deck if deck is None else deck
    published = DeckData(
        slug=str(named.get("slug", "")),
        title=str(named.get("title", "")),
        ruleset=state.ruleset,
        designers=tuple(dict.fromkeys(seat.username for seat in state.seats)),
        special_rules=tuple(SpecialRuleData.from_dict(rule) for rule in special_rules),
        cards=tuple(
            CardData.from_dict({"title": card.title, "type": card.type, "text": card.text, "flavor": card.flavor,
                                "copies": copies[key], "corner_value": card.corner_value,
                                "creator": card.creator, "stats": dict(card.stats), "effect": card.effect})
            for key, card in ordered
        ),
    )
    return published.to_dict()
