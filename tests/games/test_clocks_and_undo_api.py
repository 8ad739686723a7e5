"""Clocks and undo by agreement through the API, as clients use them (issue 34, "Live tables"):

    "`options.clock`: `{"per_move": s}` (each decision), or `{"initial": s, "increment": s}` ... When a clock runs
    out, the server appends `clock.expired` within 2 s of the deadline, with no client connected ... Reads never
    show a game past a deadline as if it were not."

    "`{"type": "undo", "to": <version>}` asks to take the game back to that version; every other player answers
    `{"type": "undo_answer", "accept": true|false}` (listed in `/moves/`) ... An undo across an event that showed
    any seat a card it could not see before (a draw, a reveal) is refused with 409 `undo_not_possible`."

The clock's sweep runs here as under `make run` (a thread of the server's process); tests/games/test_clock_worker.py
runs it on a real Celery worker and beat.
"""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.conf import settings

from games import background
from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def create(client, deck_slug: str, **options) -> str:
    answer = client.post("/api/v1/games/", {"deck": deck_slug, "max_players": 2, "options": options}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def two_playing(archive_deck, make_user, client_for, **options):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = create(ann, archive_deck(30).slug, **options)
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    started = ann.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    return game_id, ann, bob


def seconds_until(stamp: str) -> float:
    return dt.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() - time.time()


def events_of(client, game_id) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/events/").json()["events"]


def mover(state: dict) -> int:
    waiting = [seat["seat"] for seat in state["clock"]["seats"] if seat["deadline"] is not None]
    assert len(waiting) == 1, state["clock"]
    return waiting[0]


@pytest.fixture
def sweeping():
    """The clock's sweep, running as under `make run`: a thread of this process, every 0.2 s."""
    settings.CLOCK_SWEEP_SECONDS = 0.2
    background.start()
    yield
    settings.CLOCK_SWEEP_SECONDS = 0


def test_a_clock_is_refused_outside_its_bounds(archive_deck, make_user, client_for):
    ann = client_for(make_user("ann"))
    slug = archive_deck(20).slug
    for wrong in ({"per_move": 0}, {"per_move": 8 * 24 * 3600}, {"per_move": "5"}, {"initial": 60, "each": 2},
                  {"per_move": 5, "initial": 60}, [5]):
        answer = ann.post("/api/v1/games/", {"deck": slug, "options": {"clock": wrong}}, format="json")
        assert answer.status_code == 400, (wrong, answer.content)
        assert answer.json()["error"]["details"]["field"] == "options.clock"
    assert Game.objects.count() == 0


def test_the_state_shows_the_deadline_of_the_seat_the_game_waits_on(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for, clock={"per_move": 60})
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert state["clock"]["per_move"] == 60
    seat = mover(state)
    waiting = next(entry for entry in state["clock"]["seats"] if entry["seat"] == seat)
    assert 55 < seconds_until(waiting["deadline"]) <= 60
    # The player to move draws: a new decision, a new minute; the other seat has no deadline.
    player = (ann, bob)[seat]
    drawn = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert drawn.status_code == 201, drawn.content
    # The draw's own last event carries the new deadline: no event of the clock's own.
    drawn_events = drawn.json()["events"]
    assert "clock.set" not in [event["type"] for event in drawn_events]
    assert all("clock" not in event["data"] for event in drawn_events[:-1])
    deadline = drawn_events[-1]["data"]["clock"]["deadlines"][str(seat)]
    assert 55 < deadline - time.time() <= 60
    again = ann.get(f"/api/v1/games/{game_id}/").json()
    assert mover(again) == seat
    assert Game.objects.get(pk=game_id).deadline is not None


def test_nobody_moves_and_the_server_ends_the_game_a_few_seconds_later(archive_deck, make_user, client_for,
                                                                       sweeping):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for, clock={"per_move": 2})
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    late = mover(state)
    deadline = dt.datetime.fromisoformat(state["clock"]["seats"][late]["deadline"].replace("Z", "+00:00"))
    # Nobody reads or sends anything: the server's own clock must end it.
    stop = time.time() + 10
    while time.time() < stop and Game.objects.get(pk=game_id).status == "active":
        time.sleep(0.1)
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished"
    events = events_of(ann, game_id)
    expired = next(event for event in events if event["type"] == "clock.expired")
    assert expired["data"] == {"seats": [late]} and expired["actor"] == "(clock)"
    appended = dt.datetime.fromisoformat(expired["at"].replace("Z", "+00:00"))
    assert dt.timedelta(0) <= appended - deadline < dt.timedelta(seconds=2)
    final = bob.get(f"/api/v1/games/{game_id}/").json()
    assert final["winners"] == [1 - late]
    assert final["players"][late]["status"] == "eliminated"
    assert ann.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == []
    assert game.deadline is None


def test_a_read_never_shows_a_game_past_its_deadline_as_if_it_were_not(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for, clock={"per_move": 1})
    time.sleep(1.3)  # no sweep runs in this test: the read itself must see the time has run out
    state = bob.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "finished"
    assert "clock.expired" in [event["type"] for event in events_of(ann, game_id)]


