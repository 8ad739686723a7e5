"""The bars every ruleset is held to: a client that knows nothing but the API and ``GET /games/{id}/moves/`` plays
whole games through the REST API, each seat sending, at random, one of the moves it is offered (its choices
filled at random), until nobody has a move left.

For every game: no listed move is refused; no answer is a 5xx; the game ends. For Rock Paper Scissors Extreme,
whenever a seat's throw or potion answer is still pending, every body its opponent gets (moves, state, events, and
the answers to its own commands) shows that choice as ``{"seat": n}`` and nothing more, and the opponent's state
differs from the one it had before the choice only by that.

Dvorak's structural moves (draw, play, use, discard, end_turn) have no win condition among them: a game of them
never ends by itself. After ``DVORAK_MOVES`` of them, the players but one concede (``concede`` is open to a
player at any time and so not listed), which ends the game.

S.E.R.M. games are played from its seed deck, in turn with the default options, with a force built with points on
a smaller field with terrain, and with the other choice of each measure players might disagree on; the last player
with soldiers wins. Virtues of the Drake is played with the project's sample set (``decks/sample_data/``), its seed
entry having no cards, by two, three or four players. For Socialism, whose Sherman Act window gives several seats
moves at once, out of turn: no seat ever sees another's hand, and the game ends with the first to place all their
tokens. Filibuster is played with the project's sample set (its seed entry has no cards), by two or three players
(the engine's own tests play four, without the API's cost); while a filibusterer's or a pitcher's secret card is
pending, the same watch as Rock Paper Scissors Extreme's holds. A draft is played with the sample set too, by two or
three players: while a pick is pending the same watch holds, and at the end each player has a player deck of the
cards they picked.

How many games: ``RANDOM_GAMES_RPS``, ``RANDOM_GAMES_ARTICLE_II`` (for each of 2, 3 and 4 players),
``RANDOM_GAMES_SERM``, ``RANDOM_GAMES_DRAKE``, ``RANDOM_GAMES_SOCIALISM``, ``RANDOM_GAMES_FILIBUSTER``,
``RANDOM_GAMES_DRAFT`` and ``RANDOM_GAMES_DVORAK`` (for each seed deck with cards) in the environment; the bars ask for 20 of each, and the
defaults keep `make test`'s time in check and `make soak` plays 20 of each (tests/sizes.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rest_framework.throttling import UserRateThrottle

from tests.engine.test_legal_moves import filled
from tests.seeds import ROOT, seed_deck_json
from tests.sizes import size

pytestmark = pytest.mark.django_db


def games(name: str, default: int) -> range:
    return range(size(name, default, 20))


RPS_GAMES = games("RANDOM_GAMES_RPS", 2)
ARTICLE_II_GAMES = games("RANDOM_GAMES_ARTICLE_II", 1)
SERM_GAMES = games("RANDOM_GAMES_SERM", 2)
SERM_TERRAIN = [{"x": 3, "y": 4, "width": 2, "height": 3}, {"x": 8, "y": 6, "width": 1, "height": 1}]
SERM_OPTIONS = [
    {},
    {"budget": 12, "width": 10, "height": 9, "terrain": SERM_TERRAIN},
    {"react_stop": "reactor_chooses", "reacts": "each", "blast": "centre", "terrain": SERM_TERRAIN},
]
DVORAK_GAMES = games("RANDOM_GAMES_DVORAK", 1)
DRAKE_GAMES = games("RANDOM_GAMES_DRAKE", 2)
DRAKE_SAMPLE = ROOT / "decks" / "sample_data" / "virtues-of-the-drake-sample.json"
SOCIALISM_GAMES = games("RANDOM_GAMES_SOCIALISM", 2)
FILIBUSTER_GAMES = games("RANDOM_GAMES_FILIBUSTER", 2)
DRAFT_GAMES = games("RANDOM_GAMES_DRAFT", 2)
DVORAK_DECKS = ["socialism", "rock-paper-scissors-extreme-deck", "article-ii-updated",
                "simplistic-wargame-with-four-stats-s-e-r-m"]
DVORAK_MOVES = 120
# Far more commands than any game of these rulesets takes: a game still going after them does not end.
MAX_COMMANDS = 3000

# A seat's secret choice, and the events that reveal every pending one.
SECRET = {"rpsx.thrown", "rpsx.potion_chosen", "choice.made"}
REVEALS = {"rpsx.revealed", "rpsx.potions_revealed", "choices.revealed"}
# What a pending choice of another seat may change in the state a seat sees: the list of who has chosen.
PENDING_FIELDS = {("version",), ("board", "throws"), ("board", "answers"), ("board", "waiting_for"), ("choices",),
                  ("choices", "made"), ("choices", "waiting_for")}


@pytest.fixture(autouse=True)
def unthrottled(monkeypatch):
    """These clients play at the machine's speed, far beyond a person's rate."""
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "1000000/min"})


@pytest.fixture
def sample_sets(db):
    """The project's own sample sets (``decks/sample_data``), for the games whose seed entries lack their cards."""
    from decks import services as deck_services
    from decks.management.commands.load_seed_decks import SAMPLE_DATA

    def load(slug: str) -> str:
        text = (SAMPLE_DATA / f"{slug}.json").read_text(encoding="utf-8")
        deck_services.deck_import(author=None, text=text, format="json", skip_existing=True)
        return slug

    return load


