"""Playing over the REST API: create, join, start, state, events, commands, and every refusal's code."""

import pytest

from dvorak_kit.eventstore import store
from games.models import Game

pytestmark = pytest.mark.django_db


def error_code(response) -> str:
    return response.json()["error"]["code"]


def state(client, game_id, **params):
    response = client.get(f"/api/v1/games/{game_id}/", params)
    assert response.status_code == 200, response.content
    return response.json()


def stream_version(game_id) -> int:
    return store.current_version(f"game-{game_id}")


def test_create_gives_the_creator_seat_zero_of_an_open_game(archive_deck, make_user, client_for):
    deck = archive_deck()
    client = client_for(make_user("kevan"))
    response = client.post("/api/v1/games/", {"deck": deck.slug, "max_players": 4}, format="json")
    assert response.status_code == 201
    game = response.json()
    assert game["status"] == "open" and game["you"] == 0 and game["ruleset"] == "dvorak"
    assert [p["username"] for p in game["players"]] == ["kevan"]
    assert game["draw_pile"] == {"count": 0}  # nothing is dealt before the start
    assert game["players"][0]["hand"] == [] and game["turn"] is None


def test_create_refuses_a_deck_stored_beyond_the_bound_before_dealing_a_card(archive_deck, make_user, client_for):
    from decks.models import Card

    deck = archive_deck(12)
    # As a staff admin edit once saved it, past the archive's checks.
    Card.objects.filter(pk=deck.cards.first().pk).update(copies=35_000_000)

    answer = client_for(make_user()).post("/api/v1/games/", {"deck": deck.slug}, format="json")

    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "deck_too_large"
    assert answer.json()["error"]["details"] == {"cards": 35_000_011, "limit": 2000}
    assert not Game.objects.exists()


def test_create_refuses_an_unknown_deck_with_not_found(make_user, client_for):
    response = client_for(make_user()).post("/api/v1/games/", {"deck": "no-such-deck"}, format="json")
    assert response.status_code == 404 and error_code(response) == "not_found"


def test_create_refuses_a_bad_variant_as_invalid(archive_deck, make_user, client_for):
    deck = archive_deck()
    response = client_for(make_user()).post("/api/v1/games/", {"deck": deck.slug, "variant": "poker"}, format="json")
    assert response.status_code == 400 and error_code(response) == "invalid"


def test_start_deals_five_cards_each_and_only_your_own_hand_is_shown(table):
    game_id, seated = table(3)
    for seat, (_, client) in enumerate(seated):
        seen = state(client, game_id)
        assert seen["status"] == "active" and seen["you"] == seat
        assert seen["draw_pile"]["count"] == 40 - 15
        for player in seen["players"]:
            assert player["hand_count"] == 5
            assert ("hand" in player) == (player["seat"] == seat)
        assert "cards" not in seen["draw_pile"]


def test_a_spectator_sees_counts_but_no_hand(table, make_user, client_for):
    game_id, _ = table(2)
    seen = state(client_for(make_user("onlooker")), game_id)
    assert seen["you"] is None
    assert all("hand" not in player for player in seen["players"])


def test_anonymous_callers_are_not_authenticated(table, api_client):
    game_id, _ = table(2)
    response = api_client.get(f"/api/v1/games/{game_id}/")
    assert response.status_code == 401 and error_code(response) == "not_authenticated"


def current_player(game_id, seated):
    """The seat whose turn it is, and the state as that seat sees it."""
    seat = state(seated[0][1], game_id)["turn"]["seat"]
    return seat, state(seated[seat][1], game_id)


