"""Computer players through the API, as clients see them (issue 34, "Live tables"):

    "The creator of an open game seats a computer player with `POST /games/{id}/bots/ {"level": "random"|"greedy"}`;
    once the game is played it moves on its own, through the same pipeline as any player, from its seat's view."

The computer players run here as under `make run`: in a thread of the server's own process, moving at once in the
test settings (``BOT_THINK_SECONDS`` 0). A game they play is polled as a client would poll it.
"""

from __future__ import annotations

import random
import time

import pytest

from decks.management.commands.load_seed_decks import SAMPLE_DATA
from dvorak_engine.ruleset import FREE_MOVES
from tests.engine.test_legal_moves import filled
from tests.games.conftest import computer_players_report
from tests.seeds import seed_deck_json

RPS = "rock-paper-scissors-extreme-deck"
SAMPLE = "filibuster-sample-set"
# How long a computer player may take to answer, at most, before the test gives up on it.
PATIENCE = 10.0


def open_game(client, deck: str, **body) -> str:
    created = client.post("/api/v1/games/", {"deck": deck, **body}, format="json")
    assert created.status_code == 201, created.content
    return created.json()["id"]


def add_bot(client, game_id, level="random"):
    return client.post(f"/api/v1/games/{game_id}/bots/", {"level": level}, format="json")


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.content
    return response.json()["error"]


def events_after(client, game_id, version: int) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/events/", {"after": version}).json()["events"]


def own_moves(client, game_id) -> tuple[int, list[dict]]:
    """The game's version and the caller's listed moves that play the game (conceding and the like left aside)."""
    answer = client.get(f"/api/v1/games/{game_id}/moves/").json()
    return answer["version"], [move for move in answer["moves"] if move["type"] not in FREE_MOVES]


def wait_for(check, what: str):
    """``check()``'s first true answer, polled as a client polls, within ``PATIENCE`` seconds."""
    stop = time.monotonic() + PATIENCE
    while time.monotonic() < stop:
        answer = check()
        if answer:
            return answer
        time.sleep(0.02)
    pytest.fail(f"waited {PATIENCE} s for {what}\n{computer_players_report()}")


def play_own_turn(client, game_id, version: int) -> int:
    """The client plays its seat's turn by its listed moves (drawing, then ending it) until it has nothing left to
    do; the game's version after its last command (``version`` when it sent none)."""
    for _ in range(50):
        at, moves = own_moves(client, game_id)
        if not moves:
            return version
        move = next((move for wanted in ("draw", "discard", "end_turn") for move in moves if move["type"] == wanted),
                    moves[0])
        sent = client.post(f"/api/v1/games/{game_id}/commands/", filled(move, random.Random(0)), format="json",
                           HTTP_IF_MATCH=f'"{at}"')
        if sent.status_code == 412:  # the computer player moved meanwhile (it may, in her turn too): look again
            continue
        assert sent.status_code == 201, sent.content
        version = sent.json()["version"]
    pytest.fail("the turn did not end")


# --- seating ----------------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_creator_seats_computer_players_which_the_table_shows(archive_deck, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = open_game(ann, archive_deck(30).slug, max_players=4)

    seated = add_bot(ann, game_id, "random")
    assert seated.status_code == 201, seated.content
    assert seated.json() == {"seat": 1, "username": "Computer 1", "bot": "random", "version": 3}
    assert add_bot(ann, game_id, "greedy").json()["seat"] == 2
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200

    for viewer in (ann, bob):
        players = viewer.get(f"/api/v1/games/{game_id}/").json()["players"]
        assert [(p["seat"], p["username"], p.get("bot")) for p in players] == [
            (0, "ann", None), (1, "Computer 1", "random"), (2, "Computer 2", "greedy"), (3, "bob", None)]
    joined = [event for event in events_after(bob, game_id, 0) if event["type"] == "player.joined"]
    assert [(event["actor"], event["data"].get("bot")) for event in joined] == [
        ("ann", None), ("Computer 1", "random"), ("Computer 2", "greedy"), ("bob", None)]
    [summary] = [game for game in bob.get("/api/v1/games/", {"status": "open"}).json()["results"]]
    assert summary["players"] == ["ann", "Computer 1", "Computer 2", "bob"]
    refusal(add_bot(ann, game_id), 409, "limit_reached")  # four seats, four players


