"""The rulebook's own examples of winning, played through the API with checking on: Big Brother (a Thing: "If a
player controls three or more Ministries, they win the game.") and the Victory Special Rule ("The first player to
control five Laps wins the game."). A `win` citing them is refused while the condition does not hold for the
sender and accepted the moment it does; the server's verdict is compared with what the public state shows."""

from __future__ import annotations

import pytest

from dvorak_core.deckdata import DeckData

pytestmark = pytest.mark.django_db

BIG_BROTHER = {"title": "Big Brother", "type": "Thing",
               "text": "If a player controls three or more Ministries, they win the game."}
VICTORY = {"title": "Victory", "text": "The first player to control five Laps wins the game."}


@pytest.fixture
def start(make_user, client_for):
    from decks import services as deck_services

    def make(slug: str, cards: list[dict], special_rules: list[dict]):
        deck = deck_services.deck_create(author=None, data=DeckData.from_dict(
            {"slug": slug, "title": slug.title(), "special_rules": special_rules, "cards": cards}))
        clients = [client_for(make_user()) for _ in range(2)]
        created = clients[0].post("/api/v1/games/", {"deck": deck.slug, "max_players": 2,
                                                     "options": {"unread_effects": "claim"}}, format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        assert clients[1].post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
        assert clients[0].post(f"/api/v1/games/{game_id}/start/").status_code == 200
        return game_id, clients

    return make


def in_play(state: dict, seat: int) -> list[dict]:
    return state["players"][seat]["in_play"]


def test_big_brother_wins_for_whoever_controls_three_ministries_and_not_before(start):
    cards = ([dict(BIG_BROTHER) for _ in range(12)]
             + [{"title": f"Ministry of {word}", "type": "Thing", "text": ""} for word in
                ("Truth", "Love", "Peace", "Plenty", "Silly Walks", "Magic") * 3])
    game_id, clients = start("big-brother", cards, [])
    url = f"/api/v1/games/{game_id}"
    refusals = 0
    for _ in range(40):
        state = clients[0].get(f"{url}/").json()
        seat = state["turn"]["seat"]
        me = clients[seat]
        assert me.post(f"{url}/commands/", {"type": "draw"}, format="json").status_code == 201
        mine = me.get(f"{url}/").json()
        hand = mine["players"][seat]["hand"]
        brothers = [c for p in mine["players"] for c in p["in_play"] if c["title"] == "Big Brother"]
        # Big Brother first if none is in play, else a Ministry, else whatever is in hand.
        wanted = "Big Brother" if not brothers else "Ministry"
        card = next((c for c in hand if wanted in c["title"]), hand[0])
        assert me.post(f"{url}/commands/", {"type": "play", "card": card["id"]}, format="json").status_code == 201
        after = me.get(f"{url}/").json()
        brothers = [c for p in after["players"] for c in p["in_play"] if c["title"] == "Big Brother"]
        if brothers:
            ministries = sum("Ministry" in c["title"] for c in in_play(after, seat))
            answer = me.post(f"{url}/commands/", {"type": "win", "cause": brothers[0]["id"]}, format="json")
            if ministries >= 3:
                assert answer.status_code == 201, answer.content
                final = me.get(f"{url}/").json()
                assert final["status"] == "finished" and final["winners"] == [seat]
                assert refusals > 0  # it was refused before, while the count was short
                return
            assert answer.status_code == 409, answer.content
            assert answer.json()["error"]["code"] == "win_condition_not_met"
            refusals += 1
        hand = me.get(f"{url}/").json()["players"][seat]["hand"]
        while len(hand) > 5:  # down to the hand limit before the turn ends
            me.post(f"{url}/commands/", {"type": "discard", "card": hand[0]["id"]}, format="json")
            hand = me.get(f"{url}/").json()["players"][seat]["hand"]
        assert me.post(f"{url}/commands/", {"type": "end_turn"}, format="json").status_code == 201, hand
    pytest.fail("no one came to control three Ministries in 40 turns")


def test_the_victory_special_rule_wins_at_the_fifth_lap(start):
    cards = [{"title": f"Lap {n}", "type": "Thing", "text": ""} for n in range(1, 31)]
    game_id, clients = start("victory-laps", cards, [VICTORY])
    url = f"/api/v1/games/{game_id}"
    victory = clients[0].get(f"{url}/").json()["special_rules"][0]
    assert victory["title"] == "Victory" and victory["effect"] is not None
    for turn in range(10):
        state = clients[0].get(f"{url}/").json()
        seat = state["turn"]["seat"]
        me = clients[seat]
        assert me.post(f"{url}/commands/", {"type": "draw"}, format="json").status_code == 201
        card = me.get(f"{url}/").json()["players"][seat]["hand"][0]
        assert me.post(f"{url}/commands/", {"type": "play", "card": card["id"]}, format="json").status_code == 201
        laps = len(in_play(me.get(f"{url}/").json(), seat))
        assert laps == turn // 2 + 1
        answer = me.post(f"{url}/commands/", {"type": "win", "cause": victory["id"]}, format="json")
        if laps < 5:
            assert answer.status_code == 409 and answer.json()["error"]["code"] == "win_condition_not_met"
            assert me.post(f"{url}/commands/", {"type": "end_turn"}, format="json").status_code == 201
            continue
        assert answer.status_code == 201, answer.content
        final = me.get(f"{url}/").json()
        assert final["status"] == "finished" and final["winners"] == [seat] and turn == 8
        return
    pytest.fail("the fifth Lap did not win")
