"""The rulebook's example cards played through the API in a game that checks effects (``unread_effects``
``claim``): what the server carries out itself happened, and what the card forbids is refused.

Each game's deck holds many copies of a few cards and deals most of them, so every hand holds each card a test
plays (the chance of a hand missing one is below one in a billion)."""

from __future__ import annotations

import json

import pytest

from dvorak_core.deckdata import DeckData

from .test_card_effects_api import Game

pytestmark = pytest.mark.django_db

FRENZY = {"title": "Frenzy", "type": "Thing", "text": "Any number of Actions may be played each turn."}
JELLY_BABY = {"title": "Would You Like A Jelly-Baby?", "type": "Action", "text": ""}
VORPAL_BLADE = {"title": "Vorpal Blade", "type": "Thing", "text": "Action: Snicker-Snack! Destroy a Monster."}
SHORT_CIRCUIT = {"title": "Short Circuit", "type": "Thing",
                 "text": "Play onto a Thing - that Thing may not use its Actions."}
DOOMSDAY = {"title": "Doomsday Device", "type": "Thing", "text": "If a Location is destroyed, destroy all Locations."}
LOCATION = {"title": "Reykjavik", "type": "Location", "text": ""}
LIGHTNING = {"title": "Lightning Strike", "type": "Action",
             "text": "If you control a Head, a Body, two Arms and two Legs, you win the game."}
ESPIONAGE = {"title": "Espionage", "type": "Action", "text": "Take a random card from an opponent's hand."}
JABBERWOCK = {"title": "Jabberwock", "type": "Monster", "text": ""}
GRAVEROBBER = {"title": "Graverobber", "type": "Thing",
               "text": "Action: Choose a Body Part from the discard pile and put it into your hand."}
SKULL = {"title": "Yorick's Skull", "type": "Body Part", "text": ""}
PARTS = [{"title": title, "type": "Thing", "text": ""} for title in ("Robot Head", "Robot Body", "Robot Arm",
                                                                      "Robot Leg")]


