"""Virtues of the Drake's cards: what a deck must carry for the game to be played, and what the engine reads of
each card. Pure data and functions; nothing here knows about events or game state.

The seed gives the procedure in full but not the cards ("In the next post, I will detail the stats for each of the
cards"), so the archive holds them as a curator enters them, by these conventions (docs/virtues_of_the_drake.md
says the same for curators):

- ``type`` is ``Maiden``, ``Knight``, ``Treasure`` or ``Virtue`` (any case). An empty type, or ``Thing`` (what the
  archive gives a card whose listing names no type), is not yet entered: missing, not wrong.
- ``stats``: a Maiden's ``chastity``, a Knight's ``strength`` and ``wealth``, a Treasure's ``value``, each a whole
  number, 0 or more. Their names are read in any case, so a wiki listing's stats line ``Chastity3`` is chastity 3.
- The three communal decks form by type: "A deck of Maidens", "A deck of Knights", "A deck of wondrous
  Treasures". Each needs at least two cards (copies count): its top card starts the Gullet, the Lair or the Bed,
  and a deck left empty by that would end the game before its first turn.
- "Four Virtue cards": one card each titled ``Gluttony``, ``Greed``, ``Wrath`` and ``Pride`` (a leading "The" is
  allowed), one copy each. A Virtue needs no stats.
- A card whose text says "as an action" has an action of its own, which a player may perform as the turn's
  action ("Performing an action that is listed on a card"). The engine carries out the effects it can read
  (``ACTION_EFFECTS``); any other is still offered and recorded, its effect left to the players.
- "The Sangria All now has the text: Discard the Sangria All to shuffle all discards back into their decks." A
  card titled Sangria All plays with that text, whatever text the deck gives it; discarding it is its action.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dvorak_engine.cards import Card
from dvorak_engine.ruleset import INVALID, MISSING, card_problem

MAIDEN, KNIGHT, TREASURE, VIRTUE = "Maiden", "Knight", "Treasure", "Virtue"
TYPES = (MAIDEN, KNIGHT, TREASURE, VIRTUE)
# What an archive gives a card whose listing names no type: a type not yet entered.
UNTYPED = ("", "thing")

GLUTTONY, GREED, WRATH, PRIDE = "Gluttony", "Greed", "Wrath", "Pride"
VIRTUES = (GLUTTONY, GREED, WRATH, PRIDE)
# "The play order is strictly: Pride, Greed, Wrath, Gluttony".
PLAY_ORDER = (PRIDE, GREED, WRATH, GLUTTONY)

# The three communal decks, named by what they hold, and the type of card each holds.
MAIDENS, KNIGHTS, TREASURES = "maidens", "knights", "treasures"
DECKS = (MAIDENS, KNIGHTS, TREASURES)
DECK_OF = {MAIDEN: MAIDENS, KNIGHT: KNIGHTS, TREASURE: TREASURES}
TYPE_OF_DECK = {deck: card_type for card_type, deck in DECK_OF.items()}
MIN_DECK = 2
# Where each deck's top card goes at the start, and where its cards gather: the Gullet, the Lair, the Bed.
GULLET, LAIR, BED = "gullet", "lair", "bed"
LOCATIONS = (GULLET, LAIR, BED)
LOCATION_OF = {MAIDENS: GULLET, KNIGHTS: LAIR, TREASURES: BED}

CHASTITY, STRENGTH, WEALTH, VALUE = "chastity", "strength", "wealth", "value"
STATS = {MAIDEN: (CHASTITY,), KNIGHT: (STRENGTH, WEALTH), TREASURE: (VALUE,), VIRTUE: ()}

SANGRIA_ALL = "Sangria All"
SANGRIA_ALL_TEXT = "Discard the Sangria All to shuffle all discards back into their decks."


def _folded(text: Any) -> str:
    return str(text or "").strip().lower()


def type_of(card: Mapping[str, Any]) -> str | None:
    """The card's type as the game names it (``Maiden`` …), or None when it is none of the four."""
    return next((card_type for card_type in TYPES if card_type.lower() == _folded(card.get("type"))), None)


