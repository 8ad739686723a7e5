"""Reads of the CCG side: a set's versions and what it lacks, players, player decks and what makes them valid,
notices."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from ccg.models import CardSetPlayer, CardSetVersion, Notification, PlayerDeck
from decks.models import Deck
from dvorak_core.deckdata import CARD_SET
from dvorak_core.errors import Conflict, NotFound

# CCG Dvorak: "at least twenty cards" unless the set's Special Rules say otherwise.
DEFAULT_MIN_DECK_SIZE = 20
# CCG Dvorak: players make the Card Set by "creating and approving at least fifty cards".
MIN_CARD_SET_SIZE = 50
TOO_FEW_CARDS = "too_few_cards"

_NUMBER_WORDS = {
    "ten": 10, "fifteen": 15, "twenty": 20, "twenty-five": 25, "thirty": 30, "forty": 40, "forty-five": 45,
    "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "one hundred": 100,
}
_NUMBER = r"(\d+|" + "|".join(sorted(map(re.escape, _NUMBER_WORDS), key=len, reverse=True)) + r")"
# "decks of at least 40 cards", "a deck must contain at least forty cards", "40-card decks".
_MIN_SIZE_PATTERNS = (
    re.compile(r"\bdecks?\b[^.]{0,40}?\bat least " + _NUMBER + r" cards\b", re.IGNORECASE),
    re.compile(r"\b" + _NUMBER + r"[- ]card decks?\b", re.IGNORECASE),
)


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBER_WORDS[word.lower()]


def min_deck_size(special_rules: list[dict[str, Any]]) -> int:
    """The smallest deck the set's Special Rules allow, or the CCG rule's twenty when they say nothing."""
    for rule in special_rules:
        text = f"{rule.get('title', '')}. {rule.get('text', '')}"
        for pattern in _MIN_SIZE_PATTERNS:
            match = pattern.search(text)
            if match:
                return _number(match[1])
    return DEFAULT_MIN_DECK_SIZE


def card_set_get(*, slug: str) -> Deck:
    try:
        deck = Deck.objects.get(slug=slug)
    except Deck.DoesNotExist:
        raise NotFound(f"There is no deck {slug!r}.") from None
    if deck.kind != CARD_SET:
        # Well-formed, and the deck is there: its kind (which a PATCH may change) is what refuses it.
        raise Conflict(f"{slug!r} is a deck, not a CCG card set.", code="not_a_card_set", details={"slug": slug})
    return deck


def version_list(*, card_set: Deck) -> QuerySet[CardSetVersion]:
    return card_set.versions.order_by("number")


def version_get(*, card_set: Deck, number: int) -> CardSetVersion:
    try:
        return card_set.versions.get(number=number)
    except CardSetVersion.DoesNotExist:
        raise NotFound(f"The card set {card_set.slug!r} has no version {number}.") from None


def version_latest(*, card_set: Deck) -> CardSetVersion | None:
    return card_set.versions.order_by("-number").first()


def version_content_card(content: dict[str, Any], card_id: int) -> dict[str, Any] | None:
    return next((card for card in content["cards"] if card["id"] == card_id), None)


def card_set_problems(content: dict[str, Any]) -> list[dict[str, Any]]:
    """What a version of the set lacks by the CCG rules, each as `{"code", "message", "details"}`.

    A problem of the set, never a refusal: the rule says how players make a Card Set, and a set on its way to
    fifty cards is played meanwhile (its playtesting is how its cards get approved), so its player decks and
    games go ahead. Its distinct cards count, not their copies: a player deck takes any number of copies of each.
    """
    cards = len(content["cards"])
    if cards >= MIN_CARD_SET_SIZE:
        return []
    return [{"code": TOO_FEW_CARDS,
             "message": f"A Card Set has at least {MIN_CARD_SET_SIZE} cards; this one has {cards}. "
                        "It may be played meanwhile.",
             "details": {"cards": cards, "least": MIN_CARD_SET_SIZE}}]


def is_registered_player(*, card_set: Deck, user: Any) -> bool:
    return bool(user and user.is_authenticated and card_set.registered_players.filter(user=user).exists())


def registered_player_ids(*, card_set: Deck) -> list[int]:
    return list(CardSetPlayer.objects.filter(card_set=card_set).values_list("user_id", flat=True))


@dataclass(frozen=True)
class DeckCheck:
    """Whether a player deck may be played, and each reason it may not, for a person."""

    size: int
    problems: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.problems


def check_entries(*, entries: dict[int, int], content: dict[str, Any]) -> DeckCheck:
    """`entries` maps a card id to its number of copies; `content` is the version the deck is built on."""
    size = sum(entries.values())
    problems = []
    least = min_deck_size(content["special_rules"])
    if size < least:
        problems.append(f"A deck of this set has at least {least} cards; this one has {size}.")
    missing = sorted(card_id for card_id in entries if version_content_card(content, card_id) is None)
    if missing:
        problems.append(f"Cards {missing} are not in the version of the set this deck is built on.")
    return DeckCheck(size=size, problems=tuple(problems))


def entries_check(*, card_set: Deck, number: int, entries: dict[int, int]) -> dict[str, Any]:
    """What a deck of these entries would be on that version of the set, without storing anything: `{"card_set",
    "version", "size", "valid", "problems"}`, each problem the sentence a stored deck's `problems` would give."""
    check = check_entries(entries=entries, content=version_get(card_set=card_set, number=number).content)
    return {"card_set": card_set.slug, "version": number, "size": check.size, "valid": check.valid,
            "problems": list(check.problems)}


