"""/metrics: Prometheus's text format, what the service counts and times, and who may read it (README, "Metrics").

The metrics live in the test process's own registry and only grow, so each test compares a value before and
after what it does.
"""

import json

import pytest
from asgiref.sync import sync_to_async
from celery import shared_task
from channels.testing import HttpCommunicator
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from dvorak_site.asgi import django_asgi_app
from games.api.fast import CommandFastPath

COMMAND_ROUTE = "api/v1/games/<uuid:game_id>/commands/"


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scraped(client, **extra) -> dict:
    """/metrics read and parsed as Prometheus parses it: {(sample name, labels as a sorted tuple): value}."""
    response = client.get("/metrics", **extra)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(response.content.decode())
            for sample in family.samples}


def started(table):
    game_id, seated = table(2)
    turn = seated[0][1].get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    return game_id, seated[turn][1], seated[1 - turn][1]


@pytest.mark.django_db
def test_a_request_is_timed_under_its_url_pattern_never_its_path(client, table):
    game_id, mover, _ = started(table)
    mover.get(f"/api/v1/games/{game_id}/")
    samples = scraped(client)
    route = "api/v1/games/<uuid:game_id>/"
    key = ("dvorak_http_request_duration_seconds_count", (("method", "GET"), ("route", route), ("status", "2xx")))
    assert samples[key] >= 1
    assert ("dvorak_http_request_duration_seconds_bucket",
            (("le", "+Inf"), ("method", "GET"), ("route", route), ("status", "2xx"))) in samples
    assert not any(game_id in str(labels) for _, labels in samples)


@pytest.mark.django_db
def test_commands_are_counted_by_ruleset_and_outcome_a_refusal_with_its_code(table):
    game_id, mover, waiting = started(table)
    accepted = value("dvorak_commands_total", ruleset="dvorak", outcome="accepted", code="")
    refused = value("dvorak_commands_total", ruleset="dvorak", outcome="refused", code="not_your_turn")
    appended = value("dvorak_eventstore_append_duration_seconds_count", kind="game", outcome="written")

    assert mover.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json").status_code == 201
    answer = waiting.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_your_turn"

    assert value("dvorak_commands_total", ruleset="dvorak", outcome="accepted", code="") == accepted + 1
    assert value("dvorak_commands_total", ruleset="dvorak", outcome="refused", code="not_your_turn") == refused + 1
    assert value("dvorak_eventstore_append_duration_seconds_count", kind="game", outcome="written") == appended + 1
    assert value("dvorak_eventstore_append_duration_seconds_sum", kind="game", outcome="written") > 0


@pytest.mark.django_db(transaction=True)
async def test_a_command_the_asgi_server_answers_itself_is_timed_under_the_view_s_pattern(table):
    game_id, seated = await sync_to_async(table)(2)
    state = (await sync_to_async(seated[0][1].get)(f"/api/v1/games/{game_id}/")).json()
    mover = seated[state["turn"]["seat"]][0]
    token = await sync_to_async(lambda: mover.api_token)()
    before = value("dvorak_http_request_duration_seconds_count", route=COMMAND_ROUTE, method="POST", status="2xx")
    body = json.dumps({"type": "draw"}).encode()
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json"), (b"accept", b"*/*"),
               (b"authorization", f"Token {token}".encode()), (b"content-length", str(len(body)).encode())]
    reached_django = []

    async def django(scope, receive, send):
        reached_django.append(scope["path"])
        return await django_asgi_app(scope, receive, send)

    communicator = HttpCommunicator(CommandFastPath(django), "POST", f"/api/v1/games/{game_id}/commands/",
                                    body=body, headers=headers)
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 201 and reached_django == []
    assert value("dvorak_http_request_duration_seconds_count", route=COMMAND_ROUTE, method="POST",
                 status="2xx") == before + 1


def test_metrics_are_refused_outside_the_allowed_networks(client):
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    # A public client through a proxy on the private network is not taken for the proxy.
    through_proxy = client.get("/metrics", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert through_proxy.status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.20").status_code == 200


def test_with_a_token_set_metrics_need_the_bearer(client, settings):
    settings.METRICS_TOKEN = "s3cret-metrics-token"
    assert client.get("/metrics").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").json()["error"]["code"] == "forbidden"
    answer = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token")
    assert answer.status_code == 200 and b"dvorak_commands_total" in answer.content


@shared_task(name="tests.ops.fails")
def fails():
    raise ValueError("as it should")


@pytest.mark.django_db
def test_celery_task_outcomes_are_counted_by_task_name():
    from games.tasks import expire_due_clocks

    succeeded = value("dvorak_celery_tasks_total", task="games.expire_due_clocks", outcome="success")
    failed = value("dvorak_celery_tasks_total", task="tests.ops.fails", outcome="failure")
    expire_due_clocks.apply()
    fails.apply(throw=False)  # the settings have eager tasks raise their errors
    assert value("dvorak_celery_tasks_total", task="games.expire_due_clocks", outcome="success") == succeeded + 1
    assert value("dvorak_celery_tasks_total", task="tests.ops.fails", outcome="failure") == failed + 1
