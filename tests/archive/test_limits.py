"""Bounds on what one deck may hold: refused as 400 `invalid`, nothing written, never a 500 or a server tied up."""

import json

import pytest

from decks.models import Deck

pytestmark = pytest.mark.django_db


def deck_json(**card) -> str:
    return json.dumps({"title": "Huge", "cards": [{"title": "Plenty", "type": "Thing", "text": "", **card}]})


@pytest.mark.parametrize(
    "card",
    [{"copies": 34_981_836}, {"copies": 101}, {"title": "x" * 201}, {"text": "y" * 5001}, {"type": "T" * 51}],
)
def test_an_oversized_card_is_refused_on_import_and_nothing_is_written(client_for, make_user, card):
    client = client_for(make_user())
    response = client.post("/api/v1/decks/import/", {"format": "json", "text": deck_json(**card)}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "invalid"
    assert not Deck.objects.filter(title="Huge").exists()


def test_a_deck_of_more_than_two_thousand_cards_is_refused(client_for, make_user):
    cards = [{"title": f"Card {n}", "type": "Thing", "copies": 100} for n in range(21)]
    client = client_for(make_user())
    text = json.dumps({"title": "Huge", "cards": cards})
    response = client.post("/api/v1/decks/import/", {"format": "json", "text": text}, format="json")
    assert response.status_code == 400 and "2000" in response.json()["error"]["message"]


def test_adding_or_changing_a_card_past_the_bounds_is_refused(client_for, make_user):
    client = client_for(make_user())
    created = client.post("/api/v1/decks/import/", {"format": "json", "text": deck_json(copies=3)}, format="json")
    slug = created.json()["slug"]
    card_id = created.json()["cards"][0]["id"]
    too_many = client.patch(f"/api/v1/decks/{slug}/cards/{card_id}/", {"copies": 1000}, format="json")
    assert too_many.status_code == 400
    none = client.patch(f"/api/v1/decks/{slug}/cards/{card_id}/", {"copies": 0}, format="json")
    assert none.status_code == 400
    long_title = client.post(f"/api/v1/decks/{slug}/cards/", {"title": "z" * 300, "type": "Thing", "text": ""},
                             format="json")
    assert long_title.status_code == 400
    assert client.get(f"/api/v1/decks/{slug}/").json()["cards"][0]["copies"] == 3
