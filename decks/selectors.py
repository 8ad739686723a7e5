"""Reads of the archive. Writes live in `decks.services`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db import connection
from django.db.models import OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from decks.history import unified_diff
from decks.models import Card, Deck, Revision, SpecialRule, TalkPost
from decks.search import search_cards, search_decks
from dvorak_core.deckdata import CardData, DeckData, SpecialRuleData
from dvorak_core.errors import NotFound


def deck_list(
    *,
    search: str = "",
    status: str | None = None,
    players: str | None = None,
    locked: bool | None = None,
    kind: str | None = None,
    ruleset: str | None = None,
) -> QuerySet[Deck]:
    """The decks the filters name, by title; with `search`, those it finds, best first (`decks.search`)."""
    decks = Deck.objects.order_by("title", "slug")
    if status is not None:
        decks = decks.filter(status=status)
    if players:
        decks = decks.filter(players_match(players))
    if locked is not None:
        decks = decks.filter(locked=locked)
    if kind:
        decks = decks.filter(kind=kind)
    if ruleset:
        decks = decks.filter(ruleset=ruleset)
    if search:
        decks = search_decks(decks, search)
    return decks


# The largest player count a filter reads as a number; beyond it, as text.
MAX_PLAYER_FILTER = 9999


def players_match(players: str) -> Q:
    """The decks for `players`: a whole number N finds every deck whose range holds N (a "2-4" deck, a "2+" deck
    and a "3 or more" deck for 3), and a deck whose text reads as no range when its text is exactly N; any other
    text finds the decks whose `players` is exactly it."""
    text = players.strip()
    if not (text.isascii() and text.isdigit() and int(text) <= MAX_PLAYER_FILTER):
        return Q(players=players)
    count = int(text)
    holds = Q(players_min__lte=count) & (Q(players_max__isnull=True) | Q(players_max__gte=count))
    return holds | Q(players_min__isnull=True, players=players)


def with_card_count(decks: QuerySet[Deck]) -> QuerySet[Deck]:
    """Each deck with `card_count`: the cards of its printed deck, every copy counted (0 for none).

    A subquery for each deck rather than a join with every card grouped by deck: a page of the list sums only its
    own decks' cards (the database reckons it after the sort and the limit), and counting the list's decks for its
    pages leaves it out."""
    copies = (Card.objects.filter(deck=OuterRef("pk")).order_by().values("deck")
              .annotate(copies=Sum("copies")).values("copies"))
    return decks.annotate(card_count=Coalesce(Subquery(copies), Value(0)))


def deck_recently_changed(*, limit: int = 10) -> QuerySet[Deck]:
    return with_card_count(Deck.objects.all()).order_by("-updated_at", "slug")[:limit]


# The most player counts the deck list offers to choose from (any other number may still be asked for).
MAX_PLAYER_CHOICES = 20


def deck_filter_values() -> dict[str, list[str]]:
    """For the deck list's filters: the player counts to offer (the numbers from the smallest any deck plays to
    the largest any deck names, then each player text that reads as no range) and the rulesets the decks give."""
    rows = Deck.objects.order_by().values_list("players", "players_min", "players_max", "ruleset").distinct()
    bounds = [bound for _, low, high, _ in rows for bound in (low, high) if bound is not None]
    counts = range(min(bounds), min(max(bounds), min(bounds) + MAX_PLAYER_CHOICES - 1) + 1) if bounds else []
    unread = {players for players, low, _, _ in rows if players and low is None}
    return {
        "players": [str(count) for count in counts] + sorted(unread),
        "rulesets": sorted({ruleset for *_, ruleset in rows if ruleset}),
    }


# Each name of every deck's designers, with the number of decks that name it (PostgreSQL reads the JSON lists'
# elements itself).
_DESIGNER_COUNTS = f"""
SELECT name, count(*)
FROM {Deck._meta.db_table} AS deck
CROSS JOIN LATERAL (SELECT DISTINCT value FROM jsonb_array_elements_text(
    CASE WHEN jsonb_typeof(deck.designers) = 'array' THEN deck.designers ELSE '[]'::jsonb END)) AS names (name)
