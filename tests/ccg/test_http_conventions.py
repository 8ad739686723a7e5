"""The CCG side as HTTP clients expect it: a card set's versions and a player deck answer If-None-Match with 304,
a player deck and a change say where they are, and a retried creating request with its Idempotency-Key makes
nothing twice."""

from __future__ import annotations

import pytest

from ccg.models import PlayerDeck
from proposals.models import CardSetChange
from tests.ccg.conftest import FILIBUSTER

pytestmark = pytest.mark.django_db


def test_a_version_and_the_list_of_versions_answer_304_while_they_are_current(filibuster_with_cards, api_client):
    version = api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/2/")
    assert version["ETag"] == '"2"'
    again = api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/2/", HTTP_IF_NONE_MATCH='W/"2"')
    assert again.status_code == 304 and again.content == b""
    listed = api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/")
    assert listed["ETag"] == '"2"'
    assert api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/", HTTP_IF_NONE_MATCH='"2"').status_code == 304
    assert api_client.get(f"/api/v1/decks/{FILIBUSTER}/versions/", HTTP_IF_NONE_MATCH='"1"').status_code == 200


def test_a_player_deck_says_where_it_is_and_answers_304_until_it_is_tuned(filibuster_with_cards, players):
    (_, ann), _ = players
    cards = filibuster_with_cards
    body = {"card_set": FILIBUSTER, "name": "Trail", "entries": [{"card": cards["Pork Barrel"]["id"], "count": 2}]}
    made = ann.post("/api/v1/player-decks/", body, format="json", HTTP_IDEMPOTENCY_KEY="trail")
    retried = ann.post("/api/v1/player-decks/", body, format="json", HTTP_IDEMPOTENCY_KEY="trail")
    assert made.status_code == retried.status_code == 201
    assert retried.json() == made.json() and PlayerDeck.objects.count() == 1
    assert made["Location"] == f"http://testserver/api/v1/player-decks/{made.json()['id']}/"
    shown = ann.get(made["Location"])
    assert shown.json() == made.json() and shown["ETag"] == made["ETag"]
    assert ann.get(made["Location"], HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 304
    tuned = ann.patch(made["Location"], {"name": "Long Trail"}, format="json")
    assert tuned.status_code == 200 and tuned["ETag"] != shown["ETag"]
    assert ann.get(made["Location"], HTTP_IF_NONE_MATCH=shown["ETag"]).status_code == 200
    misspelt = ann.patch(made["Location"], {"nmae": "x"}, format="json")
    assert misspelt.status_code == 400 and misspelt.json()["error"]["details"] == {
        "nmae": ["Not a field of this object."]}


def test_a_proposed_change_says_where_it_is_and_is_proposed_once_per_key(filibuster_with_cards, players):
    (_, ann), _ = players
    body = {"kind": "add", "content": {"title": "Recount", "type": "Gambit", "text": "Draw two.",
                                       "corner_value": "2"}}
    made = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/", body, format="json", HTTP_IDEMPOTENCY_KEY="recount")
    again = ann.post(f"/api/v1/decks/{FILIBUSTER}/changes/", body, format="json", HTTP_IDEMPOTENCY_KEY="recount")
    assert made.status_code == again.status_code == 201 and again.json() == made.json()
    assert CardSetChange.objects.filter(content__title="Recount").count() == 1
    assert made["Location"].endswith(f"/api/v1/decks/{FILIBUSTER}/changes/{made.json()['id']}/")
    assert ann.get(made["Location"]).json() == made.json()
    assert ann.get(f"/api/v1/decks/{FILIBUSTER}/changes/999999/").json()["error"]["code"] == "not_found"

