"""The MUSH text commands over the API: the same rules, events and visibility as the JSON commands."""

import pytest

from dvorak_kit.eventstore import store
from tests.games.test_article_ii_api import seat_players
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db


def say(client, game_id, line: str):
    return client.post(f"/api/v1/games/{game_id}/mush/", {"line": line}, format="json")


def test_a_short_game_in_mush_lines(table):
    game_id, seated = table(2)
    turn = seated[0][1].get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    me, other = seated[turn][1], seated[1 - turn][1]

    hand = say(me, game_id, "viewhand")
    assert hand.status_code == 200
    assert len([line for line in hand.json()["lines"] if "Zq" in line]) == 5

    before = store.current_version(f"game-{game_id}")
    drawn = say(me, game_id, "drawcard").json()
    assert drawn["version"] > before and any("drew" in line for line in drawn["lines"])
    assert store.current_version(f"game-{game_id}") == drawn["version"]

    assert say(other, game_id, "count 0").status_code == 200
    countdraw = say(other, game_id, "countdraw").json()["lines"]
    assert any(str(40 - 11) in line for line in countdraw)

    # The other player's view of the same events never names the drawn card.
    mine = {line for line in say(me, game_id, "viewhand").json()["lines"] if "Zq" in line}
    theirs = " ".join(say(other, game_id, "viewall").json()["lines"])
    assert not any(line.strip(" -0123456789.:") in theirs for line in mine)

    played = say(me, game_id, "playcard 1")
    assert played.status_code in {200, 409}, played.content
    assert say(me, game_id, "endturn").status_code in {200, 409}


def test_mush_refusals_are_json_errors(table):
    game_id, seated = table(2)
    turn = seated[0][1].get(f"/api/v1/games/{game_id}/").json()["turn"]["seat"]
    wrong = say(seated[1 - turn][1], game_id, "drawcard")
    assert wrong.status_code == 409 and wrong.json()["error"]["code"] == "not_your_turn"
    unknown = say(seated[0][1], game_id, "teleport 3")
    assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_command"
    empty = say(seated[0][1], game_id, "")
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "invalid"


def test_creative_play_in_mush_lines(archive_deck, make_user, client_for):
    deck = archive_deck(12)
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 2}, format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    proposed = say(ann, game_id, "newcard Armageddon/A/Destroy all Things.")
    assert proposed.status_code == 200, proposed.content
    assert "voting" == ann.get(f"/api/v1/games/{game_id}/").json()["status"]
    votes = " ".join(say(bob, game_id, "viewvote").json()["lines"])
    assert "Armageddon" in votes
    refused = say(ann, game_id, "approve 1")  # the card "is presented to the other players"
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "denied"
    assert say(bob, game_id, "approve 1").status_code == 200
    state = ann.get(f"/api/v1/games/{game_id}/").json()
    assert state["status"] == "open"
    assert state["proposals"][0]["status"] == "accepted"


def test_a_mush_command_the_games_ruleset_lacks_is_not_available_for_this_ruleset(make_user, client_for):
    from decks import services as deck_services

    [deck] = deck_services.deck_import(author=None, text=seed_deck_json("article-ii-updated"), format="json")
    game_id, seated = seat_players(deck, make_user, client_for, 2)
    client = seated[0][1]
    version = store.current_version(f"game-{game_id}")

    draw = say(client, game_id, "drawcard")
    vote = say(client, game_id, "approve 1")
    hand = say(client, game_id, "viewhand")
    help_lines = " ".join(say(client, game_id, "help").json()["lines"])

    for refused, command, engine_command in ((draw, "drawcard", "draw"), (vote, "approve", "vote")):
        error = refused.json()["error"]
        assert refused.status_code == 400 and error["code"] == "mush_command_unavailable"
        assert error["message"] == (f"'{command}' is not available for this ruleset: it is the engine's "
                                    f"'{engine_command}' command, which the article_ii ruleset does not have. \"help\" "
                                    "lists the commands this game takes.")
        assert error["details"]["ruleset"] == "article_ii" and command not in error["details"]["available"]
    assert store.current_version(f"game-{game_id}") == version
    # What Article II does have still answers: its hands, its plays and turns.
    assert hand.status_code == 200 and hand.json()["lines"]
    assert "playcard N" in help_lines and "endturn" in help_lines and "drawcard" not in help_lines
