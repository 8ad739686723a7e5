"""Searching the archive: ranked full-text search on PostgreSQL, plain matching on SQLite, the same results' shape.

On PostgreSQL each deck and card row carries a `search` vector, weighted so that a title counts most:

- a deck: title (A), designers (B), description and Special Rules (C), its cards' titles and text (D);
- a card: title (A), text (B).

`refresh_search(deck)` rewrites the deck's vector and its cards' after every change to the deck (the services call
it with each revision they record, and a revision is recorded by every write). Words match by their stem and as
prefixes ("rock" finds "Rocket", "scissors" finds "Scissor"), every word of the search being needed. Results are
ranked: a title that matches comes before a match elsewhere, then by `ts_rank` over the weights, then by how close
the title is. A title typed with mistakes is found by trigram similarity (`pg_trgm`'s `word_similarity` at its
threshold, 0.6): "Rock Paper Sissors" finds "Rock Paper Scissors Extreme deck". Migration 0007 makes the GIN
indexes (the vectors; the titles with `gin_trgm_ops`) and the `pg_trgm` extension.

On SQLite (the embedded default) the vectors stay empty and every word of the search must appear, in any case, in
one of the same fields; a title holding the whole search comes first.
"""

from __future__ import annotations

import re

from django.contrib.postgres.lookups import TrigramWordSimilar
from django.contrib.postgres.search import (
    SearchQuery,
    SearchRank,
    TrigramWordSimilarity,
)
from django.db import connection
from django.db.models import BooleanField, Case, Exists, F, OuterRef, Q, QuerySet, Value, When

from decks.models import Card, Deck, SpecialRule

# The text search configuration: English stems ("scissors" and "scissor" are one word) and stop words.
CONFIG = "english"
# Words of a search that count; the rest are ignored.
MAX_WORDS = 16
# Characters of a deck's description and Special Rules (C) and of its cards (D) that go into its vector: a
# PostgreSQL vector holds at most 1 MB. A card beyond them is still found by the card search.
MAX_RULES_TEXT = 30_000
MAX_CARDS_TEXT = 100_000


def full_text() -> bool:
    """Whether the database searches by text vectors (PostgreSQL) or falls back to plain matching."""
    return connection.vendor == "postgresql"


# --- keeping the vectors -------------------------------------------------------------------------------------

_DECK_VECTOR = f"""
UPDATE {Deck._meta.db_table} AS deck SET search =
       setweight(to_tsvector(%(config)s::regconfig, deck.title), 'A')
    || setweight(to_tsvector(%(config)s::regconfig, deck.designers::text), 'B')
    || setweight(to_tsvector(%(config)s::regconfig, left(deck.description || ' ' || coalesce((
           SELECT string_agg(rule.title || ' ' || rule.text, ' ' ORDER BY rule.position, rule.id)
           FROM {SpecialRule._meta.db_table} AS rule WHERE rule.deck_id = deck.id), ''), %(rules)s)), 'C')
    || setweight(to_tsvector(%(config)s::regconfig, left(coalesce((
           SELECT string_agg(card.title || ' ' || card.text, ' ' ORDER BY card.position, card.id)
           FROM {Card._meta.db_table} AS card WHERE card.deck_id = deck.id), ''), %(cards)s)), 'D')
WHERE {{where}}
"""
_CARD_VECTORS = f"""
UPDATE {Card._meta.db_table} AS card SET search =
       setweight(to_tsvector(%(config)s::regconfig, card.title), 'A')
    || setweight(to_tsvector(%(config)s::regconfig, card.text), 'B')
WHERE {{where}}
"""


def refresh_search(deck: Deck) -> None:
    """The deck's search vector and its cards', from their rows as they are now (PostgreSQL; nothing on SQLite)."""
    if not full_text():
        return
    params = {"config": CONFIG, "rules": MAX_RULES_TEXT, "cards": MAX_CARDS_TEXT, "deck": deck.pk}
    with connection.cursor() as cursor:
        cursor.execute(_CARD_VECTORS.format(where="card.deck_id = %(deck)s"), params)
        cursor.execute(_DECK_VECTOR.format(where="deck.id = %(deck)s"), params)


