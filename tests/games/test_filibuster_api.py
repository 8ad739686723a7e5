"""Filibuster through the real API: the seed entry (no cards yet) refused with the list of what is missing, the
project's sample set played, the card data checked by the archive, a reveal hidden until both are in; by default
("This is a CCG set") a game played with player decks built from the sample set, from their building to the
game's end, a whole-set copy each as the "standard" option; more than one filibuster a step; the options checked."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from decks.management.commands.load_seed_decks import SAMPLE_DATA
from tests.engine.test_legal_moves import filled
from tests.seeds import seed_deck_json

pytestmark = pytest.mark.django_db
SAMPLE = "filibuster-sample-set"
SEED = "filibuster-ccg-set"
# Far more commands than a game of two takes (some 100 to 300).
MAX_COMMANDS = 2000


@pytest.fixture
def decks(db):
    from decks import services as deck_services

    deck_services.deck_import(author=None, text=seed_deck_json(SEED), format="json")
    deck_services.deck_import(author=None, text=Path(SAMPLE_DATA / f"{SAMPLE}.json").read_text(encoding="utf-8"),
                              format="json")


def test_the_seed_entry_has_no_cards_and_a_game_from_it_is_refused_with_what_is_missing(decks, make_user,
                                                                                        client_for):
    client = client_for(make_user())
    seed = client.get(f"/api/v1/decks/{SEED}/").json()
    assert seed["cards"] == [] and seed["ruleset"] == "filibuster"
    refused = client.post("/api/v1/games/", {"deck": SEED, "max_players": 2}, format="json")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "card_data_missing" and error["details"]["ruleset"] == "filibuster"
    assert error["details"]["cards"][0]["field"] == "cards"


def test_the_sample_set_is_titled_as_a_sample_and_credited_to_the_project(decks, make_user, client_for):
    sample = client_for(make_user()).get(f"/api/v1/decks/{SAMPLE}/").json()
    assert "sample" in sample["title"].lower() and "Dvorak service project" in sample["title"]
    assert sample["designers"] == ["The Dvorak service project"] and sample["kind"] == "card_set"
    assert {card["type"] for card in sample["cards"]} == {"Campaign", "Gambit", "Constant"}


def test_the_archive_refuses_an_invalid_value_and_a_game_lists_what_is_missing_per_card(make_user, client_for):
    client = client_for(make_user("curator", curator=True))
    body = {"title": "My Filibuster cards", "kind": "card_set", "ruleset": "filibuster", "cards": [
        {"title": "Rally", "type": "Campaign", "corner_value": "4", "text": "Gain 5 points.", "stats": {"points": 5}},
        {"title": "Whip", "type": "Gambit", "corner_value": "high", "text": "Draw a card."}]}
    wrong = client.post("/api/v1/decks/", body, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["error"]["details"]["cards"][0]["field"] == "corner_value"

    body["cards"][1]["corner_value"] = ""
    body["cards"].append({"title": "Office", "text": "A Constant, not typed yet."})
    created = client.post("/api/v1/decks/", body, format="json")
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    refused = client.post("/api/v1/games/", {"deck": slug, "max_players": 2}, format="json")
    assert refused.status_code == 409
    assert [(p["card"], p["title"], p["field"], p["problem"]) for p in refused.json()["error"]["details"]["cards"]] \
        == [(1, "Whip", "corner_value", "missing"), (2, "Office", "type", "missing"),
            (2, "Office", "corner_value", "missing")]

    cards = client.get(f"/api/v1/decks/{slug}/").json()["cards"]
    assert client.patch(f"/api/v1/decks/{slug}/cards/{cards[1]['id']}/", {"corner_value": "3"},
                        format="json").status_code == 200
    assert client.patch(f"/api/v1/decks/{slug}/cards/{cards[2]['id']}/", {"type": "Constant", "corner_value": "2"},
                        format="json").status_code == 200
    assert client.post("/api/v1/games/", {"deck": slug, "variant": "standard", "max_players": 2},
                       format="json").status_code == 201


def test_a_game_of_the_sample_set_hides_a_reveal_until_both_are_in(decks, make_user, client_for):
    clients = [client_for(make_user(name)) for name in ("ann", "bob")]
    created = clients[0].post("/api/v1/games/", {"deck": SAMPLE, "variant": "standard", "max_players": 2},
                              format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert clients[1].post(f"/api/v1/games/{game}/join/", {}, format="json").status_code == 200
    started = clients[0].post(f"/api/v1/games/{game}/start/")
    assert started.status_code == 200
    state = clients[0].get(f"/api/v1/games/{game}/").json()
    assert state["ruleset"] == "filibuster" and state["board"]["step"] == "beginning"
    pitcher = state["board"]["pitcher"]
    other = 1 - pitcher
    assert clients[other].get(f"/api/v1/games/{game}/moves/").json()["moves"] == [{"type": "filibuster"},
                                                                                  {"type": "pass"}]
    answer = clients[other].post(f"/api/v1/games/{game}/commands/", {"type": "filibuster"}, format="json")
    assert answer.status_code == 201, answer.content
    [move] = clients[other].get(f"/api/v1/games/{game}/moves/").json()["moves"]
    card = move["card"]["from"][0]
    version = clients[other].post(f"/api/v1/games/{game}/commands/", {"type": "reveal_card", "card": card},
                                  format="json").json()["version"]
    seen = [clients[pitcher].get(f"/api/v1/games/{game}/").json(),
            clients[pitcher].get(f"/api/v1/games/{game}/events/?after={version - 1}").json(),
            clients[pitcher].get(f"/api/v1/games/{game}/moves/").json()]
    assert card not in json.dumps(seen)
    assert seen[0]["choices"] == {"waiting_for": [pitcher], "made": [{"seat": other}]}
    [move] = seen[2]["moves"]
    answer = clients[pitcher].post(f"/api/v1/games/{game}/commands/",
                                   {"type": "reveal_card", "card": move["card"]["from"][0]}, format="json")
    assert answer.status_code == 201
    revealed = next(e for e in answer.json()["events"] if e["type"] == "filibuster.revealed")
    assert card in {entry["card"]["id"] for entry in revealed["data"]["cards"]}


def test_a_ccg_game_is_played_with_player_decks_built_from_the_sample_set(decks, make_user, client_for):
    ann, bob = make_user("ann"), make_user("bob")
    clients = [client_for(ann), client_for(bob)]
    version = clients[0].get(f"/api/v1/decks/{SAMPLE}/versions/1/").json()
    entries = [{"card": card["id"], "count": card["copies"]} for card in version["cards"]]
    player_decks = []
    for client in clients:
        made = client.post("/api/v1/player-decks/", {"card_set": SAMPLE, "name": "Mine", "entries": entries},
                           format="json")
        assert made.status_code == 201 and made.json()["valid"], made.content
        player_decks.append(made.json()["id"])
    created = clients[0].post("/api/v1/games/", {"deck": SAMPLE, "variant": "ccg", "max_players": 2,
                                                 "options": {"player_deck": player_decks[0]}}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert "player_deck" not in json.dumps(created.json().get("options", {}))
    joined = clients[1].post(f"/api/v1/games/{game}/join/", {"player_deck": player_decks[1]}, format="json")
    assert joined.status_code == 200, joined.content
    assert [p["deck"]["id"] for p in joined.json()["players"]] == player_decks
    assert clients[0].post(f"/api/v1/games/{game}/start/").status_code == 200
    assert clients[1].get(f"/api/v1/player-decks/{player_decks[1]}/").json()["in_game"] is True


# --- the player decks each player brings, by default ---------------------------------------------------------


def build_player_deck(client, name: str = "Mine") -> int:
    """A player deck built through the CCG API from the sample set: every card of its first version, as many
    copies as the set has."""
    version = client.get(f"/api/v1/decks/{SAMPLE}/versions/1/").json()
    entries = [{"card": card["id"], "count": card["copies"]} for card in version["cards"]]
    made = client.post("/api/v1/player-decks/", {"card_set": SAMPLE, "name": name, "entries": entries},
                       format="json")
    assert made.status_code == 201 and made.json()["valid"], made.content
    return made.json()["id"]


def sample_size() -> int:
    cards = json.loads(Path(SAMPLE_DATA / f"{SAMPLE}.json").read_text(encoding="utf-8"))["cards"]
    return sum(card.get("copies", 1) for card in cards)


def started_with_player_decks(clients, options: dict | None = None) -> tuple[str, list[int]]:
    """A game created as a client creates one, naming no variant: each player brings a player deck (the creator
    in ``options.player_deck``, the others when joining). Started."""
    decks = [build_player_deck(client) for client in clients]
    created = clients[0].post("/api/v1/games/", {"deck": SAMPLE, "max_players": len(clients),
                                                 "options": {"player_deck": decks[0], **(options or {})}},
                              format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    for client, deck in zip(clients[1:], decks[1:], strict=True):
        joined = client.post(f"/api/v1/games/{game}/join/", {"player_deck": deck}, format="json")
        assert joined.status_code == 200, joined.content
    assert clients[0].post(f"/api/v1/games/{game}/start/").status_code == 200
    return game, decks


def test_this_is_a_ccg_set_by_default_each_player_brings_a_player_deck_and_plays_it_to_the_end(decks, make_user,
                                                                                               client_for,
                                                                                               unthrottled):
    """"This is a CCG set, a set of cards which can be used to construct personalised decks": a game created with
    no variant is played with player decks, built through the CCG API, from its creation to its winner."""
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game, player_decks = started_with_player_decks([ann, bob])
    state = ann.get(f"/api/v1/games/{game}/").json()
    assert state["variant"] == "ccg" and state["rules"] == {"filibusters": "each", "dice": 2}
    assert [player["deck"]["id"] for player in state["players"]] == player_decks
    # Each plays their own deck: its cards in their hand and draw pile, and nobody else's.
    assert [player["hand_count"] + player["draw_pile"]["count"] for player in state["players"]] == [sample_size()] * 2
    assert ann.get(f"/api/v1/player-decks/{player_decks[0]}/").json()["in_game"] is True

    clients, chooser, sent = [ann, bob], random.Random(8), 0
    while sent < MAX_COMMANDS:
        offers = [(seat, moves) for seat, client in enumerate(clients)
                  if (moves := client.get(f"/api/v1/games/{game}/moves/").json()["moves"])]
        if not offers:
            break
        seat, moves = chooser.choice(offers)
        answer = clients[seat].post(f"/api/v1/games/{game}/commands/", filled(chooser.choice(moves), chooser),
                                    format="json")
        assert answer.status_code == 201, answer.content
        sent += 1
    state = ann.get(f"/api/v1/games/{game}/").json()
    assert state["status"] == "finished", f"not over after {sent} commands"
    [winner] = state["winners"]
    assert state["players"][winner]["counters"]["points"] >= 200
    # The game over, each player deck is theirs to tune again.
    assert [client.get(f"/api/v1/player-decks/{deck}/").json()["in_game"]
            for client, deck in zip(clients, player_decks, strict=True)] == [False, False]


def test_a_game_created_without_a_player_deck_is_refused_saying_what_to_send(decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    refused = ann.post("/api/v1/games/", {"deck": SAMPLE, "max_players": 2}, format="json")
    assert refused.status_code == 400, refused.content
    error = refused.json()["error"]
    assert error["code"] == "invalid" and error["details"]["field"] == "options.player_deck"
    assert "options.player_deck" in error["message"] and '"variant": "standard"' in error["message"]
    assert ann.get("/api/v1/games/").json()["results"] == []
    not_an_id = ann.post("/api/v1/games/", {"deck": SAMPLE, "options": {"player_deck": "mine"}}, format="json")
    assert not_an_id.status_code == 400 and not_an_id.json()["error"]["code"] == "invalid"
    nobodys = ann.post("/api/v1/games/", {"deck": SAMPLE, "options": {"player_deck": 999999}}, format="json")
    assert nobodys.status_code == 404

    created = ann.post("/api/v1/games/", {"deck": SAMPLE, "max_players": 2,
                                          "options": {"player_deck": build_player_deck(ann)}}, format="json")
    assert created.status_code == 201, created.content
    bare = bob.post(f"/api/v1/games/{created.json()['id']}/join/", {}, format="json")
    assert bare.status_code == 400, bare.content
    assert bare.json()["error"]["details"]["field"] == "player_deck"
    assert "player deck" in bare.json()["error"]["message"]


def test_the_standard_option_gives_every_player_a_copy_of_the_whole_set(decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    created = ann.post("/api/v1/games/", {"deck": SAMPLE, "variant": "standard", "max_players": 2}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()["id"]
    assert created.json()["variant"] == "standard"
    brought = bob.post(f"/api/v1/games/{game}/join/", {"player_deck": build_player_deck(bob)}, format="json")
    assert brought.status_code == 400 and brought.json()["error"]["details"]["field"] == "player_deck"
    assert bob.post(f"/api/v1/games/{game}/join/", {}, format="json").status_code == 200
    assert ann.post(f"/api/v1/games/{game}/start/").status_code == 200
    state = bob.get(f"/api/v1/games/{game}/").json()
    assert [player["deck"] for player in state["players"]] == [None, None]
    assert [player["hand_count"] + player["draw_pile"]["count"] for player in state["players"]] == [sample_size()] * 2


# --- filibusters a step, and the options ---------------------------------------------------------------------


def settle_a_filibuster(clients, game: str, seat: int) -> dict:
    """``seat`` filibusters the pitcher; both reveal the first card they are offered; a former pitcher asked to
    counter passes. The state after it."""
    answer = clients[seat].post(f"/api/v1/games/{game}/commands/", {"type": "filibuster"}, format="json")
    assert answer.status_code == 201, answer.content
    for client in (clients[seat], *(c for c in clients if c is not clients[seat])):
        for move in client.get(f"/api/v1/games/{game}/moves/").json()["moves"]:
            if move["type"] == "reveal_card":
                client.post(f"/api/v1/games/{game}/commands/", {"type": "reveal_card", "card": move["card"]["from"][0]},
                            format="json")
    state = clients[0].get(f"/api/v1/games/{game}/").json()
    if state["board"]["phase"] == "counter":
        acting = state["board"]["acting"]
        assert clients[acting].post(f"/api/v1/games/{game}/commands/", {"type": "pass"},
                                    format="json").status_code == 201
        state = clients[0].get(f"/api/v1/games/{game}/").json()
    return state


def test_if_you_are_not_the_pitcher_you_can_filibuster_each_of_you_in_the_same_step(decks, make_user, client_for):
    """"At the beginning of any step during a campaign except the roll step, if you are not the pitcher, you can
    filibuster the pitcher": a filibuster no longer closes the window; the other non-pitcher may filibuster too."""
    clients = [client_for(make_user(name)) for name in ("ann", "bob", "cat")]
    game, _ = started_with_player_decks(clients)
    board = clients[0].get(f"/api/v1/games/{game}/").json()["board"]
    first, second = board["window"]
    version = clients[0].get(f"/api/v1/games/{game}/").json()["version"]
    state = settle_a_filibuster(clients, game, first)
    assert state["board"]["step"] == "beginning" and state["board"]["phase"] == "filibuster_window"
    assert second in state["board"]["window"] and state["board"]["filibustered"] == [first]
    assert clients[second].get(f"/api/v1/games/{game}/moves/").json()["moves"] == [{"type": "filibuster"},
                                                                                  {"type": "pass"}]
    assert clients[second].post(f"/api/v1/games/{game}/commands/", {"type": "filibuster"},
                                format="json").status_code == 201
    events = clients[0].get(f"/api/v1/games/{game}/events/?after={version}").json()["events"]
    assert [e["data"]["seat"] for e in events if e["type"] == "filibuster.declared"] == [first, second]
    assert not any(e["type"] == "filibuster.step_began" for e in events)  # all in the one Beginning Step