@pytest.fixture
def dealt_game(make_user, client_for):
    """A started two-player game checking effects, of ``copies`` of each card, dealing all but two cards."""
    from decks import services as deck_services

    made = []

    def make(cards: list[dict], copies: int = 20, options: dict | None = None, players: int = 2) -> Game:
        slug = f"carried-{len(made)}"
        deck = [{**card, "title": card["title"]} for card in cards for _ in range(copies)]
        deck_services.deck_create(author=None, data=DeckData.from_dict({"slug": slug, "title": slug, "cards": deck}))
        hand = (len(deck) - 2) // players
        seated = [client_for(make_user()) for _ in range(players)]
        created = seated[0].post("/api/v1/games/", {"deck": slug, "max_players": players, "options": {
            "unread_effects": "claim", "starting_hand": hand, "hand_limit": None, **(options or {})}},
            format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for client in seated[1:]:
            assert client.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert seated[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
        made.append(game_id)
        return Game(game_id, seated)

    return make


def hand_of(game: Game, seat: int, title: str) -> list[str]:
    return [c["id"] for c in game.state(seat)["players"][seat]["hand"] if c["title"] == title]


def in_play_of(game: Game, seat: int) -> list[dict]:
    return game.state(seat)["players"][seat]["in_play"]


def drawn(game: Game) -> int:
    seat = game.state()["turn"]["seat"]
    assert game.send(seat, {"type": "draw"}).status_code == 201
    return seat


def test_frenzy_lets_any_number_of_actions_be_played(dealt_game):
    game = dealt_game([FRENZY, JELLY_BABY])
    seat = drawn(game)
    babies = hand_of(game, seat, JELLY_BABY["title"])
    assert game.send(seat, {"type": "play", "card": babies[0]}).status_code == 201
    refused = game.send(seat, {"type": "play", "card": babies[1]})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "limit_reached"
    assert game.send(seat, {"type": "play", "card": hand_of(game, seat, "Frenzy")[0]}).status_code == 201
    assert game.state()["modifiers"][-1]["param"] == "actions_per_turn"
    for baby in babies[1:4]:
        assert game.send(seat, {"type": "play", "card": baby}).status_code == 201
    assert {"type": "play", "card": babies[4]} in game.moves(seat)
    assert game.replays_to_what_was_played()


def test_short_circuit_forbids_its_things_action(dealt_game):
    game = dealt_game([VORPAL_BLADE, SHORT_CIRCUIT, JABBERWOCK], options={"things_per_turn": None})
    seat = drawn(game)
    blade, monster = hand_of(game, seat, "Vorpal Blade")[0], hand_of(game, seat, "Jabberwock")[0]
    for card in (blade, monster):
        assert game.send(seat, {"type": "play", "card": card}).status_code == 201
    assert {"type": "use", "card": blade, "target": monster} in game.moves(seat)
    assert game.send(seat, {"type": "end_turn"}).status_code == 201
    other = drawn(game)
    short = hand_of(game, other, "Short Circuit")[0]
    assert game.send(other, {"type": "play", "card": short, "onto": blade}).status_code == 201
    assert game.send(other, {"type": "end_turn"}).status_code == 201
    assert drawn(game) == seat
    assert not [m for m in game.moves(seat) if m["type"] == "use" and m["card"] == blade]
    refused = game.send(seat, {"type": "use", "card": blade, "target": monster})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "denied"
    assert game.replays_to_what_was_played()


def test_doomsday_device_destroys_every_location(dealt_game):
    game = dealt_game([DOOMSDAY, LOCATION, VORPAL_BLADE], options={"things_per_turn": None})
    seat = drawn(game)
    device = hand_of(game, seat, "Doomsday Device")[0]
    first, second = hand_of(game, seat, "Reykjavik")[:2]
    for card in (device, first, second):
        assert game.send(seat, {"type": "play", "card": card}).status_code == 201
    blade = hand_of(game, seat, "Vorpal Blade")[0]
    destroyed = game.send(seat, {"type": "destroy", "card": first, "cause": blade})
    assert destroyed.status_code == 201, destroyed.content
    assert [c["id"] for c in in_play_of(game, seat)] == [device]
    events = game.clients[1 - seat].get(f"/api/v1/games/{game.id}/events/").json()["events"]
    destructions = [e["data"] for e in events if e["type"] == "thing.destroyed"]
    assert [d["card"]["id"] for d in destructions] == [first, second]
    assert destructions[1]["cause"]["title"] == "Doomsday Device"
    # The Blade cited from a hand stays hidden from the other player.
    assert "cause" not in destructions[0] and blade not in str(events)
    assert game.replays_to_what_was_played()


def test_lightning_strike_wins_only_with_its_body_parts(dealt_game):
    game = dealt_game([LIGHTNING, *PARTS], options={"things_per_turn": None})
    seat = drawn(game)
    strike = hand_of(game, seat, "Lightning Strike")[0]
    for title in ("Robot Head", "Robot Body", "Robot Arm", "Robot Arm", "Robot Leg"):
        assert game.send(seat, {"type": "play", "card": hand_of(game, seat, title)[0]}).status_code == 201
    refused = game.send(seat, {"type": "win", "cause": strike})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "win_condition_not_met"
    assert game.send(seat, {"type": "play", "card": hand_of(game, seat, "Robot Leg")[0]}).status_code == 201
    won = game.send(seat, {"type": "win", "cause": strike})
    assert won.status_code == 201, won.content
    assert game.state()["winners"] == [seat] or seat in game.state()["winners"]


def test_espionage_takes_a_random_card_from_the_chosen_opponent_hidden_from_the_third(dealt_game):
    game = dealt_game([ESPIONAGE, JABBERWOCK], players=3)
    seat = drawn(game)
    victim, third = (seat + 1) % 3, (seat + 2) % 3
    espionage = hand_of(game, seat, "Espionage")[0]
    assert {"type": "play", "card": espionage, "target": victim} in game.moves(seat)
    assert {"type": "play", "card": espionage} not in game.moves(seat)
    refused = game.send(seat, {"type": "play", "card": espionage})
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "target"
    before = {c["id"] for c in game.state(victim)["players"][victim]["hand"]}
    mine = {c["id"] for c in game.state(seat)["players"][seat]["hand"]}
    assert game.send(seat, {"type": "play", "card": espionage, "target": victim}).status_code == 201
    after = {c["id"] for c in game.state(victim)["players"][victim]["hand"]}
    (taken,) = before - after
    assert taken in {c["id"] for c in game.state(seat)["players"][seat]["hand"]} - mine
    seen_by_third = str(game.clients[third].get(f"/api/v1/games/{game.id}/events/").json()) + str(game.state(third))
    assert taken not in seen_by_third
    assert game.replays_to_what_was_played()


def test_vorpal_blade_destroys_a_monster_and_refuses_a_thing_that_is_not_one(dealt_game):
    game = dealt_game([VORPAL_BLADE, JABBERWOCK], options={"things_per_turn": None})
    seat = drawn(game)
    first, second = hand_of(game, seat, "Vorpal Blade")[:2]
    monster = hand_of(game, seat, "Jabberwock")[0]
    for card in (first, second, monster):
        assert game.send(seat, {"type": "play", "card": card}).status_code == 201
    uses = [m for m in game.moves(seat) if m["type"] == "use" and m["card"] == first]
    assert uses == [{"type": "use", "card": first, "target": monster}]
    refused = game.send(seat, {"type": "use", "card": first, "target": second})
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "target"
    assert game.send(seat, {"type": "use", "card": first, "target": monster}).status_code == 201
    assert monster not in [c["id"] for c in in_play_of(game, seat)]
    assert monster in [c["id"] for c in game.state()["discard_pile"]] or monster in str(game.state())
    assert game.replays_to_what_was_played()


def test_graverobber_takes_a_body_part_from_the_discard_pile(dealt_game):
    game = dealt_game([GRAVEROBBER, SKULL, VORPAL_BLADE], options={"things_per_turn": None})
    seat = drawn(game)
    robber, skull = hand_of(game, seat, "Graverobber")[0], hand_of(game, seat, "Yorick's Skull")[0]
    blade = hand_of(game, seat, "Vorpal Blade")[0]
    for card in (robber, skull):
        assert game.send(seat, {"type": "play", "card": card}).status_code == 201
    assert game.send(seat, {"type": "destroy", "card": skull, "cause": blade}).status_code == 201
    assert {"type": "use", "card": robber, "target": skull} in game.moves(seat)
    assert game.send(seat, {"type": "use", "card": robber, "target": skull}).status_code == 201
    assert skull in hand_of(game, seat, "Yorick's Skull")
    assert game.replays_to_what_was_played()


CARDBOARD_BOX = {"title": "Cardboard Box", "type": "Thing",
                 "text": "When Cardboard Box comes into play, its controller may draw a card."}
PEBBLE = {"title": "Pebble", "type": "Thing", "text": ""}


def test_cardboard_box_offers_its_controller_one_draw_as_it_comes_into_play(dealt_game):
    game = dealt_game([CARDBOARD_BOX, PEBBLE], options={"things_per_turn": None})
    seat = drawn(game)
    boxes, pebble = hand_of(game, seat, "Cardboard Box"), hand_of(game, seat, "Pebble")[0]
    moves = game.moves(seat)
    assert {"type": "play", "card": boxes[0], "draw": True} in moves and {"type": "play", "card": boxes[0]} in moves
    assert {"type": "play", "card": pebble, "draw": True} not in moves

    def hand_size() -> int:
        return len(game.state(seat)["players"][seat]["hand"])

    before = hand_size()
    assert game.send(seat, {"type": "play", "card": boxes[0], "draw": True}).status_code == 201
    assert hand_size() == before  # the Box left the hand, and its controller drew a card
    assert game.send(seat, {"type": "play", "card": boxes[1]}).status_code == 201
    assert hand_size() == before - 1  # played without the draw: none
    refused = game.send(seat, {"type": "play", "card": pebble, "draw": True})
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "draw", refused.content
    assert [c["title"] for c in in_play_of(game, seat)].count("Cardboard Box") == 2
    assert game.replays_to_what_was_played()


FLAK_ARMOUR = {"title": "Flak Armour", "type": "Thing",
               "text": "Play onto a Thing - that Thing gets +2 to defence rolls."}


def test_flak_armour_is_played_onto_a_thing_in_play_or_not_at_all(dealt_game):
    game = dealt_game([FLAK_ARMOUR, PEBBLE], options={"things_per_turn": None})
    seat = drawn(game)
    armour, pebble = hand_of(game, seat, "Flak Armour")[0], hand_of(game, seat, "Pebble")[0]
    refused = game.send(seat, {"type": "play", "card": armour})
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "onto", refused.content
    assert not [m for m in game.moves(seat) if m["type"] == "play" and m["card"] == armour]  # nothing to go onto
    assert game.send(seat, {"type": "play", "card": pebble}).status_code == 201
    plays = [m for m in game.moves(seat) if m["type"] == "play" and m["card"] == armour]
    assert plays == [{"type": "play", "card": armour, "onto": pebble}]
    assert game.send(seat, {"type": "play", "card": armour, "onto": pebble}).status_code == 201
    assert armour not in hand_of(game, seat, "Flak Armour")
    assert armour in json.dumps(in_play_of(game, seat))  # carried by the Pebble
    assert game.replays_to_what_was_played()


# --- Actions the server carries out whole ---------------------------------------------------------------------

SMITE = {"title": "Smite", "type": "Action", "text": "Destroy target Thing."}
BUTTERFINGERS = {"title": "Butterfingers", "type": "Action", "text": "Discard a card from your hand."}
CHARITY = {"title": "Charity", "type": "Action", "text": "Give two cards from your hand to an opponent."}
TAX = {"title": "Tax", "type": "Action", "text": "Each player gains 2 gold."}
DICE = {"title": "Dice", "type": "Action", "text": "Roll two dice."}


def test_smite_destroys_the_chosen_thing_offered_in_the_moves_and_refuses_another(dealt_game):
    game = dealt_game([SMITE, JABBERWOCK])
    seat = drawn(game)
    monster = hand_of(game, seat, "Jabberwock")[0]
    assert game.send(seat, {"type": "play", "card": monster}).status_code == 201
    game.send(seat, {"type": "end_turn"})
    other = drawn(game)
    smite = hand_of(game, other, "Smite")[0]
    assert {"type": "play", "card": smite, "targets": {"choose": 1, "from": [monster], "list": True}} \
        in game.moves(other)
    for bad in ([], [smite], monster, [monster, monster]):
        refused = game.send(other, {"type": "play", "card": smite, "targets": bad})
        assert refused.status_code == 400, bad
        details = refused.json()["error"]["details"]
        assert "targets" in (details.get("field"), *details), details
    assert in_play_of(game, seat)[0]["id"] == monster  # nothing applied
    played = game.send(other, {"type": "play", "card": smite, "targets": [monster]})
    assert played.status_code == 201
    assert in_play_of(game, seat) == [] and monster in [c["id"] for c in game.state()["discard_pile"]]
    # Not twice: the server has done it.
    refused = game.send(other, {"type": "destroy", "card": monster, "cause": smite})
    assert refused.status_code in (400, 409)
    assert game.replays_to_what_was_played()


def test_butterfingers_discards_the_chosen_card_and_cannot_be_cited_again(dealt_game):
    game = dealt_game([BUTTERFINGERS, JABBERWOCK])
    seat = drawn(game)
    card = hand_of(game, seat, "Butterfingers")[0]
    monster = hand_of(game, seat, "Jabberwock")[0]
    assert game.send(seat, {"type": "play", "card": card, "targets": [monster]}).status_code == 201
    assert monster not in [c["id"] for c in game.state(seat)["players"][seat]["hand"]]
    assert [c["id"] for c in game.state()["discard_pile"][-2:]] == [card, monster]
    other = hand_of(game, seat, "Jabberwock")[0]
    refused = game.send(seat, {"type": "discard", "cards": [other], "cause": card})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "effect_not_allowed"
    assert game.replays_to_what_was_played()


def test_charity_gives_the_chosen_cards_hidden_from_the_third_player(dealt_game):
    game = dealt_game([CHARITY, JABBERWOCK], players=3)
    seat = drawn(game)
    receiver, third = (seat + 1) % 3, (seat + 2) % 3
    charity = hand_of(game, seat, "Charity")[0]
    gifts = hand_of(game, seat, "Jabberwock")[:2]
    offered = [m for m in game.moves(seat) if m.get("card") == charity]
    assert sorted(m["target"] for m in offered) == sorted([receiver, third])
    assert all(m["targets"]["choose"] == 2 for m in offered)
    refused = game.send(seat, {"type": "play", "card": charity, "targets": gifts})
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "target"
    assert game.send(seat, {"type": "play", "card": charity, "target": receiver, "targets": gifts}).status_code == 201
    assert set(gifts) <= {c["id"] for c in game.state(receiver)["players"][receiver]["hand"]}
    seen_by_third = json.dumps(game.clients[third].get(f"/api/v1/games/{game.id}/events/").json()) \
        + json.dumps(game.state(third))
    assert not [g for g in gifts if g in seen_by_third]
    assert game.replays_to_what_was_played()


def test_tax_and_dice_are_carried_out_for_everyone_to_see(dealt_game):
    game = dealt_game([TAX, DICE], players=3)
    seat = drawn(game)
    assert game.send(seat, {"type": "play", "card": hand_of(game, seat, "Tax")[0]}).status_code == 201
    assert [p["counters"].get("gold") for p in game.state()["players"]] == [2, 2, 2]
    game.send(seat, {"type": "end_turn"})
    other = drawn(game)
    assert game.send(other, {"type": "play", "card": hand_of(game, other, "Dice")[0]}).status_code == 201
    events = game.clients[0].get(f"/api/v1/games/{game.id}/events/").json()["events"]
    rolled = [e for e in events if e["type"] == "dice.rolled"]
    assert rolled and rolled[-1]["data"]["dice"] == "2d6" and len(rolled[-1]["data"]["rolls"]) == 2
    assert game.replays_to_what_was_played()


@pytest.mark.django_db(transaction=True)
def test_a_random_card_taken_by_a_carried_action_never_reaches_the_third_players_websocket(dealt_game):
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator

    from dvorak_site.asgi import application

    game = dealt_game([ESPIONAGE, CHARITY, JABBERWOCK], players=3)
    seat = drawn(game)
    victim, third = (seat + 1) % 3, (seat + 2) % 3
    before = {c["id"] for c in game.state(victim)["players"][victim]["hand"]}
    espionage = hand_of(game, seat, "Espionage")[0]
    assert game.send(seat, {"type": "play", "card": espionage, "target": victim}).status_code == 201
    (taken,) = before - {c["id"] for c in game.state(victim)["players"][victim]["hand"]}
    version = game.state()["version"]

    async def all_events_over_the_socket(token: str) -> list[dict]:
        socket = WebsocketCommunicator(application, f"/ws/games/{game.id}/?token={token}")
        assert (await socket.connect(timeout=5))[0]
        events = [(await socket.receive_json_from(timeout=5))["event"] for _ in range(version)]
        await socket.disconnect()
        return events

    token = game.clients[third]._credentials["HTTP_AUTHORIZATION"].split()[1]
    events = async_to_sync(all_events_over_the_socket)(token)
    assert events[-1]["type"] == "card.taken" and events[-1]["data"]["from"] == victim
    assert taken not in json.dumps(events)
    token = game.clients[seat]._credentials["HTTP_AUTHORIZATION"].split()[1]
    assert taken in json.dumps(async_to_sync(all_events_over_the_socket)(token)[-1])
