"""The play client's pages without a browser: the lobby and the table render, a visitor may watch a public game
(read-only, the spectator's view) and is sent to sign in to play, and a game closed to spectators stays closed."""

import json
import re
import uuid

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_config(response) -> dict:
    html = response.content.decode()
    start = html.index('<script id="play-config" type="application/json">') + len('<script id="play-config" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def hand_of(client, game_id) -> list[dict]:
    state = client.get(f"/api/v1/games/{game_id}/").json()
    return next(p for p in state["players"] if p["seat"] == state["you"])["hand"]


def test_the_lobby_offers_a_signed_in_player_the_decks_their_games_and_open_games(make_user):
    response = signed_in(make_user("ann")).get("/play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="create-game"' in html and 'id="deck-picker"' in html
    assert 'id="my-games"' in html and 'id="open-games"' in html and 'id="watch-games"' in html
    assert "/static/web/play/lobby.js" in html and "/static/web/play/play.css" in html
    assert not re.search(r'(src|href)="(https?:)?//', html), "every script and style is the project's own"


def test_a_visitor_sees_the_games_anyone_may_watch_and_is_asked_to_sign_in_to_play(table, client_for, make_user):
    public_id, _ = table(2)
    closed = client_for(make_user("dan")).post("/api/v1/games/", {"deck": "test-deck", "options": {"spectators": "nobody"}},
                                               format="json").json()["id"]
    response = Client().get("/play/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/play/{public_id}/" in html
    assert f"/play/{closed}/" not in html
    assert "/accounts/sign-in/?next=/play/" in html
    assert 'id="create-game"' not in html


def test_the_table_page_holds_no_game_data_of_its_own(table):
    game_id, seated = table(2)
    (ann, ann_api), (bob, bob_api) = seated
    response = signed_in(ann).get(f"/play/{game_id}/")
    assert response.status_code == 200
    config = page_config(response)
    assert config["game"] == game_id and config["signed_in"] is True and config["username"] == ann.username
    html = response.content.decode()
    for card in hand_of(ann_api, game_id) + hand_of(bob_api, game_id):  # the page reads the game through the API
        assert card["id"] not in html
    assert "/static/web/play/table.js" in html


def test_a_visitor_watches_a_public_game_as_a_spectator_and_is_sent_to_sign_in_to_play(table):
    game_id, seated = table(2)
    visitor = Client()
    response = visitor.get(f"/play/{game_id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/accounts/sign-in/?next=/play/{game_id}/" in html
    assert page_config(response)["signed_in"] is False

    state = visitor.get(f"/play/{game_id}/watch/state/").json()
    assert state["id"] == game_id and state["you"] is None and state["status"] == "active"
    assert all("hand" not in player for player in state["players"])
    events = visitor.get(f"/play/{game_id}/watch/events/?after=0").json()
    assert [e["version"] for e in events["events"]] == list(range(1, events["version"] + 1))
    hands = {card["id"] for _, api in seated for card in hand_of(api, game_id)}
    assert not any(card in json.dumps(events) + json.dumps(state) for card in hands)
    assert visitor.get(f"/play/{game_id}/watch/state/?at=2").json()["status"] == "open"

    # Acting is the API's, which a visitor is refused.
    refused = visitor.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, content_type="application/json")
    assert refused.status_code in (401, 403)
    assert Game.objects.get(pk=game_id).version == events["version"]


def test_the_visitors_feeds_answer_errors_in_the_apis_shape(table, make_user):
    game_id, _ = table(2)
    visitor = Client()
    bad = visitor.get(f"/play/{game_id}/watch/state/?at=nope")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    beyond = visitor.get(f"/play/{game_id}/watch/state/?at=9999")
    assert beyond.status_code == 404 and beyond.json()["error"]["code"] == "not_found"
    assert visitor.get(f"/play/{uuid.uuid4()}/watch/state/").json()["error"]["code"] == "not_found"
    # a signed-in user reads through the API, with its own view of the game
    assert signed_in(make_user("eve")).get(f"/play/{game_id}/watch/state/").status_code == 400


@pytest.mark.parametrize("spectators", ["players", "nobody"])
def test_a_game_closed_to_spectators_stays_closed_to_visitors_and_to_other_users(spectators, make_user, client_for,
                                                                                 archive_deck):
    archive_deck(40)
    ann = make_user("ann")
    game_id = client_for(ann).post("/api/v1/games/", {"deck": "test-deck", "options": {"spectators": spectators}},
                                   format="json").json()["id"]
    visitor = Client()
    response = visitor.get(f"/play/{game_id}/")
    assert response.status_code == 302 and response["Location"].startswith(f"/accounts/sign-in/?next=/play/{game_id}/")
    assert visitor.get(f"/play/{game_id}/watch/state/").status_code == 403
    assert visitor.get(f"/play/{game_id}/watch/events/").status_code == 403
    assert signed_in(make_user("eve")).get(f"/play/{game_id}/").status_code == 403
    assert signed_in(ann).get(f"/play/{game_id}/").status_code == 200


def test_no_such_game(make_user):
    assert signed_in(make_user("ann")).get(f"/play/{uuid.uuid4()}/").status_code == 404


def test_a_finished_game_of_its_players_opens_its_replay_to_signed_in_users_only(make_user, client_for, archive_deck):
    archive_deck(40)
    ann, bob = make_user("ann"), make_user("bob")
    game_id = client_for(ann).post("/api/v1/games/", {"deck": "test-deck", "options": {"spectators": "players"}},
                                   format="json").json()["id"]
    client_for(bob).post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    client_for(ann).post(f"/api/v1/games/{game_id}/start/")
    assert client_for(bob).post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json").status_code == 201
    assert Game.objects.get(pk=game_id).status == "finished"

    assert signed_in(make_user("eve")).get(f"/play/{game_id}/").status_code == 200
    assert Client().get(f"/play/{game_id}/").status_code == 302
    assert Client().get(f"/play/{game_id}/watch/events/").status_code == 403
