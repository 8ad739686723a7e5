"""HTTP as a client on another origin, or a bot that retries, expects it: CORS on the API, rate-limit headers on
every answer, Idempotency-Key on the creating requests, a 400 naming a field no operation takes, Location on a
201, ETag and If-None-Match, and the game's events a page at a time."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from decks.models import Deck, TalkPost
from dvorak_kit.eventstore import store
from dvorak_kit.idempotency.models import RequestReceipt
from games.models import Game
from tests.api.test_settings import settings_in_subprocess
from tests.threads import run_in_threads

pytestmark = pytest.mark.django_db

ELSEWHERE = "https://example.org"
NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def words(header: str) -> set[str]:
    return {word.strip().lower() for word in header.split(",")}


# --- CORS ---------------------------------------------------------------------------------------------------------


def test_a_preflight_from_another_origin_is_answered_with_what_a_page_may_send(api_client):
    answer = api_client.options("/api/v1/decks/", HTTP_ORIGIN=ELSEWHERE, HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                                HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key")
    assert answer.status_code == 200
    assert answer["Access-Control-Allow-Origin"] == "*"
    assert {"authorization", "content-type", "idempotency-key", "if-match", "if-none-match",
            "last-event-id"} <= words(answer["Access-Control-Allow-Headers"])
    assert {"get", "post", "patch", "delete"} <= words(answer["Access-Control-Allow-Methods"])
    assert "Access-Control-Allow-Credentials" not in answer


def test_an_answer_to_another_origin_lets_its_page_read_it_and_its_headers_but_asks_for_no_cookie(
        api_client, client_for, make_user):
    read = api_client.get("/api/v1/decks/", HTTP_ORIGIN=ELSEWHERE)
    assert read.status_code == 200 and read["Access-Control-Allow-Origin"] == "*"
    assert {"etag", "location", "link", "retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset",
            "idempotency-key"} <= words(read["Access-Control-Expose-Headers"])
    assert "Access-Control-Allow-Credentials" not in read
    written = client_for(make_user()).post("/api/v1/decks/", {"title": "From Afar"}, format="json",
                                           HTTP_ORIGIN=ELSEWHERE)
    assert written.status_code == 201 and written["Access-Control-Allow-Origin"] == "*"


def test_the_session_pages_outside_the_api_stay_same_origin(api_client):
    page = api_client.get("/", HTTP_ORIGIN=ELSEWHERE)
    assert page.status_code == 200
    assert "Access-Control-Allow-Origin" not in page
    preflight = api_client.options("/admin/login/", HTTP_ORIGIN=ELSEWHERE,
                                   HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
    assert "Access-Control-Allow-Origin" not in preflight


def test_an_operator_narrows_the_origins_to_those_named(api_client, settings):
    settings.CORS_ALLOW_ALL_ORIGINS = False
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example.net"]
    named = api_client.get("/api/v1/decks/", HTTP_ORIGIN="https://app.example.net")
    assert named["Access-Control-Allow-Origin"] == "https://app.example.net"
    assert "origin" in words(named["Vary"])
    other = api_client.get("/api/v1/decks/", HTTP_ORIGIN=ELSEWHERE)
    assert other.status_code == 200 and "Access-Control-Allow-Origin" not in other


def test_the_environment_names_the_origins(tmp_path):
    narrowed = settings_in_subprocess(tmp_path, {"CORS_ALLOWED_ORIGINS": "https://a.example,https://b.example"},
                                      "s.CORS_ALLOWED_ORIGINS, s.CORS_ALLOW_ALL_ORIGINS, s.CORS_ALLOW_CREDENTIALS")
    assert narrowed.returncode == 0, narrowed.stderr
    assert narrowed.stdout.strip() == "(['https://a.example', 'https://b.example'], False, False)"
    anyone = settings_in_subprocess(tmp_path, {}, "s.CORS_ALLOWED_ORIGINS, s.CORS_ALLOW_ALL_ORIGINS")
    assert anyone.returncode == 0, anyone.stderr
    assert anyone.stdout.strip() == "([], True)"


# --- rate limits --------------------------------------------------------------------------------------------------


def standing(answer) -> tuple[int, int, int]:
    return int(answer["RateLimit-Limit"]), int(answer["RateLimit-Remaining"]), int(answer["RateLimit-Reset"])


def test_every_answer_says_where_its_client_stands_and_a_refusal_counts_nothing(api_client, client_for, make_user,
                                                                               monkeypatch):
    for throttle in (AnonRateThrottle, UserRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {"anon": "5/min", "user": "50/min"})
    # The test client's address is counted under both rates; earlier tests' requests from it are not this one's.
    AnonRateThrottle.cache.delete_many(["throttle_anon_127.0.0.1", "throttle_user_127.0.0.1"])
    first, second = api_client.get("/api/v1/decks/"), api_client.get("/api/v1/decks/no-such-deck/")
    assert second.status_code == 404
    assert standing(first)[:2] == (5, 4) and standing(second)[:2] == (5, 3)  # the tighter of the two rates
    assert 0 < standing(second)[2] <= 60
    # Refused before any throttle ran (a token nobody has): where the client stands, not counted.
    api_client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    refused = api_client.get("/api/v1/games/")
    assert refused.status_code == 401 and standing(refused)[:2] == (5, 3)
    # Signed in: the user's own rate.
    user = make_user()
    UserRateThrottle.cache.delete(f"throttle_user_{user.pk}")
    signed_in = client_for(user).get("/api/v1/games/")
    assert standing(signed_in)[:2] == (50, 49)
    assert "RateLimit-Limit" not in api_client.get("/api/v1/health/")  # never limited


def test_a_throttled_answer_says_when_to_come_back_in_both_ways(client_for, make_user, monkeypatch):
    monkeypatch.setattr(UserRateThrottle, "THROTTLE_RATES", {"user": "2/min", "anon": "2/min"})
    user = make_user()
    UserRateThrottle.cache.delete(f"throttle_user_{user.pk}")  # a count left by an earlier run's user of this id
    client = client_for(user)
    answers = [client.get("/api/v1/games/") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [standing(a)[1] for a in answers] == [1, 0, 0]
    assert standing(answers[-1])[2] == int(answers[-1]["Retry-After"]) > 0


# --- unknown fields -----------------------------------------------------------------------------------------------


def test_a_misspelt_field_is_a_400_naming_it_and_makes_nothing(client_for, make_user, archive_deck):
    deck = archive_deck()
    client = client_for(make_user())
    answer = client.post("/api/v1/games/", {"deck": deck.slug, "max_player": 3}, format="json",
                         HTTP_X_REQUEST_ID="misspelt")
    assert answer.status_code == 400
    assert answer.json()["error"] == {"code": "invalid", "message": "max_player: Not a field of this object.",
                                      "details": {"max_player": ["Not a field of this object."]},
                                      "request_id": "misspelt"}
    assert not Game.objects.exists()


def test_every_write_names_the_fields_it_does_not_take(client_for, make_user, archive_deck, table):
    deck = archive_deck(slug="fields")
    client = client_for(make_user())
    patched = client.patch(f"/api/v1/decks/{deck.slug}/", {"title": "New", "cards": []}, format="json")
    assert patched.status_code == 400 and patched.json()["error"]["details"] == {
        "cards": ["Not a field of this object."]}
    assert Deck.objects.get(slug=deck.slug).title != "New"
    nested = client.post("/api/v1/decks/", {"title": "Nested", "cards": [{"title": "A", "txt": "b"}]},
                         format="json")
    assert nested.status_code == 400 and nested.json()["error"]["details"] == {
        "cards": {"0": {"txt": ["Not a field of this object."]}}}
    game_id, seated = table(2)
    version = store.current_version(f"game-{game_id}")
    for _, player in seated:  # the seat to move and the other: refused before whose turn it is matters
        command = player.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw", "quietly": True},
                              format="json")
        assert command.status_code == 400
        assert command.json()["error"]["details"] == {"quietly": ["Not a field of this object."]}
    started = seated[0][1].post(f"/api/v1/games/{game_id}/start/", {"force": True}, format="json")
    assert started.status_code == 400 and started.json()["error"]["details"] == {
        "force": ["This operation takes no body."]}
    assert store.current_version(f"game-{game_id}") == version
    # Query parameters are not a body: one no operation reads is still left alone.
    assert client.get("/api/v1/decks/", {"utm_source": "x"}).status_code == 200


# --- Idempotency-Key ----------------------------------------------------------------------------------------------


def test_a_game_created_twice_with_one_key_is_made_once(client_for, make_user, archive_deck):
    deck = archive_deck()
    client = client_for(make_user())
    body = {"deck": deck.slug, "max_players": 3}
    first = client.post("/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY="new-game-1")
    again = client.post("/api/v1/games/", dict(reversed(body.items())), format="json",
                        HTTP_IDEMPOTENCY_KEY="new-game-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Location"] == first["Location"] and again["ETag"] == first["ETag"]
    assert Game.objects.count() == 1
    other = client.post("/api/v1/games/", {**body, "max_players": 4}, format="json", HTTP_IDEMPOTENCY_KEY="new-game-1")
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"
    assert Game.objects.count() == 1
    # Keys are each user's own.
    theirs = client_for(make_user()).post("/api/v1/games/", body, format="json", HTTP_IDEMPOTENCY_KEY="new-game-1")
    assert theirs.status_code == 201 and theirs.json()["id"] != first.json()["id"]


def test_a_refused_request_is_not_remembered_and_a_key_is_new_again_after_a_day(client_for, make_user,
                                                                                archive_deck):
    deck = archive_deck()
    client = client_for(make_user())
    refused = client.post("/api/v1/games/", {"deck": "no-such-deck"}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert refused.status_code == 404 and not RequestReceipt.objects.exists()
    made = client.post("/api/v1/games/", {"deck": deck.slug}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert made.status_code == 201
    RequestReceipt.objects.update(created_at=RequestReceipt.objects.get().created_at - timedelta(hours=25))
    later = client.post("/api/v1/games/", {"deck": deck.slug}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert later.status_code == 201 and later.json()["id"] != made.json()["id"]
    assert Game.objects.count() == 2
    bad = client.post("/api/v1/games/", {"deck": deck.slug}, format="json", HTTP_IDEMPOTENCY_KEY=" padded")
    assert bad.status_code == 400 and "Idempotency-Key" in bad.json()["error"]["details"]


@pytest.mark.parametrize("path, body, rows", [
    ("/api/v1/decks/", {"title": "Once Only"}, lambda: Deck.objects.filter(title="Once Only").count()),
    ("/api/v1/decks/import/", {"format": "mushcode", "text": "cleardeck\nloadcard Spark/A/Draw a card.",
                               "slug": "imported-once"}, lambda: Deck.objects.filter(slug="imported-once").count()),
    ("/api/v1/decks/{deck}/cards/", {"title": "Spark", "type": "Action"},
     lambda: Deck.objects.get(slug="base").cards.filter(title="Spark").count()),
    ("/api/v1/decks/{deck}/talk/", {"body": "Hello"}, lambda: TalkPost.objects.filter(body="Hello").count()),
], ids=["deck", "import", "card", "talk"])
def test_the_archive_s_creating_requests_are_made_once_per_key(client_for, make_user, archive_deck, path, body,
                                                               rows):
    archive_deck(slug="base")
    client = client_for(make_user())
    url = path.format(deck="base")
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="once")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="once")
    assert first.status_code == again.status_code == 201, first.content
    assert again.json() == first.json() and again["Location"] == first["Location"]
    assert rows() == 1
    assert client.get(first["Location"]).status_code == 200  # the Location names what was made


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_make_one_game(client_for, make_user, archive_deck):
    deck = archive_deck()
    client = client_for(make_user())

    def create(_index: int):
        answer = client.post("/api/v1/games/", {"deck": deck.slug}, format="json", HTTP_IDEMPOTENCY_KEY="race")
        return answer.status_code, answer.json()["id"]

    results = run_in_threads(4, create)
    assert {status for status, _ in results} == {201}, results
    assert len({game for _, game in results}) == 1
    assert Game.objects.count() == 1


# --- Location, ETag and If-None-Match -----------------------------------------------------------------------------


def test_a_new_game_says_where_it_is_and_its_state_answers_304_while_unchanged(client_for, make_user, archive_deck,
                                                                              table):
    deck = archive_deck(slug="located")
    client = client_for(make_user())
    created = client.post("/api/v1/games/", {"deck": deck.slug}, format="json")
    assert created["Location"] == f"http://testserver/api/v1/games/{created.json()['id']}/"
    assert client.get(created["Location"]).json() == created.json()

    game_id, seated = table(2)
    player = seated[0][1]
    state = player.get(f"/api/v1/games/{game_id}/")
    assert state["ETag"] == f'"{state.json()["version"]}"'
    for tag in (state["ETag"], f"W/{state['ETag']}", f'"1", {state["ETag"]}', "*"):
        unchanged = player.get(f"/api/v1/games/{game_id}/", HTTP_IF_NONE_MATCH=tag)
        assert unchanged.status_code == 304 and unchanged.content == b"" and unchanged["ETag"] == state["ETag"]
    assert player.get(f"/api/v1/games/{game_id}/", HTTP_IF_NONE_MATCH='"1"').status_code == 200
    mover = seated[state.json()["turn"]["seat"]][1]
    drawn = mover.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert drawn.status_code == 201
    assert drawn["Location"].endswith(f"/api/v1/games/{game_id}/events/?after={state.json()['version']}")
    assert player.get(drawn["Location"]).json()["events"][0]["version"] == state.json()["version"] + 1
    moved = player.get(f"/api/v1/games/{game_id}/", HTTP_IF_NONE_MATCH=state["ETag"])
    assert moved.status_code == 200 and moved["ETag"] == drawn["ETag"]


def test_a_deck_s_etag_gives_a_304_until_it_changes(api_client, client_for, make_user, archive_deck):
    deck = archive_deck(slug="tagged")
    first = api_client.get(f"/api/v1/decks/{deck.slug}/")
    assert first["ETag"] == f'"{first.json()["revision"]}"'
    assert api_client.get(f"/api/v1/decks/{deck.slug}/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    changed = client_for(make_user()).patch(f"/api/v1/decks/{deck.slug}/", {"players": "2-5"}, format="json")
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    again = api_client.get(f"/api/v1/decks/{deck.slug}/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] == changed["ETag"]


# --- the events, a page at a time ---------------------------------------------------------------------------------


def test_the_events_come_a_page_at_a_time_with_a_link_to_the_next(table, monkeypatch):
    game_id, seated = table(2)
    client = seated[1][1]
    version = store.current_version(f"game-{game_id}")
    url, versions, pages = f"/api/v1/games/{game_id}/events/?limit=3", [], 0
    while url:
        page = client.get(url)
        assert page.status_code == 200 and page.json()["version"] == version
        versions += [event["version"] for event in page.json()["events"]]
        pages += 1
        link = page.headers.get("Link")
        url = NEXT.match(link)["url"] if link else None
    assert versions == list(range(1, version + 1))
    assert pages == -(-version // 3)

    monkeypatch.setattr("games.api.views.EVENTS_LIMIT", 2)  # the default page, made small
    first = client.get(f"/api/v1/games/{game_id}/events/", {"after": 1})
    assert [e["version"] for e in first.json()["events"]] == [2, 3]
    assert first["Link"] == f'<http://testserver/api/v1/games/{game_id}/events/?after=3&limit=2>; rel="next"'
    assert "Link" not in client.get(f"/api/v1/games/{game_id}/events/", {"after": version})
    for limit in (0, 1001):
        refused = client.get(f"/api/v1/games/{game_id}/events/", {"limit": limit})
        assert refused.status_code == 400 and "limit" in refused.json()["error"]["details"]


@pytest.mark.django_db
def test_an_export_refused_is_json_whatever_format_or_type_was_asked_for(client):
    """An export takes any Accept (the file's own type) and ``?format=``; its refusals are API errors all the same."""
    for query, accept in (("?format=export", "*/*"), ("", "application/pdf"), ("", "text/csv")):
        refused = client.get(f"/api/v1/decks/no-such-deck/export/pdf/{query}", HTTP_ACCEPT=accept)
        assert refused.status_code == 404
        assert refused["Content-Type"] == "application/json"
        assert refused.json()["error"]["code"] == "not_found"
        refused = client.get(f"/api/v1/player-decks/1/export/cod/{query}", HTTP_ACCEPT=accept)
        assert refused.status_code == 401 and refused["Content-Type"] == "application/json"
