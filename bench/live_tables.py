"""Live tables (issue 34): what computer players and clocks cost, each figure beside an outside reference measured
in the same run.

1. **A computer player's decision time**, per ruleset and level (``random``, ``greedy``): bot-against-bot games of
   two seats in the engine alone (``create_game``, ``decide``, ``evolve``, as tests/engine/test_legal_moves.py's
   ``Game``), each ``dvorak_engine.bots.choose`` call that returns a command timed. Dvorak is played with the
   Socialism seed deck (its structural moves never end a game: each game stops after ``LIVE_BOT_DECISIONS``),
   Filibuster's standard variant and Virtues of the Drake with their sample sets (``decks/sample_data``), the
   others with their seed decks. Median and p99 against the targets (median ≤ 50 ms, p99 ≤ 250 ms); the reference
   is the median round trip of one plain psycopg INSERT to the local PostgreSQL.
2. **The clock's own cost per command**: the same workload, turns of draw / discard down to the hand limit /
   end_turn in two-seat Dvorak games (Socialism deck), through ``games.services.game_command`` in process against
   PostgreSQL (as bench/scaling.py), on games with ``options.clock`` ``{"per_move": 3600}`` and on games without,
   the two sides' commands alternating one by one; each round also times PostgreSQL's own single-row INSERT (the
   reference), the rounds starting with one or the other in turn. The clock's share of a command (target ≤ 5%) is
   the clocked command's extra time over the plain one (the median of the rounds'); beside it, the engine's part
   of that (decide and fold, no database).
3. **Expiring games on 5 s clocks**: ``LIVE_EXPIRE_GAMES`` two-seat Dvorak games with ``{"per_move": 5}`` are
   created and joined through the services, then started one after the other as fast as the process can (their
   deadlines bunched over the time the starts take), while the server's clock runs as `make run` runs it: the
   in-process sweep (games/background.py's thread runner, ``CLOCK_SWEEP_SECONDS`` 0.5, the state cache at its
   default size). Once every game is over, each game's ``clock.expired`` event's recorded time is read against its
   deadline (the clock the command before it carried, ``data.clock``): max and p99 lateness (target: every expiry
   within 2 s), the sweeps' own times, and how long making the games took. The reference: the same plain INSERT's round trip.

Sizes from the environment, for a quick run (defaults in brackets):

- ``LIVE_PARTS``: which parts to run, comma-separated [``bots,clock,expiry``];
- ``LIVE_BOT_GAMES``: bot-against-bot games per ruleset and level [3];
- ``LIVE_BOT_DECISIONS``: the most decisions a game gets before it is left unfinished [300];
- ``LIVE_CLOCK_GAMES``: games on each side of part 2 (clocked, not clocked) [16];
- ``LIVE_CLOCK_COMMANDS``: timed commands per side per round [600];
- ``LIVE_CLOCK_ROUNDS``: rounds of part 2 [7];
- ``LIVE_EXPIRE_GAMES``: games of part 3 [1000];
- ``LIVE_EXPIRE_SECONDS``: their ``per_move`` clock [5];
- ``LIVE_INSERTS``: plain INSERTs per reference measurement [1000].

    make bench     # or: DATABASE_URL=postgres://… REDIS_URL=redis://… python bench/live_tables.py
    LIVE_BOT_GAMES=1 LIVE_BOT_DECISIONS=100 LIVE_CLOCK_COMMANDS=200 LIVE_CLOCK_ROUNDS=3 LIVE_EXPIRE_GAMES=100 \\
        python bench/live_tables.py    # a quick run
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid

from common import ROOT, percentile, rate, setup_django

PARTS = os.environ.get("LIVE_PARTS", "bots,clock,expiry").split(",")
BOT_GAMES = int(os.environ.get("LIVE_BOT_GAMES", 3))
BOT_DECISIONS = int(os.environ.get("LIVE_BOT_DECISIONS", 300))
CLOCK_GAMES = int(os.environ.get("LIVE_CLOCK_GAMES", 16))
CLOCK_COMMANDS = int(os.environ.get("LIVE_CLOCK_COMMANDS", 600))
CLOCK_ROUNDS = int(os.environ.get("LIVE_CLOCK_ROUNDS", 7))
EXPIRE_GAMES = int(os.environ.get("LIVE_EXPIRE_GAMES", 1000))
EXPIRE_SECONDS = float(os.environ.get("LIVE_EXPIRE_SECONDS", 5))
INSERTS = int(os.environ.get("LIVE_INSERTS", 1000))

# The targets of issue 34.
BOT_MEDIAN_MS, BOT_P99_MS = 50, 250
CLOCK_SHARE = 0.05
LATENESS_S = 2.0

# Each ruleset's bot-against-bot game: (deck file under decks/, ruleset (None: the deck's own), variant (None: the
# ruleset's default)).
BOT_GAMES_PLAYED = {
    "dvorak": ("seed_data/socialism.json", "dvorak", None),
    "article_ii": ("seed_data/article-ii.json", None, None),
    "socialism": ("seed_data/socialism.json", None, None),
    "filibuster": ("sample_data/filibuster-sample-set.json", None, "standard"),
    "virtues_of_the_drake": ("sample_data/virtues-of-the-drake-sample.json", None, None),
    "rock_paper_scissors_extreme": ("seed_data/rock-paper-scissors-extreme-deck.json", None, None),
    "serm": ("seed_data/simplistic-wargame-with-four-stats-s-e-r-m.json", None, None),
}
# Part 2 and 3's games: Dvorak's basic rules, two seats, the Socialism seed deck.
DVORAK_DECK = "socialism"
HAND_LIMIT = 5  # Dvorak's basic hand limit (the Socialism deck's Special Rules do not change it)


# --- the outside reference -------------------------------------------------------------------------------------


class PlainInsert:
    """PostgreSQL's own single-row INSERT: rows shaped as events, into a copy of the event table (its indexes
    included), one row per autocommit round trip on a psycopg connection of its own, as bench/eventstore.py does."""

    TABLE = "bench_live_plain_event"

    def __init__(self, url: str):
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)
        self.conn.execute(f"DROP TABLE IF EXISTS {self.TABLE}")
        self.conn.execute(f"CREATE TABLE {self.TABLE} (LIKE eventstore_event INCLUDING DEFAULTS INCLUDING INDEXES)")
        self.conn.execute(f"CREATE SEQUENCE IF NOT EXISTS {self.TABLE}_id_seq")
        self.conn.execute(f"ALTER TABLE {self.TABLE} ALTER COLUMN id SET DEFAULT nextval('{self.TABLE}_id_seq')")
        self.sql = (f"INSERT INTO {self.TABLE} (stream_id, version, type, schema, data, actor, recorded_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s, now())")
        self.count = 0

    def timed(self, count: int = INSERTS) -> list[float]:
        """``count`` INSERTs, each timed (seconds)."""
        latencies = []
        for _ in range(count):
            n = self.count
            self.count += 1
            data = json.dumps({"seat": n % 2, "card": f"c{n}"})
            t0 = time.perf_counter()
            self.conn.execute(self.sql, [f"plain-{n % 50}", n // 50 + 1, "card.drawn", 1, data, "bench"])
            latencies.append(time.perf_counter() - t0)
        return latencies

    def close(self) -> None:
        self.conn.execute(f"DROP TABLE IF EXISTS {self.TABLE}")
        self.conn.execute(f"DROP SEQUENCE IF EXISTS {self.TABLE}_id_seq")
        self.conn.close()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def load() -> str:
    """The machine's load average over the last minute: the figures are read against it (bench/README.md)."""
    return f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores" if hasattr(os, "getloadavg") else "unknown"