def virtue_of(card: Mapping[str, Any]) -> str | None:
    """The Virtue a Virtue card stands for, read from its title ("Greed", "The Greed")."""
    title = re.sub(r"^the\s+", "", _folded(card.get("title")))
    return next((virtue for virtue in VIRTUES if virtue.lower() == title), None)


def is_sangria_all(card: Mapping[str, Any]) -> bool:
    return re.sub(r"^the\s+", "", _folded(card.get("title"))) == SANGRIA_ALL.lower()


def stat_entries(card: Mapping[str, Any], name: str) -> list[Any]:
    """Every value the card's ``stats`` give under ``name``, in any case."""
    stats = card.get("stats") or {}
    if not isinstance(stats, Mapping):
        return []
    return [value for key, value in stats.items() if str(key).strip().lower() == name]


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _copies(card: Mapping[str, Any]) -> int:
    copies = card.get("copies", 1)
    return copies if isinstance(copies, int) and not isinstance(copies, bool) and copies > 0 else 1


# --- what a deck must carry ----------------------------------------------------------------------------------


def card_problems(deck: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every value a deck's cards lack (``missing``) or carry wrongly (``invalid``) for this game, per card; then
    what the deck as a whole lacks, as entries whose ``card`` is null: a Virtue card it has none of, a communal deck
    with fewer than two cards."""
    problems: list[dict[str, Any]] = []
    in_decks = dict.fromkeys(DECKS, 0)
    virtues_seen: set[str] = set()
    for index, card in enumerate(deck.get("cards") or []):
        if not isinstance(card, Mapping):
            problems.append(card_problem(index, {}, "type", INVALID, "A card is an object with a title and a type."))
            continue
        card_type = type_of(card)
        if card_type is None:
            if _folded(card.get("type")) in UNTYPED:
                problems.append(card_problem(index, card, "type", MISSING,
                                             "The card's type: Maiden, Knight, Treasure or Virtue."))
            else:
                problems.append(card_problem(index, card, "type", INVALID,
                                             f"A card of this game is a Maiden, a Knight, a Treasure or a Virtue, "
                                             f"not {card.get('type')!r}."))
            continue
        if card_type == VIRTUE:
            problems += _virtue_problems(index, card, virtues_seen)
            continue
        in_decks[DECK_OF[card_type]] += _copies(card)
        for name in STATS[card_type]:
            problems += _stat_problems(index, card, card_type, name)
    for virtue in VIRTUES:
        if virtue not in virtues_seen:
            problems.append(card_problem(None, {"title": virtue}, "type", MISSING,
                                         f"The game needs the Virtue card {virtue} (type Virtue, titled {virtue}); "
                                         f"the deck has none."))
    for deck_name, count in in_decks.items():
        if count < MIN_DECK:
            card_type = TYPE_OF_DECK[deck_name]
            problems.append(card_problem(None, {"title": f"{card_type} cards"}, "type", MISSING,
                                         f"The deck of {deck_name.capitalize()} needs at least {MIN_DECK} {card_type} "
                                         f"cards (copies count): its top card starts the "
                                         f"{LOCATION_OF[deck_name].capitalize()}; the deck has {count}."))
    return problems


def _virtue_problems(index: int, card: Mapping[str, Any], seen: set[str]) -> list[dict[str, Any]]:
    virtue = virtue_of(card)
    if virtue is None:
        return [card_problem(index, card, "title", INVALID,
                             "A Virtue card is titled Gluttony, Greed, Wrath or Pride.")]
    if virtue in seen or _copies(card) > 1:
        seen.add(virtue)
        return [card_problem(index, card, "copies", INVALID, f"There is one {virtue} card, in one copy.")]
    seen.add(virtue)
    return []


def _stat_problems(index: int, card: Mapping[str, Any], card_type: str, name: str) -> list[dict[str, Any]]:
    values = stat_entries(card, name)
    field = f"stats.{name}"
    if not values:
        return [card_problem(index, card, field, MISSING, f"A {card_type}'s {name}, a whole number (0 or more).")]
    if len(values) > 1:
        return [card_problem(index, card, field, INVALID, f"The {name} is given {len(values)} times; give it once.")]
    if not is_whole(values[0]):
        return [card_problem(index, card, field, INVALID,
                             f"A {card_type}'s {name} is a whole number, 0 or more, not {values[0]!r}.")]
    return []


# --- the cards as a game copies them -----------------------------------------------------------------------------

def game_card(card: Mapping[str, Any]) -> dict[str, Any]:
    """A deck's card as the game plays it (a copy with its id, once ``card_problems`` found nothing): its type
    named as the game names it, its stats under their lower-case names, and the Sangria All's updated text."""
    card_type = type_of(card)
    assert card_type is not None, "a card of no type of this game is refused first (card_problems)"
    stats = dict(card.get("stats") or {})
    for name in STATS[card_type]:
        [value] = stat_entries(card, name)
        stats = {key: item for key, item in stats.items() if str(key).strip().lower() != name}
        stats[name] = value
    text = SANGRIA_ALL_TEXT if is_sangria_all(card) else str(card.get("text") or "")
    return {**card, "type": card_type, "stats": stats, "text": text}


# --- a card's own action -------------------------------------------------------------------------------------------

# The effects the engine carries out itself, each with the words it reads them by (after "as an action").
SWALLOW_MAIDEN = "swallow_maiden"
DISCARD_MAIDEN, DISCARD_KNIGHT = "discard_maiden", "discard_knight"
DISCARD_FROM_GULLET, DISCARD_FROM_LAIR, DISCARD_FROM_BED = "discard_from_gullet", "discard_from_lair", "discard_from_bed"
SHUFFLE_DISCARDS = "shuffle_discards"
ACTION_EFFECTS: tuple[tuple[str, str], ...] = (
    (r"shuffle all (?:the )?discards back into their decks", SHUFFLE_DISCARDS),
    (r"swallow the maiden in play", SWALLOW_MAIDEN),
    (r"discard the maiden in play", DISCARD_MAIDEN),
    (r"discard the knight in play", DISCARD_KNIGHT),
    (r"discard the rightmost maiden (?:in|from) the gullet", DISCARD_FROM_GULLET),
    (r"discard the rightmost knight (?:in|from) the lair", DISCARD_FROM_LAIR),
    (r"discard the rightmost treasure (?:in|from) the bed", DISCARD_FROM_BED),
)
_AS_AN_ACTION = re.compile(r"\bas an action\b[\s,:;]*(?P<rest>[^.]*)", re.IGNORECASE)


@dataclass(frozen=True)
class CardAction:
    """What a card's action does: ``effect`` (one of ``ACTION_EFFECTS``, or None where the engine reads none) and
    whether the card is discarded to perform it ("discard this card to …"; a Virtue card stays in front of its
    player, having no deck to be discarded to)."""

    effect: str | None
    discards_itself: bool


def action_of(card: Card) -> CardAction | None:
    """The card's own action, or None for a card without one."""
    if is_sangria_all({"title": card.title}):
        clause = card.text
    else:
        match = _AS_AN_ACTION.search(card.text)
        if match is None:
            return None
        clause = match["rest"]
    clause = clause.lower()
    own_title = re.escape(card.title.lower())
    discards_itself = re.search(rf"\bdiscard (?:this card|the {own_title}|{own_title})\b", clause) is not None
    effect = next((effect for words, effect in ACTION_EFFECTS if re.search(words, clause)), None)
    return CardAction(effect=effect, discards_itself=discards_itself and card.type != VIRTUE)
