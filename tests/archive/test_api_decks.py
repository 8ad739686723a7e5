"""The archive's REST endpoints: reading, editing, permissions, filters, locks and the game server's view."""

from __future__ import annotations

import pytest

from decks.models import Deck
from decks.selectors import deck_for_game
from dvorak_core.errors import NotFound
from tests.archive.conftest import error_code

pytestmark = pytest.mark.django_db


def test_anyone_reads_the_list_and_a_deck(api_client, new_deck):
    slug = new_deck()["slug"]

    listing = api_client.get("/api/v1/decks/")
    deck = api_client.get(f"/api/v1/decks/{slug}/")

    assert listing.status_code == 200
    assert set(listing.json()) == {"count", "next", "previous", "results"}
    assert listing.json()["results"][0]["slug"] == slug
    assert listing.json()["results"][0]["card_count"] == 3
    body = deck.json()
    assert body["designers"] == ["Tweed Cap"]
    assert body["special_rules"][0]["text"] == "The hand limit is 7."
    assert [card["copies"] for card in body["cards"]] == [2, 1]
    assert all(isinstance(card["id"], int) for card in body["cards"])
    assert body["revision"] == 1
    assert body["locked"] is False


def test_an_unknown_deck_is_not_found(api_client):
    response = api_client.get("/api/v1/decks/no-such-deck/")
    assert response.status_code == 404
    assert error_code(response) == "not_found"


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/v1/decks/", {"title": "Sneaky"}),
        ("patch", "/api/v1/decks/kitchen-sink/", {"title": "Sneaky"}),
        ("post", "/api/v1/decks/kitchen-sink/cards/", {"title": "Sneaky"}),
        ("post", "/api/v1/decks/import/", {"format": "json", "text": '{"title": "Sneaky"}'}),
        ("post", "/api/v1/decks/kitchen-sink/talk/", {"body": "hello"}),
        ("post", "/api/v1/decks/kitchen-sink/lock/", None),
        ("delete", "/api/v1/decks/kitchen-sink/", None),
    ],
)
def test_anonymous_writes_are_refused_with_401(api_client, new_deck, method, path, body):
    new_deck()

    response = getattr(api_client, method)(path, body, format="json")

    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"
    assert Deck.objects.get().title == "Kitchen Sink"
    assert Deck.objects.count() == 1


def test_signed_in_users_edit_an_unlocked_deck_and_its_cards(user_client, new_deck):
    deck = new_deck()
    pan = deck["cards"][0]["id"]

    patched = user_client.patch("/api/v1/decks/kitchen-sink/", {"title": "Kitchen Sink II", "players": "3"})
    added = user_client.post("/api/v1/decks/kitchen-sink/cards/",
                             {"title": "Ladle", "text": "Play at any time: Endure 1", "stats": {"Endure": 1}})
    changed = user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{pan}/", {"copies": 3})
    removed = user_client.delete(f"/api/v1/decks/kitchen-sink/cards/{deck['cards'][1]['id']}/")

    assert patched.status_code == 200 and patched.json()["title"] == "Kitchen Sink II"
    assert added.status_code == 201
    assert added.json()["stats"] == {"Endure": 1} and added.json()["out_of_turn"] is True
    assert changed.status_code == 200 and changed.json()["copies"] == 3
    assert removed.status_code == 204
    now = user_client.get("/api/v1/decks/kitchen-sink/").json()
    assert [(card["title"], card["copies"]) for card in now["cards"]] == [("Frying Pan", 3), ("Ladle", 1)]
    assert now["cards"][0]["id"] == pan  # a card keeps its id through edits
    assert now["revision"] == 5


def test_patching_special_rules_replaces_them(user_client, new_deck):
    new_deck()
    response = user_client.patch(
        "/api/v1/decks/kitchen-sink/", {"special_rules": [{"title": "Draws", "text": "Draw two cards."}]}
    )
    assert [rule["text"] for rule in response.json()["special_rules"]] == ["Draw two cards."]


@pytest.mark.parametrize("params", [{"hand_limit": "lots"}, {"draws_per_turn": 1_000_000}, {"vote_rule": "shouting"}])
def test_a_special_rule_whose_params_break_their_bounds_is_refused_on_create_and_on_edit(user_client, new_deck,
                                                                                        params):
    rule = {"title": "Tiny hands", "text": "Hand size is lots.", "params": params}
    created = user_client.post("/api/v1/decks/", {"title": "Bricked", "special_rules": [rule]}, format="json")
    assert created.status_code == 400 and "Tiny hands" in created.json()["error"]["message"]
    new_deck()
    edited = user_client.patch("/api/v1/decks/kitchen-sink/", {"special_rules": [rule]}, format="json")
    assert edited.status_code == 400 and error_code(edited) == "invalid"
    kept = user_client.get("/api/v1/decks/kitchen-sink/").json()["special_rules"]
    assert [(r["title"], r["params"]) for r in kept] == [("Hand limit", {})]
    assert not Deck.objects.filter(slug="bricked").exists()


def test_bad_fields_are_400_invalid(user_client, new_deck):
    new_deck()
    bad_copies = user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{Deck.objects.get().cards.first().pk}/",
                                   {"copies": 0})
    bad_status = user_client.patch("/api/v1/decks/kitchen-sink/", {"status": "wonderful"})
    assert bad_copies.status_code == 400 and error_code(bad_copies) == "invalid"
    assert bad_status.status_code == 400 and error_code(bad_status) == "invalid"


