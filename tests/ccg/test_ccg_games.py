"""CCG games through the game API: each player brings a player deck; a deck follows its set's new versions at
once, in a game too; formal games refuse a deck left behind on an older version; a deck cannot be tuned while a
game plays it, and can again once the game is over."""

import pytest

from tests.ccg.conftest import FILIBUSTER, accept, propose

pytestmark = pytest.mark.django_db


def build_deck(client, cards: dict[str, dict], name: str) -> dict:
    entries = [{"card": card["id"], "count": 5} for card in cards.values()]
    answer = client.post("/api/v1/player-decks/", {"card_set": FILIBUSTER, "name": name, "entries": entries},
                         format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["valid"], answer.json()["problems"]
    return answer.json()


def create_ccg_game(client, player_deck: int, *, formal: bool):
    return client.post("/api/v1/games/", {
        "deck": FILIBUSTER, "ruleset": "dvorak", "variant": "ccg", "max_players": 2,
        "options": {"player_deck": player_deck, "formal": formal},
    }, format="json")


def test_each_player_plays_their_own_deck_and_tuning_waits_for_the_game_to_end(filibuster_with_cards, players):
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's gambits")

    created = create_ccg_game(ann, ann_deck["id"], formal=True)
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    stolen = bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": ann_deck["id"]}, format="json")
    assert stolen.status_code == 404 and stolen.json()["error"]["code"] == "not_found"
    joined = bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": bob_deck["id"]}, format="json")
    assert joined.status_code == 200, joined.json()
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    state = bob.get(f"/api/v1/games/{game_id}/").json()
    for player in state["players"]:
        assert player["draw_pile"]["count"] == 20 - 5  # each draws five from their own deck
        assert player["deck"]["name"] in {"Ann's filibusters", "Bob's gambits"}

    tune = {"entries": [{"card": card["id"], "count": 6} for card in filibuster_with_cards.values()]}
    refused = ann.patch(f"/api/v1/player-decks/{ann_deck['id']}/", tune, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deck_in_game"

    assert bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json").status_code == 201
    assert ann.get(f"/api/v1/games/{game_id}/").json()["status"] == "finished"
    tuned = ann.patch(f"/api/v1/player-decks/{ann_deck['id']}/", tune, format="json")
    assert tuned.status_code == 200 and tuned.json()["size"] == 24


def test_a_deck_a_game_plays_follows_a_new_version_at_once_and_a_formal_game_takes_it_after(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    """CCG Dvorak: "Any adjustments to the Card Set should be immediately reflected in every player's deck", and a
    deck "built with an earlier version of the Card Set" should be updated "before playing any formal games with
    it": the service does that update itself, so no deck is left behind for a formal game to refuse."""
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Old faithful")
    bob_deck = build_deck(bob, filibuster_with_cards, "Bob's")
    # While a game plays Ann's deck, a new version of the set comes out.
    playing = create_ccg_game(ann, ann_deck["id"], formal=True).json()["id"]
    pork_barrel = filibuster_with_cards["Pork Barrel"]["id"]
    with django_capture_on_commit_callbacks(execute=True):
        change = propose(bob, {"kind": "change", "card": pork_barrel, "content": {"text": "Gain 5 points."}})
        accept(ann, change["id"])
    deck = ann.get(f"/api/v1/player-decks/{ann_deck['id']}/").json()
    assert deck["version"] == deck["latest_version"] == 3 and deck["in_game"]
    assert next(entry for entry in deck["entries"] if entry["card"] == pork_barrel)["text"] == "Gain 5 points."
    # The game goes on with the deck as it was dealt: its players see the version it was brought at.
    game = ann.get(f"/api/v1/games/{playing}/").json()
    assert game["players"][0]["deck"]["version"] == 2
    assert "goes on with the cards it was dealt" in ann.get("/api/v1/notifications/").json()[0]["body"]

    bob.post(f"/api/v1/games/{playing}/join/", {"player_deck": bob_deck["id"]}, format="json")
    ann.post(f"/api/v1/games/{playing}/start/")
    bob.post(f"/api/v1/games/{playing}/commands/", {"type": "concede"}, format="json")
    assert not ann.get(f"/api/v1/player-decks/{ann_deck['id']}/").json()["in_game"]

    formal = create_ccg_game(ann, ann_deck["id"], formal=True)
    assert formal.status_code == 201, formal.json()
    assert formal.json()["players"][0]["deck"]["version"] == 3


def test_a_formal_game_refuses_a_deck_left_behind_a_casual_one_takes_it(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    """A deck stored on an older version before decks in a game followed the set: "he or she should check and
    update it before playing any formal games with it"."""
    from tests.ccg.test_set_update import leave_behind

    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Old faithful")
    with django_capture_on_commit_callbacks(execute=True):
        change = propose(bob, {"kind": "add", "content": {"title": "Recount", "type": "Gambit", "text": "Roll again."}})
        accept(ann, change["id"])
    leave_behind(ann_deck["id"], version=2, entries={card["id"]: 5 for card in filibuster_with_cards.values()})

    refused = create_ccg_game(ann, ann_deck["id"], formal=True)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deck_outdated"
    assert refused.json()["error"]["details"] == {"version": 2, "latest_version": 3}
    casual = create_ccg_game(ann, ann_deck["id"], formal=False)
    assert casual.status_code == 201, casual.json()

    # Following the set is not tuning: the deck is updated in the casual game too, and a formal game takes it.
    updated = ann.post(f"/api/v1/player-decks/{ann_deck['id']}/update/")
    assert updated.status_code == 200 and updated.json()["version"] == 3
    assert create_ccg_game(ann, ann_deck["id"], formal=True).status_code == 201


def test_a_ccg_game_needs_a_player_deck_at_join(filibuster_with_cards, players):
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Mine")
    game_id = create_ccg_game(ann, ann_deck["id"], formal=False).json()["id"]
    bare = bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert bare.status_code == 400 and bare.json()["error"]["code"] == "invalid"
    missing = bob.post(f"/api/v1/games/{game_id}/join/", {"player_deck": 999999}, format="json")
    assert missing.status_code == 404


def test_a_player_deck_comes_only_through_join_never_in_a_forged_join_command(filibuster_with_cards, players):
    """The join endpoint checks the deck is yours and valid; a raw "join" command would skip those checks."""
    (_, ann), (_, bob) = players
    ann_deck = build_deck(ann, filibuster_with_cards, "Ann's filibusters")
    game_id = create_ccg_game(ann, ann_deck["id"], formal=True).json()["id"]
    before = ann.get(f"/api/v1/games/{game_id}/").json()

    forged = {"id": 1, "name": "Forged", "card_set": FILIBUSTER, "version": 1,
              "cards": [{"title": "Instant Win", "type": "Gambit", "text": "You win.", "copies": 30}]}
    answer = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "join", "player_deck": forged}, format="json")

    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    assert "player_deck" in answer.json()["error"]["details"]
    after = ann.get(f"/api/v1/games/{game_id}/").json()
    assert after["version"] == before["version"] and len(after["players"]) == 1
