"""Booster draft through the API (the `draft` ruleset, docs/draft.md): a draft of the Filibuster sample set, created
from a card set, played from `GET /moves/` to its end, one seat a computer player or two people, ends with a player
deck of each person's picks (`GET /api/v1/player-decks/`); a deck that is not a card set is refused, a pack is seen
by its holder alone and a pick by its picker alone."""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest

from decks import services as deck_services
from decks.management.commands.load_seed_decks import SAMPLE_DATA
from tests.seeds import seed_deck_json

SET = "filibuster-sample-set"
PATIENCE = 10.0


@pytest.fixture
def sample_set(db) -> str:
    text = (SAMPLE_DATA / f"{SET}.json").read_text(encoding="utf-8")
    deck_services.deck_import(author=None, text=text, format="json", skip_existing=True)
    return SET


def create(client, **body) -> dict:
    created = client.post("/api/v1/games/", {"deck": SET, "ruleset": "draft", "max_players": 2, **body},
                          format="json")
    assert created.status_code == 201, created.content
    return created.json()


def play_to_the_end(players: dict[str, object], game_id: str, chooser: random.Random) -> list[dict]:
    """Each person sends one of their listed moves, as listed, until the game is over; every body they get is kept."""
    bodies: list[dict] = []
    stop = time.monotonic() + 60
    while time.monotonic() < stop:
        state = next(iter(players.values())).get(f"/api/v1/games/{game_id}/").json()
        if state["status"] != "active":
            return bodies
        moved = False
        for client in players.values():
            answer = client.get(f"/api/v1/games/{game_id}/moves/").json()
            bodies.append(answer)
            if not answer["moves"]:
                continue
            move = chooser.choice(answer["moves"])
            sent = client.post(f"/api/v1/games/{game_id}/commands/", move, format="json",
                               HTTP_IF_MATCH=f'"{answer["version"]}"')
            assert sent.status_code in (201, 412), (move, sent.content)  # 412: the computer player moved first
            bodies.append(sent.json())
            moved = True
        if not moved:
            time.sleep(0.02)  # the computer player's pick is awaited
    pytest.fail("the draft did not end")


def player_decks(client) -> list[dict]:
    return client.get("/api/v1/player-decks/").json()


def picked(client, game_id) -> Counter:
    """The cards the caller picked, as the final state shows them to the caller: card id in the set → copies."""
    me = next(p for p in client.get(f"/api/v1/games/{game_id}/").json()["players"] if "picks" in p)
    return Counter(int(card["id"]) for card in me["picks"])


@pytest.mark.django_db(transaction=True)
def test_a_draft_against_a_computer_player_from_the_moves_ends_with_a_player_deck_of_the_picks(
        sample_set, make_user, client_for, unthrottled, computer_players_run):
    ann = client_for(make_user("ann"))
    game = create(ann)
    assert game["rules"] == {"packs": 3, "pack_size": None, "pool": "copies", "rarity": None}
    assert game["deck"]["slug"] == SET and game["deck"]["version"] == 1
    seated = ann.post(f"/api/v1/games/{game['id']}/bots/", {"level": "greedy"}, format="json")
    assert seated.status_code == 201, seated.content
    started = ann.post(f"/api/v1/games/{game['id']}/start/")
    assert started.status_code == 200, started.content
    # The sample set's 29 cards make two players three packs of four (29 // 6).
    state = started.json()
    me = state["players"][0]
    assert state["board"] == {"round": 1, "rounds": 3, "pick": 1, "direction": "left"}
    assert state["rules"]["pack_size"] == 4 and me["pack_count"] == len(me["pack"]) == 4 and me["picks"] == []
    assert "pack" not in state["players"][1] and state["players"][1]["pack_count"] == 4
    moves = ann.get(f"/api/v1/games/{game['id']}/moves/").json()["moves"]
    assert moves == [{"type": "pick", "card": card} for card in dict.fromkeys(c["id"] for c in me["pack"])]

    play_to_the_end({"ann": ann}, game["id"], random.Random(1))
    final = ann.get(f"/api/v1/games/{game['id']}/").json()
    assert (final["status"], final["winners"]) == ("finished", [])
    assert [p["picks_count"] for p in final["players"]] == [12, 12]
    assert "picks" not in final["players"][1]  # the computer player's picks are its own
    picks = picked(ann, game["id"])
    assert sum(picks.values()) == 12

    [deck] = player_decks(ann)
    assert deck["card_set"] == SET and deck["name"].startswith("Draft ") and game["id"][:8] in deck["name"]
    assert Counter({entry["card"]: entry["count"] for entry in deck["entries"]}) == picks
    assert deck["size"] == 12 and not deck["in_game"]
    # Tuned afterwards like any other: twelve cards are fewer than the set's decks need, and more are added.
    assert deck["valid"] is False
    entries = [{"card": card, "count": count + 1} for card, count in picks.items()]
    tuned = ann.patch(f"/api/v1/player-decks/{deck['id']}/", {"entries": entries}, format="json")
    assert tuned.status_code == 200, tuned.content
    assert tuned.json()["size"] == 12 + len(picks)
    notice = ann.get("/api/v1/notifications/").json()[0]
    assert notice["data"] == {"game": game["id"], "player_deck": deck["id"], "card_set": SET}
    # The computer player got no deck.
    from ccg.models import PlayerDeck

    assert list(PlayerDeck.objects.values_list("owner__username", flat=True)) == ["ann"]


