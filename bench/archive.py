"""The archive at scale: its pages and API reads through the real server, with 27 decks and with 10,000.

Two databases of their own, filled once by `archive_data.py` (kept between runs; a fill that is there is not made
again): a small archive of 27 decks (the seed decks and generated ones, among them the 300-card deck) and a large one
of 10,000 decks, 300,000 cards, 50,000 revisions and 20,000 talk posts (the same seed decks and the same 300-card
deck among them). Each is served as production serves the REST side and the site, gunicorn with sync workers and
persistent connections, both at once; one client asks each page in turn, so a figure is a page's latency on an idle
server: the deck list with each of its filters (the site's and the API's), the 300-card deck's page, its history and
a diff of two of its revisions, Recent Changes, a card search, a deck search, the designer pages; and the import of
a 300-card wiki listing. Beside them, measured in the same rounds on both databases, the floor: a plain Django view
that reads the 300-card deck's cards in one indexed query and answers them as JSON.

Rounds: each page is asked `--requests` times a round on one archive and then the other (which goes first changes
every round), the pages taken in a turned order each round, so that neither archive nor page always follows the
same other while the machine's speed drifts. The percentiles are over every round's requests.

    make bench-archive   # or: DATABASE_URL=postgres://… python bench/archive.py [--rounds 3] [--requests 12]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote, urlparse, urlunparse

from archive_data import BIG_DECK_REVISIONS, BIG_DECK_SLUG, Maker, Sizes
from common import LeanClient, ensure_database, percentile, served, setup_django

HERE = Path(__file__).resolve().parent
SMALL = Sizes(decks=27, cards=810, revisions=135, posts=54)  # the archive's proportions, at 27 decks
LARGE = Sizes()
P50_AIM, P95_AIM, IMPORT_AIM = 0.030, 0.100, 2.0
# What the searches look for. A word nearly every deck has ("draw": 99% of the decks, a fifth of the cards) and
# words fewer have (at 10,000 decks: "kraken", "senator" and "library" in 250-310 decks' titles, a deck's title
# misspelt; "vote", "athame" and "golden scroll" in 1% of the cards, 24% of the decks).
COMMON = ["draw"]
DECK_WORDS = ["kraken", "senator", "library", "Grand Librery"]
CARD_WORDS = ["vote", "athame", "golden scroll"]


def database_url(url: str, suffix: str) -> str:
    parsed = urlparse(url)
    return urlunparse(parsed._replace(path=f"{parsed.path.rstrip('/')}_{suffix}"))


def filled(url: str, sizes: Sizes) -> None:
    """The archive of `sizes` in the database at `url` (archive_data.py, in a process of its own: a Django
    process talks to one database); nothing is done when it is there already."""
    ensure_database(url)
    env = {**os.environ, "DATABASE_URL": url}
    argv = [sys.executable, str(HERE / "archive_data.py"), "--decks", str(sizes.decks), "--cards", str(sizes.cards),
            "--revisions", str(sizes.revisions), "--posts", str(sizes.posts)]
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=env, check=True, capture_output=True, text=True)
    print(f"  {urlparse(url).path.lstrip('/')}: {done.stdout.strip().splitlines()[-1]} "
          f"({time.perf_counter() - t0:.0f} s)")


def pages(designer: str) -> list[tuple[str, list[str]]]:
    """(what, the paths asked in turn) for every timed read; `designer` is one of the 300-card deck's."""
    big = f"/decks/{BIG_DECK_SLUG}/"
    api_big = f"/api/v1/decks/{BIG_DECK_SLUG}/"
    diff = f"{BIG_DECK_REVISIONS}/?against={BIG_DECK_REVISIONS // 2}"
    return [
        ("floor: plain view, one indexed query", [f"/bench/archive/{BIG_DECK_SLUG}/cards/"]),
        ("deck list", ["/decks/", "/decks/?page=2"]),
        ("deck search ?q=, rarer words", [f"/decks/?q={quote(q)}" for q in DECK_WORDS]),
        ("deck search ?q=draw (99% of decks)", [f"/decks/?q={quote(q)}" for q in COMMON]),
        ("deck list ?players=", ["/decks/?players=3", "/decks/?players=2", "/decks/?players=lots"]),
        ("deck list ?status=", ["/decks/?status=playable", "/decks/?status=unfinished"]),
        ("deck list ?kind=", ["/decks/?kind=deck", "/decks/?kind=card_set"]),
        ("deck list ?locked=", ["/decks/?locked=yes", "/decks/?locked=no"]),
        ("deck list ?ruleset=", ["/decks/?ruleset=dvorak", "/decks/?ruleset=serm"]),
        ("designers", ["/designers/"]),
        ("a designer's decks", [f"/designers/{quote(designer)}/", f"/designers/{quote('Tweed Cap')}/"]),
        ("deck page, 300 cards", [big]),
        ("its history", [f"{big}history/"]),
        ("a diff of two revisions", [f"{big}history/{diff}"]),
        ("its talk page", [f"{big}talk/"]),
        ("recent changes", ["/recent-changes/", "/recent-changes/?page=2"]),
        ("card search /cards/?q=, rarer words", [f"/cards/?q={quote(q)}" for q in CARD_WORDS]),
        ("card search /cards/?q=draw (19% of cards)", [f"/cards/?q={quote(q)}" for q in COMMON]),
        ("cards /cards/ (no search)", ["/cards/", "/cards/?type=Action"]),
        ("API deck list", ["/api/v1/decks/"]),
        ("API ?search=, rarer words", [f"/api/v1/decks/?search={quote(q)}" for q in DECK_WORDS]),
        ("API ?search=draw", [f"/api/v1/decks/?search={quote(q)}" for q in COMMON]),
        ("API ?players=", ["/api/v1/decks/?players=3", "/api/v1/decks/?players=2"]),
        ("API ?status=", ["/api/v1/decks/?status=playable", "/api/v1/decks/?status=unfinished"]),
        ("API ?kind=", ["/api/v1/decks/?kind=deck", "/api/v1/decks/?kind=card_set"]),
        ("API ?locked=", ["/api/v1/decks/?locked=true", "/api/v1/decks/?locked=false"]),
        ("API ?ruleset=", ["/api/v1/decks/?ruleset=dvorak", "/api/v1/decks/?ruleset=serm"]),
        ("API deck, 300 cards", [api_big]),
        ("API revisions", [f"{api_big}revisions/"]),
        ("API diff", [f"{api_big}revisions/{BIG_DECK_REVISIONS}/diff/?against={BIG_DECK_REVISIONS // 2}"]),
        ("API card search ?q=, rarer words", [f"/api/v1/cards/?q={quote(q)}" for q in CARD_WORDS]),
        ("API card search ?q=draw", [f"/api/v1/cards/?q={quote(q)}" for q in COMMON]),
        ("API cards ?type=, ?deck=", ["/api/v1/cards/?type=Action", f"/api/v1/cards/?deck={BIG_DECK_SLUG}"]),
        ("recent changes feed", ["/recent-changes/feed/"]),
    ]


