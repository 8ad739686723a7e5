"""Fixtures for the CCG side: the real Filibuster CCG set from the archive's seed decks, its players, and
helpers that go through the API as clients do."""

from __future__ import annotations

import pytest

from decks import services as archive
from tests.seeds import seed_deck_json

FILIBUSTER = "filibuster-ccg-set"

# Filibuster's listing has rules but no card list; its players give it cards by proposals. These follow its
# card types (Campaign, Gambit, Constant) and corner values.
FIRST_CARDS = [
    {"title": "Stump Speech", "type": "Campaign", "text": "Start a campaign. The pitcher gains 5 points.",
     "corner_value": "3"},
    {"title": "Pork Barrel", "type": "Gambit", "text": "Gain 10 points.", "corner_value": "4"},
    {"title": "Talking Point", "type": "Gambit", "text": "Draw a card.", "corner_value": "2"},
    {"title": "Party Whip", "type": "Constant", "text": "Your filibusters need a card of value 1 higher.",
     "corner_value": "5"},
]


@pytest.fixture(autouse=True)
def _tasks_run_eagerly(request):
    """With REDIS_URL set, Celery sends tasks to the broker; these tests run them in process instead, except
    the ones marked `redis`, which start a real worker."""
    from dvorak_site.celery import app

    if request.node.get_closest_marker("redis"):
        yield
        return
    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was


@pytest.fixture
def filibuster(db):
    """The Filibuster CCG set as the archive loads it: a locked card set with no cards yet."""
    [deck] = archive.deck_import(author=None, text=seed_deck_json(FILIBUSTER), format="json")
    assert deck.kind == "card_set" and deck.locked
    return deck


@pytest.fixture
def players(make_user, client_for):
    """Two players with email addresses, signed in by token: (user, client) pairs."""
    made = []
    for name in ("ann", "bob"):
        user = make_user(name)
        user.email = f"{name}@example.org"
        user.save(update_fields=["email"])
        made.append((user, client_for(user)))
    return made


def register(client, slug: str = FILIBUSTER) -> None:
    answer = client.post(f"/api/v1/decks/{slug}/register/")
    assert answer.status_code == 201, answer.json()


def propose(client, body: dict, slug: str = FILIBUSTER) -> dict:
    answer = client.post(f"/api/v1/decks/{slug}/changes/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def accept(client, change_id: int, slug: str = FILIBUSTER) -> dict:
    answer = client.post(f"/api/v1/decks/{slug}/changes/{change_id}/accept/")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def set_cards(client, slug: str = FILIBUSTER, version: int | None = None) -> dict[str, dict]:
    """The set's cards by title, at `version` or the latest."""
    if version is None:
        version = client.get(f"/api/v1/decks/{slug}/versions/").json()[-1]["number"]
    answer = client.get(f"/api/v1/decks/{slug}/versions/{version}/")
    assert answer.status_code == 200, answer.json()
    return {card["title"]: card for card in answer.json()["cards"]}


@pytest.fixture
def filibuster_with_cards(filibuster, players, django_capture_on_commit_callbacks):
    """Both players registered; the four first cards proposed by Ann and accepted by Bob, built as version 2."""
    (_, ann), (_, bob) = players
    register(ann)
    register(bob)
    with django_capture_on_commit_callbacks(execute=True):
        for card in FIRST_CARDS:
            change = propose(ann, {"kind": "add", "content": card})
            accept(bob, change["id"])
    return set_cards(ann)