def player_deck_get(*, user: Any, player_deck_id: int) -> PlayerDeck:
    """The user's own deck: `not_found` when there is none, and when it is someone else's (a 403 would confirm
    that it exists)."""
    deck = PlayerDeck.objects.select_related("card_set").filter(pk=player_deck_id).first()
    if deck is None or deck.owner_id != getattr(user, "pk", None):
        raise NotFound(f"There is no player deck {player_deck_id}.")
    return deck


def player_deck_list(*, user: Any) -> QuerySet[PlayerDeck]:
    return PlayerDeck.objects.filter(owner=user).select_related("card_set").prefetch_related("entries")


def player_deck_entries(deck: PlayerDeck) -> dict[int, int]:
    return {entry.card_id: entry.count for entry in deck.entries.all()}


def player_deck_version_content(deck: PlayerDeck) -> dict[str, Any]:
    return version_get(card_set=deck.card_set, number=deck.version).content


GAME_CARD_FIELDS = ("title", "type", "text", "flavor", "corner_value", "creator", "stats")


def player_deck_view(deck: PlayerDeck) -> dict[str, Any]:
    """The API's shape: `{"id", "name", "card_set", "version", "latest_version", "entries", "size", "valid",
    "problems", "in_game"}`; each entry carries its card as the deck's version of the set has it (`title`, `type`,
    `text`, `flavor`, `corner_value`, `creator`, `stats`), which a new version of the set changes at once."""
    content = player_deck_version_content(deck)
    entries = player_deck_entries(deck)
    check = check_entries(entries=entries, content=content)
    latest = version_latest(card_set=deck.card_set)
    return {
        "id": deck.pk,
        "name": deck.name,
        "card_set": deck.card_set.slug,
        "version": deck.version,
        "latest_version": latest.number if latest else deck.version,
        "entries": [{"card": card_id, "count": count, **_entry_card(version_content_card(content, card_id))}
                    for card_id, count in entries.items()],
        "size": check.size,
        "valid": check.valid,
        "problems": list(check.problems),
        "in_game": bool(deck.games_in_play),
    }


def _entry_card(card: dict[str, Any] | None) -> dict[str, Any]:
    """An entry's card fields; blank for a card its version lacks (a deck stored so is shown, and not valid)."""
    card = card or {}
    return {name: card.get(name, {} if name == "stats" else "") for name in GAME_CARD_FIELDS}


