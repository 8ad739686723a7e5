"""Test setup shared by the whole suite.

The suite runs against whatever the environment names: PostgreSQL and Redis when ``DATABASE_URL`` and
``REDIS_URL`` are set (CI always sets them), the embedded SQLite and in-memory channel layer otherwise. Tests
marked ``postgres`` or ``redis`` are skipped, with the reason shown, when that part is missing — except in CI,
where a missing part is a failure.
"""

import os

import pytest
from django.conf import settings
from django.db import connection
from rest_framework.test import APIClient

from dvorak_core.deckdata import DeckData
from games.engine.rulesets.dvorak.testing import unique_title_deck

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def database_label() -> str:
    db = settings.DATABASES["default"]
    if "postgresql" in db["ENGINE"]:
        return f"PostgreSQL at {db.get('HOST') or 'socket'}:{db.get('PORT') or 5432}/{db.get('NAME')}"
    return f"SQLite ({db['NAME']})"


def channel_layer_label() -> str:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return "Redis (channels-redis)" if "redis" in backend else "in-memory"


def pytest_report_header(config):
    celery = "eager" if settings.CELERY_TASK_ALWAYS_EAGER else f"worker via {settings.CELERY_BROKER_URL}"
    return [
        f"dvorak: database = {database_label()}",
        f"dvorak: channel layer = {channel_layer_label()}; celery = {celery}",
    ]


def uses_postgres() -> bool:
    return "postgresql" in settings.DATABASES["default"]["ENGINE"]


def uses_redis() -> bool:
    return bool(settings.REDIS_URL)


def pytest_collection_modifyitems(config, items):
    missing = {
        "postgres": None if uses_postgres() else "needs PostgreSQL: set DATABASE_URL=postgres://…",
        "redis": None if uses_redis() else "needs Redis: set REDIS_URL=redis://…",
    }
    if IN_CI and any(missing.values()):
        raise pytest.UsageError("CI must run against PostgreSQL and Redis: " + "; ".join(filter(None, missing.values())))
    for item in items:
        for marker, reason in missing.items():
            if reason and item.get_closest_marker(marker):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _purge_events_after_transactional_tests(request):
    """Transactional tests end with a flush of every table, which the event table refuses while it holds rows.

    Django's flush (DELETE FROM on SQLite, TRUNCATE on PostgreSQL) runs after this fixture's teardown; clear
    the event rows first with the triggers lifted for that moment only.
    """
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or "transactional_db" in request.fixturenames
    if not transactional:
        yield
        return
    request.getfixturevalue("_django_db_helper")
    yield
    from dvorak_site.eventstore.testing import purge_all_events

    purge_all_events()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, *, curator: bool = False, password: str = "a-long-passphrase"):
        username = username or f"player{next(counter)}"
        user = get_user_model().objects.create_user(username=username, password=password, is_staff=curator)
        if curator:
            from django.contrib.auth.models import Permission

            perm = Permission.objects.filter(codename="curate", content_type__app_label="decks").first()
            if perm:
                user.user_permissions.add(perm)
        Token.objects.create(user=user)
        return user

    return make


@pytest.fixture
def client_for(db):
    """An API client signed in as the given user, by token as third-party clients are."""

    def make(user) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
        return client

    return make


@pytest.fixture(autouse=True)
def _fresh_local_cache():
    """Throttle counts live in the cache; the local one is per process, so empty it between tests.

    (On Redis each run has its own key prefix, and user ids are not reused within a run.)
    """
    from django.core.cache import cache

    from dvorak_site.api import throttling
    from dvorak_site.api.authentication import TOKEN_CACHE

    if "locmem" in settings.CACHES["default"]["BACKEND"]:
        cache.clear()
    throttling.reset()  # the counts each process keeps before sharing them
    TOKEN_CACHE.clear()


@pytest.fixture(autouse=True)
def _snapshots_written():
    """Snapshots due in a test are written by the process's snapshot thread (games/services.py): written before
    the test's database is emptied, not into the next test's."""
    yield
    from games.services import SNAPSHOTS

    SNAPSHOTS.flush()


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections(django_db_setup, django_db_blocker):
    """Threads (websocket consumers, concurrent clients) keep their own connections; end them before the test
    database is dropped, so teardown does not find it in use."""
    yield
    # Only when the run made a test database (a run of database-free tests makes none, and has nothing to end).
    if connection.vendor != "postgresql" or not connection.settings_dict["NAME"].startswith("test_"):
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


# --- games: an archive deck with unique titles, and a table of seated players
@pytest.fixture
def archive_deck(db):
    """An archive deck whose every card has its own title, so a leaked title names exactly one card."""
    from decks import services as deck_services

    def make(size: int = 40, *, slug: str = "test-deck", special_rules: list[dict] | None = None):
        content = unique_title_deck(size, special_rules=special_rules or [{"title": "House Rule", "text": "Be nice."}])
        content["slug"] = slug
        return deck_services.deck_create(author=None, data=DeckData.from_dict(content))

    return make


@pytest.fixture
def table(archive_deck, make_user, client_for):
    """A started game of ``players`` seats: (game id, [(user, client)] by seat)."""

    def make(players: int = 2, *, size: int = 40, start: bool = True):
        deck = archive_deck(size)
        seated = [(user, client_for(user)) for user in (make_user() for _ in range(players))]
        created = seated[0][1].post("/api/v1/games/", {"deck": deck.slug, "max_players": max(players, 2)}, format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for _, client in seated[1:]:
            joined = client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
            assert joined.status_code == 200, joined.content
        if start:
            started = seated[0][1].post(f"/api/v1/games/{game_id}/start/")
            assert started.status_code == 200, started.content
        return game_id, seated

    return make