def test_the_player_whose_turn_it_is_draws_and_others_are_refused(table):
    game_id, seated = table(2)
    seat, _ = current_player(game_id, seated)
    other = seated[1 - seat][1]
    before = stream_version(game_id)
    refused = other.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert refused.status_code == 409 and error_code(refused) == "not_your_turn"
    assert stream_version(game_id) == before

    accepted = seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    assert accepted.status_code == 201, accepted.content
    body = accepted.json()
    assert body["version"] == stream_version(game_id) > before
    drawn = [e for e in body["events"] if e["type"] == "card.drawn"]
    assert drawn and "card" in drawn[0]["data"]  # the drawer sees what was drawn

    # The other seat sees that a card was drawn, never which.
    events = other.get(f"/api/v1/games/{game_id}/events/", {"after": before}).json()
    theirs = [e for e in events["events"] if e["type"] == "card.drawn"]
    assert theirs and "card" not in theirs[0]["data"]


def test_refusals_carry_their_codes_and_append_nothing(table, make_user, client_for):
    game_id, seated = table(2)
    seat, seen = current_player(game_id, seated)
    client = seated[seat][1]
    url = f"/api/v1/games/{game_id}/commands/"
    before = stream_version(game_id)
    in_hand = next(c["id"] for c in seen["players"][seat]["hand"] if "at any time" not in c["text"])
    cases = [
        (client.post(url, {"type": "fly"}, format="json"), 400, "unknown_command"),
        (client.post(url, ["draw"], format="json"), 400, "invalid"),
        (client.post(url, "{broken", content_type="application/json"), 400, "invalid"),
        (client.post(url, {"type": "play", "card": in_hand}, format="json"), 409, "wrong_stage"),
        (client.post(url, {"type": "end_turn"}, format="json"), 409, "wrong_stage"),
        (client_for(make_user()).post(url, {"type": "draw"}, format="json"), 403, "forbidden"),
        (client.post(f"/api/v1/games/{'0' * 8}-0000-0000-0000-{'0' * 12}/commands/", {"type": "draw"}, format="json"),
         404, "not_found"),
    ]
    for response, status, code in cases:
        assert (response.status_code, error_code(response)) == (status, code), response.content
    assert stream_version(game_id) == before

    client.post(url, {"type": "draw"}, format="json")
    foreign = client.post(url, {"type": "play", "card": "not-a-card-id"}, format="json")
    assert foreign.status_code == 409 and error_code(foreign) == "card_not_in_hand"


