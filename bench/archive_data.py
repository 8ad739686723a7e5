"""An archive of any size for bench/archive.py: decks, cards, Special Rules, revisions and talk posts, written in bulk.

The rows are those the archive's services would have left had people made the decks one edit at a time: each deck's
revisions hold the whole deck as `DeckData.to_dict()` had it then (its first revision about half its cards, each
later one adding a card or changing one's text, a locked deck's last one its lock), so the history pages and the
diffs render; `players_min` and `players_max` are read from `players` by `parse_players`; the search vectors are
written by the statements `decks.search` runs after every revision (`refresh_search_everywhere`). Only the way in
differs: COPY and a few set-wide statements instead of one service call per edit, so 10,000 decks take a few
minutes rather than hours. The words come from the seed decks' own cards, so a search finds what it would find
in an archive of such decks (a common word in thousands of cards, a rare one in a few).

Deterministic: the same sizes and seed give the same rows (ids included, on an empty archive). The seed decks
(`load_seed_decks`) are loaded first through the services and count among the decks.

    DATABASE_URL=postgres://… python bench/archive_data.py [--decks 10000 --cards 300000 --revisions 50000 --posts 20000]
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import random
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path

from common import ROOT, setup_django

# The deck every size of archive holds, at this slug: 300 cards, a long history and a busy talk page. bench/archive.py
# times its page, its history and a diff.
BIG_DECK_SLUG = "the-grand-library-of-everything-deck"
BIG_DECK_CARDS = 300
BIG_DECK_REVISIONS = 60
BIG_DECK_POSTS = 40
# The largest deck otherwise, and the most revisions of one: a few decks run long, most are short.
MAX_CARDS = 300
USERS = 400
SEED = 37
START = dt.datetime(2006, 3, 1, tzinfo=dt.UTC)
END = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)

PLAYERS = ["2", "2-4", "3+", "any", "2-6", "3 or more", "4", "2 to 5", "any number", "", "3-8", "2 or more", "5",
           "2, 3 or 4", "at least 3", "up to 6", "solo", "lots", "2-4 (best with 3)", "6+"]
STATUSES_WEIGHTED = [("", 30), ("unfinished", 25), ("untested", 15), ("playable", 25), ("nomic", 5)]
DECK_WORDS = ["Dragon", "Library", "Pirate", "Robot", "Wizard", "Castle", "Election", "Garden", "Kitchen", "Space",
              "Ninja", "Zombie", "Cthulhu", "Monkey", "Office", "Senate", "Circus", "Ocean", "Volcano", "Cheese",
              "Potion", "Knight", "Dungeon", "Railway", "Casino", "Jungle", "Tavern", "Harbour", "Carnival", "Museum",
              "Opera", "Airship", "Desert", "Glacier", "Bakery", "Comet", "Labyrinth", "Orchard", "Monastery",
              "Sheriff", "Frontier", "Galaxy", "Kraken", "Pixie", "Goblin", "Vampire", "Sorcerer", "Alchemy", "Tea"]
DECK_FORMS = ["{a} Deck", "The {a} deck", "{a} and {b}", "{a} Wars", "Attack of the {a}", "{a} {b} deck",
              "Return of the {a}", "{a} Nomic", "{a}: the Card Game", "Blank {a}", "{a} vs. {b}", "Super {a} {b}"]
FIRST = ["Tweed", "Ann", "Bob", "Kat", "Jo", "Max", "Lee", "Sam", "Ivy", "Rex", "Una", "Hal", "Dee", "Gus", "Flo",
         "Ned", "Ora", "Pip", "Quin", "Ros", "Tam", "Uli", "Vic", "Wes", "Xan", "Yul", "Zed", "Bea", "Cal", "Eli"]
LAST = ["Cap", "Smith", "Mare", "Quill", "Stone", "Brook", "Fairweather", "Grey", "Holt", "Ives", "Jolly", "Kettle",
        "Lark", "Moss", "North", "Oak", "Pike", "Reed", "Sparrow", "Thorn", "Vale", "Wren", "Yew", "Ash", "Birch"]
TALK = ["I think {t} is too strong; maybe it should cost a discard.", "Played this last night with four: great fun.",
        "Can someone clarify how {t} works with the hand limit?", "Added a few Actions to balance the Things.",
        "The Special Rule about scoring needs a tie-breaker.", "Should {t} be out of turn?",
        "Locking this soon unless anyone objects.", "Fixed the typo in {t}.", "Nice deck!",
        "{t} and the other cards of its kind make the game last forever; I would cut two of them."]


@dataclass
class Sizes:
    decks: int = 10_000
    cards: int = 300_000
    revisions: int = 50_000
    posts: int = 20_000


# --- words ----------------------------------------------------------------------------------------------------


@dataclass
class Words:
    """The seed decks' card sentences and title words, the stuff generated cards are made of."""

    sentences: list[str]
    title_words: list[str]

    @classmethod
    def of_seed_decks(cls) -> Words:
        sentences: set[str] = set()
        words: set[str] = set()
        for path in sorted((ROOT / "decks" / "seed_data").glob("*.json")) + sorted(
                (ROOT / "decks" / "sample_data").glob("*.json")):
            found = json.loads(Path(path).read_text(encoding="utf-8"))
            for deck in found if isinstance(found, list) else found.get("decks", [found]):
                for card in deck.get("cards", []):
                    words.update(w for w in re.findall(r"[A-Z][a-z']+", card["title"]) if len(w) > 2)
                    for sentence in re.split(r"(?<=[.!?])\s+", card.get("text", "")):
                        if 10 < len(sentence) < 200:
                            sentences.add(sentence.strip())
        return cls(sorted(sentences), sorted(words))


