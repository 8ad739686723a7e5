"""A card set's change reaching every player's deck on a real Celery worker over Redis and PostgreSQL (as
``test_worker.py`` runs the version task), and the build queued by name from a process that is no worker."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ccg import changes as proposals
from ccg.services import card_set_register, player_deck_mark_in_game
from ccg.tasks import build_card_set_version
from decks import services as archive
from dvorak_core.deckdata import CardData, DeckData
from tests.ccg.test_worker import PROJECT, TASK_SECONDS, queue, worker  # noqa: F401 (queue: a fixture)
from tests.seeds import seed_deck

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_version_built_by_a_real_worker_reaches_every_players_deck_with_a_notice(
    make_user, client_for, monkeypatch, queue, tmp_path  # noqa: F811
):
    """CCG Dvorak: "Any adjustments to the Card Set should be immediately reflected in every player's deck." The
    worker's build changes the set and both players' decks together, Ann's while a game plays it."""
    monkeypatch.setattr(proposals, "_request_version", lambda card_set_id: None)  # this test sends the task
    cards = [CardData(title=card.title, type=card.type, text=card.text) for card in seed_deck("socialism").cards[:4]]
    card_set = archive.deck_create(author=None, data=DeckData(slug="worker-decks", title="Worker Decks",
                                                              kind="card_set", cards=tuple(cards)))
    ann_user, bob_user = make_user("ann"), make_user("bob")
    ann, bob = client_for(ann_user), client_for(bob_user)
    for user in (ann_user, bob_user):
        card_set_register(slug=card_set.slug, user=user)
    first, second = ann.get(f"/api/v1/decks/{card_set.slug}/versions/1/").json()["cards"][:2]
    decks = {}
    for name, client in (("ann", ann), ("bob", bob)):
        made = client.post("/api/v1/player-decks/", {"card_set": card_set.slug, "name": f"{name}'s", "entries": [
            {"card": first["id"], "count": 10}, {"card": second["id"], "count": 10}]}, format="json")
        assert made.status_code == 201, made.json()
        decks[name] = made.json()["id"]
    player_deck_mark_in_game(player_deck_id=decks["ann"], game_id="a-game")

    change = proposals.card_set_change_propose(slug=card_set.slug, author=ann_user, kind="change",
                                               card_id=first["id"], content={"text": "Worth nothing now."})
    proposals.card_set_change_answer(slug=card_set.slug, change_id=change.pk, user=bob_user, approve=True)
    removal = proposals.card_set_change_propose(slug=card_set.slug, author=bob_user, kind="remove",
                                                card_id=second["id"])
    proposals.card_set_change_answer(slug=card_set.slug, change_id=removal.pk, user=ann_user, approve=True)
    with worker(queue, tmp_path):
        built = build_card_set_version.apply_async(args=[card_set.pk], queue=queue).get(timeout=TASK_SECONDS)
    assert built == 2

    for name, client in (("ann", ann), ("bob", bob)):
        deck = client.get(f"/api/v1/player-decks/{decks[name]}/").json()
        assert deck["version"] == deck["latest_version"] == 2
        assert [(entry["title"], entry["text"], entry["count"]) for entry in deck["entries"]] == [
            (first["title"], "Worth nothing now.", 10)]
        [notice] = client.get("/api/v1/notifications/").json()
        assert notice["data"]["version"] == 2
        assert notice["data"]["player_decks"] == [{"id": decks[name], "name": f"{name}'s", "in_game": name == "ann",
                                                   "removed": [f"{second['title']} (10 copies)"],
                                                   "changed": [first["title"]]}]
    assert ann.get(f"/api/v1/player-decks/{decks['ann']}/").json()["in_game"] is True


def test_a_process_that_is_no_worker_knows_the_build_task_by_its_name():
    """An accepted change queues its set's build by the task's name from the web process that accepted it; a
    process that never imported the task module must still know it, or the build waits minutes for Celery beat."""
    script = ("import django; django.setup()\n"
              "from celery import current_app\n"
              "from ccg.changes import BUILD_TASK\n"
              "print(BUILD_TASK in current_app.tasks)\n")
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "dvorak_site.settings"}
    answer = subprocess.run([sys.executable, "-c", script], cwd=PROJECT, env=environment, capture_output=True,
                            text=True, timeout=60)
    assert answer.stdout.strip() == "True", answer.stderr
