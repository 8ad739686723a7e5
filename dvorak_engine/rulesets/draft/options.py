"""The options of a booster draft, checked when the game is created and written into its options in full (a
default filled in as ``None`` where it depends on the table, read at the start), so the game keeps them whatever
the defaults become.

- ``packs``: how many packs each player opens, one a round (1 to ``MAX_PACKS``; 3 by default);
- ``pack_size``: the cards of a pack (1 to ``MAX_PACK_SIZE``); by default (``None``) 15, or fewer when the set's
  cards do not make that many packs of 15 for the players seated at the start;
- ``pool``: what packs are dealt from: ``copies`` (every copy of every card, as the set holds them: a card of three
  copies is dealt three times at most) or ``one_each`` (one of each card);
- ``rarity``: a pack's slots by rarity, ``{"rare": n, "uncommon": m}`` (commons fill the rest), for a set whose cards
  carry their rarity (``stats.rarity``); by default (``None``) one rare slot in a pack of three cards or more and one
  uncommon slot for every five cards (15: 1 rare, 3 uncommon, 11 common). A set without rarity ignores it.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError

DEFAULT_PACKS, MAX_PACKS = 3, 6
DEFAULT_PACK_SIZE, MAX_PACK_SIZE = 15, 30
COPIES, ONE_EACH = "copies", "one_each"
POOLS = (COPIES, ONE_EACH)
RARE, UNCOMMON = "rare", "uncommon"
SLOTS = (RARE, UNCOMMON)
# The options the game keeps and its view shows (``rules``), in this order.
SHOWN = ("packs", "pack_size", "pool", "rarity")


def _invalid(message: str, field: str, **details: Any) -> DomainError:
    return DomainError(message, code="invalid", details={"field": field, **details})


def _whole(value: Any, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def read_options(options: dict[str, Any]) -> dict[str, Any]:
    """The game's options, checked, each of this module's written (its default, or ``None`` for one the start
    settles)."""
    packs = options.get("packs", DEFAULT_PACKS)
    if not _whole(packs, 1, MAX_PACKS):
        raise _invalid(f"\"options.packs\" is how many packs each player opens, 1 to {MAX_PACKS}.", "options.packs")
    pack_size = options.get("pack_size")
    if pack_size is not None and not _whole(pack_size, 1, MAX_PACK_SIZE):
        raise _invalid(f"\"options.pack_size\" is the cards of a pack, 1 to {MAX_PACK_SIZE}.", "options.pack_size")
    pool = options.get("pool", COPIES)
    if pool not in POOLS:
        raise _invalid(f"\"options.pool\" is one of: {', '.join(POOLS)}.", "options.pool", choices=list(POOLS))
    rarity = options.get("rarity")
    if rarity is not None:
        if not isinstance(rarity, dict) or not rarity or not set(rarity) <= set(SLOTS) or not all(
                _whole(count, 0, MAX_PACK_SIZE) for count in rarity.values()):
            raise _invalid("\"options.rarity\" gives a pack's rare and uncommon slots, {\"rare\": 1, \"uncommon\": 3}: "
                           f"whole numbers, 0 to {MAX_PACK_SIZE}.", "options.rarity")
        rarity = {slot: rarity.get(slot, 0) for slot in SLOTS}
        if pack_size is not None and sum(rarity.values()) > pack_size:
            raise _invalid(f"\"options.rarity\" gives more slots than a pack of {pack_size} cards has.",
                           "options.rarity")
    kept = {key: value for key, value in options.items() if key not in SHOWN}
    return {**kept, "packs": packs, "pack_size": pack_size, "pool": pool, "rarity": rarity}


def default_slots(pack_size: int) -> dict[str, int]:
    """One rare in a pack of three cards or more, an uncommon for every five cards: 15 cards, 1, 3 and 11 commons."""
    return {RARE: 1 if pack_size >= 3 else 0, UNCOMMON: pack_size // 5}


def slots_of(options: dict[str, Any], pack_size: int) -> dict[str, int]:
    """The rare and uncommon slots of a pack of ``pack_size`` cards, the rare ones first, within the pack."""
    asked = options.get("rarity") or default_slots(pack_size)
    rare = min(asked.get(RARE, 0), pack_size)
    return {RARE: rare, UNCOMMON: min(asked.get(UNCOMMON, 0), pack_size - rare)}


def rules_shown(options: dict[str, Any]) -> dict[str, Any]:
    return {name: options.get(name) for name in SHOWN}
