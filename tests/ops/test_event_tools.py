"""The event store's own tools (README, "Backups"): a game played through the API is exported, imported into a
second, freshly migrated database, verified there, and plays on from the same state; a second import is refused
and writes nothing; an export with a gap is refused by the import and named by verify_events."""

import json
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection

from tests.api.test_settings import clean_environment

pytestmark = pytest.mark.postgres
ROOT = Path(__file__).resolve().parents[2]

STATE = ("import django, os, json; os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'dvorak_site.settings'); "
         "django.setup(); import dvorak_engine as engine; from games.projections import replayed; "
         "from dvorak_kit.eventstore.models import Event; "
         "print(json.dumps(engine.state_to_json(replayed('game-{id}')[1]), sort_keys=True)); print(Event.objects.count())")


@pytest.fixture
def second_database(tmp_path):
    """A database of its own beside the test database, migrated by manage.py as the owner would; dropped after."""
    own = connection.settings_dict
    name = f"{own['NAME']}_import_{uuid.uuid4().hex[:8]}"
    params = {"host": own["HOST"] or None, "port": own["PORT"] or None, "user": own["USER"] or None,
              "password": own["PASSWORD"] or None, "dbname": own["NAME"]}
    with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    auth = own["USER"] + (f":{own['PASSWORD']}" if own["PASSWORD"] else "")
    url = f"postgres://{auth}@{own['HOST'] or '127.0.0.1'}:{own['PORT'] or 5432}/{name}"
    env = clean_environment(tmp_path, {"DATABASE_URL": url, "DB_POOL_MAX_SIZE": "2"})

    def run(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
        command = [sys.executable, "-c", code] if code else [sys.executable, "manage.py", *args]
        return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)

    migrated = run("migrate", "--noinput")
    assert migrated.returncode == 0, migrated.stderr
    yield run
    with psycopg.connect(**{k: v for k, v in params.items() if v}, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_game_exported_imports_into_an_empty_database_verifies_and_replays_the_same(
        table, second_database, tmp_path):
    game_id, seated = table(2)
    state = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    mover = seated[state["turn"]["seat"]][1]
    assert mover.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json").status_code == 201
    from games.projections import replayed

    original = json.dumps(__import__("dvorak_engine").state_to_json(replayed(f"game-{game_id}")[1]), sort_keys=True)
    export = tmp_path / "events.ndjson"
    call_command("export_events", "--output", str(export))
    lines = [json.loads(line) for line in export.read_text().splitlines()]
    ours = [line for line in lines if line["stream"] == f"game-{game_id}"]
    assert [line["version"] for line in ours] == list(range(1, len(ours) + 1))
    assert set(ours[0]) == {"id", "stream", "version", "type", "schema", "data", "actor", "recorded_at"}

    imported = second_database("import_events", str(export))
    assert imported.returncode == 0, imported.stderr
    assert "accounts made without a usable password" in imported.stdout
    verified = second_database("verify_events")
    assert verified.returncode == 0, verified.stderr
    assert "no problem" in verified.stdout

    again = second_database("import_events", str(export))
    assert again.returncode != 0
    assert f"game-{game_id}" in again.stderr and "nothing imported" in again.stderr
    state_there = second_database(code=STATE.format(id=game_id))
    assert state_there.returncode == 0, state_there.stderr
    replayed_there, events_there = state_there.stdout.strip().rsplit("\n", 1)
    assert replayed_there == original  # the engine's state of the imported game, field for field
    assert events_there == str(len(lines))  # and nothing of the second import was written

    gapped = tmp_path / "gapped.ndjson"
    gapped.write_text("".join(json.dumps(line) + "\n" for line in lines if line is not ours[2]))
    refused = second_database("verify_events", "--input", str(gapped))
    assert refused.returncode != 0
    assert f"game-{game_id}: versions not gapless from 1: missing 3" in refused.stderr
