"""What a game command costs besides the game itself: counted, never timed.

A command reads its token from the process's cache (not the database), is throttled without a Redis round trip
each time, locks and loads its game in one statement, and hands its live update to a background thread; the
update still reaches the game's sockets, and a revoked token stops working within TOKEN_CACHE_SECONDS.
"""

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.throttling import SimpleRateThrottle

from dvorak_kit.api import authentication
from games.services import group_name

pytestmark = pytest.mark.django_db(transaction=True)


def a_move(game_id, seated):
    """A command some seat may send now: (its client, the command)."""
    for _, client in seated:
        for move in client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]:
            if move.get("type") in {"draw", "end_turn"}:
                return client, {k: v for k, v in move.items() if k in {"type", "seat"}}
    pytest.fail("no draw or end_turn offered")


async def received(layer, channel: str) -> dict:
    """The channel's next message, waited for at most 30 s."""
    return await asyncio.wait_for(layer.receive(channel), timeout=30)


def token_reads(queries) -> list[str]:
    return [q["sql"] for q in queries if "knox_authtoken" in q["sql"]]


def test_a_command_reads_no_token_and_writes_its_game_in_one_statement(table):
    game_id, seated = table(2)
    client, command = a_move(game_id, seated)  # the moves listing has read (and cached) the token already
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
    assert response.status_code == 201, response.content
    sqls = [q["sql"] for q in queries.captured_queries]
    assert token_reads(queries.captured_queries) == []
    if connection.vendor == "postgresql":
        # The game row's status and version go with the append's own statement, not an UPDATE of their own (on
        # SQLite, one writer at a time, they follow it in the same transaction).
        assert not any(s.startswith('UPDATE "games_game"') for s in sqls), sqls
        # Decided on the game as this process last saw it (the listing loaded it), then the events written with the
        # game row's projection: one statement, no read, no lock, no transaction of its own; the stream's version
        # check in the write stands for the lock.
        assert not any('FROM "games_game"' in s for s in sqls), sqls
        assert not any("FOR UPDATE" in s for s in sqls), sqls
        assert len([s for s in sqls if "INSERT INTO eventstore_event" in s]) == 1, sqls
        assert len(sqls) == 1, sqls
    else:  # BEGIN, the lock, the game, a savepoint around the version move, the events and the game row, COMMIT
        assert len(sqls) <= 9, sqls
    listed = client.get("/api/v1/games/?mine=true").json()
    games = listed["results"] if isinstance(listed, dict) else listed
    assert {g["id"]: g["version"] for g in games}[game_id] == response.json()["version"]


def any_move(game_id, seated):
    """A card command some seat may send now, each of its choices taken as the first offered: (client, command)."""
    for _, client in seated:
        for move in client.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]:
            if move.get("type") in {"draw", "play", "discard", "end_turn"}:
                return client, {key: value["from"][:value.get("choose", 1)]
                                if isinstance(value, dict) and "from" in value else value
                                for key, value in move.items()}
    pytest.fail("no card command offered")


def remembered(game_id):
    from games.services import STATE_CACHE

    return STATE_CACHE.get(f"game-{game_id}")


def remember(game_id, entry) -> None:
    """This process made to remember the game as ``entry`` (version, state): as when another process served the
    commands since."""
    from games.services import STATE_CACHE

    STATE_CACHE.clear()
    STATE_CACHE.put(f"game-{game_id}", *entry)


def play(client, game_id, command) -> dict:
    response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_a_command_on_a_game_another_process_moved_is_decided_on_the_game_as_it_is(table):
    """What this process remembers of a game is only a head start: after another process's command, a command
    decided on it is refused by the write (or by the rules, as the turn may have passed) and decided again on the
    game as it is now, with the events this process had not seen."""
    if connection.vendor != "postgresql":
        pytest.skip("the unlocked write is PostgreSQL's; SQLite locks every command")
    game_id, seated = table(2)
    for _ in range(6):
        before = remembered(game_id)
        client, command = any_move(game_id, seated)
        version = play(client, game_id, command)["version"]
        client, command = any_move(game_id, seated)  # offered on the game as it is now
        remember(game_id, before)
        with CaptureQueriesContext(connection) as queries:
            answer = play(client, game_id, command)
        assert answer["events"][0]["version"] == version + 1
        sqls = [q["sql"] for q in queries.captured_queries]
        assert len([s for s in sqls if 'FROM "games_game"' in s]) == 1, sqls  # the game's version, read once
        assert len([s for s in sqls if "FROM eventstore_event" in s]) == 1, sqls  # the events this process missed
        events = client.get(f"/api/v1/games/{game_id}/events/").json()
        assert [e["version"] for e in events["events"]] == list(range(1, events["version"] + 1))
        assert events["version"] == answer["version"]