def player_deck_for_game(*, user: Any, player_deck_id: int, formal: bool) -> dict[str, Any]:
    """The deck a player brings to a CCG game, in the engine's shape:
    `{"id", "name", "card_set", "version", "cards": [{"title", "type", "text", "flavor", "copies",
    "corner_value", "creator", "stats", "effect"?}]}`: `effect`, the card's confirmed effect in the deck's version
    of the set, only when it has one (the game then understands the card by it).

    Refused with `deck_invalid` when the deck breaks its set's rules, and, for a formal game, with
    `deck_outdated` when it is built on an older version of the set than the latest: the player updates it first.
    Every player deck follows each version as it is built (`services.card_set_version_build`), so only a deck
    left behind is outdated: one left on its version, while a game played it, before decks followed every version,
    or one read in the instant its set's next version was being written.
    """
    deck = player_deck_get(user=user, player_deck_id=player_deck_id)
    content = player_deck_version_content(deck)
    entries = player_deck_entries(deck)
    check = check_entries(entries=entries, content=content)
    if not check.valid:
        raise Conflict(f"The deck {deck.name!r} cannot be played: {' '.join(check.problems)}",
                       code="deck_invalid", details={"problems": list(check.problems)})
    latest = version_latest(card_set=deck.card_set)
    if formal and latest is not None and latest.number > deck.version:
        raise Conflict(
            f"The deck {deck.name!r} is built on version {deck.version} of {deck.card_set.slug!r}, which is now at "
            f"version {latest.number}; update it before a formal game.",
            code="deck_outdated", details={"version": deck.version, "latest_version": latest.number},
        )
    cards = []
    for card_id, count in entries.items():
        card = version_content_card(content, card_id)
        effect = {} if card.get("effect") is None else {"effect": card["effect"]}
        cards.append({**{name: card[name] for name in GAME_CARD_FIELDS}, **effect, "copies": count})
    return {"id": deck.pk, "name": deck.name, "card_set": deck.card_set.slug, "version": deck.version,
            "cards": cards}


def notification_list(*, user: Any, unread: bool = False) -> QuerySet[Notification]:
    notices = Notification.objects.filter(user=user)
    return notices.filter(read_at__isnull=True) if unread else notices


# --- deck files ------------------------------------------------------------------------------------------

DECK_FILE_FORMATS = ("cod", "o8d")


def player_deck_file(*, user: Any, player_deck_id: int, format: str) -> tuple[str, str, str]:
    """The user's own deck as a Cockatrice (`cod`) or OCTGN (`o8d`) file: (content, content type, file name).
    Cards go by their titles in the deck's version of the set; OCTGN ids are derived from the set and card id."""
    from decks.exporters import deck_files
    from decks.importers.errors import UnknownFormatError

    if format not in DECK_FILE_FORMATS:
        raise UnknownFormatError(f"Unknown deck file format {format!r}; use one of {', '.join(DECK_FILE_FORMATS)}.")
    deck = player_deck_get(user=user, player_deck_id=player_deck_id)
    content = player_deck_version_content(deck)
    slug = deck.card_set.slug
    cards = [(card_id, (version_content_card(content, card_id) or {}).get("title", f"Card {card_id}"), count)
             for card_id, count in player_deck_entries(deck).items()]
    filename = f"{re.sub(r'[^A-Za-z0-9_-]+', '-', deck.name).strip('-') or 'deck'}.{format}"
    if format == "cod":
        comments = f"{deck.card_set.title}, version {deck.version}"
        text = deck_files.cockatrice_deck(deck.name, comments, [(title, count) for _, title, count in cards])
        return text, "application/xml; charset=utf-8", filename
    text = deck_files.octgn_deck(deck_files.game_uuid(slug), "Main",
                                 [(deck_files.card_uuid(slug, card_id), title, count) for card_id, title, count in cards])
    return text, "application/xml; charset=utf-8", filename