@pytest.mark.django_db
def test_a_draft_of_two_people_keeps_packs_and_picks_to_their_holders_and_gives_each_their_deck(
        sample_set, make_user, client_for, unthrottled):
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    game_id = create(ann, options={"packs": 2, "pack_size": 3})["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    ann_pack = next(p for p in ann.get(f"/api/v1/games/{game_id}/").json()["players"] if p["seat"] == 0)["pack"]
    assert len(ann_pack) == 3

    # Ann picks: until Bob has picked too, Bob and a spectator see that she picked, never what.
    first = ann_pack[0]["id"]
    assert ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "pick", "card": first},
                    format="json").status_code == 201
    for viewer in (bob, eve):
        state = viewer.get(f"/api/v1/games/{game_id}/").json()
        assert state["choices"] == {"waiting_for": [1], "made": [{"seat": 0}]}
        for player in state["players"]:
            player.pop("pack", None)  # Bob's own pack may hold other copies of Ann's cards
        seen = json.dumps([state, viewer.get(f"/api/v1/games/{game_id}/events/").json()])
        assert not any(f'"{card["id"]}"' in seen for card in ann_pack)
    again = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "pick", "card": ann_pack[1]["id"]},
                     format="json")
    assert again.status_code == 409, again.content
    bob_pack = next(p for p in bob.get(f"/api/v1/games/{game_id}/").json()["players"] if p["seat"] == 1)["pack"]
    answer = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "pick", "card": bob_pack[0]["id"]},
                      format="json")
    assert answer.status_code == 201, answer.content
    revealed = next(e for e in answer.json()["events"] if e["type"] == "choices.revealed")
    assert revealed["data"] == {"choices": {"1": bob_pack[0]["id"]}}  # Bob's own pick, never Ann's
    for viewer, shown in ((ann, {"0": first}), (eve, {})):
        [event] = [e for e in viewer.get(f"/api/v1/games/{game_id}/events/").json()["events"]
                   if e["type"] == "choices.revealed"]
        assert event["data"] == {"choices": shown}
    # The packs passed: Ann now holds what is left of Bob's pack, and Bob what is left of hers.
    ann_now = next(p for p in ann.get(f"/api/v1/games/{game_id}/").json()["players"] if p["seat"] == 0)
    assert [c["id"] for c in ann_now["pack"]] == [c["id"] for c in bob_pack[1:]]
    assert [c["id"] for c in ann_now["picks"]] == [first]
    assert '"picks"' not in json.dumps(eve.get(f"/api/v1/games/{game_id}/").json()["players"])

    play_to_the_end({"ann": ann, "bob": bob}, game_id, random.Random(2))
    for client in (ann, bob):
        [deck] = player_decks(client)
        assert Counter({entry["card"]: entry["count"] for entry in deck["entries"]}) == picked(client, game_id)
        assert deck["size"] == 6
    assert player_decks(eve) == []
    # The last pick is not sent again: the game is over, and still one deck each.
    refused = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "pick", "card": first}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "game_not_active"
    assert len(player_decks(ann)) == 1


