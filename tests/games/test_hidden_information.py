"""No response or event to a seat ever contains a card (title or id) that seat cannot see.

Random games of 2–5 players make random legal moves through the API. The test deck gives every card its own
title, so a title in a response names exactly one card; after each move every seat reads its state and the
new events, and everything it was sent is checked against what that seat has been able to see so far.
"""

import json
import random

import pytest

from dvorak_engine.rulesets.dvorak.state import cards_visible_to
from dvorak_kit.eventstore import store
from games import services
from tests.engine.dvorak_games import legal_commands
from tests.sizes import size

pytestmark = pytest.mark.django_db


def full_state(game_id):
    stream_id = f"game-{game_id}"
    return services.state_at(stream_id, store.current_version(stream_id))


def revealed_cards(game_id, after: int) -> set[str]:
    """Cards an effect showed to the whole table (a reveal): from then on every seat has seen them."""
    shown = set()
    for event in store.read(f"game-{game_id}", after=after):
        if event.type == "card.revealed":
            shown.add(event.data["card"])
    return shown


def assert_no_leak(text: str, seat: int, state, seen: set[str], where: str) -> None:
    for card_id, card in state.table.cards.items():
        if card_id in seen:
            continue
        assert card.title not in text, f"{where}: seat {seat} was shown hidden card {card.title!r}"
        assert card_id not in text, f"{where}: seat {seat} was shown the id of hidden card {card.title!r}"


@pytest.mark.parametrize("seed", range(size("HIDDEN_SCAN_GAMES", 6, 30)))
def test_random_games_through_the_api_never_show_a_seat_a_card_it_cannot_see(seed, table):
    rng = random.Random(seed)
    players = 2 + seed % 4
    game_id, seated = table(players, size=30)
    state = full_state(game_id)
    seen = {seat: set(cards_visible_to(state, seat)) for seat in range(players)}
    read_up_to = {seat: 0 for seat in range(players)}

    for step in range(45):
        state = full_state(game_id)
        if state.status == "finished":
            break
        choices = [(seat, cmd) for seat in range(players) for cmd in legal_commands(state, seat)
                   if cmd["type"] not in {"concede", "win", "eliminate"} or rng.random() < 0.02]
        if not choices:
            break
        seat, command = rng.choice(choices)
        version = state.version
        response = seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", command, format="json")
        assert response.status_code in {201, 409}, response.content

        after = full_state(game_id)
        public = revealed_cards(game_id, version)
        for viewer in range(players):
            seen[viewer] |= cards_visible_to(after, viewer) | public
        assert_no_leak(response.content.decode(), seat, after, seen[seat], f"step {step} response to {command['type']}")

        for viewer, (_, client) in enumerate(seated):
            shown_state = client.get(f"/api/v1/games/{game_id}/").json()
            assert_no_leak(json.dumps(shown_state), viewer, after, seen[viewer], f"step {step} state")
            events = client.get(f"/api/v1/games/{game_id}/events/", {"after": read_up_to[viewer]}).json()
            assert_no_leak(json.dumps(events), viewer, after, seen[viewer], f"step {step} events")
            read_up_to[viewer] = events["version"]


def test_a_refusal_never_says_where_a_hidden_card_is(table):
    game_id, seated = table(2)
    state = full_state(game_id)
    seat = state.table.turn.seat
    other = 1 - seat
    hidden = state.table.players[other].hand[0]
    seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    response = seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "play", "card": hidden}, format="json")
    assert response.status_code == 409
    body = response.json()["error"]
    assert state.table.cards[hidden].title not in json.dumps(body)
    assert "hand" in body["message"].lower()
    unknown = seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "play", "card": "zzzz"}, format="json")
    assert unknown.json()["error"]["message"] == body["message"]  # a hidden card and no card look the same
