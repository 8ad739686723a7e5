"""Invitations and rematches through the API, as clients use them (issue 34, "Live tables"):

    "`POST /games/` takes `"invite": [usernames]`: each invited player gets a notice (`GET /notifications/`) and
    accepts by joining; `options.invite_only` refuses anyone else (403 `not_invited`)."

    "`POST /games/{id}/rematch/` on a finished or abandoned game opens a new game played as the last one was: the
    asker in seat 0, the other players invited, the computer players seated again."

The invitations go out once the new game is committed: the tests run the callbacks of the commit as it happens
(``django_capture_on_commit_callbacks``).
"""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import Game
from tests.ccg.conftest import _tasks_run_eagerly, filibuster, filibuster_with_cards, players  # noqa: F401
from tests.ccg.test_ccg_games import build_deck, create_ccg_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def committing(django_capture_on_commit_callbacks):
    """Each request's commit callbacks run as at a real commit (its invitations go out)."""

    def send(request, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return request(*args, **kwargs)

    return send


def create(committing, client, deck: str, **body):
    answer = committing(client.post, "/api/v1/games/", {"deck": deck, **body}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def join(client, game_id):
    return client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")


def invitations(client) -> list[dict]:
    notices = client.get("/api/v1/notifications/").json()
    return [notice for notice in notices if notice["data"].get("kind") == "invitation"]


def lobby(client, **query) -> list[str]:
    return [game["id"] for game in client.get("/api/v1/games/", query).json()["results"]]


def events_of(client, game_id) -> list[dict]:
    return client.get(f"/api/v1/games/{game_id}/events/").json()["events"]


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code, response.content
    return response.json()["error"]


# --- invitations -------------------------------------------------------------------------------------------------


def test_each_invited_player_gets_a_notice_finds_the_game_and_joins_it(archive_deck, make_user, client_for,
                                                                        committing):
    bob_user = make_user("bob")
    bob_user.email = "bob@example.org"
    bob_user.save(update_fields=["email"])
    ann, bob, cat, eve = (client_for(user) for user in (make_user("ann"), bob_user, make_user("cat"),
                                                         make_user("eve")))
    game = create(committing, ann, archive_deck(20).slug, max_players=4, invite=["bob", "cat"])
    game_id = game["id"]

    for client in (bob, cat):
        [notice] = invitations(client)
        assert notice["data"] == {"kind": "invitation", "game": game_id, "from": "ann"}
        assert notice["subject"].startswith("ann invites you to a game of")
        assert f"/games/{game_id}/join/" in notice["body"] and notice["read_at"] is None
    assert invitations(eve) == [] and invitations(ann) == []
    [email] = mail.outbox  # only Bob has an email address
    assert email.to == ["bob@example.org"] and email.subject == invitations(bob)[0]["subject"]
    # Who is invited is in the game's first event, for everyone to read.
    assert events_of(eve, game_id)[0]["data"]["invited"] == ["bob", "cat"]

    assert lobby(bob, status="open", invited=1) == [game_id]
    assert lobby(eve, status="open", invited=1) == []
    assert game_id in lobby(eve, status="open")  # an open game is anyone's to join unless invite_only
    joined = join(bob, game_id)
    assert joined.status_code == 200, joined.content
    assert [(p["seat"], p["username"]) for p in joined.json()["players"]] == [(0, "ann"), (1, "bob")]
    assert join(eve, game_id).status_code == 200


def test_invite_only_admits_the_invited_and_refuses_anyone_else(archive_deck, make_user, client_for, committing):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = create(committing, ann, archive_deck(20).slug, max_players=4, invite=["bob"],
                     options={"invite_only": True})["id"]
    error = refusal(join(eve, game_id), 403, "not_invited")
    assert "invited" in error["message"]
    assert join(bob, game_id).status_code == 200
    # The creator's computer players are not invited, and sit down all the same.
    seated = ann.post(f"/api/v1/games/{game_id}/bots/", {"level": "random"}, format="json")
    assert seated.status_code == 201, seated.content
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert [p["username"] for p in state["players"]] == ["ann", "bob", "Computer 1"]
    refusal(join(eve, game_id), 403, "not_invited")
    refusal(ann.post("/api/v1/games/", {"deck": archive_deck(20, slug="other").slug,
                                        "options": {"invite_only": "yes"}}, format="json"), 400, "invalid")


def test_a_game_closed_to_spectators_is_found_by_the_players_invited_to_it(archive_deck, make_user, client_for,
                                                                           committing):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = create(committing, ann, archive_deck(20).slug, invite=["bob"],
                     options={"spectators": "nobody", "invite_only": True})["id"]
    assert game_id not in lobby(bob, status="open") and game_id not in lobby(eve, status="open")
    assert lobby(bob, status="open", invited=1) == [game_id]
    assert lobby(eve, invited=1) == []
    assert join(bob, game_id).status_code == 200
    assert game_id in lobby(bob, status="open")  # seated now: one of its players


def test_an_invitation_naming_no_player_is_refused_and_nothing_is_created(archive_deck, make_user, client_for,
                                                                          committing):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    slug = archive_deck(20).slug
    answer = committing(ann.post, "/api/v1/games/", {"deck": slug, "invite": ["bob", "nobody", "ghost"]},
                        format="json")
    error = refusal(answer, 400, "invalid")
    assert "nobody" in error["message"] and "ghost" in error["message"]
    assert error["details"]["invite"] == ["There is no player 'nobody'.", "There is no player 'ghost'."]
    refusal(ann.post("/api/v1/games/", {"deck": slug, "invite": "bob"}, format="json"), 400, "invalid")
    refusal(ann.post("/api/v1/games/", {"deck": slug, "invite": [7]}, format="json"), 400, "invalid")
    assert Game.objects.count() == 0 and invitations(bob) == []


# --- rematches ---------------------------------------------------------------------------------------------------


def finished_game(committing, client_for, make_user, slug: str, **body) -> tuple[str, object, object]:
    """A game of Ann's and Bob's that Bob conceded: (id, Ann's client, Bob's client)."""
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = create(committing, ann, slug, **body)["id"]
    assert join(bob, game_id).status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    conceded = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json")
    assert conceded.status_code == 201, conceded.content
    assert ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "finished"
    return game_id, ann, bob


def test_a_rematch_opens_the_same_game_again_with_the_asker_in_seat_0_and_the_other_invited(
        archive_deck, make_user, client_for, committing):
    options = {"hand_limit": 7, "counters": {"gold": 3}, "invite_only": True, "clock": {"per_move": 600}}
    old_id, ann, bob = finished_game(committing, client_for, make_user, archive_deck(30).slug, max_players=3,
                                     creative=True, options=options, invite=["bob"])
    eve = client_for(make_user("eve"))

    answer = committing(bob.post, f"/api/v1/games/{old_id}/rematch/")  # Bob lost, and asks for another
    assert answer.status_code == 201, answer.content
    new = answer.json()
    new_id = new["id"]
    assert new_id != old_id and new["status"] == "open" and new["you"] == 0
    assert [(p["seat"], p["username"]) for p in new["players"]] == [(0, "bob")]
    old_created, new_created = events_of(ann, old_id)[0]["data"], events_of(bob, new_id)[0]["data"]
    for same in ("ruleset", "variant", "creative", "max_players", "options", "deck"):
        assert new_created[same] == old_created[same], same
    assert new_created["invited"] == ["ann"]
    summary = Game.objects.get(pk=new_id)
    assert (summary.deck_slug, summary.max_players, summary.creative) == (Game.objects.get(pk=old_id).deck_slug,
                                                                          3, True)
    assert new["rules"]["hand_limit"] == 7

    [notice] = invitations(ann)
    assert notice["data"] == {"kind": "invitation", "game": new_id, "from": "bob", "rematch_of": old_id}
    assert notice["subject"].startswith("bob asks you for a rematch")
    assert invitations(eve) == []
    refusal(join(eve, new_id), 403, "not_invited")  # invite_only, as the last game was
    assert join(ann, new_id).status_code == 200
    assert lobby(ann, status="open", invited=1) == [new_id]
    # The old game is as it was.
    assert ann.get(f"/api/v1/games/{old_id}/").json()["status"] == "finished"


def test_only_a_player_asks_for_a_rematch_and_only_once_the_game_is_over(archive_deck, make_user, client_for,
                                                                         committing):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = create(committing, ann, archive_deck(20).slug)["id"]
    refusal(ann.post(f"/api/v1/games/{game_id}/rematch/"), 409, "game_not_finished")  # open
    assert join(bob, game_id).status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    refusal(bob.post(f"/api/v1/games/{game_id}/rematch/"), 409, "game_not_finished")  # being played
    refusal(eve.post(f"/api/v1/games/{game_id}/rematch/"), 403, "forbidden")
    assert bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json").status_code == 201
    refusal(eve.post(f"/api/v1/games/{game_id}/rematch/"), 403, "forbidden")  # over, but not hers
    refusal(ann.post("/api/v1/games/00000000-0000-0000-0000-000000000000/rematch/"), 404, "not_found")
    assert Game.objects.count() == 1


def test_an_abandoned_game_has_its_rematch_too(archive_deck, make_user, client_for, committing):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = create(committing, ann, archive_deck(20).slug)["id"]
    assert join(bob, game_id).status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    for client in (ann, bob):
        agreed = client.post(f"/api/v1/games/{game_id}/commands/", {"type": "abandon"}, format="json")
        assert agreed.status_code == 201, agreed.content
    assert ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "abandoned"
    answer = committing(ann.post, f"/api/v1/games/{game_id}/rematch/")
    assert answer.status_code == 201, answer.content
    assert invitations(bob)[0]["data"]["rematch_of"] == game_id


def test_a_rematch_seats_the_computer_players_again_at_their_levels(archive_deck, make_user, client_for,
                                                                    committing):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = create(committing, ann, archive_deck(30).slug, max_players=4)["id"]
    for level in ("greedy", "random"):
        assert ann.post(f"/api/v1/games/{game_id}/bots/", {"level": level}, format="json").status_code == 201
    assert join(bob, game_id).status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # Ann wins by the deck's Special Rule, as the players trust her (the game's `unread_effects`).
    rule = ann.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    won = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "win", "cause": rule}, format="json")
    assert won.status_code == 201, won.content
    assert ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "finished"

    answer = committing(bob.post, f"/api/v1/games/{game_id}/rematch/")
    assert answer.status_code == 201, answer.content
    seated = answer.json()["players"]
    assert [(p["username"], p.get("bot")) for p in seated] == [
        ("bob", None), ("Computer 1", "greedy"), ("Computer 2", "random")]
    [notice] = invitations(ann)
    assert notice["data"]["rematch_of"] == game_id
    assert events_of(bob, answer.json()["id"])[0]["data"]["invited"] == ["ann"]  # no computer player is invited