def test_a_command_the_game_as_remembered_allows_is_refused_on_the_game_as_it_is(table):
    """A command decided on the game as this process remembers it is written only if the game is still there: here
    the remembered turn is still the sender's, the real one has passed, and the sender's end of turn is refused."""
    if connection.vendor != "postgresql":
        pytest.skip("the unlocked write is PostgreSQL's; SQLite locks every command")
    game_id, seated = table(2)
    seat = seated[0][1].get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    sender = seated[seat][1]
    before = remembered(game_id)
    while sender.get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"] == seat:
        client, command = any_move(game_id, seated)
        play(client, game_id, command)
    version = sender.get(f"/api/v1/games/{game_id}/events/").json()["version"]
    remember(game_id, before)  # at the start of the sender's turn
    response = sender.post(f"/api/v1/games/{game_id}/commands/", {"type": "end_turn"}, format="json")
    assert 400 <= response.status_code < 500, response.content
    assert sender.get(f"/api/v1/games/{game_id}/events/").json()["version"] == version


def test_a_command_with_an_idempotency_key_locks_its_game_once_in_one_transaction(table):
    game_id, seated = table(2)
    client, command = a_move(game_id, seated)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json",
                               HTTP_IDEMPOTENCY_KEY="locked-1")
    assert response.status_code == 201, response.content
    sqls = [q["sql"] for q in queries.captured_queries]
    if connection.vendor == "postgresql":
        assert len([s for s in sqls if "FOR UPDATE" in s]) == 1, sqls  # the game's stream, until the commit
    assert len([s for s in sqls if "commandreceipt" in s.lower() and s.startswith("INSERT")]) == 1, sqls
    again = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json", HTTP_IDEMPOTENCY_KEY="locked-1")
    assert again.status_code == 201 and again.json() == response.json()


def test_a_cached_token_is_not_read_again_and_a_deleted_one_is_refused_at_once(make_user, client_for):
    user = make_user()
    client = client_for(user)
    with CaptureQueriesContext(connection) as first:
        assert client.get("/api/v1/games/?mine=1").status_code == 200
    with CaptureQueriesContext(connection) as second:
        assert client.get("/api/v1/games/?mine=1").status_code == 200
    assert token_reads(first.captured_queries) and not token_reads(second.captured_queries)
    assert client.delete("/api/v1/auth/token/").status_code == 204  # sign-out: this process forgets it at once
    assert client.get("/api/v1/games/?mine=1").status_code == 401


def test_a_token_revoked_by_another_process_stops_working_within_the_ttl(make_user, client_for, monkeypatch):
    user = make_user()
    client = client_for(user)
    assert client.get("/api/v1/games/?mine=1").status_code == 200
    from knox.models import AuthToken

    AuthToken.objects.filter(user=user)._raw_delete(AuthToken.objects.db)  # no signal: as if another process did
    assert client.get("/api/v1/games/?mine=1").status_code == 200  # still trusted, inside the TTL
    now = authentication.time.monotonic() + authentication.TokenCache.ttl() + 0.1
    monkeypatch.setattr(authentication.time, "monotonic", lambda: now)
    assert client.get("/api/v1/games/?mine=1").status_code == 401


def test_a_deactivated_user_is_refused_at_once(make_user, client_for):
    user = make_user()
    client = client_for(user)
    assert client.get("/api/v1/games/?mine=1").status_code == 200
    user.is_active = False
    user.save()
    assert client.get("/api/v1/games/?mine=1").status_code == 401


