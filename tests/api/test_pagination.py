"""Lists that can grow: page numbers for the deck and game lists; one keyset cursor (`after`, `limit`, a `Link`
header) for every list that stays a JSON array."""

import re

import pytest

from ccg.models import Notification
from decks import services as deck_services
from dvorak_core.deckdata import DeckData

pytestmark = pytest.mark.django_db

NEXT = re.compile(r'^<(?P<url>[^>]+)>; rel="next"$')


def follow(client, url: str) -> tuple[list[dict], list[str]]:
    """Every item of a list, following its next links to the end; and the links followed."""
    items, links = [], []
    while url:
        response = client.get(url)
        assert response.status_code == 200, response.content
        assert isinstance(response.json(), list)
        items += response.json()
        link = response.headers.get("Link")
        url = NEXT.match(link)["url"] if link else None
        if url:
            links.append(url)
    return items, links


@pytest.fixture
def deck_with_revisions(make_user):
    author = make_user("scribe")
    deck = deck_services.deck_create(author=author, data=DeckData.from_dict({"slug": "many", "title": "Many"}))
    for number in range(2, 8):
        deck_services.deck_update(slug=deck.slug, author=author, changes={"players": str(number)}, summary=f"{number}")
    return deck


def test_following_next_links_gives_every_revision_once_in_order(api_client, deck_with_revisions):
    revisions, links = follow(api_client, "/api/v1/decks/many/revisions/?limit=3")
    assert [r["number"] for r in revisions] == [1, 2, 3, 4, 5, 6, 7]
    assert len(links) == 2
    assert links[0].startswith("http://testserver/api/v1/decks/many/revisions/?")
    assert "after=3" in links[0] and "limit=3" in links[0]


def test_the_last_page_has_no_next_link_and_the_default_limit_takes_all_of_a_short_list(api_client,
                                                                                      deck_with_revisions):
    whole = api_client.get("/api/v1/decks/many/revisions/")
    assert [r["number"] for r in whole.json()] == [1, 2, 3, 4, 5, 6, 7]
    assert "Link" not in whole.headers
    rest = api_client.get("/api/v1/decks/many/revisions/", {"after": 5})
    assert [r["number"] for r in rest.json()] == [6, 7]


def test_notifications_newest_first_continue_with_older_ones(client_for, make_user):
    reader = make_user("reader")
    notices = [Notification.objects.create(user=reader, subject=f"n{i}", body="", data={}) for i in range(5)]
    Notification.objects.create(user=make_user("someone-else"), subject="not yours", body="", data={})
    shown, links = follow(client_for(reader), "/api/v1/notifications/?limit=2")
    assert [n["id"] for n in shown] == [n.id for n in reversed(notices)]
    assert len(links) == 2


def test_talk_posts_come_oldest_first_across_pages(api_client, client_for, make_user, deck_with_revisions):
    poster = make_user("poster")
    client = client_for(poster)
    posted = [client.post("/api/v1/decks/many/talk/", {"body": f"post {i}"}, format="json").json()["id"]
              for i in range(5)]
    shown, _ = follow(api_client, "/api/v1/decks/many/talk/?limit=2")
    assert [p["id"] for p in shown] == posted


@pytest.mark.parametrize("query", ["after=-1", "after=x", "after=1.5", "limit=0", "limit=201", "limit=ten",
                                   f"after={2**63}"])
def test_a_bad_cursor_or_limit_is_invalid(api_client, deck_with_revisions, query):
    response = api_client.get(f"/api/v1/decks/many/revisions/?{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert query.split("=")[0] in error["details"]


def test_an_empty_parameter_counts_as_left_out(api_client, deck_with_revisions):
    response = api_client.get("/api/v1/decks/many/revisions/?after=&limit=")
    assert [r["number"] for r in response.json()] == [1, 2, 3, 4, 5, 6, 7]


def test_the_game_list_is_paginated_by_page_number_and_a_bad_page_is_invalid(client_for, make_user):
    client = client_for(make_user())
    listed = client.get("/api/v1/games/")
    assert set(listed.json()) == {"count", "next", "previous", "results"}
    assert client.get("/api/v1/games/", {"page": "zero"}).json()["error"]["code"] == "invalid"
    assert client.get("/api/v1/games/", {"page": 0}).status_code == 400
    assert client.get("/api/v1/games/", {"page": 9}).status_code == 404


def test_the_schema_documents_both_kinds_of_lists(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    games = schema["paths"]["/api/v1/games/"]["get"]
    listed = games["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert set(schema["components"]["schemas"][listed]["properties"]) == {"count", "next", "previous", "results"}
    assert "page" in {p["name"] for p in games["parameters"]}

    for path in ("/api/v1/decks/{slug}/revisions/", "/api/v1/decks/{slug}/talk/", "/api/v1/decks/{slug}/versions/",
                 "/api/v1/decks/{slug}/changes/", "/api/v1/player-decks/", "/api/v1/notifications/"):
        operation = schema["paths"][path]["get"]
        ok = operation["responses"]["200"]
        listed = ok["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        assert schema["components"]["schemas"][listed]["type"] == "array", path
        assert "Link" in ok["headers"], path
        parameters = {p["name"]: p["schema"] for p in operation["parameters"]}
        assert parameters["limit"] == {"type": "integer", "minimum": 1, "maximum": 200, "default": 100}, path
        assert parameters["after"]["minimum"] == 0, path
