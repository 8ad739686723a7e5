"""A command's latency against its game's length and against the number of games in play, in process (no HTTP).

Games are made through the services (create, join, start); a long game gets its counter events appended in bulk
(as they would have been, one command's worth at a time in the engine) before the timed commands. ``--profile``
prints a pyinstrument profile of one command (cProfile when pyinstrument is missing).

    make bench     # or: DATABASE_URL=postgres://… python bench/scaling.py [--lengths 100 1000 10000] [--active 10 100 1000]
    python bench/scaling.py --metrics 10     # only a command with the metrics and without, 10 rounds of each
"""

import argparse
import statistics
import time
import uuid

from common import setup_django


def new_game(deck_slug: str):
    from django.contrib.auth import get_user_model

    from games import services

    users = [get_user_model().objects.create_user(username=f"s{uuid.uuid4().hex[:12]}") for _ in range(2)]
    game = services.game_create(user=users[0], deck=deck_slug, ruleset="dvorak", max_players=2)
    services.game_join(user=users[1], game_id=game["id"])
    started = services.game_start(user=users[0], game_id=game["id"])
    return game["id"], users[0], started["special_rules"][0]["id"]


def lengthen(game_id, user, cause: str, events: int) -> None:
    """Append counter events until the game has ``events``, as its commands would have."""
    from django.db import transaction

    import dvorak_engine as engine
    from dvorak_kit.eventstore import store
    from games import services

    game = services.get_game(game_id)
    version = game.version
    state = services.state_at(game.stream_id, version)
    command = {"type": "counter", "cause": cause, "seat": 0, "name": "gold", "delta": 1}
    actor = services.actor_of(user)
    while version < events:
        new = []
        while version + len(new) < events:
            decided = engine.decide(state, command, actor=actor, rng=engine.SecureRng())
            state = engine.replay(decided, state)
            new += decided
            if len(new) >= 1000:
                break
        with transaction.atomic():
            recorded = store.append(game.stream_id, version, [store.NewEvent(e.type, e.data, e.schema) for e in new],
                                    projection=services.game_row(game.id, state, version + len(new)))
            version = recorded[-1].version
    services.STATE_CACHE.clear()


def command(game_id, user, cause: str) -> float:
    from games import services

    t0 = time.perf_counter()
    services.game_command(user=user, game_id=game_id,
                          command={"type": "counter", "cause": cause, "seat": 0, "name": "gold", "delta": 1})
    return time.perf_counter() - t0


def round_robin(games: list, commands: int = 200) -> list[float]:
    """A command on each game in turn (untimed: each game in play, as far as the process's cache keeps it), then
    ``commands`` more, going on round the games, each timed."""
    for game in games:
        command(*game)
    return [command(*games[n % len(games)]) for n in range(commands)]


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms"


def metrics_overhead(slug: str, rounds: int, games: int = 10) -> None:
    """A command's median latency with the metrics observed and without, in the same process on the same games:
    rounds of 200 commands round robin over ``games`` games, with and without in turn, so that a machine's load
    weighs on both alike. What the switch turns off is what ``METRICS_ENABLED=0`` turns off."""
    from dvorak_kit import metrics

    played = [new_game(slug) for _ in range(games)]
    timed: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(rounds):
        for enabled in (True, False):
            metrics.ENABLED = enabled
            timed[enabled] += round_robin(played)
    metrics.ENABLED = True
    on, off = statistics.median(timed[True]), statistics.median(timed[False])
    print(f"| metrics | command latency (median of {len(timed[True])}, round robin over {games} games) |")
    print("| --- | --- |")
    print(f"| observed | {on * 1e6:.0f} µs |")
    print(f"| off | {off * 1e6:.0f} µs |")
    print(f"\nOverhead: {(on - off) * 1e6:+.0f} µs a command ({(on / off - 1) * 100:+.1f}%).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lengths", type=int, nargs="*", default=[100, 1000, 10_000])
    parser.add_argument("--active", type=int, nargs="*", default=[10, 100, 1000])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--metrics", type=int, metavar="ROUNDS", default=0,
                        help="only compare a command with the metrics observed and without (METRICS_ENABLED), "
                             "ROUNDS rounds of each, taken in turn")
    args = parser.parse_args()
    setup_django()
    from django.core.management import call_command

    call_command("load_seed_decks", verbosity=0)
    from decks.models import Deck

    # Any deck played by the basic rules: every deck has a Special Rule a counter move may cite.
    slug = Deck.objects.filter(special_rules__isnull=False).order_by("pk").values_list("slug", flat=True).first()
    if args.metrics:
        return metrics_overhead(slug, args.metrics)
    print("| game length (events) | first command (cold) | next commands (median of 20) |")
    print("| --- | --- | --- |")
    for length in args.lengths:
        game_id, user, cause = new_game(slug)
        lengthen(game_id, user, cause, length)
        cold = command(game_id, user, cause)
        warm = [command(game_id, user, cause) for _ in range(20)]
        print(f"| {length:,} | {cold * 1000:.1f} ms | {median_ms(warm)} |")
    from django.conf import settings
    from django.test import override_settings

    print("\n| active games | command latency (median, round robin over the games, 200 commands after a command "
          "on each) |")
    print("| --- | --- |")
    games = []
    cache_size = settings.STATE_CACHE_GAMES
    for active in args.active:
        while len(games) < active:
            games.append(new_game(slug))
        print(f"| {active:,} | {median_ms(round_robin(games[:active]))} |")
        if active > cache_size:
            # More games in play than a process keeps: each command reads and replays its game. With the cache
            # sized for them (DVORAK_STATE_CACHE_GAMES), as a server expecting that many would be:
            sized = active + active // 5
            with override_settings(STATE_CACHE_GAMES=sized):
                print(f"| {active:,}, DVORAK_STATE_CACHE_GAMES={sized:,} (default {cache_size:,}) | "
                      f"{median_ms(round_robin(games[:active]))} |")
    if args.profile:
        game_id, user, cause = new_game(slug)
        command(game_id, user, cause)
        try:
            from pyinstrument import Profiler
        except ImportError:
            import cProfile
            import pstats

            with cProfile.Profile() as profile:
                for _ in range(50):
                    command(game_id, user, cause)
            pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
        else:
            profiler = Profiler(interval=0.0005)
            with profiler:
                for _ in range(50):
                    command(game_id, user, cause)
            print(profiler.output_text(unicode=False, color=False, show_all=False))


if __name__ == "__main__":
    main()
