"""Redis stopped while streams are open, on a real ASGI server: they stay open, and when Redis is back they catch up.

The test runs its own ``redis-server`` (never the machine's shared one) and a daphne process on it. A game's stream
opened before the outage and one opened during it send every event, the ones made while Redis was away too, with
versions 1, 2, 3… and no gap; the account feed sends again what is true now (the game being played, the turn that
came to its user meanwhile).
"""

from __future__ import annotations

import httpx
import pytest

from tests.live.streaming import Stream, api, daphne, started_game, turn_passed
from tests.redisserver import own_redis, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def versions_until(stream: Stream, last: int) -> list[int]:
    return [event["version"] for event in stream.objects_until(lambda event: event["version"] >= last, seconds=30)]


def test_streams_stay_open_through_a_redis_outage_and_catch_up_when_it_is_back(
        tmp_path, make_user, archive_deck):
    ann, bob = make_user(), make_user()
    deck = archive_deck(40).slug
    # No idle resync meanwhile: what the streams miss comes back when the channel layer has put them in their
    # groups again (`channel_layer.rejoined`).
    with own_redis(tmp_path) as redis, daphne(tmp_path, REDIS_URL=redis.url, LIVE_RESYNC_SECONDS="600") as (base, log):
        game_id = started_game(base, ann, bob, deck)
        with api(base, ann) as ann_api, api(base, bob) as bob_api:
            apis = {0: ann_api, 1: bob_api}
            state = ann_api.get(f"/games/{game_id}/").json()
            first = state["turn"]["seat"]
            waiting = (bob, ann)[first]  # the other player: the turn comes to them in the outage
            before = Stream(base, f"/api/v1/games/{game_id}/stream/", user=bob)
            feed = Stream(base, "/api/v1/account/stream/", user=waiting)
            assert versions_until(before, state["version"]) == list(range(1, state["version"] + 1))
            feed.objects_until(lambda line: line["type"] == "game_started")

            redis.stop()
            turn_passed(apis[first], game_id)
            during = Stream(base, f"/api/v1/games/{game_id}/stream/?after={state['version']}", user=ann)
            last = ann_api.get(f"/games/{game_id}/").json()["version"]
            redis.start()
            wait_until(lambda: httpx.get(f"{base}/api/v1/health/ready/").json()["status"] == "ok", 30, "Redis to be ready again")

            assert versions_until(before, last) == list(range(state["version"] + 1, last + 1))
            assert versions_until(during, last) == list(range(state["version"] + 1, last + 1))
            told = feed.objects_until(lambda line: line["type"] == "your_turn")
            assert told[-1]["game"] == game_id and told[-1]["seat"] == 1 - first and told[-1]["version"] == last
            for stream in (before, during, feed):
                stream.close()
        text = log.read_text()
    assert "Redis (the channel layer: live updates) answers again" in text, text
    assert "Traceback" not in text, text