# --- 1. computer players' decision time ------------------------------------------------------------------------


def engine_deck(path: str) -> dict:
    """A deck file as the engine takes it: each Special Rule with an id (the archive gives them one)."""
    deck = json.loads((ROOT / "decks" / path).read_text(encoding="utf-8"))
    for number, rule in enumerate(deck.get("special_rules", []), start=1):
        rule.setdefault("id", f"rule-{number}")
    return deck


def bot_game(name: str, level: str, number: int) -> dict:
    """One two-seat game of ruleset ``name``, both seats played by computer players of ``level``, until it is over
    or has had ``BOT_DECISIONS`` decisions. Each seat is asked in turn, starting after the last one that moved
    (simultaneous choices and votes give several seats a move); each ``choose`` that returns a command is timed."""
    import dvorak_engine as engine
    from dvorak_core.errors import DomainError
    from dvorak_engine import bots
    from dvorak_engine.state import ACTIVE, VOTING

    path, ruleset, variant = BOT_GAMES_PLAYED[name]
    deck = engine_deck(path)
    ruleset = ruleset or deck["ruleset"]
    rng, chooser = engine.SeededRng(f"game:{name}:{level}:{number}"), engine.SeededRng(f"bot:{name}:{level}:{number}")
    people = [engine.Actor(user_id=100 + seat, username=f"computer{seat}") for seat in range(2)]
    state = engine.replay(engine.create_game(ruleset=ruleset, deck=deck, variant=variant or engine.default_variant(ruleset),
                                             creative=False, max_players=2, options={}, creator=people[0], rng=rng))
    state = engine.replay(engine.decide(state, {"type": "join"}, actor=people[1], rng=rng), state)
    state = engine.replay(engine.decide(state, {"type": "start"}, actor=people[0], rng=rng), state)
    times: list[float] = []
    refused: list[str] = []
    after = 0
    while state.status in (ACTIVE, VOTING) and len(times) < BOT_DECISIONS:
        moved = False
        for offset in range(len(people)):
            seat = (after + offset) % len(people)
            t0 = time.perf_counter()
            command = bots.choose(state, seat, level, chooser)
            elapsed = time.perf_counter() - t0
            if command is None:
                continue
            times.append(elapsed)
            try:
                events = engine.decide(state, command, actor=people[seat], rng=rng)
            except DomainError as refusal:  # a listed move refused: a ruleset's bug, reported below
                refused.append(f"{command.get('type')}: {refusal.code}")
                continue
            for event in events:
                state = engine.evolve(state, event)
            after, moved = seat + 1, True
            break
        if not moved:
            break
    return {"times": times, "finished": state.status not in (ACTIVE, VOTING), "refused": refused,
            "stuck": state.status in (ACTIVE, VOTING) and len(times) < BOT_DECISIONS}


