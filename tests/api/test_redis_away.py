"""Redis away, part by part, in process: the throttles' cache and the live updates' channel layer pointed at a
port where nothing listens. (The whole story, Redis stopped and started again under a real server mid-game, is
tests/live/test_redis_outage.py.)"""

from __future__ import annotations

import logging
import random

import pytest
from rest_framework.throttling import UserRateThrottle

from tests.engine.test_legal_moves import filled
from tests.redisserver import cache_on, free_port, own_redis, wait_until


@pytest.fixture(autouse=True)
def _no_outage_known_yet(monkeypatch):
    """Each test starts with no outage on record, whichever free port it is given."""
    from dvorak_kit import cache

    monkeypatch.setattr(cache, "_outages", {})


def outage_lines(caplog, what: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "dvorak.outage" and r.getMessage().startswith(what)
    ]


CACHE = "Redis (the cache: throttle counts)"
LAYER = "Redis (the channel layer: live updates)"


def test_throttled_requests_answer_while_the_caches_redis_is_away_and_that_is_logged_once(
    settings, make_user, client_for, caplog
):
    settings.CACHES = cache_on(f"redis://127.0.0.1:{free_port()}/0")
    client = client_for(make_user())
    with caplog.at_level(logging.INFO):
        statuses = [client.get("/api/v1/games/?mine=1").status_code for _ in range(6)]
        statuses.append(client.post("/api/v1/auth/ticket/").status_code)
    assert statuses == [200] * 6 + [201]
    [line] = outage_lines(caplog, CACHE)
    assert "unreachable" in line


def test_while_redis_is_away_each_process_still_counts_on_its_own(
    settings, make_user, client_for, monkeypatch
):
    settings.CACHES = cache_on(f"redis://127.0.0.1:{free_port()}/0")
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "3/min"})
    client = client_for(make_user())
    statuses = [client.get("/api/v1/games/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert client.get("/api/v1/games/").json()["error"]["code"] == "throttled"


def test_the_throttles_go_back_to_redis_when_it_answers_again(
    settings, make_user, client_for, caplog, tmp_path
):
    port = free_port()
    settings.CACHES = cache_on(f"redis://127.0.0.1:{port}/0")
    user = make_user()
    client = client_for(user)
    with caplog.at_level(logging.INFO):
        assert client.get("/api/v1/games/").status_code == 200  # nothing listens yet
        with own_redis(tmp_path, port=port) as redis_server:

            def counted_on_redis() -> bool:
                assert client.get("/api/v1/games/").status_code == 200
                return bool(redis_server.keys(f"*throttle_user_{user.pk}"))

            wait_until(counted_on_redis, 20, "a request counted on Redis")
    went, came_back = outage_lines(caplog, CACHE)
    assert "is unreachable" in went and "answers again" in came_back


@pytest.mark.django_db(transaction=True)
def test_commands_answer_201_while_the_channel_layers_redis_is_away_and_that_is_logged_once(
    settings, table, caplog
):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "dvorak_kit.channel_layer.ResilientRedisChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{free_port()}/0"]},
        }
    }
    with caplog.at_level(logging.INFO):
        game_id, seated = table(2)  # its start command publishes already
        game = f"/api/v1/games/{game_id}"
        chooser = random.Random(3)
        for _ in range(6):
            offers = [
                (client, move)
                for _, client in seated
                for move in client.get(f"{game}/moves/").json()["moves"]
                if move["type"] != "abandon"  # giving the game up is each player's own choice
            ]
            client, move = chooser.choice(offers)
            response = client.post(f"{game}/commands/", filled(move, chooser), format="json")
            assert response.status_code == 201, response.content
    events = seated[0][1].get(f"{game}/events/").json()["events"]
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    [line] = outage_lines(caplog, LAYER)
    assert "unreachable" in line
