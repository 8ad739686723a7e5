"""The API's frame: accounts, the one error shape, the schema and docs, health, throttling."""

import pytest
from rest_framework.throttling import UserRateThrottle

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def test_register_returns_a_token_that_authenticates(api_client):
    response = api_client.post("/api/v1/auth/register/", {"username": "kevan", "password": "blank-cards-4ever"})
    assert response.status_code == 201
    assert response.json()["username"] == "kevan"
    token = response.json()["token"]

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api_client.post("/api/v1/auth/ticket/").status_code == 201


def test_each_sign_in_gives_a_token_of_its_own_and_each_works(api_client):
    registered = api_client.post("/api/v1/auth/register/", {"username": "tweed", "password": "cap-and-gown-99"}).json()
    response = api_client.post("/api/v1/auth/token/", {"username": "tweed", "password": "cap-and-gown-99"})
    assert response.status_code == 200
    signed_in = response.json()
    assert set(signed_in) == {"token", "id", "expiry"} and signed_in["token"] != registered["token"]
    assert signed_in["token"].startswith("dvorak_") and signed_in["id"] == signed_in["token"][:15]
    for token in (registered["token"], signed_in["token"]):
        assert api_client.get("/api/v1/account/", HTTP_AUTHORIZATION=f"Token {token}").json()["username"] == "tweed"


def test_wrong_password_is_refused_in_the_error_shape(api_client, make_user):
    make_user("drock")
    error = assert_error(api_client.post("/api/v1/auth/token/", {"username": "drock", "password": "nope-nope-nope"}), 401, "not_authenticated")
    assert "nope" not in error["message"]


def test_register_twice_with_one_name_is_a_validation_error(api_client):
    api_client.post("/api/v1/auth/register/", {"username": "golem", "password": "coprolite-golem-1"})
    error = assert_error(
        api_client.post("/api/v1/auth/register/", {"username": "golem", "password": "coprolite-golem-2"}), 400, "invalid"
    )
    assert "username" in error["details"]


def test_a_weak_password_is_refused_with_the_reason(api_client):
    error = assert_error(api_client.post("/api/v1/auth/register/", {"username": "weak", "password": "123"}), 400, "invalid")
    assert "short" in error["message"].lower()


def test_malformed_json_is_invalid_not_a_server_error(api_client):
    response = api_client.post("/api/v1/auth/register/", data="{not json", content_type="application/json")
    assert_error(response, 400, "invalid")


def test_no_token_and_a_bad_token_are_not_authenticated(api_client):
    assert_error(api_client.post("/api/v1/auth/ticket/"), 401, "not_authenticated")
    api_client.credentials(HTTP_AUTHORIZATION="Token 0000000000000000000000000000000000000000")
    assert_error(api_client.post("/api/v1/auth/ticket/"), 401, "not_authenticated")


def test_an_unknown_api_path_is_not_found_in_the_error_shape(client_for, make_user):
    error = assert_error(client_for(make_user()).get("/api/v1/no-such-thing/"), 404, "not_found")
    assert "/api/v1/docs/" in error["message"]
    assert_error(client_for(make_user()).post("/api/v1/games/not-a-uuid/commands/", {}), 404, "not_found")


