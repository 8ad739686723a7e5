"""A game of every ruleset against a computer player, to its end, through the API (issue 34):

    "a game against a `random` computer player reaches its end with one human playing only listed moves ... CI
    plays a bot-against-bot game of every ruleset to its end."

The person's side is played here as a client would: it reads `GET /moves/` and sends one of the moves listed, chosen
by the same computer player's code from what that client sees (so both sides are computer players, one of them
the server's own, seated with `POST /games/{id}/bots/` and moving by itself from a thread of the server's process,
as under `make run`). The person never waits on the server's player but by reading the game again.

Dvorak's structural moves have no end of their own (tests/games/test_random_legal_clients.py): after a number of
moves the person concedes, and the computer player, the last one standing, wins.
"""

from __future__ import annotations

import random
import time

import pytest
from rest_framework.throttling import UserRateThrottle

from dvorak_engine.ruleset import FREE_MOVES
from tests.engine.test_legal_moves import filled
from tests.games.test_random_legal_clients import DRAKE_SAMPLE
from tests.seeds import seed_deck_json
from tests.sizes import SOAK

pytestmark = pytest.mark.django_db(transaction=True)

MAX_COMMANDS = 1500
DVORAK_MOVES = 60
WAIT_SECONDS = 30


@pytest.fixture(autouse=True)
def unthrottled(monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "1000000/min"})


def archived(text: str) -> str:
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=text, format="json", skip_existing=True)
    return deck.slug


def sample(slug: str) -> str:
    from decks.management.commands.load_seed_decks import SAMPLE_DATA

    return archived((SAMPLE_DATA / f"{slug}.json").read_text(encoding="utf-8"))


GAMES = {
    "rock_paper_scissors_extreme": lambda: {"deck": archived(seed_deck_json("rock-paper-scissors-extreme-deck"))},
    "article_ii": lambda: {"deck": archived(seed_deck_json("article-ii"))},
    "serm": lambda: {"deck": archived(seed_deck_json("simplistic-wargame-with-four-stats-s-e-r-m"))},
    "socialism": lambda: {"deck": archived(seed_deck_json("socialism"))},
    "virtues_of_the_drake": lambda: {"deck": archived(DRAKE_SAMPLE.read_text(encoding="utf-8"))},
    "filibuster": lambda: {"deck": sample("filibuster-sample-set"), "variant": "standard"},
    "dvorak": lambda: {"deck": archived(seed_deck_json("socialism")), "ruleset": "dvorak"},
}


def wait_for_my_move(client, game_id: str) -> dict:
    """The game as the person sees it once it is over or they have a move (the computer player moves meanwhile)."""
    give_up = time.monotonic() + WAIT_SECONDS
    while True:
        moves = client.get(f"/api/v1/games/{game_id}/moves/").json()
        state = client.get(f"/api/v1/games/{game_id}/").json()
        mine = [move for move in moves["moves"] if move["type"] not in FREE_MOVES]
        if state["status"] not in ("active", "voting") or mine:
            return {"state": state, "moves": mine, "version": moves["version"]}
        assert time.monotonic() < give_up, f"the computer player did not move in {WAIT_SECONDS}s: {state}"
        time.sleep(0.05)


# `make test` plays each ruleset against one level, the levels taking turns down the rulesets (so each level meets
# several rulesets); `make soak` plays every ruleset against both.
MATCHES = [(ruleset, level) for number, ruleset in enumerate(sorted(GAMES)) for level in ("random", "greedy")
           if SOAK or level == ("random", "greedy")[number % 2]]


@pytest.mark.parametrize(("ruleset", "level"), MATCHES)
def test_a_person_plays_a_computer_player_to_the_end(ruleset, level, make_user, client_for):
    person = client_for(make_user("ann"))
    created = person.post("/api/v1/games/", {**GAMES[ruleset](), "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    seated = person.post(f"/api/v1/games/{game_id}/bots/", {"level": level}, format="json")
    assert seated.status_code == 201, seated.content
    assert seated.json()["seat"] == 1
    assert person.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    chooser = random.Random(f"{ruleset}-{level}")
    sent = 0
    while sent < MAX_COMMANDS:
        turn = wait_for_my_move(person, game_id)
        if turn["state"]["status"] not in ("active", "voting"):
            break
        if ruleset == "dvorak" and sent >= DVORAK_MOVES:
            answer = person.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json")
            assert answer.status_code == 201, answer.content
            continue
        command = filled(chooser.choice(turn["moves"]), chooser)
        answer = person.post(f"/api/v1/games/{game_id}/commands/", command, format="json",
                             HTTP_IF_MATCH=f'"{turn["version"]}"')
        # The computer player may have moved between the listing and the command: a listed move is then read again.
        assert answer.status_code in (201, 412), (command, answer.content)
        sent += answer.status_code == 201
    final = person.get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished", f"{ruleset} not over after {sent} commands of the person"
    assert final["players"][1]["bot"] == level and final["players"][1]["username"] == "Computer 1"
    events = person.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert any(event["actor"] == "Computer 1" for event in events if event["type"] != "player.joined")