def test_a_ccg_rematch_brings_the_askers_own_player_deck_or_says_why_it_cannot(
        filibuster_with_cards, players, committing):  # noqa: F811
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's gambits")
    created = create_ccg_game(ann, ann_deck["id"], formal=True)
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": bob_deck["id"]},
                    format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json").status_code == 201

    answer = committing(bob.post, f"/api/v1/games/{game_id}/rematch/")
    assert answer.status_code == 201, answer.content
    new = answer.json()
    assert new["variant"] == "ccg" and [p["username"] for p in new["players"]] == ["bob"]
    assert new["players"][0]["deck"]["id"] == bob_deck["id"]  # his own deck, not Ann's of the last game's options
    assert bob.get(f"/api/v1/player-decks/{bob_deck['id']}/").json()["in_game"] is True
    assert ann.post(f"/api/v1/games/{new['id']}/join/", {"player_deck": ann_deck["id"]},
                    format="json").status_code == 200

    # Ann's deck is deleted once that game is cancelled: her rematch of the first game cannot bring it.
    assert bob.delete(f"/api/v1/games/{new['id']}/").status_code == 204
    assert ann.delete(f"/api/v1/player-decks/{ann_deck['id']}/").status_code == 204
    error = refusal(ann.post(f"/api/v1/games/{game_id}/rematch/"), 404, "not_found")
    assert "rematch" in error["message"] and error["details"]["player_deck"] == ann_deck["id"]
    assert Game.objects.filter(created_by__username="ann").count() == 1
