"""Many clients sending commands to one game at once, on real PostgreSQL connections."""


import pytest

from dvorak_kit.eventstore import store
from games.models import CommandReceipt
from tests.threads import run_in_threads

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def house_rule(client, game_id) -> str:
    return client.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]


def test_concurrent_commands_each_land_exactly_once_with_gapless_versions(table):
    game_id, seated = table(4)
    cause = house_rule(seated[0][1], game_id)
    start = store.current_version(f"game-{game_id}")
    per_client = 6

    def play(index: int) -> list[int]:
        seat = index % 4
        client = seated[seat][1]
        statuses = []
        for n in range(per_client):
            response = client.post(
                f"/api/v1/games/{game_id}/commands/",
                {"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": 1},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"client-{index}-{n}",
            )
            statuses.append(response.status_code)
        return statuses

    results = run_in_threads(8, play)
    assert all(result == [201] * per_client for result in results), results
    events = store.read(f"game-{game_id}", after=start)
    assert [e.version for e in events] == list(range(start + 1, start + 1 + 8 * per_client))
    assert len(events) == 8 * per_client
    final = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    assert sum(p["counters"].get("gold", 0) for p in final["players"]) == 8 * per_client


def test_racing_commands_with_if_match_one_wins_the_rest_are_refused_cleanly(table):
    game_id, seated = table(4)
    cause = house_rule(seated[0][1], game_id)
    version = store.current_version(f"game-{game_id}")

    def race(index: int):
        seat = index % 4
        return seated[seat][1].post(
            f"/api/v1/games/{game_id}/commands/",
            {"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": 1},
            format="json",
            HTTP_IF_MATCH=f'"{version}"',
        )

    responses = run_in_threads(8, race)
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [412] * 7, statuses
    assert all(r.json()["error"]["code"] == "version_conflict" for r in responses if r.status_code == 412)
    assert store.current_version(f"game-{game_id}") == version + 1


def test_the_same_idempotency_key_sent_at_once_appends_once(table):
    game_id, seated = table(2)
    cause = house_rule(seated[0][1], game_id)
    version = store.current_version(f"game-{game_id}")

    def retry(index: int):
        return seated[0][1].post(
            f"/api/v1/games/{game_id}/commands/",
            {"type": "counter", "cause": cause, "seat": 0, "name": "gold", "delta": 1},
            format="json",
            HTTP_IDEMPOTENCY_KEY="only-once",
        )

    responses = run_in_threads(8, retry)
    assert {r.status_code for r in responses} == {201}
    assert all(r.json() == responses[0].json() for r in responses)
    assert store.current_version(f"game-{game_id}") == version + 1
    assert CommandReceipt.objects.filter(key="only-once").count() == 1


def test_concurrent_commands_without_keys_each_land_exactly_once(table):
    """Without an Idempotency-Key a command is decided on the game as read, unlocked, and written only if nobody
    moved the game meanwhile; a command that lost that race is decided again (or, after a few losses, locked)."""
    game_id, seated = table(4)
    cause = house_rule(seated[0][1], game_id)
    start = store.current_version(f"game-{game_id}")
    per_client = 6

    def play(index: int) -> list[int]:
        seat = index % 4
        return [
            seated[seat][1].post(
                f"/api/v1/games/{game_id}/commands/",
                {"type": "counter", "cause": cause, "seat": seat, "name": "gold", "delta": 1},
                format="json",
            ).status_code
            for _ in range(per_client)
        ]

    results = run_in_threads(8, play)
    assert all(result == [201] * per_client for result in results), results
    events = store.read(f"game-{game_id}", after=start)
    assert [e.version for e in events] == list(range(start + 1, start + 1 + 8 * per_client))
    final = seated[0][1].get(f"/api/v1/games/{game_id}/").json()
    assert final["version"] == start + 8 * per_client
    assert sum(p["counters"].get("gold", 0) for p in final["players"]) == 8 * per_client


@pytest.mark.parametrize("remembered", [True, False], ids=["remembered", "read"])
def test_a_command_overtaken_between_its_read_and_its_write_is_decided_again_on_the_new_state(table, monkeypatch,
                                                                                                 remembered):
    """Decided on the game as this process remembers it, or as it has just read it: another process's command that
    lands before the write makes the write refuse it, and it is decided again on the new state."""
    from games import services

    game_id, seated = table(2)
    cause = house_rule(seated[0][1], game_id)
    start = store.current_version(f"game-{game_id}")
    if not remembered:
        services.STATE_CACHE.clear()
    real_append, overtaken = services.store.append_if_current, []

    def overtaken_then_appended(recorded, **kwargs):
        if not overtaken:  # another process's command lands after this one decided, before it writes
            overtaken.append(None)
            overtaken[0] = seated[1][1].post(
                f"/api/v1/games/{game_id}/commands/",
                {"type": "counter", "cause": cause, "seat": 1, "name": "gold", "delta": 5}, format="json")
        return real_append(recorded, **kwargs)

    monkeypatch.setattr(services.store, "append_if_current", overtaken_then_appended)
    response = seated[0][1].post(f"/api/v1/games/{game_id}/commands/",
                                 {"type": "counter", "cause": cause, "seat": 0, "name": "gold", "delta": 1},
                                 format="json")
    assert overtaken[0].status_code == 201 and overtaken[0].json()["version"] == start + 1
    assert response.status_code == 201 and response.json()["version"] == start + 2
    events = store.read(f"game-{game_id}", after=start)
    assert [(e.version, e.data.get("seat"), e.data.get("delta")) for e in events] == [
        (start + 1, 1, 5), (start + 2, 0, 1)]
    players = seated[0][1].get(f"/api/v1/games/{game_id}/").json()["players"]
    assert [p["counters"].get("gold", 0) for p in players] == [1, 5]