def test_a_move_in_time_keeps_the_game_going(archive_deck, make_user, client_for, sweeping):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for, clock={"per_move": 3})
    seat = mover(ann.get(f"/api/v1/games/{game_id}/").json())
    player = (ann, bob)[seat]
    for _ in range(2):  # two decisions of 1.5 s each: 3 s in all, each within its own 3 s
        time.sleep(1.5)
        moves = player.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
        move = next(move for move in moves if move["type"] in ("draw", "play"))
        assert player.post(f"/api/v1/games/{game_id}/commands/", move, format="json").status_code == 201
    assert Game.objects.get(pk=game_id).status == "active"
    assert "clock.expired" not in [event["type"] for event in events_of(ann, game_id)]


def test_a_bank_clock_runs_down_and_takes_its_increment(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for, clock={"initial": 30, "increment": 5})
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert state["clock"]["initial"] == 30 and state["clock"]["increment"] == 5
    seat = mover(state)
    player = (ann, bob)[seat]
    time.sleep(1.0)
    assert player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json").status_code == 201
    after = ann.get(f"/api/v1/games/{game_id}/").json()["clock"]["seats"][seat]
    # Its bank lost the second it spent and gained the increment: about 34 s, running again from now.
    assert 33 < after["bank"] < 34.5
    assert 32 < seconds_until(after["deadline"]) <= 34.5


def playable(client, game_id) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]


def hand_of(state: dict) -> list[dict]:
    return state["players"][state["you"]]["hand"]


def hand_ids(client, game_id) -> list[str]:
    return [card["id"] for card in hand_of(client.get(f"/api/v1/games/{game_id}/").json())]


def test_an_agreed_undo_brings_a_played_card_back_to_hand(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for)
    seat = ann.get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    player, other = (ann, bob)[seat], (ann, bob)[1 - seat]
    drawn = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json").json()
    play = next(move for move in playable(player, game_id) if move["type"] == "play")
    card = play["card"]
    played = player.post(f"/api/v1/games/{game_id}/commands/", play, format="json")
    assert played.status_code == 201, played.content
    assert card not in hand_ids(player, game_id)

    asked = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo", "to": drawn["version"]},
                        format="json")
    assert asked.status_code == 201, asked.content
    assert other.get(f"/api/v1/games/{game_id}/").json()["undo"] == {"to": drawn["version"], "by": seat,
                                                                     "accepted": []}
    assert {"type": "undo_answer", "accept": True} in playable(other, game_id)
    answered = other.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo_answer", "accept": True},
                          format="json")
    assert answered.status_code == 201, answered.content
    assert [event["type"] for event in answered.json()["events"]] == ["undo.answered", "game.undone"]
    # The card is back in its player's hand; nothing was deleted: the play and the undo are both in the log.
    assert card in hand_ids(player, game_id)
    types = [event["type"] for event in events_of(other, game_id)]
    assert types[-4:] == ["card.played", "undo.requested", "undo.answered", "game.undone"]
    undone = events_of(other, game_id)[-1]
    assert undone["data"] == {"to": drawn["version"]}  # the state it carries is the server's
    assert "undo" not in other.get(f"/api/v1/games/{game_id}/").json()


def test_a_refused_undo_changes_nothing(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for)
    seat = ann.get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    player, other = (ann, bob)[seat], (ann, bob)[1 - seat]
    drawn = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json").json()
    play = next(move for move in playable(player, game_id) if move["type"] == "play")
    assert player.post(f"/api/v1/games/{game_id}/commands/", play, format="json").status_code == 201
    before = player.get(f"/api/v1/games/{game_id}/").json()
    player.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo", "to": drawn["version"]}, format="json")
    refused = other.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo_answer", "accept": False},
                         format="json")
    assert refused.status_code == 201
    after = player.get(f"/api/v1/games/{game_id}/").json()
    assert hand_of(after) == hand_of(before) and "undo" not in after
    again = other.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo_answer", "accept": True}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "denied"


def test_an_undo_across_a_draw_is_refused(archive_deck, make_user, client_for):
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for)
    seat = ann.get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    player = (ann, bob)[seat]
    version = ann.get(f"/api/v1/games/{game_id}/").json()["version"]
    drawn = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert drawn.status_code == 201
    refused = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo", "to": version}, format="json")
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"]["code"] == "undo_not_possible"
    assert refused.json()["error"]["details"]["type"] == "card.drawn"
    # Nothing was appended, and the refusal names no card.
    assert ann.get(f"/api/v1/games/{game_id}/").json()["version"] == drawn.json()["version"]
    for bad in ({"type": "undo"}, {"type": "undo", "to": 0}, {"type": "undo", "to": "3"},
                {"type": "undo", "to": version + 5}):
        answer = player.post(f"/api/v1/games/{game_id}/commands/", bad, format="json")
        assert answer.status_code == 400, (bad, answer.content)


def test_a_malformed_command_is_refused_as_such_even_at_a_stale_version(archive_deck, make_user, client_for):
    """A body that breaks its command's declared shape is 400 whatever `If-Match` says; only a well-formed command
    at a stale version is 412 (found by Schemathesis: a proposed Special Rule whose `effect` was a number came back
    412)."""
    game_id, ann, bob = two_playing(archive_deck, make_user, client_for)
    stale = '"1"'
    malformed = ann.post(f"/api/v1/games/{game_id}/commands/",
                         {"type": "propose", "kind": "special_rule",
                          "rule": {"title": "Haste", "text": "Draw two.", "effect": 5}},
                         format="json", HTTP_IF_MATCH=stale)
    assert malformed.status_code == 400, malformed.content
    well_formed = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "undo", "to": 3}, format="json",
                           HTTP_IF_MATCH=stale)
    assert well_formed.status_code == 412, well_formed.content