@pytest.fixture
def seed_decks(db):
    from decks import services as deck_services

    def load(slug: str) -> str:
        deck_services.deck_import(author=None, text=seed_deck_json(slug), format="json", skip_existing=True)
        return slug

    return load


@pytest.fixture
def drake_sample(db) -> str:
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=DRAKE_SAMPLE.read_text(encoding="utf-8"), format="json")
    return deck.slug


class Player:
    """One seat's client: it knows the API, and keeps every body the server sent it."""

    def __init__(self, client, game_id: str, seat: int):
        self.client, self.game_id, self.seat = client, game_id, seat
        self.bodies: list[dict] = []

    def answer(self, response) -> Any:
        assert response.status_code < 500, response.content
        body = response.json()
        self.bodies.append(body)
        return body

    def get(self, path: str = "") -> dict:
        response = self.client.get(f"/api/v1/games/{self.game_id}/{path}")
        assert response.status_code == 200, response.content
        return self.answer(response)

    def post(self, command: dict, version: int | None = None) -> tuple[int, dict]:
        headers = {} if version is None else {"HTTP_IF_MATCH": f'"{version}"'}
        response = self.client.post(f"/api/v1/games/{self.game_id}/commands/", command, format="json", **headers)
        return response.status_code, self.answer(response)