# --- the decks, as values -------------------------------------------------------------------------------------


def _spread(rng: random.Random, total: int, parts: int, *, low: int, high: int, skew: float) -> list[int]:
    """`parts` whole numbers in [low, high] summing to `total` (when it can), most small and a few large."""
    if parts == 0:
        return []
    weights = [rng.paretovariate(skew) for _ in range(parts)]
    scale = (total - low * parts) / sum(weights)
    counts = [min(high, low + int(w * scale)) for w in weights]
    short = total - sum(counts)
    order = list(range(parts))
    while short:
        rng.shuffle(order)
        moved = False
        for i in order:
            if short > 0 and counts[i] < high:
                counts[i] += 1
                short -= 1
                moved = True
            elif short < 0 and counts[i] > low:
                counts[i] -= 1
                short += 1
                moved = True
            if not short:
                break
        if not moved:
            break
    return counts


class Maker:
    """Decks, cards and talk, from one seeded random source."""

    def __init__(self, seed: int):
        from dvorak_core.deckdata import ACTION, THING

        self.rng = random.Random(seed)
        self.words = Words.of_seed_decks()
        self.types = [THING] * 6 + [ACTION] * 4
        self.designers = [f"{f} {last}" for f in FIRST for last in LAST]
        self.titles_used: set[str] = set()

    def text(self, low: int = 1, high: int = 3) -> str:
        return " ".join(self.rng.choice(self.words.sentences) for _ in range(self.rng.randint(low, high)))

    def card(self, n: int):
        from dvorak_core.deckdata import CardData, plays_out_of_turn

        rng = self.rng
        title = " ".join(rng.sample(self.words.title_words, rng.choice([1, 2, 2, 3])))
        text = self.text()
        return CardData(title=title, type=rng.choice(self.types), text=text,
                        flavor=self.text(1, 1) if rng.random() < 0.1 else "",
                        copies=rng.choice([1] * 8 + [2, 3]), creator=rng.choice(self.designers) if rng.random() < 0.2
                        else "", out_of_turn=plays_out_of_turn(text))

    def deck_title(self) -> str:
        while True:
            a, b = self.rng.sample(DECK_WORDS, 2)
            title = self.rng.choice(DECK_FORMS).format(a=a, b=b)
            if title not in self.titles_used:
                self.titles_used.add(title)
                return title
            title = f"{title} {self.rng.randint(2, 9999)}"
            if title not in self.titles_used:
                self.titles_used.add(title)
                return title

    def deck(self, cards: int, *, title: str | None = None, slug: str | None = None):
        from dvorak_core.deckdata import DeckData, SpecialRuleData, slugify

        rng = self.rng
        title = title or self.deck_title()
        statuses, weights = zip(*STATUSES_WEIGHTED, strict=True)
        rules = tuple(SpecialRuleData(title=f"Rule {i + 1}" if rng.random() < 0.5 else "", text=self.text(1, 4))
                      for i in range(rng.choice([0, 0, 1, 1, 2, 3])))
        return DeckData(
            slug=slug or slugify(title), title=title,
            designers=tuple(rng.sample(self.designers, rng.choice([1, 1, 1, 2, 3]))),
            date=f"{rng.randint(1, 28)} {rng.choice(['January', 'March', 'June', 'October', 'December'])} "
                 f"{rng.randint(2006, 2026)}" if rng.random() < 0.7 else "",
            players=rng.choice(PLAYERS), status=rng.choices(statuses, weights)[0],
            locked=rng.random() < 0.3, description=self.text(0, 4), special_rules=rules,
            cards=tuple(self.card(n) for n in range(cards)),
        )

    def history(self, deck, revisions: int):
        """The deck's revisions, oldest first, as (DeckData, summary): its cards grow to the deck's, a card's text
        changes now and then, and a locked deck's last revision locks it."""
        from decks.services import _import_summary

        steps: list[tuple] = []
        state = deck
        if deck.locked and revisions > 1:
            steps.append((state, "Locked"))
            state = replace(state, locked=False)
            revisions -= 1
        adds = min(revisions - 1, len(deck.cards) // 2)
        for k in range(revisions - 1, 0, -1):
            if k <= adds and len(state.cards) > 1:
                steps.append((state, f"Added card {state.cards[-1].title!r}"))
                state = replace(state, cards=state.cards[:-1])
            else:
                i = self.rng.randrange(len(state.cards)) if state.cards else None
                if i is None:
                    steps.append((state, "Changed description"))
                    state = replace(state, description=self.text(0, 2))
                    continue
                steps.append((state, f"Changed card {state.cards[i].title!r}"))
                older = replace(state.cards[i], text=self.text())
                state = replace(state, cards=(*state.cards[:i], older, *state.cards[i + 1:]))
        steps.append((state, _import_summary(state, "wiki")))
        return steps[::-1]

    def moments(self, count: int, start: dt.datetime, end: dt.datetime) -> list[dt.datetime]:
        span = max((end - start).total_seconds(), count)
        return sorted(start + dt.timedelta(seconds=self.rng.uniform(0, span)) for _ in range(count))


# --- writing --------------------------------------------------------------------------------------------------


def _copy(cursor, table: str, columns: list[str], rows) -> None:
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def _next_id(cursor, table: str) -> int:
    cursor.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")
    return cursor.fetchone()[0]


def _reset_sequence(cursor, table: str) -> None:
    cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")


def fill(sizes: Sizes, *, seed: int = SEED, log=print) -> dict:
    """Add generated decks to the archive (after its seed decks) until it holds `sizes`; the figures of what it
    holds then."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction

    from decks.models import Card, Deck, Revision, SpecialRule, TalkPost
    from decks.search import refresh_search_everywhere
    from dvorak_core.player_counts import parse_players

    t0 = time.perf_counter()
    call_command("load_seed_decks", stdout=io.StringIO())
    have = {"decks": Deck.objects.count(), "cards": Card.objects.count(), "revisions": Revision.objects.count(),
            "posts": TalkPost.objects.count()}
    if Deck.objects.filter(slug=BIG_DECK_SLUG).exists():
        log("the archive holds generated decks already: nothing added")
        return have
    maker = Maker(seed)
    rng = maker.rng
    new_decks = sizes.decks - have["decks"]
    if new_decks < 1:
        raise SystemExit(f"the archive holds {have['decks']} decks already; ask for more than that")
    # The big deck, then the others' sizes: cards and revisions shared out, few large and many small.
    other = new_decks - 1
    cards = [BIG_DECK_CARDS, *_spread(rng, max(sizes.cards - have["cards"] - BIG_DECK_CARDS, other), other,
                                      low=1, high=MAX_CARDS, skew=1.6)]
    extra = max(sizes.revisions - have["revisions"] - new_decks - (BIG_DECK_REVISIONS - 1), 0)
    revisions = [BIG_DECK_REVISIONS, *(1 + n for n in _spread(rng, extra, other, low=0, high=200, skew=1.3))]
    posts = [min(BIG_DECK_POSTS, sizes.posts), *_spread(rng, max(sizes.posts - have["posts"] - BIG_DECK_POSTS, 0),
                                                        other, low=0, high=400, skew=1.2)]

    User = get_user_model()
    prefix = "archive-bench-"
    User.objects.bulk_create([User(username=f"{prefix}{n}", password="!") for n in range(USERS)],
                             ignore_conflicts=True)
    users = list(User.objects.filter(username__startswith=prefix).order_by("id").values_list("id", flat=True))

    with transaction.atomic(), connection.cursor() as wrapper:
        cursor = wrapper.cursor  # psycopg's own, for COPY
        deck_id = _next_id(cursor, Deck._meta.db_table)
        card_id = _next_id(cursor, Card._meta.db_table)
        post_id = _next_id(cursor, TalkPost._meta.db_table)
        deck_rows, card_rows, rule_rows, revision_rows, post_rows = [], [], [], [], []
        for n in range(new_decks):
            data = (maker.deck(cards[n], title="The Grand Library of Everything deck", slug=BIG_DECK_SLUG) if n == 0
                    else maker.deck(cards[n]))
            steps = maker.history(data, revisions[n])
            born = START + dt.timedelta(seconds=rng.uniform(0, (END - START).total_seconds() * 0.9))
            times = maker.moments(len(steps), born, min(END, born + dt.timedelta(days=rng.uniform(1, 900))))
            found = parse_players(data.players)
            low, high = (None, None) if found is None else found
            deck_rows.append((deck_id, data.slug, data.title, data.kind, json.dumps(list(data.designers)), data.date,
                              data.players, low, high, data.status, data.ruleset, data.description, data.locked,
                              len(steps), times[0], times[-1]))
            for position, card in enumerate(data.cards):
                card_rows.append((card_id, deck_id, position, card.title, card.type, card.text, card.flavor,
                                  card.copies, card.corner_value, card.creator, json.dumps(card.stats),
                                  card.out_of_turn))
                card_id += 1
            for position, rule in enumerate(data.special_rules):
                rule_rows.append((deck_id, position, rule.title, rule.text, json.dumps(rule.params)))
            author = rng.choice(users)
            for number, ((state, summary), moment) in enumerate(zip(steps, times, strict=True), start=1):
                who = author if number == 1 or rng.random() < 0.5 else rng.choice(users + [None])
                revision_rows.append((deck_id, number, who, moment, summary[:300], json.dumps(state.to_dict())))
            talk_times = maker.moments(posts[n], times[0], END)
            first_post = post_id
            for moment in talk_times:
                title = rng.choice(data.cards).title if data.cards else data.title
                reply = rng.randrange(first_post, post_id) if post_id > first_post and rng.random() < 0.3 else None
                hidden = rng.random() < 0.01
                post_rows.append((post_id, deck_id, rng.choice(users), rng.choice(TALK).format(t=title), reply,
                                  moment, moment if hidden else None, users[0] if hidden else None,
                                  "spam" if hidden else ""))
                post_id += 1
            deck_id += 1
        log(f"made {len(deck_rows)} decks, {len(card_rows)} cards, {len(revision_rows)} revisions, "
            f"{len(post_rows)} talk posts in {time.perf_counter() - t0:.0f} s; writing")
        _copy(cursor, Deck._meta.db_table, ["id", "slug", "title", "kind", "designers", "date", "players",
                                            "players_min", "players_max", "status", "ruleset", "description",
                                            "locked", "revision", "created_at", "updated_at"], deck_rows)
        _copy(cursor, Card._meta.db_table, ["id", "deck_id", "position", "title", "type", "text", "flavor", "copies",
                                            "corner_value", "creator", "stats", "out_of_turn"], card_rows)
        _copy(cursor, SpecialRule._meta.db_table, ["deck_id", "position", "title", "text", "params"], rule_rows)
        _copy(cursor, Revision._meta.db_table, ["deck_id", "number", "author_id", "created_at", "summary",
                                                "content"], revision_rows)
        _copy(cursor, TalkPost._meta.db_table, ["id", "deck_id", "author_id", "body", "reply_to_id", "created_at",
                                                "hidden_at", "hidden_by_id", "hidden_reason"], post_rows)
        for model in (Deck, Card, TalkPost):
            _reset_sequence(cursor, model._meta.db_table)
        log(f"written in {time.perf_counter() - t0:.0f} s; search vectors")
        refresh_search_everywhere()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    log(f"filled in {time.perf_counter() - t0:.0f} s")
    return {"decks": Deck.objects.count(), "cards": Card.objects.count(), "revisions": Revision.objects.count(),
            "posts": TalkPost.objects.count()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    defaults = Sizes()
    for name in ("decks", "cards", "revisions", "posts"):
        parser.add_argument(f"--{name}", type=int, default=getattr(defaults, name))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    setup_django()
    print(fill(Sizes(args.decks, args.cards, args.revisions, args.posts), seed=args.seed))


if __name__ == "__main__":
    main()