def listing(seed: int) -> tuple[str, int]:
    """A wiki listing of a 300-card deck, as a curator pastes a deck page, and its card count."""
    maker = Maker(seed)
    deck = maker.deck(300)
    lines = [deck.title, "", f"Designer {', '.join(deck.designers)}", "Date 5 December 2008", "Players 2-4",
             "This deck has not been categorised.", "", "Special Rules", ""]
    lines += [rule.text + "\n" for rule in deck.special_rules] or ["Draw five cards each.", ""]
    lines += ["", "Card List", ""]
    for card in deck.cards:
        # A title of one capitalised word would read as a card's type line.
        lines += [card.title if " " in card.title else f"The {card.title}", card.type, card.text]
    return "\n".join(lines) + "\n", len(deck.cards)


async def measure(bases: dict[str, str], rounds: int, requests: int, imports: int) -> dict:
    timed: dict[tuple[str, str], list[float]] = {}
    clients = {name: LeanClient(base) for name, base in bases.items()}
    names = list(bases)
    deck = (await clients[names[0]].get(f"/api/v1/decks/{BIG_DECK_SLUG}/")).json()
    listed = pages(deck["designers"][0])

    async def ask(name: str, path: str) -> float:
        t0 = time.perf_counter()
        answer = await clients[name].get(path)
        spent = time.perf_counter() - t0
        if answer.status_code != 200:
            raise RuntimeError(f"{name} {path}: HTTP {answer.status_code} {answer.text[:300]}")
        return spent

    # Untimed: every page once on each server, so none is timed while a worker first loads its code or connects.
    for name in names:
        for _, paths in listed:
            for path in paths:
                for _ in range(2):
                    await ask(name, path)

    tokens = {}
    for name in names:
        answer = await clients[name].post("/api/v1/auth/register/", json={
            "username": f"archive-bench-{uuid.uuid4().hex[:10]}", "password": "bench-passphrase-1"})
        answer.raise_for_status()
        tokens[name] = {"Authorization": f"Token {answer.json()['token']}"}
    text, count = listing(seed=101)

    async def import_once(name: str) -> float:
        slug = f"archive-bench-import-{uuid.uuid4().hex[:12]}"
        t0 = time.perf_counter()
        answer = await clients[name].post("/api/v1/decks/import/", headers=tokens[name],
                                          json={"format": "wiki", "text": text, "slug": slug})
        spent = time.perf_counter() - t0
        answer.raise_for_status()
        assert len(answer.json()["cards"]) == count, "the listing's cards were not all imported"
        return spent

    for round_ in range(rounds):
        turned = listed[round_ % len(listed):] + listed[:round_ % len(listed)]
        order = names if round_ % 2 == 0 else names[::-1]
        for what, paths in turned:
            for name in order:
                for n in range(requests):
                    timed.setdefault((what, name), []).append(await ask(name, paths[n % len(paths)]))
        for name in order:
            for _ in range(imports):
                timed.setdefault(("import of a 300-card listing", name), []).append(await import_once(name))
    for client in clients.values():
        await client.__aexit__(None, None, None)
    return timed