class CountingCache:
    def __init__(self, cache):
        self.cache, self.calls = cache, []

    def __getattr__(self, name):
        attribute = getattr(self.cache, name)
        if not callable(attribute):
            return attribute

        def counted(*args, **kwargs):
            self.calls.append(name)
            return attribute(*args, **kwargs)

        return counted


def test_throttles_share_their_counts_in_batches_not_on_every_request(make_user, client_for, monkeypatch):
    counting = CountingCache(SimpleRateThrottle.cache)
    monkeypatch.setattr(SimpleRateThrottle, "cache", counting)
    client = client_for(make_user())
    for _ in range(20):
        assert client.get("/api/v1/games/?mine=1").status_code == 200
    # DRF's own throttle makes two cache calls (get and set) per request; these share at most once a second.
    assert 0 < len(counting.calls) < 20, counting.calls


@pytest.mark.skipif(isinstance(get_channel_layer(), InMemoryChannelLayer), reason="needs the Redis channel layer")
def test_a_command_reaches_the_games_group_and_is_not_sent_from_the_request(table, monkeypatch):
    import threading

    game_id, seated = table(2)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(game_id), channel)
    senders = []
    original = type(layer).group_send_many

    async def group_send_many(self, sends):
        senders.append(threading.current_thread().name)
        await original(self, sends)

    monkeypatch.setattr(type(layer), "group_send_many", group_send_many)
    client, command = a_move(game_id, seated)
    before = client.get(f"/api/v1/games/{game_id}/").json()["version"]
    response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
    assert response.status_code == 201
    version = response.json()["version"]
    # The table's own setup may still be on its way (the publisher gathers updates for a few milliseconds): its
    # notices come first, each for a version the game had already reached.
    earlier = []
    while (message := async_to_sync(received)(layer, channel))["version"] != version:
        earlier.append(message)
    assert all(notice["version"] <= before for notice in earlier), earlier
    # The notice names the version the game moved from, so a socket short of it knows it missed one.
    # And its group: a process's one channel is in the group of every game it follows.
    assert message == {"type": "game.advanced", "group": f"game.{game_id}", "version": version, "after": before}
    assert set(senders) == {"dvorak-publisher"}  # the setup's late notices, if any, went the same way


@pytest.mark.skipif(isinstance(get_channel_layer(), InMemoryChannelLayer), reason="needs the Redis channel layer")
def test_a_live_update_that_fails_is_logged_and_the_command_still_answers_201(table, monkeypatch, caplog):
    from dvorak_kit.publisher import PUBLISHER

    game_id, seated = table(2)
    layer = get_channel_layer()
    futures = []
    send = PUBLISHER.send

    async def broken(self, sends):
        raise RuntimeError("the channel layer broke")

    monkeypatch.setattr(type(layer), "group_send_many", broken)
    monkeypatch.setattr(PUBLISHER, "send", lambda *a: futures.append(send(*a)) or futures[-1])
    client, command = a_move(game_id, seated)
    with caplog.at_level(logging.WARNING, logger="dvorak.publisher"):
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
        assert response.status_code == 201
        with pytest.raises(RuntimeError):
            futures[0].result(timeout=30)
    assert any("could not be sent" in r.getMessage() for r in caplog.records)
    events = client.get(f"/api/v1/games/{game_id}/events/").json()["events"]
    assert events[-1]["version"] == response.json()["version"]  # the command stands


def test_a_command_due_a_snapshot_has_it_written_after_its_answer_without_a_lock(table, settings):
    from dvorak_kit.eventstore import store
    from dvorak_kit.eventstore.models import Snapshot
    from games import services

    game_id, seated = table(2)
    stream_id = f"game-{game_id}"
    version = store.current_version(stream_id)
    settings.EVENTSTORE_SNAPSHOT_EVERY = version + 1  # the next command crosses it
    client, command = a_move(game_id, seated)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/v1/games/{game_id}/commands/", command, format="json")
    assert response.status_code == 201, response.content
    new_version = response.json()["version"]
    sqls = [q["sql"] for q in queries.captured_queries]
    services.SNAPSHOTS.flush()  # on PostgreSQL written after the answer, by the process's snapshot thread
    snapshot = Snapshot.objects.get(stream_id=stream_id)
    assert snapshot.version == new_version
    services.STATE_CACHE.clear()
    assert store.load(stream_id, services.FOLDER)[1] == store.load(stream_id, services.FOLDER, use_snapshots=False)[1]
    if connection.vendor == "postgresql":
        assert not any("FOR UPDATE" in s for s in sqls), sqls  # the unlocked path
        assert not any("eventstore_snapshot" in s for s in sqls), sqls  # not in the command's own statements


