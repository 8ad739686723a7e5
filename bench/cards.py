"""Card commands (draw, play, end_turn) against a Deck-of-Cards stand-in.

The stand-in is served as the peer is, by gunicorn's sync workers; the card commands as production serves them
(nginx sends them to gunicorn's uvicorn workers, docker-compose.yml), and then once more through the sync workers
of the REST server. The stand-in is a plain Django view with a persistent connection that reads a deck row, pops a card from its JSON
list and saves it: what a minimal card-dealing service pays. Each of 16 clients plays its own game turn by turn, as
a client that follows its own answers does: the seat whose turn it is draws (the answer shows it the card drawn),
plays that card, and ends its turn; every request is one card command, each timed. ``--listing`` asks the moves
listing before each command instead (not timed, but it loads the server meanwhile), as the earlier figures did.

    make bench     # or: DATABASE_URL=postgres://… python bench/cards.py [--games 16] [--commands 90]
"""

import argparse
import asyncio
import statistics
import time

from commands import start_games
from common import LeanClient, served, served_asgi, setup_django, timed_rounds

CARD_COMMANDS = ("draw", "discard", "end_turn")


def filled(move: dict) -> dict:
    """A listed move with every choice taken as the first that fits."""
    command = {}
    for key, value in move.items():
        if isinstance(value, dict) and "from" in value:
            command[key] = value["from"][: value.get("choose", 1)]
        else:
            command[key] = value
    return command


async def card_command(http, game_id: str, auth: list[dict]) -> tuple[dict, dict]:
    for headers in auth:
        moves = (await http.get(f"/api/v1/games/{game_id}/moves/", headers=headers)).json()["moves"]
        for kind in CARD_COMMANDS:
            for move in moves:
                if move.get("type") == kind:
                    return headers, filled(move)
    raise RuntimeError(f"no card command offered in {game_id}")