@pytest.mark.django_db
def test_only_the_creator_seats_a_computer_player_of_a_known_level_at_an_open_table(archive_deck, make_user,
                                                                                    client_for):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = open_game(ann, archive_deck(30).slug, max_players=4)
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200

    refusal(add_bot(bob, game_id), 403, "forbidden")  # a player, not the creator
    refusal(add_bot(eve, game_id), 403, "forbidden")
    for wrong in ({"level": "clever"}, {"level": 1}, {}, {"level": None}):
        error = refusal(ann.post(f"/api/v1/games/{game_id}/bots/", wrong, format="json"), 400, "invalid")
        assert "level" in error["details"], wrong
    refusal(add_bot(ann, "00000000-0000-0000-0000-000000000000"), 404, "not_found")
    assert [p["username"] for p in ann.get(f"/api/v1/games/{game_id}/").json()["players"]] == ["ann", "bob"]

    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    refusal(add_bot(ann, game_id), 409, "game_not_open")
    # A computer player's seat is taken only through this route, never by a join command of one's own.
    forged = eve.post(f"/api/v1/games/{open_game(ann, 'test-deck')}/commands/", {"type": "join", "bot": "random"},
                      format="json")
    assert forged.status_code == 400, forged.content


@pytest.mark.django_db
def test_at_a_ccg_table_the_computer_player_plays_a_copy_of_one_of_the_creators_decks(make_user, client_for):
    """A CCG game is played with player decks, the computer player's too: by default a copy of the one its creator
    brought, or another of theirs that they name, checked as a join checks it; no one else's deck."""
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=(SAMPLE_DATA / f"{SAMPLE}.json").read_text(encoding="utf-8"),
                              format="json")
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    cards = ann.get(f"/api/v1/decks/{SAMPLE}/versions/1/").json()["cards"]

    def player_deck(client, name, count):
        made = client.post("/api/v1/player-decks/", {"card_set": SAMPLE, "name": name,
                                                      "entries": [{"card": card["id"], "count": count}
                                                                  for card in cards[:5]]}, format="json")
        assert made.status_code == 201, made.content
        return made.json()["id"]

    anns, other, too_few, bobs = (player_deck(ann, "Campaign", 4), player_deck(ann, "Surge", 5),
                                  player_deck(ann, "Thin", 1), player_deck(bob, "Bob's", 4))
    game_id = open_game(ann, SAMPLE, max_players=4, options={"player_deck": anns})

    assert add_bot(ann, game_id).status_code == 201
    refusal(ann.post(f"/api/v1/games/{game_id}/bots/", {"level": "random", "player_deck": bobs}, format="json"),
            404, "not_found")
    refusal(ann.post(f"/api/v1/games/{game_id}/bots/", {"level": "random", "player_deck": too_few}, format="json"),
            409, "deck_invalid")
    seated = ann.post(f"/api/v1/games/{game_id}/bots/", {"level": "greedy", "player_deck": other}, format="json")
    assert seated.status_code == 201, seated.content
    players = bob.get(f"/api/v1/games/{game_id}/").json()["players"]
    assert [(p["username"], p["deck"]["name"]) for p in players] == [
        ("ann", "Campaign"), ("Computer 1", "Campaign"), ("Computer 2", "Surge")]
    # The deck a computer player brought is in the game, as the creator's own is: not to be tuned meanwhile.
    assert ann.get(f"/api/v1/player-decks/{other}/").json()["in_game"] is True
    assert ann.delete(f"/api/v1/games/{game_id}/").status_code == 204
    assert ann.get(f"/api/v1/player-decks/{other}/").json()["in_game"] is False

    standard = open_game(ann, SAMPLE, variant="standard")
    error = refusal(ann.post(f"/api/v1/games/{standard}/bots/", {"level": "random", "player_deck": anns},
                             format="json"), 400, "invalid")
    assert "player_deck" in error["details"]
    assert add_bot(ann, standard).status_code == 201
    # A person is refused the same: a deck brought to a table that plays none would be kept from tuning for nothing.
    error = refusal(bob.post(f"/api/v1/games/{standard}/join/", {"player_deck": bobs}, format="json"), 400, "invalid")
    assert error["details"] == {"field": "player_deck"}
    assert bob.get(f"/api/v1/player-decks/{bobs}/").json()["in_game"] is False
    assert bob.post(f"/api/v1/games/{standard}/join/", {}, format="json").status_code == 200