def test_a_throttled_call_comes_back_in_the_error_shape(client_for, make_user, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    user = make_user()
    # No request counted yet, not even by an earlier test's user of this id (a transactional test's flush starts
    # the ids again, and the shared count lives a minute).
    UserRateThrottle.cache.delete(f"throttle_user_{user.pk}")
    client = client_for(user)
    statuses = [client.post("/api/v1/auth/ticket/").status_code for _ in range(3)]
    assert statuses[:2] == [201, 201]
    response = client.post("/api/v1/auth/ticket/")
    error = assert_error(response, 429, "throttled")
    assert "throttled" in error["message"].lower()
    assert int(response["Retry-After"]) > 0


def test_the_openapi_schema_and_swagger_ui_are_served(api_client):
    schema = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in ("/api/v1/auth/register/", "/api/v1/auth/token/", "/api/v1/auth/ticket/", "/api/v1/health/",
                 "/api/v1/health/live/", "/api/v1/health/ready/"):
        assert path in paths
    docs = api_client.get("/api/v1/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_health_reports_database_channel_layer_and_broker(api_client, settings):
    response = api_client.get("/api/v1/health/")
    assert response.status_code == 200, response.json()
    report = response.json()
    assert report["status"] == "ok"
    assert report["database"]["ok"] and report["database"]["vendor"] in {"sqlite", "postgresql"}
    assert report["channel_layer"]["ok"]
    assert report["broker"]["ok"]
    if settings.REDIS_URL:
        assert report["channel_layer"]["backend"] == "ResilientRedisChannelLayer"


def test_health_says_degraded_but_answers_200_when_the_broker_is_unreachable(api_client, settings):
    """Redis away is not a failure: the API works without it, so /health/ agrees with /health/ready/ (200)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    from dvorak_site.celery import app

    original = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        response = api_client.get("/api/v1/health/")
        ready = api_client.get("/api/v1/health/ready/")
    finally:
        app.conf.broker_url = original
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["broker"]["ok"] is False
    assert response.json()["database"]["ok"] is True
    if settings.REDIS_URL:  # without Redis the ready check has no Redis to report on
        assert ready.status_code == 200
        assert ready.json() == {"status": "degraded", "checks": {"database": "ok", "redis": "unavailable"}}


def test_live_answers_without_touching_the_database(api_client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = api_client.get("/api/v1/health/live/", HTTP_AUTHORIZATION="Token not-a-token")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_ready_reports_the_database_and_redis(api_client, settings):
    response = api_client.get("/api/v1/health/ready/", HTTP_AUTHORIZATION="Token not-a-token")  # never looked up
    assert response.status_code == 200
    redis = "ok" if settings.REDIS_URL else "not_configured"
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": redis}}


def test_ready_and_health_answer_503_only_when_the_database_is_unreachable(api_client, monkeypatch):
    from dvorak_site.api import health

    def unreachable():
        raise ConnectionError("no database")

    monkeypatch.setattr(health, "check_database", unreachable)
    ready = api_client.get("/api/v1/health/ready/")
    assert ready.status_code == 503
    assert ready.json()["status"] == "unavailable" and ready.json()["checks"]["database"] == "unavailable"
    report = api_client.get("/api/v1/health/")
    assert report.status_code == 503
    assert report.json()["status"] == "unavailable"
    assert report.json()["database"] == {"ok": False, "error": "ConnectionError"}
    assert api_client.get("/api/v1/health/live/").status_code == 200


def test_the_health_checks_are_never_throttled(api_client, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"anon": "1/min", "user": "1/min"})
    assert [api_client.get("/api/v1/decks/").status_code for _ in range(2)] == [200, 429]  # the rate bites
    for path in ("/api/v1/health/live/", "/api/v1/health/ready/", "/api/v1/health/"):
        answers = [api_client.get(path) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 200], path
        assert "RateLimit-Limit" not in answers[-1]


API_MD_PATHS = [
    "/api/v1/auth/register/", "/api/v1/auth/token/", "/api/v1/auth/ticket/", "/api/v1/health/",
    "/api/v1/health/live/", "/api/v1/health/ready/",
    "/api/v1/decks/", "/api/v1/decks/{slug}/", "/api/v1/decks/{slug}/cards/", "/api/v1/decks/{slug}/cards/{card_id}/",
    "/api/v1/decks/{slug}/lock/", "/api/v1/decks/{slug}/unlock/", "/api/v1/decks/import/",
    "/api/v1/decks/{slug}/export/{export_format}/", "/api/v1/decks/{slug}/revisions/",
    "/api/v1/decks/{slug}/revisions/{number}/", "/api/v1/decks/{slug}/talk/",
    "/api/v1/games/", "/api/v1/games/{game_id}/", "/api/v1/games/{game_id}/join/", "/api/v1/games/{game_id}/start/",
    "/api/v1/games/{game_id}/events/", "/api/v1/games/{game_id}/commands/", "/api/v1/games/{game_id}/mush/",
    "/api/v1/games/{game_id}/publish/",
    "/api/v1/decks/{slug}/versions/", "/api/v1/decks/{slug}/versions/{number}/", "/api/v1/player-decks/",
    "/api/v1/player-decks/{player_deck_id}/", "/api/v1/player-decks/{player_deck_id}/update/", "/api/v1/notifications/",
]


def test_the_schema_is_valid_without_warnings_and_covers_the_contract(tmp_path):
    from django.core.management import call_command

    target = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", "--file", str(target))
    import json

    paths = json.loads(target.read_text())["paths"]
    missing = [path for path in API_MD_PATHS if path not in paths]
    assert not missing, missing


def test_every_password_rule_is_reported_under_the_password_field(api_client):
    for password in ("password123", "12345678", "short"):
        response = api_client.post("/api/v1/auth/register/", {"username": "eve", "password": password})
        assert response.status_code == 400
        assert list(response.json()["error"]["details"]) == ["password"], (password, response.json())