async def drive(base: str, commands_base: str, games: int, commands: int, listing: bool = False,
                rounds: int = 3) -> dict:
    """The stand-in on ``base`` (gunicorn's sync workers, as the peer is deployed); the card commands as production
    routes them, to ``commands_base`` (gunicorn's uvicorn workers), and then once more to ``base``, the REST server
    that answers everything else."""
    async with LeanClient(base) as http, LeanClient(commands_base) as commands_http:
        game_ids, auth, _ = await start_games(http, games, deck_size=300)

        async def standin(g: int, latencies: list[float], client) -> None:
            for _ in range(commands):
                t0 = time.perf_counter()
                r = await client.post(f"/bench/deck/{g + 1}/draw/")
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 201, r.text

        async def listed(g: int, latencies: list[float], client) -> None:
            for _ in range(commands):
                headers, command = await card_command(http, game_ids[g], auth[2 * g:2 * g + 2])
                t0 = time.perf_counter()
                r = await client.post(f"/api/v1/games/{game_ids[g]}/commands/", headers=headers, json=command)
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 201, r.text

        # Whose turn it is in each game, asked once before anything is timed and then followed: asked at the start of
        # each phase, the 16 untimed reads loaded the REST server just as the phase's first commands were timed.
        seats = [(await http.get(f"/api/v1/games/{game_id}/", headers=auth[2 * g])).json()["turn"]["seat"]
                 for g, game_id in enumerate(game_ids)]

        async def turns(g: int, latencies: list[float], client, turns_count: int = commands // 3) -> None:
            url = f"/api/v1/games/{game_ids[g]}/commands/"
            seat = seats[g]

            async def send(command: dict) -> dict:
                t0 = time.perf_counter()
                r = await client.post(url, headers=auth[2 * g + seat], json=command)
                latencies.append(time.perf_counter() - t0)
                assert r.status_code == 201, r.text
                return r.json()

            for _ in range(turns_count):
                drawn = await send({"type": "draw"})
                card = next(e["data"]["card"]["id"] for e in drawn["events"] if e["type"] == "card.drawn")
                await send({"type": "play", "card": card})
                await send({"type": "end_turn"})
                seat = seats[g] = 1 - seat

        cards = listed if listing else turns

        # Untimed: a turn of each game through each server, so that neither is timed while it first loads the
        # games, the players' tokens and its database connections (the REST server has served the set-up).
        if not listing:
            for client in (commands_http, http):
                await asyncio.gather(*(turns(g, [], client, turns_count=1) for g in range(games)))

        phases = [("Deck-of-Cards stand-in", standin, http, base),
                  ("card commands", cards, commands_http, commands_base),
                  ("card commands, WSGI", cards, http, base)]
        figures = await timed_rounds(phases, games, rounds, busy_only=True)
    print(f"{games} clients, {commands} requests each a round, {rounds} rounds")
    for name, phase in figures.items():
        print(f"{name:24s}: {phase.rate:7.0f} req/s   p50 {phase.p(50) * 1000:6.1f} ms   p99 {phase.p(99) * 1000:6.1f} ms"
              f"   (rounds: {', '.join(f'{r:.0f}' for r in phase.rates)} req/s)")
    ref, ours, wsgi = figures["Deck-of-Cards stand-in"], figures["card commands"], figures["card commands, WSGI"]
    # Each round's two figures were measured a few seconds apart, the rounds minutes apart: the machine's speed
    # drifts between rounds (the stand-in alone went from 454 to 580 req/s in one run), so the ratio is taken within
    # each round and the median of those reported, beside the ratio of the two median rounds.
    paired = [mine / theirs for mine, theirs in zip(ours.rates, ref.rates, strict=True)]
    print(f"card commands vs the stand-in: {statistics.median(paired):.2f}x its throughput, the median of the rounds' "
          f"ratios (aim: at least 1.5x; rounds: {', '.join(f'{r:.2f}' for r in paired)}; median rounds' ratio "
          f"{ours.rate / ref.rate:.2f}x), p99 {ours.p(99) / ref.p(99):.2f}x  (through the WSGI REST server: "
          f"{wsgi.rate / ref.rate:.2f}x, p99 {wsgi.p(99) / ref.p(99):.2f}x)")
    print("CPU per request, ms (the server's processes, PostgreSQL's, this client's; mean of the rounds):")
    for name, phase in figures.items():
        print(f"  {name:24s}: " + "   ".join(f"{part} {ms:5.2f}" for part, ms in phase.cost.items())
              + f"   total {sum(phase.cost.values()):5.2f}")
    if listing:
        print("  (--listing: the card commands' figures include the moves listings' CPU)")
    else:
        # The machine's cores are shared by all three parts, so throughput goes as the inverse of the total. Even a
        # server whose own share were nothing would stay within this bound, the database and client paying theirs.
        reference, own = ref.cost, ours.cost
        print(f"  the machine's CPU a card command takes against a stand-in draw: {sum(own.values()):.2f} against "
              f"{sum(reference.values()):.2f} ms, so {sum(reference.values()) / sum(own.values()):.2f}x as many a "
              f"second while the cores are the limit")
        bound = sum(reference.values()) / max(own["PostgreSQL"] + own["client"], 1e-9)
        print(f"  at most {bound:.2f}x the stand-in if the service's own share were 0 and PostgreSQL's stayed as it is")
        allowed = sum(reference.values()) / 1.5 - own["PostgreSQL"] - own["client"]
        print(f"  1.5x needs the service's share at {allowed:.2f} ms a command or less "
              f"(the stand-in's plain Django view: {reference['server']:.2f} ms)")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--commands", type=int, default=90, help="card commands per client and round (a multiple of 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the phases, each in turn")
    parser.add_argument("--asgi-workers", type=int, default=2, help="uvicorn workers (compose: WS_WORKERS)")
    parser.add_argument("--listing", action="store_true", help="ask the moves listing before each card command")
    args = parser.parse_args()
    url = setup_django()
    with served(url) as base, served_asgi(url, args.asgi_workers) as commands_base:
        from django.db import connection

        with connection.cursor() as cursor:
            for g in range(args.games):
                cursor.execute("INSERT INTO bench_deck (id, cards) VALUES (%s, '[]') ON CONFLICT (id) DO NOTHING",
                               [g + 1])
        asyncio.run(drive(base, commands_base, args.games, args.commands, args.listing, args.rounds))


if __name__ == "__main__":
    main()