GROUP BY name
"""


def designer_list() -> list[tuple[str, int]]:
    """Every designer the archive names, with the number of their decks, by name.

    Designers are a JSON list on each deck. PostgreSQL counts them by the lists' elements; SQLite cannot search by
    element, and they are counted here from one query of the lists alone (the embedded archive is small).
    """
    counts: Counter[str] = Counter()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_DESIGNER_COUNTS)
            counts.update({name: count for name, count in cursor.fetchall() if name.strip()})
    else:
        for designers in Deck.objects.order_by().values_list("designers", flat=True):
            counts.update({str(name) for name in designers or [] if str(name).strip()})
    return sorted(counts.items(), key=lambda item: (item[0].casefold(), item[0]))


def designer_decks(*, name: str) -> QuerySet[Deck]:
    """The decks that name `name` among their designers (exactly as the deck writes it)."""
    if connection.vendor == "postgresql":  # the JSON list holds the name
        decks = Deck.objects.filter(designers__contains=[name])
    else:
        ids = [pk for pk, designers in Deck.objects.order_by().values_list("pk", "designers")
               if name in [str(n) for n in designers or []]]
        decks = Deck.objects.filter(pk__in=ids)
    return with_card_count(decks).order_by("title", "slug")


def card_search(*, search: str = "", type: str | None = None, deck: str | None = None) -> QuerySet[Card]:
    """Cards of every deck (or of the deck whose slug is `deck`), with their deck: those `search` finds, best
    first (`decks.search`: a title that matches before a text that does), or every one by deck then place."""
    cards = Card.objects.all()
    if type:
        cards = cards.filter(type=type)
    if deck:
        cards = cards.filter(deck__slug=deck)
    if search:
        # The page's cards read their decks after the page is cut (one query), not every match joined to its deck.
        return search_cards(cards, search).prefetch_related(Prefetch("deck", Deck.objects.defer("search")))
    return cards.select_related("deck").defer("deck__search").order_by("deck__title", "deck__slug", "position", "id")


# Each type after the one before, from the index on the cards' type: a few lookups, not a pass over every card.
_CARD_TYPES = f"""
WITH RECURSIVE types(type) AS (
    SELECT min(type) FROM {Card._meta.db_table}
    UNION ALL
    SELECT (SELECT min(type) FROM {Card._meta.db_table} WHERE type > types.type) FROM types WHERE type IS NOT NULL
)
SELECT type FROM types WHERE type IS NOT NULL
"""


def card_types() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(_CARD_TYPES)
        return sorted({card_type for (card_type,) in cursor.fetchall()})


def revision_recent() -> QuerySet[Revision]:
    """Every deck's revisions, newest first: the archive's Recent Changes."""
    return (Revision.objects.select_related("deck", "author").defer("content", "deck__search")
            .order_by("-created_at", "-id"))


def deck_get(*, slug: str, contents: bool = True) -> Deck:
    """The deck with its cards and Special Rules read at once; `contents=False`: its own row alone, for a page of
    it that shows none of them (its history, a revision, its talk page)."""
    decks = Deck.objects.prefetch_related("cards", "special_rules") if contents else Deck.objects.all()
    try:
        return decks.get(slug=slug)
    except Deck.DoesNotExist:
        raise NotFound(f"There is no deck {slug!r}.") from None


def card_get(*, deck: Deck, card_id: int) -> Card:
    try:
        return deck.cards.get(pk=card_id)
    except Card.DoesNotExist:
        raise NotFound(f"The deck {deck.slug!r} has no card {card_id}.") from None


def card_data(card: Card) -> CardData:
    return CardData(
        title=card.title,
        type=card.type,
        text=card.text,
        flavor=card.flavor,
        copies=card.copies,
        corner_value=card.corner_value,
        creator=card.creator,
        stats=dict(card.stats),
        out_of_turn=card.out_of_turn,
        effect=None if card.effect is None else list(card.effect),
    )


def special_rule_data(rule: SpecialRule) -> SpecialRuleData:
    return SpecialRuleData(title=rule.title, text=rule.text, params=dict(rule.params or {}),
                           effect=None if rule.effect is None else list(rule.effect))


def deck_data(deck: Deck) -> DeckData:
    """The deck's current rows as plain values, for exporters, revisions and games."""
    return DeckData(
        slug=deck.slug,
        title=deck.title,
        kind=deck.kind,
        designers=tuple(deck.designers),
        date=deck.date,
        players=deck.players,
        status=deck.status,
        locked=deck.locked,
        ruleset=deck.ruleset,
        description=deck.description,
        special_rules=tuple(special_rule_data(rule) for rule in deck.special_rules.all()),
        cards=tuple(card_data(card) for card in deck.cards.all()),
    )


def deck_for_game(slug: str) -> dict[str, Any]:
    """The current deck for a new game: `DeckData.to_dict()` with the archive's id on each rule and card."""
    deck = deck_get(slug=slug)
    content = deck_data(deck).to_dict()
    for rule, row in zip(content["special_rules"], deck.special_rules.all(), strict=True):
        rule["id"] = row.pk
    for card, row in zip(content["cards"], deck.cards.all(), strict=True):
        card["id"] = row.pk
    return content


def revision_list(*, deck: Deck) -> QuerySet[Revision]:
    """The deck's revisions, oldest first, without their content (the whole deck each: read it by
    `revision_get`)."""
    return deck.revisions.select_related("author").defer("content").order_by("number")


def revision_get(*, deck: Deck, number: int) -> Revision:
    try:
        return deck.revisions.select_related("author").get(number=number)
    except Revision.DoesNotExist:
        raise NotFound(f"The deck {deck.slug!r} has no revision {number}.") from None


def revision_deck(revision: Revision) -> DeckData:
    return DeckData.from_dict(revision.content)


def revision_diff(*, deck: Deck, number: int, against: int | None = None) -> tuple[Revision, Revision, str]:
    """The unified diff from revision `against` (by default the one before) to revision `number`."""
    newer = revision_get(deck=deck, number=number)
    if against is None:
        against = number - 1
    if against < 1:  # the revision before the first is not there
        raise NotFound(f"Revision {number} is the first; name another revision to compare it with (?against=).")
    older = revision_get(deck=deck, number=against)
    diff = unified_diff(
        revision_deck(older),
        revision_deck(newer),
        old_label=f"{deck.slug} revision {older.number}",
        new_label=f"{deck.slug} revision {newer.number}",
    )
    return older, newer, diff


def talk_list(*, deck: Deck) -> QuerySet[TalkPost]:
    """Every post, hidden ones included: whoever shows them shows a hidden post's text to curators only."""
    return deck.talk_posts.select_related("author", "hidden_by").order_by("created_at", "id")


def talk_post_get(*, deck: Deck, post_id: int) -> TalkPost:
    """One post of the deck's talk page, hidden or not (as ``talk_list``)."""
    post = talk_list(deck=deck).filter(pk=post_id).first()
    if post is None:
        raise NotFound(f"The talk page of {deck.slug!r} has no post {post_id}.")
    return post
