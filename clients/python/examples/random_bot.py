"""A bot that plays any game it is invited to, in any ruleset, by sending one of its listed moves at random.

It knows no rules: it follows its account's stream (``GET /api/v1/account/stream/``), joins each game it is invited
to, and whenever a game of its starts or waits on it, reads ``GET /games/{id}/moves/`` and sends one of the moves
listed there, its choices made at random, until none is left. A move refused because the game moved on meanwhile
(409, or 412 for the ``If-Match`` it is sent with) is simply read again.

    python random_bot.py --url http://127.0.0.1:8000 --username robo --password a-long-passphrase --games 3
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import httpx

try:
    from dvorak_client import ApiError, Client, fill
except ImportError:  # run from a checkout without `pip install -e clients/python`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from dvorak_client import ApiError, Client, fill

# Listed moves a random player leaves alone: giving up a seat or a game, or starting one (the host's call).
AVOIDED = {"leave", "cancel", "abandon", "concede", "start"}
# Refusals in a row after which the bot stops trying a game until the server says more about it.
MAX_REFUSALS = 10


def log(message: str) -> None:
    print(message, flush=True)


def short(command: dict) -> str:
    """A command in one short line (a long choice of cards cut down)."""
    text = json.dumps(command, separators=(",", ":"))
    return text if len(text) <= 100 else text[:97] + "..."


class RandomBot:
    def __init__(self, client: Client, rng: random.Random, games: int | None):
        self.client = client
        self.rng = rng
        self.games = games
        self.finished: set[str] = set()

    def run(self) -> int:
        log(f"following the account stream of {self.client.username or 'this token'} at {self.client.base_url}")
        for line in self.client.account_stream():
            kind, game = line.get("type"), line.get("game", "")
            if kind == "invited":
                self.join(game, line.get("by", "?"))
            elif kind in {"game_started", "your_turn"}:
                self.play(game)
            elif kind == "game_finished" and game not in self.finished:
                self.finished.add(game)
                log(f"{game[:8]} finished ({line.get('status')}), winners {line.get('winners')}")
                if self.games is not None and len(self.finished) >= self.games:
                    log(f"{len(self.finished)} game(s) finished: done")
                    return 0
        log("the account stream ended")
        return 1

    def join(self, game: str, by: str) -> None:
        try:
            state = self.client.join(game)
        except ApiError as error:
            if error.code != "already_seated":
                log(f"{game[:8]} not joined: {error.code}")
            return
        log(f"{game[:8]} joined ({state.get('ruleset')}, invited by {by}), seat {state.get('you')}")

    def play(self, game: str) -> None:
        """Send listed moves until none is left for the bot (it is another's turn, or the game is over)."""
        refusals = 0
        while refusals < MAX_REFUSALS:
            try:
                listed = self.client.moves(game)
            except ApiError as error:
                log(f"{game[:8]} moves not read: {error.code}")
                return
            moves = [move for move in listed["moves"] if move.get("type") not in AVOIDED]
            if not moves:
                return
            command = fill(self.rng.choice(moves), self.rng)
            try:
                answer = self.client.command(game, command, if_match=listed["version"])
            except ApiError as error:
                refusals += 1
                if error.status not in (409, 412):  # a listed move is never malformed: worth saying
                    log(f"{game[:8]} {short(command)} refused: {error.status} {error.code}")
                continue
            refusals = 0
            log(f"{game[:8]} v{answer['version']}: {short(command)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Play every Dvorak game you are invited to, at random.")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the service (default %(default)s)")
    parser.add_argument("--token", help="the account's API token")
    parser.add_argument("--username", help="sign in with a username and password instead of a token")
    parser.add_argument("--password")
    parser.add_argument("--games", type=int, help="stop after this many finished games (default: never)")
    parser.add_argument("--seed", type=int, help="seed of the random choices, to replay a bot's decisions")
    args = parser.parse_args(argv)
    if not args.token and not (args.username and args.password):
        parser.error("give --token, or --username and --password")
    try:
        if args.token:
            client = Client(args.url, args.token)
        else:
            client = Client.sign_in(args.url, args.username, args.password)
        with client:
            try:
                return RandomBot(client, random.Random(args.seed), args.games).run()
            finally:
                if not args.token:  # the token this run signed in with is of no use after it: revoked
                    try:
                        client.sign_out()
                    except (ApiError, httpx.TransportError):
                        pass
    except ApiError as error:
        log(f"stopped: {error}")
        return 2
    except httpx.TransportError as error:
        log(f"stopped: the service did not answer ({type(error).__name__})")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