def test_each_request_gets_its_own_copy_of_a_cached_tokens_user(make_user):
    """The cached user is copied for each request as ``copy.copy`` copies a model instance: the same fields, and
    nothing one request sets on its user (an attribute, a related object it caches) reaches another's."""
    import copy

    from dvorak_kit.api.authentication import CachedTokenAuthentication

    user = make_user()
    authentication = CachedTokenAuthentication()
    first, token = authentication.authenticate_credentials(user.api_token)
    second, _ = authentication.authenticate_credentials(user.api_token)
    assert token.token_key == user.api_token[:15] and token.user_id == user.pk
    assert first is not second and first == second == user
    fields = [field.attname for field in user._meta.concrete_fields]
    assert [getattr(first, name) for name in fields] == [getattr(copy.copy(second), name) for name in fields] \
        == [getattr(user, name) for name in fields]
    assert (first.username, first.is_active, first._state.db, first._state.adding) == \
        (user.username, True, "default", False)
    first.tag = "set by one request"
    first._state.fields_cache["related"] = object()
    assert not hasattr(second, "tag") and "related" not in second._state.fields_cache
    third, _ = authentication.authenticate_credentials(user.api_token)
    assert not hasattr(third, "tag") and "related" not in third._state.fields_cache


def test_the_games_a_process_keeps_are_as_many_as_the_setting_says(table, make_user, client_for, settings):
    """``DVORAK_STATE_CACHE_GAMES``: a process keeps that many games' states, the most recently used. A command on
    a game it still keeps reads nothing of it; one on a game it let go reads its events again and replays them."""
    from games.services import STATE_CACHE

    games = [table(2)]
    for _ in range(2):  # two more games of the table's deck
        seated = [(user, client_for(user)) for user in (make_user(), make_user())]
        game_id = seated[0][1].post("/api/v1/games/", {"deck": "test-deck", "max_players": 2},
                                    format="json").json()["id"]
        assert seated[1][1].post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert seated[0][1].post(f"/api/v1/games/{game_id}/start/").status_code == 200
        games.append((game_id, seated))
    moves, kept = [], []
    for game_id, seated in games:
        moves.append(any_move(game_id, seated))  # the listing loads the game, and the process keeps it
        kept.append(remembered(game_id))

    def events_read(number: int, move=None) -> int:
        client, command = move or moves[number]
        with CaptureQueriesContext(connection) as queries:
            play(client, games[number][0], command)
        return len([q for q in queries.captured_queries  # reads of the events (the append's own write aside)
                    if "eventstore_event" in q["sql"] and "INSERT INTO eventstore_event" not in q["sql"]])

    settings.STATE_CACHE_GAMES = 2
    STATE_CACHE.clear()
    for (game_id, _), entry in zip(games, kept, strict=True):
        STATE_CACHE.put(f"game-{game_id}", *entry)

    def keeps(number: int) -> bool:  # looked at without making it the most recently used
        return f"game-{games[number][0]}" in STATE_CACHE.entries

    assert [keeps(n) for n in range(3)] == [False, True, True]  # the oldest let go
    assert events_read(0) >= 1  # read again, and kept now: the next oldest is let go
    assert [keeps(n) for n in range(3)] == [True, False, True]
    assert events_read(2) == 0
    settings.STATE_CACHE_GAMES = 3
    assert events_read(1) >= 1
    assert [keeps(n) for n in range(3)] == [True, True, True]
    assert [events_read(n, any_move(*games[n])) for n in range(3)] == [0, 0, 0]