def test_one_filibuster_a_step_remains_an_option(decks, make_user, client_for):
    clients = [client_for(make_user(name)) for name in ("ann", "bob", "cat")]
    game, _ = started_with_player_decks(clients, {"filibusters": "one"})
    state = clients[0].get(f"/api/v1/games/{game}/").json()
    assert state["rules"] == {"filibusters": "one", "dice": 2} and "filibustered" not in state["board"]
    first, second = state["board"]["window"]
    state = settle_a_filibuster(clients, game, first)
    assert state["board"]["phase"] != "filibuster_window" and state["board"]["window"] == []
    assert {"type": "filibuster"} not in clients[second].get(f"/api/v1/games/{game}/moves/").json()["moves"]


def test_the_options_players_might_disagree_on_are_checked_and_kept(decks, make_user, client_for):
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    deck = build_player_deck(ann)
    for options, field in (({"filibusters": "many"}, "options.filibusters"), ({"dice": 0}, "options.dice"),
                           ({"dice": 7}, "options.dice"), ({"dice": True}, "options.dice"),
                           ({"dice": "2"}, "options.dice")):
        refused = ann.post("/api/v1/games/", {"deck": SAMPLE, "options": {"player_deck": deck, **options}},
                           format="json")
        assert refused.status_code == 400, (options, refused.content)
        assert refused.json()["error"]["code"] == "invalid"
        assert refused.json()["error"]["details"]["field"] == field
    game, _ = started_with_player_decks([ann, bob], {"dice": 3})
    state = ann.get(f"/api/v1/games/{game}/").json()
    assert state["rules"] == {"filibusters": "each", "dice": 3}
    assert all(len(roll["dice"]) == 3 for roll in state["board"]["rolls"])
    created = ann.get(f"/api/v1/games/{game}/events/?after=0").json()["events"][0]
    assert created["type"] == "game.created"
    assert created["data"]["options"] == {"filibusters": "each", "dice": 3}  # the player deck is not shown