def refresh_search_everywhere() -> None:
    """Every deck's and card's search vector, by the same statements as `refresh_search`, in one pass over the
    tables: for rows written in bulk, not through the services (bench/archive_data.py)."""
    if not full_text():
        return
    params = {"config": CONFIG, "rules": MAX_RULES_TEXT, "cards": MAX_CARDS_TEXT}
    with connection.cursor() as cursor:
        cursor.execute(_CARD_VECTORS.format(where="true"), params)
        cursor.execute(_DECK_VECTOR.format(where="true"), params)


# --- searching -----------------------------------------------------------------------------------------------


def words(search: str) -> list[str]:
    return re.findall(r"\w+", search.casefold())[:MAX_WORDS]


def text_query(search: str, *, weights: str = "") -> SearchQuery | None:
    """Every word of the search, each as a prefix of a stem ("rock" finds "rocket"); None for no word. `weights`:
    only where the vector gives the word one of them ("A": in the title)."""
    terms = words(search)
    if not terms:
        return None
    return SearchQuery(" & ".join(f"'{term}':*{weights}" for term in terms), search_type="raw", config=CONFIG)


def _ranked(rows: QuerySet, search: str, *then: str) -> QuerySet:
    """`rows` (decks or cards) matching the search, by the text vector or by a title close to it, ranked: a title
    that matches first, then by rank and by the title's closeness, then `then`."""
    query = text_query(search)
    close_title = TrigramWordSimilar(F("title"), Value(search))
    # The rows whose title is close to the search, found once by the titles' trigram index: comparing trigrams is
    # dear, and a common word matches the text of tens of thousands of rows whose titles need no comparing.
    close = Q(pk__in=rows.model.objects.filter(close_title).values("pk"))
    if query is None:
        matches = Q(close_title)
        title_hit = close
        rank = Value(0.0)
    else:
        matches = Q(search=query) | Q(close_title)
        # The title's words are the vector's weight A (deck and card alike): read there, not from the title made
        # into a vector again for every row found.
        title_hit = Q(search=text_query(search, weights="A")) | close
        rank = SearchRank(F("search"), query)
    title_hit_case = Case(When(title_hit, then=Value(True)), default=Value(False), output_field=BooleanField())
    return rows.filter(matches).annotate(
        title_hit=title_hit_case,
        rank=rank,
        # How close the title is orders title matches of equal rank; a match in the text alone is not compared.
        closeness=Case(When(title_hit, then=TrigramWordSimilarity(Value(search), "title")), default=Value(0.0)),
    ).order_by("-title_hit", "-rank", "-closeness", *then)


def _every_word(search: str, fields: list[str], extra: list | None = None) -> Q:
    """Each word of the search (split at spaces) in one of `fields` or `extra` (a function of the word giving a
    condition), in any case."""
    wanted = Q()
    for word in search.split()[:MAX_WORDS]:
        somewhere = Q()
        for name in fields:
            somewhere |= Q(**{f"{name}__icontains": word})
        for condition in extra or []:
            somewhere |= condition(word)
        wanted &= somewhere
    return wanted


def _title_first(rows: QuerySet, search: str, *then: str) -> QuerySet:
    return rows.annotate(title_hit=Case(
        When(title__icontains=search, then=Value(True)), default=Value(False), output_field=BooleanField(),
    )).order_by("-title_hit", *then)


def search_decks(decks: QuerySet[Deck], search: str) -> QuerySet[Deck]:
    """The decks matching the search, best first."""
    if full_text():
        return _ranked(decks, search, "title", "slug")
    found = decks.filter(_every_word(search, ["title", "designers", "description"], [_in(SpecialRule), _in(Card)]))
    return _title_first(found, search, "title", "slug")


def _in(model: type[Card] | type[SpecialRule]):
    """A condition on a deck for a word: one of its cards (or Special Rules) has it in its title or text."""
    def condition(word: str) -> Exists:
        return Exists(model.objects.filter(Q(title__icontains=word) | Q(text__icontains=word), deck=OuterRef("pk")))
    return condition


def search_cards(cards: QuerySet[Card], search: str) -> QuerySet[Card]:
    """The cards matching the search, best first; equals together by deck (in the order the decks were made)
    and place. Nothing in the order is the deck's: the best cards are found from the cards alone, and only they
    are joined to their decks."""
    then = ("deck_id", "position", "id")
    if full_text():
        return _ranked(cards, search, *then)
    return _title_first(cards.filter(_every_word(search, ["title", "text"])), search, *then)
