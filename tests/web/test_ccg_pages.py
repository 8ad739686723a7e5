"""The CCG pages without a browser: the deck builder of a card set, a player's own decks (someone else's is not
found), a set's versions and changes, and the links that lead to them. The pages hold no deck of their own: the
page's script reads and saves through the API, so these tests check what each page starts from, and who may open
it."""

import json
import re

import pytest
from django.test import Client

from ccg.models import PlayerDeck
from ccg.services import card_set_version_build
from decks import services as archive
from decks.management.commands.load_seed_decks import SAMPLE_DATA

pytestmark = pytest.mark.django_db

SET = "filibuster-sample-set"


@pytest.fixture
def sample_set():
    [deck] = archive.deck_import(author=None, text=(SAMPLE_DATA / f"{SET}.json").read_text(encoding="utf-8"),
                                 format="json")
    return deck


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def config_of(response, name: str = "ccg-config") -> dict:
    html = response.content.decode()
    start = html.index(f'<script id="{name}" type="application/json">') + len(f'<script id="{name}" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def cards_of(client, version: int = 1) -> dict[str, int]:
    return {card["title"]: card["id"] for card in client.get(f"/api/v1/decks/{SET}/versions/{version}/").json()["cards"]}


def make_deck(client, name: str, counts: dict[str, int]) -> dict:
    cards = cards_of(client)
    answer = client.post("/api/v1/player-decks/", {"card_set": SET, "name": name, "entries": [
        {"card": cards[title], "count": count} for title, count in counts.items()]}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_the_deck_builder_of_the_filibuster_sample_set_opens(sample_set, make_user):
    response = signed_in(make_user("ann")).get(f"/decks/{SET}/build/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="builder"' in html and 'id="pool-cards"' in html and 'id="save-deck"' in html
    assert 'id="card-search"' in html and 'id="type-filter"' in html and 'id="import-form"' in html
    assert "/static/web/ccg/builder.js" in html and "/static/web/play/common.js" in html
    assert not re.search(r'(src|href)="(https?:)?//', html), "every script and style is the project's own"
    config = config_of(response)
    assert config["card_set"] == SET and config["version"] == 1 and config["player_deck"] is None
    assert config["min_size"] == 20  # the set's Special Rule "Decks of at least 20 cards."
    assert config["registered"] is False
    assert "Register for this set" in html


def test_the_builder_knows_a_registered_player(sample_set, make_user):
    ann = make_user("ann")
    client = signed_in(ann)
    assert client.post(f"/api/v1/decks/{SET}/register/", content_type="application/json").status_code == 201
    assert config_of(client.get(f"/decks/{SET}/build/"))["registered"] is True


def test_a_visitor_is_sent_to_sign_in_to_build(sample_set):
    response = Client().get(f"/decks/{SET}/build/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/sign-in/?next=")


def test_only_a_card_set_has_a_builder_and_versions(archive_deck, make_user):
    archive_deck(5, slug="plain-deck")
    client = signed_in(make_user("ann"))
    assert client.get("/decks/plain-deck/build/").status_code == 404
    assert client.get("/decks/plain-deck/versions/").status_code == 404
    assert client.get("/decks/no-such-set/build/").status_code == 404


def test_a_card_sets_page_links_to_building_a_deck_and_its_versions(sample_set, archive_deck):
    archive_deck(5, slug="plain-deck")
    html = Client().get(f"/decks/{SET}/").content.decode()
    assert f'href="/decks/{SET}/build/"' in html and f'href="/decks/{SET}/versions/"' in html
    plain = Client().get("/decks/plain-deck/").content.decode()
    assert "/decks/plain-deck/build/" not in plain


def test_the_header_has_my_decks_for_a_signed_in_player(make_user):
    assert 'href="/player-decks/"' in signed_in(make_user("ann")).get("/").content.decode()
    assert 'href="/player-decks/"' not in Client().get("/").content.decode()


def test_my_decks_lists_my_decks_with_their_validity_and_files(sample_set, make_user):
    ann, bob = signed_in(make_user("ann")), signed_in(make_user("bob"))
    empty = ann.get("/player-decks/")
    assert empty.status_code == 200 and 'id="no-decks"' in empty.content.decode()
    assert f'href="/decks/{SET}/build/"' in empty.content.decode()

    good = make_deck(ann, "Campaign trail", {"Stump Speech": 10, "Attack Ad": 10})
    thin = make_deck(ann, "Thin", {"Scandal": 3})
    theirs = make_deck(bob, "Bob's own", {"Scandal": 20})
    html = ann.get("/player-decks/").content.decode()
    assert "Campaign trail" in html and "Thin" in html and "Bob&#x27;s own" not in html
    assert f'href="/player-decks/{good["id"]}/"' in html
    assert f'href="/api/v1/player-decks/{good["id"]}/export/cod/"' in html
    assert "A deck of this set has at least 20 cards; this one has 3." in html  # the API's own words
    assert f'data-deck="{theirs["id"]}"' not in html
    assert thin["valid"] is False


def test_my_own_deck_opens_in_the_builder_and_anyone_elses_is_not_found(sample_set, make_user):
    ann, bob = signed_in(make_user("ann")), signed_in(make_user("bob"))
    deck = make_deck(ann, "Campaign trail", {"Stump Speech": 20})
    mine = ann.get(f"/player-decks/{deck['id']}/")
    assert mine.status_code == 200
    config = config_of(mine)
    assert config["player_deck"] == deck["id"] and config["card_set"] == SET and config["version"] == 1
    assert "Campaign trail" in mine.content.decode()
    assert bob.get(f"/player-decks/{deck['id']}/").status_code == 404
    assert ann.get("/player-decks/987654/").status_code == 404
    assert Client().get(f"/player-decks/{deck['id']}/").status_code == 302


def test_the_versions_page_shows_each_version_and_its_changelog_to_anyone(sample_set, make_user, client_for):
    ann = make_user("ann")
    api = client_for(ann)
    assert api.post(f"/api/v1/decks/{SET}/register/").status_code == 201
    proposed = api.post(f"/api/v1/decks/{SET}/changes/", {"kind": "add", "content": {
        "title": "Filibuster Marathon", "type": "Gambit", "corner_value": "7", "text": "Gain 15 points."}},
        format="json")
    assert proposed.json()["status"] == "accepted"  # the only registered player accepts it
    card_set_version_build(card_set_id=sample_set.pk)  # version 2 (the task the acceptance queues)
    response = Client().get(f"/decks/{SET}/versions/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Version 2" in html and "Version 1" in html
    assert "Added card &#x27;Filibuster Marathon&#x27;" in html
    assert "The card set as first registered." in html
    assert "A Card Set has at least 50 cards; this one has 22." in html  # the set's problem, as the API words it
    assert "/static/web/ccg/versions.js" in html
    config = config_of(response)
    assert config == {**config, "card_set": SET, "version": 2, "signed_in": False, "registered": False, "players": 1}

    signed = config_of(signed_in(ann).get(f"/decks/{SET}/versions/"))
    assert signed["registered"] is True and signed["username"] == "ann"


def test_a_deck_left_on_an_older_version_opens_on_that_version(sample_set, make_user, client_for):
    ann = make_user("ann")
    api = client_for(ann)
    deck = make_deck(signed_in(ann), "Old one", {"Stump Speech": 20})
    api.post(f"/api/v1/decks/{SET}/register/")
    api.post(f"/api/v1/decks/{SET}/changes/", {"kind": "add", "content": {"title": "New Card"}}, format="json")
    card_set_version_build(card_set_id=sample_set.pk)
    PlayerDeck.objects.filter(pk=deck["id"]).update(version=1)  # left behind, as decks were before they followed
    response = signed_in(ann).get(f"/player-decks/{deck['id']}/")
    assert config_of(response)["version"] == 1
    assert 'id="outdated"' in response.content.decode() and 'id="update-deck"' in response.content.decode()
    html = signed_in(ann).get("/player-decks/").content.decode()
    assert "the set is at 2: update" in html


def test_the_lobby_offers_a_choice_of_player_deck_for_ccg_games(make_user):
    html = signed_in(make_user("ann")).get("/play/").content.decode()
    assert 'id="player-deck-choice"' in html and 'id="player-deck-picker"' in html
    assert "/static/web/ccg/ccg.js" in html  # the player's decks are read through the API, to their end


def test_a_ccg_sets_play_against_the_computer_asks_for_a_deck_and_a_plain_deck_does_not(sample_set, archive_deck,
                                                                                        make_user):
    """Filibuster's sets are played with player decks: the set's "Play against the computer" makes its game with one
    of yours (chosen by the page's script from the API), where a plain deck's plays the deck itself."""
    archive_deck(5, slug="plain-deck")
    client = signed_in(make_user("ann"))
    html = client.get(f"/decks/{SET}/").content.decode()
    assert 'data-player-deck="1"' in html and 'id="play-computer-deck"' in html
    assert "/static/web/ccg/ccg.js" in html
    plain = client.get("/decks/plain-deck/").content.decode()
    assert 'id="play-computer"' in plain and "data-player-deck" not in plain and "play-computer-deck" not in plain

