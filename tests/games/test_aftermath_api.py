"""Creative play over the API to the end, and the Aftermath published to the archive with each creator."""

import pytest

from decks.models import Deck

pytestmark = pytest.mark.django_db


def command(client, game_id, body):
    response = client.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_cards_voted_in_during_play_are_published_with_their_creators(archive_deck, make_user, client_for):
    deck = archive_deck(12)
    ann, bob = make_user("ann"), make_user("bob")
    a, b = client_for(ann), client_for(bob)
    game_id = a.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 2}, format="json").json()["id"]
    b.post(f"/api/v1/games/{game_id}/join/", {}, format="json")

    command(a, game_id, {"type": "propose", "kind": "card",
                         "card": {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}})
    blocked = b.post(f"/api/v1/games/{game_id}/start/")
    assert blocked.status_code == 409 and blocked.json()["error"]["code"] == "vote_in_progress"
    command(b, game_id, {"type": "vote", "proposal": 1, "approve": True})  # presented to the other player
    command(b, game_id, {"type": "propose", "kind": "card", "card": {"title": "Dud", "type": "Thing", "text": "Nothing."}})
    command(a, game_id, {"type": "vote", "proposal": 2, "approve": False})  # under unanimity, one "no" rejects

    early = a.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_finished"

    assert a.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    command(b, game_id, {"type": "concede"})
    state = a.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "finished"
    assert [c["title"] for c in state["rejected"]] == ["Dud"]

    outsider = client_for(make_user("carl")).post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert outsider.status_code == 403

    published = a.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert published.status_code == 201, published.content
    assert published.json()["deck"] == deck.slug and published.json()["revision"] == 2
    archived = a.get(f"/api/v1/decks/{deck.slug}/").json()
    titles = {c["title"]: c for c in archived["cards"]}
    assert titles["Armageddon"]["creator"] == "ann" and titles["Armageddon"]["type"] == "Action"
    assert "Dud" not in titles
    assert len(archived["cards"]) == 13

    as_new = a.post(f"/api/v1/games/{game_id}/publish/", {"new_deck": True, "title": "Armageddon Deck"}, format="json")
    assert as_new.status_code == 201
    assert Deck.objects.get(slug="armageddon-deck").cards.count() == 13


def test_publishing_to_a_locked_deck_is_refused_and_a_new_deck_is_offered(archive_deck, make_user, client_for):
    from decks import services as deck_services

    deck = archive_deck(12)
    a, b = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = a.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 2}, format="json").json()["id"]
    b.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    a.post(f"/api/v1/games/{game_id}/start/")
    command(b, game_id, {"type": "concede"})
    deck_services.deck_lock(slug=deck.slug, actor=make_user("curator", curator=True))
    revisions = deck.revisions.count()
    locked = a.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")
    assert locked.status_code == 423 and locked.json()["error"]["code"] == "deck_locked"
    assert deck.revisions.count() == revisions
    as_new = a.post(f"/api/v1/games/{game_id}/publish/", {"new_deck": True, "slug": "after-the-lock"}, format="json")
    assert as_new.status_code == 201 and as_new.json() == {"deck": "after-the-lock", "revision": 1}


def test_in_the_aftermath_a_player_who_conceded_reviews_the_deck_and_votes_too(archive_deck, make_user, client_for):
    deck = archive_deck(20)
    a, b, c = (client_for(make_user(name)) for name in ("ann", "bob", "cat"))
    game_id = a.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 3}, format="json").json()["id"]
    for client in (b, c):
        client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert a.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    command(c, game_id, {"type": "concede"})
    out = c.post(f"/api/v1/games/{game_id}/commands/", {"type": "propose", "kind": "card",
                                                        "card": {"title": "Early", "type": "Thing"}}, format="json")
    assert out.status_code == 409 and out.json()["error"]["code"] == "eliminated"  # out while the game is played
    command(b, game_id, {"type": "concede"})
    assert a.get(f"/api/v1/games/{game_id}/").json()["status"] == "finished"

    command(a, game_id, {"type": "propose", "kind": "card", "card": {"title": "Late", "type": "Thing", "text": ""}})
    command(b, game_id, {"type": "vote", "proposal": 1, "approve": True})
    assert a.get(f"/api/v1/games/{game_id}/").json()["status"] == "voting"  # the vote waits for Cat's
    assert c.get(f"/api/v1/games/{game_id}/moves/").json()["moves"] == [
        {"type": "vote", "proposal": 1, "approve": True}, {"type": "vote", "proposal": 1, "approve": False}]
    command(c, game_id, {"type": "vote", "proposal": 1, "approve": True})
    state = a.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "finished" and state["proposals"][0]["status"] == "accepted"
    assert state["proposals"][0]["votes"] == {"1": True, "2": True}  # its author, Ann, presented it


def test_publishing_keeps_the_special_rules_parameters_of_the_deck_and_of_the_game(archive_deck, make_user,
                                                                                     client_for):
    deck = archive_deck(12)
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    patched = ann.patch(f"/api/v1/decks/{deck.slug}/", {"special_rules": [
        {"title": "Big hands", "text": "The hand limit is 7.", "params": {"hand_limit": 7}}]}, format="json")
    assert patched.status_code == 200, patched.content
    game_id = ann.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 2},
                       format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    command(ann, game_id, {"type": "propose", "kind": "special_rule", "rule": {
        "title": "Majority", "text": "Proposals pass by a simple majority. Each player has 3 Gold.",
        "params": {"vote_rule": "majority", "counters": {"gold": 3}}}})
    command(bob, game_id, {"type": "vote", "proposal": 1, "approve": True})
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # The archived rule's parameter took effect in the game it was copied into.
    assert ann.get(f"/api/v1/games/{game_id}/").json()["rules"]["hand_limit"] == 7
    command(bob, game_id, {"type": "concede"})

    published = ann.post(f"/api/v1/games/{game_id}/publish/", {"new_deck": True, "slug": "after-the-vote"},
                         format="json")

    assert published.status_code == 201, published.content
    rules = ann.get("/api/v1/decks/after-the-vote/").json()["special_rules"]
    assert [(rule["title"], rule["params"]) for rule in rules] == [
        ("Big hands", {"hand_limit": 7}),
        ("Majority", {"vote_rule": "majority", "counters": {"gold": 3}}),
    ]
    # A game of the published deck starts with the Special Rules the first game ended with, parameters and all.
    again = ann.post("/api/v1/games/", {"deck": "after-the-vote", "creative": True, "max_players": 2},
                     format="json").json()["id"]
    bob.post(f"/api/v1/games/{again}/join/", {}, format="json")
    started = ann.post(f"/api/v1/games/{again}/start/").json()
    assert (started["rules"]["hand_limit"], started["rules"]["vote_rule"]) == (7, "majority")
    assert all(player["counters"] == {"gold": 3} for player in started["players"])