def decision_times(plain: PlainInsert) -> None:
    insert_before = statistics.median(plain.timed())
    print(f"\n## 1. A computer player's decision time ({BOT_GAMES} two-seat bot-against-bot games per ruleset and "
          f"level, at most {BOT_DECISIONS} decisions each; engine only)\n")
    print("| ruleset | level | games over | decisions | median | p99 | max | median in INSERT round trips | "
          "target (median ≤ 50 ms, p99 ≤ 250 ms) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    problems = []
    t0 = time.perf_counter()
    for name in BOT_GAMES_PLAYED:
        for level in ("random", "greedy"):
            times: list[float] = []
            finished = 0
            for number in range(BOT_GAMES):
                game = bot_game(name, level, number)
                times += game["times"]
                finished += game["finished"]
                if game["refused"]:
                    problems.append(f"{name}/{level} game {number}: listed moves refused: {game['refused'][:5]}")
                if game["stuck"]:
                    problems.append(f"{name}/{level} game {number}: not over, and no seat had a move")
            median, p99 = statistics.median(times), percentile(times, 99)
            met = median * 1000 <= BOT_MEDIAN_MS and p99 * 1000 <= BOT_P99_MS
            print(f"| {name} | {level} | {finished}/{BOT_GAMES} | {len(times):,} | {ms(median)} | {ms(p99)} | "
                  f"{ms(max(times))} | {median / insert_before:.1f}x | {'met' if met else '**missed**'} |")
    insert_after = statistics.median(plain.timed())
    print(f"\nReference, same run: one plain psycopg INSERT round trip to PostgreSQL, median {ms(insert_before)} "
          f"before the games and {ms(insert_after)} after ({INSERTS:,} each). The games took "
          f"{time.perf_counter() - t0:.1f} s.")
    for problem in problems:
        print(f"- {problem}")


# --- 2. the clock's own cost per command -----------------------------------------------------------------------


def users(count: int) -> list:
    """``count`` new accounts with no usable password, in one INSERT."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    model = get_user_model()
    run = uuid.uuid4().hex[:8]
    made = model.objects.bulk_create([model(username=f"lt{run}{n}", password=make_password(None))
                                      for n in range(count)])
    return list(model.objects.filter(username__in=[user.username for user in made]).order_by("username"))


def open_game(creator, other, options: dict) -> str:
    """A two-seat Dvorak game made and joined through the services (not started); its id."""
    from games import services

    game = services.game_create(user=creator, deck=DVORAK_DECK, ruleset="dvorak", max_players=2, options=options)
    services.game_join(user=other, game_id=game["id"])
    return game["id"]


class Table:
    """One game of part 2, played through ``services.game_command``: whose turn it is and what they send next, read
    from the state the process keeps of the game (untimed)."""

    def __init__(self, game_id: str, people: list):
        from games import services
        from games.models import stream_of

        self.id, self.stream, self.people = game_id, stream_of(game_id), people
        self.by_user = {person.pk: person for person in people}
        self.version = services.get_game(game_id).version

    def next(self):
        """(the player whose move it is, their command): draw, discard down to the hand limit, end the turn."""
        from games import services

        state = services.state_at(self.stream, self.version)
        turn = state.table.turn
        hand = state.table.player(turn.seat).hand
        person = self.by_user[state.seat(turn.seat).user_id]
        if turn.stage == "draw":
            return person, {"type": "draw"}
        if len(hand) > HAND_LIMIT:
            return person, {"type": "discard", "cards": [hand[0]]}
        return person, {"type": "end_turn"}

    def play(self) -> float:
        """One command, timed (seconds)."""
        from games import services

        person, command = self.next()
        t0 = time.perf_counter()
        played = services.game_command(user=person, game_id=self.id, command=command)
        elapsed = time.perf_counter() - t0
        self.version = played.version
        return elapsed


def engine_cost(commands: int = 3000) -> tuple[float, float]:
    """The engine's part, no database: decide and fold one command of the same cycle (decided at the server's time,
    as the pipeline decides it) in a game without a clock and in one with, the two alternating command by command;
    mean seconds a command of each."""
    import dvorak_engine as engine

    deck = engine_deck(f"seed_data/{DVORAK_DECK}.json")
    people = [engine.Actor(user_id=100 + seat, username=f"player{seat}") for seat in range(2)]
    states, rngs = [], []
    for options in ({}, {"clock": {"per_move": 3600}}):
        rng = engine.SeededRng("engine-cost")
        state = engine.replay(engine.create_game(ruleset="dvorak", deck=deck, variant="standard", creative=False,
                                                 max_players=2, options=options, creator=people[0], rng=rng))
        for person, command in ((people[1], {"type": "join"}), (people[0], {"type": "start"})):
            state = engine.replay(engine.decide(state, command, actor=person, rng=rng, now=time.time()), state)
        states.append(state)
        rngs.append(rng)
    spent = [0.0, 0.0]
    for n in range(commands):
        for side in ((0, 1) if n % 2 else (1, 0)):
            state = states[side]
            turn = state.table.turn
            hand = state.table.player(turn.seat).hand
            command = ({"type": "draw"} if turn.stage == "draw" else {"type": "discard", "cards": [hand[0]]}
                       if len(hand) > HAND_LIMIT else {"type": "end_turn"})
            t0 = time.perf_counter()
            _, after = engine.decide_folded(state, command, actor=people[turn.seat], rng=rngs[side], now=time.time())
            states[side] = after[-1]
            spent[side] += time.perf_counter() - t0
    return spent[0] / commands, spent[1] / commands


def clock_cost(plain: PlainInsert) -> None:
    from games import services

    people = users(4 * CLOCK_GAMES)
    sides = {}
    for name, options in (("no clock", {}), ("per_move clock", {"clock": {"per_move": 3600}})):
        tables = []
        for _ in range(CLOCK_GAMES):
            creator, other = people.pop(), people.pop()
            game_id = open_game(creator, other, options)
            services.game_command(user=creator, game_id=game_id, command={"type": "start"})
            tables.append(Table(game_id, [creator, other]))
        sides[name] = tables
    for tables in sides.values():  # untimed: a few commands of each game, so that every game is in play
        for table in tables:
            for _ in range(3):
                table.play()
    plain.timed(100)

    def commands() -> dict[str, list[float]]:
        # The two sides' commands one by one, each taking the first place in turn: the machine's speed drifts
        # within seconds, and the clock's share is a difference of a few percent.
        latencies: dict[str, list[float]] = {"no clock": [], "per_move clock": []}
        for n in range(CLOCK_COMMANDS):
            for name in (("no clock", "per_move clock") if n % 2 else ("per_move clock", "no clock")):
                tables = sides[name]
                latencies[name].append(tables[n % len(tables)].play())
        return latencies

    phases = [commands, lambda: {"plain INSERT": plain.timed(CLOCK_COMMANDS)}]
    figures: dict[str, dict[str, list]] = {name: {"rates": [], "latencies": [], "medians": []}
                                           for name in ("no clock", "per_move clock", "plain INSERT")}
    for round_ in range(CLOCK_ROUNDS):
        for run in phases[round_ % len(phases):] + phases[:round_ % len(phases)]:
            for name, latencies in run().items():
                figures[name]["rates"].append(rate(len(latencies), sum(latencies)))
                figures[name]["latencies"] += latencies
                figures[name]["medians"].append(statistics.median(latencies))
    engine_plain, engine_clocked = engine_cost()

    print(f"\n## 2. The clock's own cost per command ({CLOCK_GAMES} two-seat Dvorak games a side, draw / discard / "
          f"end_turn through services.game_command in process, {CLOCK_ROUNDS} rounds of {CLOCK_COMMANDS:,} "
          "commands a side)\n")
    print("| phase | rate (median round; one at a time) | p50 | p99 | rounds |")
    print("| --- | --- | --- | --- | --- |")
    for name, figure in figures.items():
        latencies = figure["latencies"]
        print(f"| {name} | {statistics.median(figure['rates']):,.0f}/s | {ms(percentile(latencies, 50))} | "
              f"{ms(percentile(latencies, 99))} | {', '.join(f'{r:,.0f}' for r in figure['rates'])} |")
    plain_cmd, clocked = figures["no clock"], figures["per_move clock"]
    # The share from each round's medians, and the median of those.
    shares = [1 - p / c for p, c in zip(plain_cmd["medians"], clocked["medians"], strict=True)]
    share = statistics.median(shares)
    p50_plain, p50_clocked = percentile(plain_cmd["latencies"], 50), percentile(clocked["latencies"], 50)
    print(f"\nThe clock's share of a clocked command: **{share:.1%}** (median of the rounds' "
          f"{', '.join(f'{s:.1%}' for s in shares)}; p50 {ms(p50_clocked)} against {ms(p50_plain)} without, "
          f"{(p50_clocked - p50_plain) * 1e6:+.0f} µs; target ≤ {CLOCK_SHARE:.0%}: "
          f"{'met' if share <= CLOCK_SHARE else '**missed**'}).")
    print(f"Of which the engine's part (decide and fold at the server's time, no database, 3,000 commands): "
          f"{engine_clocked * 1e6:.0f} µs a command with the clock against {engine_plain * 1e6:.0f} µs without, "
          f"{(engine_clocked - engine_plain) * 1e6:+.0f} µs, {(engine_clocked - engine_plain) / p50_clocked:.1%} "
          "of a clocked command's p50.")
    plain_p50 = percentile(figures["plain INSERT"]["latencies"], 50)
    print(f"Reference, same rounds: PostgreSQL's own single-row INSERT (psycopg, autocommit) "
          f"{statistics.median(figures['plain INSERT']['rates']):,.0f}/s, p50 {ms(plain_p50)}: a command without "
          f"the clock is {p50_plain / plain_p50:.1f} INSERT round trips, with it {p50_clocked / plain_p50:.1f}.")
    for table in sides["per_move clock"]:  # over, so that no later sweep finds them
        services.game_command(user=table.people[1], game_id=table.id, command={"type": "concede"})


# --- 3. expiring games on short clocks ------------------------------------------------------------------------


def expiry(plain: PlainInsert) -> None:
    from django.conf import settings

    from dvorak_engine.state import ACTIVE, VOTING
    from dvorak_kit.eventstore import store
    from games import background, clocks, services
    from games.models import Game, stream_of

    while clocks.expire_due():  # games an earlier, interrupted run left on their clocks: not this run's load
        pass
    people = users(2 * EXPIRE_GAMES)
    options = {"clock": {"per_move": EXPIRE_SECONDS}}
    t0 = time.perf_counter()
    games = [(open_game(people[2 * n], people[2 * n + 1], options), people[2 * n]) for n in range(EXPIRE_GAMES)]
    made = time.perf_counter() - t0

    sweeps: list[tuple[float, float, int]] = []  # (started at, seconds, games whose time it ended)
    sweep = clocks.expire_due

    def timed_sweep() -> int:
        started = time.time()
        ended = sweep()
        sweeps.append((started, time.time() - started, ended))
        return ended

    clocks.expire_due = timed_sweep  # games/background.py looks it up at each sweep
    settings.CLOCK_SWEEP_SECONDS = 0.5
    background.start()  # the server's clock, as `make run` starts it (LIVE_TABLES_RUNNER=thread)
    try:
        t0 = time.perf_counter()
        for game_id, creator in games:
            services.game_command(user=creator, game_id=game_id, command={"type": "start"})
        started = time.perf_counter() - t0
        ids = [game_id for game_id, _ in games]
        give_up = time.monotonic() + EXPIRE_SECONDS + 60 + EXPIRE_GAMES * 0.05
        while (left := Game.objects.filter(pk__in=ids, status__in=(ACTIVE, VOTING)).count()) and \
                time.monotonic() < give_up:
            time.sleep(0.25)
    finally:
        settings.CLOCK_SWEEP_SECONDS = 0  # the sweep stops rescheduling itself
        clocks.expire_due = sweep
    insert = statistics.median(plain.timed())

    lateness, deadlines, expired_at, ended_on_time = [], [], [], 0
    for game_id in ids:
        events = store.read(stream_of(game_id))
        deadline_of: dict[str, float] = {}
        for event in events:
            if event.type == "clock.expired":
                deadline = min(deadline_of[str(seat)] for seat in event.data["seats"])
                at = event.recorded_at.timestamp()
                lateness.append(at - deadline)
                deadlines.append(deadline)
                expired_at.append(at)
            elif event.type == "game.won_on_time":
                ended_on_time += 1
            if "clock" in event.data:  # the clock a command set rides on its last event
                deadline_of = event.data["clock"]["deadlines"]
    print(f"\n## 3. {EXPIRE_GAMES:,} games on per_move clocks of {EXPIRE_SECONDS:g} s, expired by the in-process sweep "
          f"(thread runner, CLOCK_SWEEP_SECONDS 0.5, state cache {settings.STATE_CACHE_GAMES:,} games)\n")
    print(f"- made and joined through the services in {made:.1f} s ({made / EXPIRE_GAMES * 1000:.1f} ms a game); "
          f"started one after the other in {started:.1f} s ({started / EXPIRE_GAMES * 1000:.1f} ms a start, the "
          "sweep running meanwhile)")
    if not lateness:
        print(f"- **no game's time ran out** ({left:,} still being played)")
        return
    spread = max(deadlines) - min(deadlines)
    late = sum(value > LATENESS_S for value in lateness)
    print(f"- expired: {len(lateness):,} of {EXPIRE_GAMES:,} ({ended_on_time:,} won on time), {left:,} still being "
          f"played when the bench stopped waiting; their deadlines spread over {spread:.1f} s")
    print(f"- lateness (recorded time of clock.expired − deadline): p50 {ms(statistics.median(lateness))}, "
          f"p99 {ms(percentile(lateness, 99))}, **max {ms(max(lateness))}**; over {LATENESS_S:g} s: {late:,} "
          f"(target: none, {'met' if not late and not left else '**missed**'})")
    busy = [s for s in sweeps if s[2]]
    if busy:
        ended = sum(s[2] for s in busy)
        spent = sum(s[1] for s in busy)
        print(f"- sweeps that ended games: {len(busy)}, the longest {busy and max(s[1] for s in busy):.2f} s, "
              f"{ended:,} games in {spent:.2f} s of sweeping: {spent / ended * 1000:.2f} ms an expire "
              f"({ended / spent:,.0f}/s); the last expiry {max(expired_at) - max(deadlines):.2f} s after the last "
              "deadline")
    print(f"- reference, same run: a plain psycopg INSERT round trip, median {ms(insert)}")


def main() -> None:
    # The server's clock as the embedded default runs it (games/background.py): a thread of this process.
    os.environ["LIVE_TABLES_RUNNER"] = "thread"
    os.environ["CLOCK_SWEEP_SECONDS"] = "0"  # no sweep until part 3 starts one
    url = setup_django()
    from django.core.management import call_command

    call_command("load_seed_decks", verbosity=0)
    plain = PlainInsert(url)
    try:
        for part, run in (("bots", decision_times), ("clock", clock_cost), ("expiry", expiry)):
            if part in PARTS:
                before = load()
                run(plain)
                print(f"\n(load average: {before} before this part, {load()} after)")
    finally:
        plain.close()


if __name__ == "__main__":
    main()
