"""The cards a draft is dealt from and how packs are made of them: the pool, the cards' rarity, the deal.

A card's rarity is ``stats.rarity``: 1 common, 2 uncommon, 3 rare. A set whose cards carry it has its packs dealt
by rarity (a card without it counts as common); a set whose cards carry none has its packs dealt from the whole
pool. Every pack of every round is dealt at the start, from the game's randomness, and kept unseen until its round
opens.
"""

from __future__ import annotations

from typing import Any

from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import INVALID, MISSING, card_problem
from dvorak_engine.rulesets.draft.options import COPIES, RARE, UNCOMMON

COMMON_RARITY, UNCOMMON_RARITY, RARE_RARITY = 1, 2, 3
RARITIES = {COMMON_RARITY: "common", UNCOMMON_RARITY: "uncommon", RARE_RARITY: "rare"}
RARITY = "rarity"


def card_problems(deck: dict[str, Any]) -> list[dict[str, Any]]:
    """A rarity that is not 1, 2 or 3 cannot be right; a set without cards has nothing to draft."""
    problems: list[dict[str, Any]] = []
    cards = [card for card in deck.get("cards", []) if isinstance(card, dict)]
    for index, card in enumerate(deck.get("cards", [])):
        if not isinstance(card, dict):
            continue
        stats = card.get("stats") or {}
        if RARITY in stats and (isinstance(stats[RARITY], bool) or stats[RARITY] not in RARITIES):
            problems.append(card_problem(index, card, "stats.rarity", INVALID,
                                         "A card's rarity is 1 (common), 2 (uncommon) or 3 (rare)."))
    if not cards:
        problems.append({"card": None, "title": "", "field": "cards", "problem": MISSING,
                         "message": "The set has no cards yet: a curator enters them in the archive."})
    return problems


def rarity_of(card: dict[str, Any]) -> int:
    """A card's rarity as ``stats`` gives it, common when it gives none."""
    value = (card.get("stats") or {}).get(RARITY, COMMON_RARITY)
    return value if value in RARITIES and not isinstance(value, bool) else COMMON_RARITY


def carries_rarity(cards: list[dict[str, Any]]) -> bool:
    return any(RARITY in (card.get("stats") or {}) for card in cards)


def pool_of(cards: list[dict[str, Any]], pool: str) -> list[str]:
    """The card ids packs are dealt from, in the set's order: each card as often as its copies (``copies``), or
    once (``one_each``)."""
    return [card["id"] for card in cards for _ in range(card.get("copies", 1) if pool == COPIES else 1)]


def deal(cards: list[dict[str, Any]], pool: list[str], *, seats: int, rounds: int, pack_size: int,
         slots: dict[str, int] | None, rng: Rng) -> list[list[list[str]]]:
    """Every pack of the draft, by round and seat. With ``slots`` (a set that carries rarity) a pack takes its rare
    slots from the rare cards, its uncommon slots from the uncommon ones and the rest from the commons; a slot whose
    rarity has run out takes any card left, at random. Each pack lists its rarest cards first, then in the set's
    order."""
    rarity = {card["id"]: rarity_of(card) for card in cards} if slots is not None else {}
    position = {card["id"]: index for index, card in enumerate(cards)}
    piles: dict[int, list[str]] = {}
    for card_id in pool:
        piles.setdefault(rarity.get(card_id, COMMON_RARITY), []).append(card_id)
    for rank in sorted(piles):
        rng.shuffle(piles[rank])

    def take(rank: int) -> str:
        if piles.get(rank):
            return piles[rank].pop()
        left = [(each, index) for each in sorted(piles) for index in range(len(piles[each]))]
        each, index = left[rng.randbelow(len(left))]
        return piles[each].pop(index)

    wanted = slots or {}
    packs = []
    for _ in range(rounds):
        dealt = []
        for _ in range(seats):
            pack = [take(RARE_RARITY) for _ in range(wanted.get(RARE, 0))]
            pack += [take(UNCOMMON_RARITY) for _ in range(wanted.get(UNCOMMON, 0))]
            pack += [take(COMMON_RARITY) for _ in range(pack_size - len(pack))]
            dealt.append(sorted(pack, key=lambda card_id: (-rarity.get(card_id, COMMON_RARITY), position[card_id])))
        packs.append(dealt)
    return packs