def new_game(make_user, client_for, body: dict, players: int) -> list[Player]:
    clients = [client_for(make_user()) for _ in range(players)]
    created = clients[0].post("/api/v1/games/", {**body, "max_players": players}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    started = clients[0].post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    return [Player(client, game_id, seat) for seat, client in enumerate(clients)]


# --- looking for a pending choice in what the opponent got ----------------------------------------------------


def events_in(body: Any):
    """Every event object in a body: an answer's or a list's ``events``."""
    if isinstance(body, dict):
        if isinstance(body.get("type"), str) and isinstance(body.get("data"), dict) and "version" in body:
            yield body
        for value in body.values():
            yield from events_in(value)
    elif isinstance(body, list):
        for value in body:
            yield from events_in(value)


def shows_pending(body: Any, seat: int) -> list:
    """Whatever in ``body`` shows more of ``seat``'s pending choice than that the seat has chosen."""
    found = [event for event in events_in(body)
             if event["type"] in SECRET and event["data"].get("seat") == seat and event["data"] != {"seat": seat}]
    if isinstance(body, dict) and "status" in body and "ruleset" in body:  # a state
        board = body.get("board") or {}
        pending = [*board.get("throws", []), *board.get("answers", []), *(body.get("choices") or {}).get("made", [])]
        found += [entry for entry in pending if entry.get("seat") == seat and entry != {"seat": seat}]
    return found


def changed(before: Any, after: Any, path: tuple = ()) -> set[tuple]:
    """The paths (down to the board's fields) where two states differ."""
    if isinstance(before, dict) and isinstance(after, dict) and len(path) < 2:
        return {found for key in set(before) | set(after)
                for found in changed(before.get(key), after.get(key), (*path, key))}
    return set() if before == after else {path}


class SecretWatch:
    """The seats whose secret choice is pending, and a check of everything their opponents receive meanwhile."""

    def __init__(self, players: list[Player]):
        self.players = players
        self.pending: set[int] = set()
        self.checked = 0

    def after_command(self, seat: int, answer: dict, before: int) -> None:
        types = [event["type"] for event in answer["events"]]
        if any(kind in REVEALS for kind in types):
            self.pending.clear()
        if types and types[-1] in SECRET:
            self.pending.add(seat)
            self.look_as_the_others(seat, before)

    def look_as_the_others(self, seat: int, before: int) -> None:
        """Each other seat reads the game as a client would: state, events, moves; and its state then against its
        state before the choice was made (``?at``)."""
        for other in self.players:
            if other.seat == seat:
                continue
            earlier = other.get(f"?at={before}")
            now = other.get("")
            other.get(f"events/?after={before}")
            other.get("moves/")
            assert changed(earlier, now) <= PENDING_FIELDS, changed(earlier, now) - PENDING_FIELDS

    def scan(self, player: Player, start: int) -> None:
        """Every body ``player`` got since ``start``, while another seat's choice is pending."""
        for body in player.bodies[start:]:
            for seat in self.pending - {player.seat}:
                assert not shows_pending(body, seat), (seat, body)
                self.checked += 1


# --- a game -------------------------------------------------------------------------------------------------------


def play(players: list[Player], chooser: random.Random, *, max_commands: int = MAX_COMMANDS,
         watch: SecretWatch | None = None) -> dict:
    """Random listed moves until nobody has one (or ``max_commands`` were sent): every one is accepted. Returns
    the count of commands sent and whether the game ended."""
    sent = 0
    while sent < max_commands:
        marks = [len(p.bodies) for p in players]
        offers = [(player, player.get("moves/")) for player in players]
        # Giving a game up (``abandon``) is each player's own choice: these players play it to its end.
        offers = [(player, {**answer, "moves": [m for m in answer["moves"] if m["type"] != "abandon"]})
                  for player, answer in offers]
        offers = [(player, answer) for player, answer in offers if answer["moves"]]
        if not offers:
            break
        player, answer = chooser.choice(offers)
        command = filled(chooser.choice(answer["moves"]), chooser)
        status, body = player.post(command, answer["version"])
        assert status == 201, (command, body)
        sent += 1
        if watch is not None:
            watch.after_command(player.seat, body, answer["version"])
            for other, mark in zip(players, marks, strict=True):
                watch.scan(other, mark)
    return {"sent": sent, "state": players[0].get("")}


@pytest.mark.parametrize("number", RPS_GAMES)
def test_rock_paper_scissors_extreme_by_random_clients(number, seed_decks, make_user, client_for):
    players = new_game(make_user, client_for, {"deck": seed_decks("rock-paper-scissors-extreme-deck")}, 2)
    watch = SecretWatch(players)
    result = play(players, random.Random(1000 + number), watch=watch)
    state = result["state"]
    assert state["status"] == "finished", f"not over after {result['sent']} commands"
    points = [p["counters"]["points"] for p in state["players"]]
    assert max(points) >= 21 and state["winners"]
    assert watch.checked > 0  # the opponent's bodies were read while a throw was pending
    assert "sign" not in json.dumps([e["data"] for p in players for body in p.bodies for e in events_in(body)
                                     if e["type"] == "rpsx.thrown" and e["data"]["seat"] != p.seat])


@pytest.mark.parametrize("players_count", [2, 3, 4])
@pytest.mark.parametrize("number", ARTICLE_II_GAMES)
def test_article_ii_by_random_clients(number, players_count, seed_decks, make_user, client_for):
    players = new_game(make_user, client_for, {"deck": seed_decks("article-ii")}, players_count)
    result = play(players, random.Random(2000 + 10 * number + players_count))
    state = result["state"]
    assert state["status"] == "finished", (
        f"nobody has a move after {result['sent']} commands, in an unfinished game (acting: {state.get('acting')})")
    assert state["winners"] or state["results"]["general"]["decided_by"] == "nobody"


@pytest.mark.parametrize("number", SERM_GAMES)
def test_serm_by_random_clients(number, seed_decks, make_user, client_for):
    options = SERM_OPTIONS[number % len(SERM_OPTIONS)]
    players = new_game(make_user, client_for,
                       {"deck": seed_decks("simplistic-wargame-with-four-stats-s-e-r-m"), "options": options}, 2)
    result = play(players, random.Random(4000 + number))
    state = result["state"]
    assert state["ruleset"] == "serm"
    assert state["status"] == "finished", f"not over after {result['sent']} commands"
    standing = [player["counters"]["soldiers"] for player in state["players"]]
    assert state["winners"] == [seat for seat, count in enumerate(standing) if count]
    assert all(player.get("moves/")["moves"] == [] for player in players)


@pytest.mark.parametrize("deck", DVORAK_DECKS)
@pytest.mark.parametrize("number", DVORAK_GAMES)
def test_dvorak_by_random_clients(number, deck, seed_decks, make_user, client_for):
    chooser = random.Random(f"{deck}-{number}")
    players = new_game(make_user, client_for, {"deck": seed_decks(deck), "ruleset": "dvorak"}, chooser.choice([2, 3]))
    result = play(players, chooser, max_commands=DVORAK_MOVES)
    assert result["sent"] == DVORAK_MOVES, "a game of structural moves stopped offering any"
    assert result["state"]["status"] == "active"
    # The structural moves have no end: every player but the last concedes, and the last one standing wins.
    for player in players[1:]:
        status, _ = player.post({"type": "concede"})
        assert status == 201
    final = players[0].get("")
    assert final["status"] == "finished" and final["winners"] == [0]
    assert all(player.get("moves/")["moves"] == [] for player in players)


@pytest.mark.parametrize("number", DRAKE_GAMES)
def test_virtues_of_the_drake_by_random_clients(number, drake_sample, make_user, client_for):
    chooser = random.Random(f"drake-{number}")
    players = new_game(make_user, client_for, {"deck": drake_sample}, chooser.choice([2, 3, 4]))
    result = play(players, chooser)
    state = result["state"]
    assert state["status"] == "finished", f"nobody has a move after {result['sent']} commands, in an unfinished game"
    outcome = state["board"]["outcome"]
    holders = {player["virtue"]: player["seat"] for player in state["players"]}
    assert state["winners"] == ([holders[outcome["virtue"]]] if outcome["virtue"] in holders else [])


@pytest.mark.parametrize("number", SOCIALISM_GAMES)
def test_socialism_by_random_clients(number, seed_decks, make_user, client_for):
    chooser = random.Random(f"socialism-{number}")
    seats = 2 + number % 4  # two to five players
    players = new_game(make_user, client_for, {"deck": seed_decks("socialism")}, seats)
    assert players[0].get("")["ruleset"] == "socialism"
    result = play(players, chooser, max_commands=MAX_COMMANDS * 4)  # five seats have needed some 3,600
    state = result["state"]
    assert state["status"] == "finished", f"nobody has a move after {result['sent']} commands"
    [winner] = state["winners"]
    assert state["players"][winner]["counters"]["tokens"] == 0
    out_of_turn = [body for p in players for body in p.bodies if isinstance(body, dict)
                   and body.get("moves") and any(m["type"] == "pass" for m in body["moves"])]
    assert out_of_turn, "no Sherman Act window offered a move out of turn"
    for player in players:
        for body in player.bodies:
            if isinstance(body, dict) and body.get("ruleset") == "socialism":
                assert all("hand" not in p for p in body["players"] if p["seat"] != player.seat)


@pytest.mark.parametrize("number", FILIBUSTER_GAMES)
def test_filibuster_by_random_clients(number, sample_sets, make_user, client_for):
    chooser = random.Random(3000 + number)
    players = new_game(make_user, client_for, {"deck": sample_sets("filibuster-sample-set"), "variant": "standard"},
                       chooser.choice([2, 3]))
    watch = SecretWatch(players)
    result = play(players, chooser, max_commands=MAX_COMMANDS * 2, watch=watch)
    state = result["state"]
    assert state["status"] == "finished", f"not over after {result['sent']} commands"
    [winner] = state["winners"]
    assert state["players"][winner]["counters"]["points"] >= 200
    assert all(player.get("moves/")["moves"] == [] for player in players)


@pytest.mark.parametrize("number", DRAFT_GAMES)
def test_draft_by_random_clients(number, sample_sets, make_user, client_for):
    chooser = random.Random(5000 + number)
    seats = chooser.choice([2, 3])
    players = new_game(make_user, client_for, {"deck": sample_sets("filibuster-sample-set"), "ruleset": "draft"},
                       seats)
    watch = SecretWatch(players)
    result = play(players, chooser, watch=watch)
    state = result["state"]
    assert (state["status"], state["winners"]) == ("finished", []), f"not over after {result['sent']} commands"
    picks = 3 * state["rules"]["pack_size"]
    assert [player["picks_count"] for player in state["players"]] == [picks] * seats
    assert watch.checked > 0  # the others' bodies were read while a pick was pending
    for player in players:
        [deck] = player.client.get("/api/v1/player-decks/").json()
        mine = next(p for p in player.get("")["players"] if p["seat"] == player.seat)
        assert deck["size"] == picks == len(mine["picks"])
        assert sorted(e["card"] for e in deck["entries"] for _ in range(e["count"])) == sorted(
            int(card["id"]) for card in mine["picks"])
    assert all(player.get("moves/")["moves"] == [] for player in players)