# --- playing ----------------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_computer_player_takes_its_turn_on_its_own(archive_deck, make_user, client_for, unthrottled,
                                                     computer_players_run):
    ann = client_for(make_user("ann"))
    game_id = open_game(ann, archive_deck(40).slug, max_players=2)
    assert add_bot(ann, game_id).status_code == 201
    started = ann.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content

    human_until = play_own_turn(ann, game_id, started.json()["version"])
    # Nobody sends anything more: the computer player's own events follow.
    moved = wait_for(lambda: [event for event in events_after(ann, game_id, human_until)
                              if event["actor"] == "Computer 1"], "the computer player's move")
    assert moved[0]["version"] > human_until
    assert ann.get(f"/api/v1/games/{game_id}/").json()["version"] >= moved[-1]["version"]
    if ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "active":
        assert ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_a_computer_player_whose_move_fails_looks_again_and_moves(archive_deck, make_user, client_for, unthrottled,
                                                                  computer_players_run, monkeypatch, caplog):
    """The database away for a moment when the computer player's turn comes: it does not leave the game waiting on
    it for good, it looks again a little later and plays."""
    from django.db import OperationalError

    from games import background, bots

    monkeypatch.setattr(bots, "RETRY_SECONDS", 0.3)
    choose, blip = bots.choosing.choose, {"on": True, "failures": 0}

    def choose_in_a_blip(*args):
        if blip["on"]:
            blip["failures"] += 1
            raise OperationalError("the server closed the connection unexpectedly")
        return choose(*args)

    monkeypatch.setattr(bots.choosing, "choose", choose_in_a_blip)
    ann = client_for(make_user("ann"))
    game_id = open_game(ann, archive_deck(40).slug, max_players=2)
    assert add_bot(ann, game_id).status_code == 201
    started = ann.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    human_until = play_own_turn(ann, game_id, started.json()["version"])
    # Ann's last command gave the computer player its turn; its look failed; nobody sends anything more.
    wait_for(lambda: blip["failures"] and not background.JOBS.running, "the computer player's failed look")
    blip["on"] = False
    moved = wait_for(lambda: [event for event in events_after(ann, game_id, human_until)
                              if event["actor"] == "Computer 1"], "the computer player's move after its failed look")
    assert moved[0]["version"] > human_until
    assert any("could not move" in record.getMessage() for record in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_against_a_random_computer_player_by_the_listed_moves(make_user, client_for, unthrottled,
                                                                         computer_players_run):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json(RPS), format="json")
    ann = client_for(make_user("ann"))
    game_id = open_game(ann, RPS, max_players=2)
    assert add_bot(ann, game_id, "random").json()["seat"] == 1
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    chooser = random.Random(34)
    sent = 0
    for _ in range(2000):
        state = ann.get(f"/api/v1/games/{game_id}/").json()
        if state["status"] == "finished":
            break
        version, moves = own_moves(ann, game_id)
        if not moves:  # the computer player's move: it must come by itself
            wait_for(lambda at=version: ann.get(f"/api/v1/games/{game_id}/").json()["version"] > at,
                     f"the computer player to move at version {version}")
            continue
        command = filled(chooser.choice(moves), chooser)
        answer = ann.post(f"/api/v1/games/{game_id}/commands/", command, format="json",
                          HTTP_IF_MATCH=f'"{version}"')
        if answer.status_code == 412:  # the computer player moved first: look again
            continue
        assert answer.status_code == 201, (command, answer.content)
        sent += 1
    else:
        pytest.fail("the game did not end")

    final = ann.get(f"/api/v1/games/{game_id}/").json()
    assert final["status"] == "finished" and final["winners"] and sent > 3
    points = {player["seat"]: player["counters"]["points"] for player in final["players"]}
    assert max(points.values()) >= 21
    events = events_after(ann, game_id, 0)
    computer = [event for event in events if event["actor"] == "Computer 1"]
    assert {"player.joined", "rpsx.thrown"} <= {event["type"] for event in computer}
    assert own_moves(ann, game_id)[1] == []