def remove_imported(url: str) -> None:
    """The decks the import phase made, gone again, so that each run reads the same archive (as `deck_delete`
    takes a deck away: its rows first, the deck last)."""
    import psycopg

    decks = "SELECT id FROM decks_deck WHERE slug LIKE 'archive-bench-import-%%'"
    with psycopg.connect(url) as conn:
        for table in ("decks_revision", "decks_card", "decks_specialrule", "decks_talkpost", "community_watch"):
            conn.execute(f"DELETE FROM {table} WHERE deck_id IN ({decks})")
        conn.execute(decks.replace("SELECT id", "DELETE"))


def report(timed: dict, names: list[str]) -> None:
    small, large = names
    print(f"\n{'':44s} {'27 decks':>22s}   {'10,000 decks':>22s}   aim p50 ≤ {P50_AIM * 1000:.0f}, p95 ≤ "
          f"{P95_AIM * 1000:.0f} ms")
    print(f"{'':44s} {'p50 / p95 ms':>22s}   {'p50 / p95 ms':>22s}")
    seen: list[str] = []
    for what, _ in timed:
        if what not in seen:
            seen.append(what)
    for what in seen:
        figures = []
        for name in (small, large):
            values = timed[(what, name)]
            figures.append((percentile(values, 50), percentile(values, 95)))
        is_import = what.startswith("import")
        if what.startswith("floor"):
            verdict = "(the floor)"
        elif is_import:
            verdict = "met" if figures[1][1] <= IMPORT_AIM else f"MISSED (aim ≤ {IMPORT_AIM:.0f} s)"
        else:
            met = figures[1][0] <= P50_AIM and figures[1][1] <= P95_AIM
            verdict = "met" if met else "MISSED"
        cells = [f"{p50 * 1000:8.1f} / {p95 * 1000:7.1f}" for p50, p95 in figures]
        print(f"{what:44s} {cells[0]:>22s}   {cells[1]:>22s}   {verdict}")
    samples = {len(values) for values in timed.values()}
    print(f"(samples a figure: {', '.join(str(n) for n in sorted(samples))})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=12, help="requests of each page a round, on each archive")
    parser.add_argument("--imports", type=int, default=2, help="imports of the listing a round, on each archive")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's sync workers for each archive")
    parser.add_argument("--small-url", help="the 27 decks' database (default: DATABASE_URL's name + _archive27)")
    parser.add_argument("--large-url", help="the 10,000 decks' database (default: DATABASE_URL's name + _archive10k)")
    args = parser.parse_args()
    url = setup_django()
    urls = {"27 decks": args.small_url or database_url(url, "archive27"),
            "10,000 decks": args.large_url or database_url(url, "archive10k")}
    print("filling the archives (once; kept between runs):")
    filled(urls["27 decks"], SMALL)
    filled(urls["10,000 decks"], LARGE)
    with open("/proc/loadavg") as load:
        print(f"load average before: {' '.join(load.read().split()[:3])} ({os.cpu_count()} cores)")
    try:
        with served(urls["27 decks"], workers=args.workers) as small, \
                served(urls["10,000 decks"], workers=args.workers) as large:
            t0 = time.perf_counter()
            timed = asyncio.run(measure({"27 decks": small, "10,000 decks": large}, args.rounds, args.requests,
                                        args.imports))
            elapsed = time.perf_counter() - t0
    finally:
        for each in urls.values():
            remove_imported(each)
    with open("/proc/loadavg") as load:
        print(f"load average after: {' '.join(load.read().split()[:3])}; measured in {elapsed:.0f} s")
    report(timed, list(urls))


if __name__ == "__main__":
    main()