def test_a_taken_or_reserved_slug_is_refused(user_client, new_deck):
    new_deck()
    taken = user_client.post("/api/v1/decks/", {"title": "Kitchen Sink"})
    reserved = user_client.post("/api/v1/decks/", {"title": "Import"})
    assert taken.status_code == 409 and error_code(taken) == "deck_exists"
    assert reserved.status_code == 400


def test_a_card_of_another_deck_is_not_found(user_client, new_deck):
    other = new_deck(title="Other Deck")
    new_deck()
    response = user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{other['cards'][0]['id']}/", {"copies": 5})
    assert response.status_code == 404
    assert Deck.objects.get(slug="other-deck").cards.first().copies == 2


def test_only_curators_lock_unlock_and_delete(user_client, curator_client, new_deck):
    new_deck()

    assert user_client.post("/api/v1/decks/kitchen-sink/lock/").status_code == 403
    assert error_code(user_client.delete("/api/v1/decks/kitchen-sink/")) == "forbidden"
    locked = curator_client.post("/api/v1/decks/kitchen-sink/lock/")
    assert locked.status_code == 200 and locked.json()["locked"] is True
    assert user_client.post("/api/v1/decks/kitchen-sink/unlock/").status_code == 403
    assert Deck.objects.get().locked is True

    unlocked = curator_client.post("/api/v1/decks/kitchen-sink/unlock/")
    assert unlocked.json()["locked"] is False
    assert curator_client.delete("/api/v1/decks/kitchen-sink/").status_code == 204
    assert not Deck.objects.exists()


def test_a_locked_deck_refuses_every_change_through_the_api(user_client, curator_client, new_deck):
    deck = new_deck()
    card_id = deck["cards"][0]["id"]
    curator_client.post("/api/v1/decks/kitchen-sink/lock/")
    before = user_client.get("/api/v1/decks/kitchen-sink/").json()

    attempts = [
        user_client.patch("/api/v1/decks/kitchen-sink/", {"title": "Changed"}),
        user_client.patch("/api/v1/decks/kitchen-sink/", {"special_rules": []}),
        user_client.post("/api/v1/decks/kitchen-sink/cards/", {"title": "New"}),
        user_client.patch(f"/api/v1/decks/kitchen-sink/cards/{card_id}/", {"copies": 9}),
        user_client.delete(f"/api/v1/decks/kitchen-sink/cards/{card_id}/"),
        user_client.post("/api/v1/decks/kitchen-sink/revisions/1/restore/"),
        curator_client.patch("/api/v1/decks/kitchen-sink/", {"title": "Even curators unlock first"}),
        curator_client.delete("/api/v1/decks/kitchen-sink/"),
    ]

    assert [response.status_code for response in attempts] == [423] * len(attempts)
    assert {error_code(response) for response in attempts} == {"deck_locked"}
    assert user_client.get("/api/v1/decks/kitchen-sink/").json() == before


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("search=sink", ["kitchen-sink"]),
        ("search=coprolite", ["garden-shed"]),
        ("status=nomic", ["garden-shed"]),
        ("players=2-4", ["kitchen-sink"]),
        ("kind=card_set", ["garden-shed"]),
        ("locked=true", ["garden-shed"]),
        ("locked=false", ["kitchen-sink"]),
        ("ruleset=filibuster", ["garden-shed"]),
        ("ruleset=dvorak", ["kitchen-sink"]),
        ("ruleset=serm", []),
        ("ruleset=", ["garden-shed", "kitchen-sink"]),
        ("", ["garden-shed", "kitchen-sink"]),
    ],
)
def test_the_deck_list_filters(api_client, curator_client, new_deck, query, expected):
    new_deck()
    new_deck(title="Garden Shed", designers=["Coprolite Golem"], status="nomic", players="3+", kind="card_set",
             ruleset="filibuster")
    curator_client.post("/api/v1/decks/garden-shed/lock/")

    response = api_client.get(f"/api/v1/decks/?{query}")

    assert [deck["slug"] for deck in response.json()["results"]] == expected


def test_a_bad_locked_filter_is_400(api_client):
    assert api_client.get("/api/v1/decks/?locked=maybe").status_code == 400


def test_deck_for_game_gives_ids_to_rules_and_cards(new_deck):
    deck = new_deck()

    content = deck_for_game("kitchen-sink")

    assert [card["id"] for card in content["cards"]] == [card["id"] for card in deck["cards"]]
    assert [rule["id"] for rule in content["special_rules"]] == [rule["id"] for rule in deck["special_rules"]]
    assert content["cards"][0]["title"] == "Frying Pan" and content["cards"][0]["copies"] == 2
    assert content["ruleset"] == "dvorak"
    with pytest.raises(NotFound):
        deck_for_game("no-such-deck")


def test_every_archive_endpoint_is_in_the_openapi_schema(api_client, user_client):
    schema = user_client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    for path in [
        "/api/v1/decks/",
        "/api/v1/decks/import/",
        "/api/v1/decks/{slug}/",
        "/api/v1/decks/{slug}/lock/",
        "/api/v1/decks/{slug}/unlock/",
        "/api/v1/decks/{slug}/cards/",
        "/api/v1/decks/{slug}/cards/{card_id}/",
        "/api/v1/decks/{slug}/export/{export_format}/",
        "/api/v1/decks/{slug}/revisions/",
        "/api/v1/decks/{slug}/revisions/{number}/",
        "/api/v1/decks/{slug}/revisions/{number}/diff/",
        "/api/v1/decks/{slug}/revisions/{number}/restore/",
        "/api/v1/decks/{slug}/talk/",
    ]:
        assert path in paths, path
    assert "requestBody" in paths["/api/v1/decks/import/"]["post"]