@pytest.mark.django_db
def test_a_draft_is_created_from_a_card_set_big_enough(sample_set, make_user, client_for):
    ann = client_for(make_user("ann"))
    deck_services.deck_import(author=None, text=seed_deck_json("socialism"), format="json")
    refused = ann.post("/api/v1/games/", {"deck": "socialism", "ruleset": "draft"}, format="json")
    assert refused.status_code == 409, refused.content
    assert refused.json()["error"]["code"] == "not_a_card_set"
    assert refused.json()["error"]["details"] == {"slug": "socialism"}

    too_big = ann.post("/api/v1/games/", {"deck": SET, "ruleset": "draft", "options": {"pack_size": 15}},
                       format="json")
    assert too_big.status_code == 409 and too_big.json()["error"]["code"] == "not_enough_cards", too_big.content
    assert too_big.json()["error"]["details"]["needed"] == 90
    for wrong in ({"packs": 0}, {"pool": "all"}, {"rarity": {"mythic": 1}}, {"pack_size": 2, "rarity": {"rare": 3}}):
        answer = ann.post("/api/v1/games/", {"deck": SET, "ruleset": "draft", "options": wrong}, format="json")
        assert answer.status_code == 400, (wrong, answer.content)
        assert answer.json()["error"]["details"]["field"].startswith("options."), answer.content

    # One of each of the set's 21 cards makes five players three packs of one card (21 // 15).
    game_id = create(ann, max_players=5, options={"pool": "one_each"})["id"]
    for name in ("bob", "cat", "dan", "eve"):
        joined = client_for(make_user(name)).post(f"/api/v1/games/{game_id}/join/", {}, format="json")
        assert joined.status_code == 200
    started = ann.post(f"/api/v1/games/{game_id}/start/")
    assert started.status_code == 200, started.content
    assert started.json()["rules"] == {"packs": 3, "pack_size": 1, "pool": "one_each", "rarity": None}


@pytest.mark.django_db
def test_the_decks_follow_the_set_s_latest_version_and_a_set_gone_ends_the_draft_without_them(
        sample_set, make_user, client_for, unthrottled):
    from ccg.models import CardSetVersion
    from ccg.services import card_set_version_ensure
    from decks.models import Deck

    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = create(ann, options={"packs": 1, "pack_size": 14})["id"]  # one pack: every card of it is picked
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    # A version of the set is built meanwhile, without one of the cards Ann holds.
    first = card_set_version_ensure(slug=SET)
    gone = int(ann.get(f"/api/v1/games/{game_id}/").json()["players"][0]["pack"][0]["id"])
    CardSetVersion.objects.create(card_set=first.card_set, number=2, changelog=["Removed a card"],
                                  content={**first.content, "cards": [c for c in first.content["cards"]
                                                                      if c["id"] != gone]})
    # Ann's first pick is that card (left to chance, the pack passes and Bob may take it).
    first_pick = next(move for move in ann.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
                      if move["type"] == "pick" and int(move["card"]) == gone)
    assert ann.post(f"/api/v1/games/{game_id}/commands/", first_pick, format="json").status_code == 201
    play_to_the_end({"ann": ann, "bob": bob}, game_id, random.Random(3))
    picks = picked(ann, game_id)
    [deck] = player_decks(ann)
    assert deck["version"] == 2 and gone in picks
    assert Counter({entry["card"]: entry["count"] for entry in deck["entries"]}) == picks - Counter({gone: 99})

    # A set deleted from the archive during a draft (its player decks go with it): the draft still ends, its last
    # pick answered as any other (play_to_the_end holds every pick to 201), and makes no deck.
    other = create(ann, options={"packs": 1, "pack_size": 2})["id"]
    assert bob.post(f"/api/v1/games/{other}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{other}/start/").status_code == 200
    Deck.objects.filter(slug=SET).delete()
    play_to_the_end({"ann": ann, "bob": bob}, other, random.Random(4))
    assert ann.get(f"/api/v1/games/{other}/").json()["status"] == "finished"
    assert player_decks(ann) == player_decks(bob) == []