def test_a_repeated_idempotency_key_returns_the_first_answer_and_appends_nothing(table):
    game_id, seated = table(2)
    seat, _ = current_player(game_id, seated)
    client = seated[seat][1]
    url = f"/api/v1/games/{game_id}/commands/"
    first = client.post(url, {"type": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="draw-once")
    version = stream_version(game_id)
    again = client.post(url, {"type": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="draw-once")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert stream_version(game_id) == version


def test_an_idempotency_key_sent_again_with_another_command_is_refused_and_changes_nothing(table):
    game_id, seated = table(2)
    seat, _ = current_player(game_id, seated)
    client = seated[seat][1]
    url = f"/api/v1/games/{game_id}/commands/"
    assert client.post(url, {"type": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="mine").status_code == 201
    version = stream_version(game_id)
    reused = client.post(url, {"type": "end_turn"}, format="json", HTTP_IDEMPOTENCY_KEY="mine")
    assert reused.status_code == 422 and error_code(reused) == "idempotency_key_reused"
    assert stream_version(game_id) == version
    # The same command with its keys in another order is the same request: the first answer again.
    same = client.post(url, '{ "type" :  "draw" }', content_type="application/json", HTTP_IDEMPOTENCY_KEY="mine")
    assert same.status_code == 201 and stream_version(game_id) == version
    # Keys are the caller's own: another player's "mine" is a new key.
    other = seated[1 - seat][1]
    refused = other.post(url, {"type": "draw"}, format="json", HTTP_IDEMPOTENCY_KEY="mine")
    assert refused.status_code == 409 and error_code(refused) == "not_your_turn"


def test_if_match_with_a_stale_version_is_a_version_conflict(table):
    game_id, seated = table(2)
    seat, seen = current_player(game_id, seated)
    client = seated[seat][1]
    url = f"/api/v1/games/{game_id}/commands/"
    stale = client.post(url, {"type": "draw"}, format="json", HTTP_IF_MATCH=f'"{seen["version"] - 1}"')
    assert stale.status_code == 412 and error_code(stale) == "version_conflict"
    assert stream_version(game_id) == seen["version"]
    fresh = client.post(url, {"type": "draw"}, format="json", HTTP_IF_MATCH=f'"{seen["version"]}"')
    assert fresh.status_code == 201
    assert fresh["ETag"] == f'"{fresh.json()["version"]}"'


def test_state_at_a_past_version(table):
    game_id, seated = table(2)
    seat, seen = current_player(game_id, seated)
    seated[seat][1].post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json")
    past = state(seated[seat][1], game_id, at=seen["version"])
    assert past == seen
    assert state(seated[seat][1], game_id)["version"] > seen["version"]
    missing = seated[seat][1].get(f"/api/v1/games/{game_id}/", {"at": 10_000})
    assert missing.status_code == 404 and error_code(missing) == "not_found"
    bad = seated[seat][1].get(f"/api/v1/games/{game_id}/", {"at": "yesterday"})
    assert bad.status_code == 400 and error_code(bad) == "invalid"


def test_my_games_lists_only_games_i_sit_in(table, make_user, client_for):
    game_id, seated = table(2, start=False)
    outsider = client_for(make_user())
    mine = seated[1][1].get("/api/v1/games/", {"mine": 1}).json()
    assert [g["id"] for g in mine["results"]] == [game_id]
    assert outsider.get("/api/v1/games/", {"mine": 1}).json()["results"] == []
    assert seated[0][1].get("/api/v1/games/", {"mine": 1, "status": "finished"}).json()["results"] == []


def test_joining_twice_and_starting_by_another_seat_are_refused(table):
    game_id, seated = table(2, start=False)
    again = seated[1][1].post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    assert again.status_code == 409
    not_creator = seated[1][1].post(f"/api/v1/games/{game_id}/start/")
    assert not_creator.status_code in {403, 409}
    assert Game.objects.get(pk=game_id).status == "open"


def test_a_finished_game_accepts_no_further_play(table):
    game_id, seated = table(2)
    seat, _ = current_player(game_id, seated)
    url = f"/api/v1/games/{game_id}/commands/"
    assert seated[1 - seat][1].post(url, {"type": "concede"}, format="json").status_code == 201
    finished = state(seated[seat][1], game_id)
    assert finished["status"] == "finished" and finished["winners"] == [seat]
    refused = seated[seat][1].post(url, {"type": "draw"}, format="json")
    assert refused.status_code == 409 and error_code(refused) == "game_not_active"
    assert Game.objects.get(pk=game_id).status == "finished"


@pytest.mark.parametrize("deck, seats", [
    ("rock-paper-scissors-extreme-deck", 2),  # a duel: its ruleset is for two
    ("article-ii", 4),
    ("socialism", 5),  # played by the dvorak ruleset: five unless asked
])
def test_a_game_created_without_max_players_seats_what_its_ruleset_is_for(make_user, client_for, deck, seats):
    from decks import services as deck_services
    from tests.seeds import seed_deck_json

    deck_services.deck_import(author=None, text=seed_deck_json(deck), format="json")
    client = client_for(make_user())
    body = {"deck": deck} if deck != "socialism" else {"deck": deck, "ruleset": "dvorak"}
    created = client.post("/api/v1/games/", body, format="json")
    assert created.status_code == 201, created.content
    [summary] = client.get("/api/v1/games/?mine=1").json()["results"]
    assert summary["max_players"] == seats


def test_player_joined_names_the_player_but_never_the_account_id(table, make_user, client_for):
    game_id, seated = table(2)
    onlooker = client_for(make_user("onlooker"))
    for client in (seated[0][1], seated[1][1], onlooker):
        joined = [e for e in client.get(f"/api/v1/games/{game_id}/events/").json()["events"]
                  if e["type"] == "player.joined"]
        assert [e["data"]["username"] for e in joined] == [user.username for user, _ in seated]
        assert all("user_id" not in e["data"] for e in joined)
        past = client.get(f"/api/v1/games/{game_id}/", {"at": 2}).json()
        assert "user_id" not in str(past) and [p["username"] for p in past["players"]] == [seated[0][0].username]
    # The server still knows who sits where: the seated player is still the one the game answers as seat 0.
    assert state(seated[0][1], game_id)["you"] == 0 and state(seated[1][1], game_id)["you"] == 1


def private_table(archive_deck, make_user, client_for, spectators: str):
    """A started two-seat game created with ``options.spectators``: (game id, [(user, client)] by seat)."""
    seated = [(user, client_for(user)) for user in (make_user(), make_user())]
    created = seated[0][1].post("/api/v1/games/", {"deck": archive_deck(40).slug, "options": {"spectators": spectators}},
                                format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert seated[1][1].post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    assert seated[0][1].post(f"/api/v1/games/{game_id}/start/").status_code == 200
    return game_id, seated


def watching(client, game_id) -> list[int]:
    """The status of each way of watching a game: its state, a past state, its events, its moves, a MUSH query."""
    return [client.get(f"/api/v1/games/{game_id}/").status_code,
            client.get(f"/api/v1/games/{game_id}/", {"at": 1}).status_code,
            client.get(f"/api/v1/games/{game_id}/events/").status_code,
            client.get(f"/api/v1/games/{game_id}/moves/").status_code,
            client.post(f"/api/v1/games/{game_id}/mush/", {"line": "countdraw"}, format="json").status_code]


@pytest.mark.parametrize("spectators", ["players", "nobody"])
def test_a_game_closed_to_spectators_is_seen_and_listed_by_its_players_only(spectators, archive_deck, make_user,
                                                                             client_for):
    game_id, seated = private_table(archive_deck, make_user, client_for, spectators)
    onlooker = client_for(make_user("onlooker"))
    refused = onlooker.get(f"/api/v1/games/{game_id}/")
    assert refused.status_code == 403 and error_code(refused) == "forbidden"
    assert "hand" not in refused.content.decode() and "players" not in refused.json()
    assert set(watching(onlooker, game_id)) == {403}
    for _, client in seated:
        assert set(watching(client, game_id)) == {200}
        assert game_id in [g["id"] for g in client.get("/api/v1/games/").json()["results"]]
    assert game_id not in [g["id"] for g in onlooker.get("/api/v1/games/").json()["results"]]
    created = seated[1][1].get(f"/api/v1/games/{game_id}/events/").json()["events"][0]
    assert created["type"] == "game.created" and created["data"]["options"]["spectators"] == spectators


def test_an_open_to_anyone_game_is_watched_and_listed_by_anyone(archive_deck, make_user, client_for):
    game_id, _ = private_table(archive_deck, make_user, client_for, "anyone")
    onlooker = client_for(make_user("onlooker"))
    assert set(watching(onlooker, game_id)) == {200}
    assert game_id in [g["id"] for g in onlooker.get("/api/v1/games/").json()["results"]]


@pytest.mark.parametrize(("spectators", "after_the_game"), [("players", 200), ("nobody", 403)])
def test_a_finished_game_opens_its_replay_under_players_but_not_under_nobody(spectators, after_the_game, archive_deck,
                                                                           make_user, client_for):
    game_id, _ = private_table(archive_deck, make_user, client_for, spectators)
    onlooker = client_for(make_user("onlooker"))
    Game.objects.filter(pk=game_id).update(status="finished")
    assert onlooker.get(f"/api/v1/games/{game_id}/events/").status_code == after_the_game


@pytest.mark.parametrize("spectators", ["everyone", "", 1, None])
def test_create_refuses_an_unknown_spectators_option_as_invalid(spectators, archive_deck, make_user, client_for):
    client = client_for(make_user())
    response = client.post("/api/v1/games/", {"deck": archive_deck().slug, "options": {"spectators": spectators}},
                           format="json")
    assert response.status_code == 400 and error_code(response) == "invalid"
    assert Game.objects.count() == 0
