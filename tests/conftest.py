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
from tests.engine.dvorak_games import unique_title_deck
from tests.seeds import SEEDS_ABSENT, seeds_dir

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def database_label() -> str:
    db = settings.DATABASES["default"]
    if "postgresql" in db["ENGINE"]:
        return f"PostgreSQL at {db.get('HOST') or 'socket'}:{db.get('PORT') or 5432}/{db.get('NAME')}"
    return f"SQLite ({db['NAME']})"


def channel_layer_label() -> str:
    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    return "Redis (channels-redis)" if "redis" in backend.lower() else "in-memory"


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


# --- tiers: `make test` runs every test, the campaigns at a small size (tests/sizes.py); `make soak` runs the `slow`
# ones at full size. A test is in a tier when its node id starts with one of the tier's entries.
SLOW = (
    # Random legal-move games through the API, and scans of them for hidden cards.
    "tests/games/test_random_legal_clients.py",
    "tests/games/test_computer_players_every_ruleset.py",
    "tests/games/test_hidden_information.py::test_random_games_through_the_api_never_show_a_seat_a_card_it_cannot_see",
    "tests/api/test_effect_games_api.py::test_random_games_of_understood_cards_through_the_api",
    # The engine's random games, leak scans and Hypothesis campaigns.
    "tests/engine/test_replay_properties.py",
    "tests/engine/test_effect_properties.py",
    "tests/engine/test_legal_moves.py::test_dvorak_every_listed_move_is_accepted_and_every_accepted_structural_move_listed",
    "tests/engine/test_article_ii_clients.py::test_a_game_played_by_its_legal_moves_alone_always_ends_within_a_bound",
    "tests/engine/filibuster/test_random_games.py",
    "tests/engine/rock_paper_scissors_extreme/test_random_games.py",
    "tests/engine/rock_paper_scissors_extreme/test_ruleset.py::test_any_body_in_any_stage_is_accepted_or_refused_with_a_known_code",
    "tests/engine/socialism/test_random_games.py",
    "tests/effects/test_language.py::test_any_effect_round_trips_through_json",
    "tests/effects/test_language.py::test_a_list_of_effects_round_trips",
    # Hostile and schema-made requests against every operation.
    "tests/api/test_write_fuzz.py",
    "tests/api/test_schemathesis.py",
)
# Tests that start a server, a worker or a Redis of their own, or count sockets and processes.
SYSTEM = (
    "tests/test_serving.py",
    "tests/ccg/test_worker.py",
    "tests/games/test_clock_worker.py",
    "tests/ccg/test_reconcile.py",
    "tests/live/test_redis_outage.py",
    "tests/live/test_streams.py",
    "tests/live/test_stream_redis_outage.py",
    "tests/live/test_publisher_connections.py",
    "tests/api/test_redis_away.py",
    "tests/api/test_cache_connections.py",
    "tests/api/test_settings.py",
    "tests/eventstore/test_store.py::test_raw_sql_update_and_delete_fail_on_sqlite_too",
    "tests/ops/test_event_tools.py",
)
# Of those, the ones that count what the whole machine holds (sockets of a server's workers, Redis's clients and
# connections): another test running beside them would be counted too, so `make test` runs them after the rest,
# one at a time.
SERIAL = (
    "tests/test_serving.py",
    "tests/live/test_publisher_connections.py",
    "tests/api/test_cache_connections.py",
)
TIERS = {"slow": SLOW, "system": SYSTEM, "serial": SERIAL}


def pytest_configure(config):
    # Django's default hasher takes half a second a password, by design: hundreds of the suite's users and sign-ins
    # would spend minutes in it. The tests hash with the fastest; a hash made by a server of the real kind (a
    # browser test's sign-up) still checks, since the real hashers stay on the list.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    # The server's clock does not sweep on its own in the suite's process (the tests that need it start it, or a
    # worker and beat), and computer players move at once.
    settings.CLOCK_SWEEP_SECONDS = 0
    settings.BOT_THINK_SECONDS = 0
    # As under `make run`: in the suite's own process (tests/games/test_clock_worker.py runs a worker and beat).
    settings.LIVE_TABLES_RUNNER = "thread"
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        share_between_workers(worker, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def share_between_workers(worker: str, workers: int) -> None:
    """Under pytest-xdist each worker is a process of its own, with its own test database (pytest-django adds the
    worker's id to its name): give it its own Redis key and channel prefixes too, and its share of the connections
    the run may open. Set in the environment as well, for the servers and workers the tests start."""
    own = {}
    for variable, default in (("CACHE_KEY_PREFIX", "dvorak"), ("CHANNELS_PREFIX", "dvorak")):
        own[variable] = f"{os.environ.get(variable) or default}-{worker}"
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if pool:
        own["DB_POOL_MAX_SIZE"] = str(max(pool["min_size"], pool["max_size"] // max(workers, 1)))
        pool["max_size"] = int(own["DB_POOL_MAX_SIZE"])
    if "KEY_PREFIX" in settings.CACHES["default"]:
        settings.CACHES["default"]["KEY_PREFIX"] = own["CACHE_KEY_PREFIX"]
    if "prefix" in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}):
        settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = own["CHANNELS_PREFIX"]
    os.environ.update(own)


def pytest_collection_modifyitems(config, items):
    for item in items:  # node ids are relative to the root, where pyproject.toml is
        for marker, entries in TIERS.items():
            if item.nodeid.startswith(entries):
                item.add_marker(marker)
        if item.get_closest_marker("seeds") and seeds_dir() is None:
            item.add_marker(pytest.mark.skip(reason=SEEDS_ABSENT))
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
    from tests.eventstore.helpers import purge_all_events

    purge_all_events()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    counter = iter(range(1, 10_000))

    def make(username: str | None = None, *, curator: bool = False, password: str = "a-long-passphrase"):
        username = username or f"player{next(counter)}"
        user = get_user_model().objects.create_user(username=username, password=password, is_staff=curator)
        if curator:
            from django.contrib.auth.models import Permission

            perm = Permission.objects.filter(codename="curate", content_type__app_label="decks").first()
            if perm:
                user.user_permissions.add(perm)
        # The token itself exists only here (the database keeps its hash), as it would in a client that signed in.
        _, user.api_token = AuthToken.objects.create(user=user)
        return user

    return make


@pytest.fixture
def client_for(db):
    """An API client signed in as the given user, by token as third-party clients are."""

    def make(user) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.api_token}")
        return client

    return make


@pytest.fixture(autouse=True)
def _fresh_local_cache():
    """Throttle counts live in the cache; the local one is per process, so empty it between tests.

    (On Redis each run has its own key prefix, and user ids are not reused within a run.)
    """
    from django.core.cache import cache

    from dvorak_kit.api import throttling
    from dvorak_kit.api.authentication import TOKEN_CACHE

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
