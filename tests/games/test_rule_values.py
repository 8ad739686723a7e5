"""Rule parameters have a type and bounds, checked where a value comes in: a game's options, set_rule and a
Special Rule's params. A bad value is a 400 there and changes nothing, never a 500 later at the command that
reads it (an end_turn comparing a hand with "lots", a vote under a rule called "bogus")."""

import pytest

from dvorak_kit.eventstore import store

pytestmark = pytest.mark.django_db


def error(response) -> dict:
    """The error's code, message and details: its request id names the request, not the refusal."""
    return {name: value for name, value in response.json()["error"].items() if name != "request_id"}


@pytest.mark.parametrize("option, value", [
    ("hand_limit", "lots"),
    ("starting_hand", "abc"),
    ("draws_per_turn", "x"),
    ("draws_per_turn", 1_000_000),  # a million cards dealt under the game's lock at every draw
    ("things_per_turn", -1),
    ("actions_per_turn", True),
    ("vote_rule", "bogus"),
    ("counters", {"gold": "many"}),
])
def test_a_game_is_not_created_with_a_rule_value_that_breaks_its_bounds(archive_deck, make_user, client_for,
                                                                        option, value):
    deck = archive_deck()
    answer = client_for(make_user()).post("/api/v1/games/", {"deck": deck.slug, "options": {option: value}},
                                          format="json")
    assert answer.status_code == 400, answer.content
    assert error(answer)["code"] == "invalid" and error(answer)["details"]["field"] == f"options.{option}"


def test_a_game_takes_rule_values_within_their_bounds_and_plays_by_them(archive_deck, make_user, client_for):
    deck = archive_deck()
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    created = ann.post("/api/v1/games/", {"deck": deck.slug, "max_players": 2,
                                          "options": {"starting_hand": 3, "hand_limit": 4, "vote_rule": "majority"}},
                       format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    started = ann.post(f"/api/v1/games/{game_id}/start/").json()
    assert started["rules"]["hand_limit"] == 4 and started["rules"]["vote_rule"] == "majority"
    assert [player["hand_count"] for player in started["players"]] == [3, 3]


def small_hands_game(archive_deck, make_user, client_for) -> tuple[str, list]:
    """A started game of two whose deck has a Special Rule that speaks of hands, and one that does not."""
    deck = archive_deck(special_rules=[{"title": "Small hands", "text": "Hand size is three instead of five."},
                                       {"title": "House Rule", "text": "Be nice."}])
    clients = [client_for(make_user(name)) for name in ("ann", "bob")]
    game_id = clients[0].post("/api/v1/games/", {"deck": deck.slug, "max_players": 2}, format="json").json()["id"]
    clients[1].post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    clients[0].post(f"/api/v1/games/{game_id}/start/")
    return game_id, clients


def test_set_rule_refuses_a_value_the_parameter_cannot_hold_and_appends_nothing(archive_deck, make_user, client_for):
    game_id, (client, _) = small_hands_game(archive_deck, make_user, client_for)
    state = client.get(f"/api/v1/games/{game_id}/").json()
    rule = state["special_rules"][0]["id"]
    version = store.current_version(f"game-{game_id}")
    for value in ("abc", 10_000, 2.5):
        answer = client.post(f"/api/v1/games/{game_id}/commands/",
                             {"type": "set_rule", "cause": rule, "param": "hand_limit", "value": value}, format="json")
        assert answer.status_code == 400, answer.content
        assert error(answer)["code"] == "invalid"
    assert store.current_version(f"game-{game_id}") == version
    taken = client.post(f"/api/v1/games/{game_id}/commands/",
                        {"type": "set_rule", "cause": rule, "param": "hand_limit", "value": 3}, format="json")
    assert taken.status_code == 201, taken.content
    assert client.get(f"/api/v1/games/{game_id}/").json()["rules"]["hand_limit"] == 3


def test_set_rule_citing_what_says_nothing_of_the_rule_is_409_not_citable_and_appends_nothing(
        archive_deck, make_user, client_for):
    game_id, (ann, bob) = small_hands_game(archive_deck, make_user, client_for)
    rules = {rule["title"]: rule["id"] for rule in ann.get(f"/api/v1/games/{game_id}/").json()["special_rules"]}
    version = store.current_version(f"game-{game_id}")
    answer = bob.post(f"/api/v1/games/{game_id}/commands/", {
        "type": "set_rule", "cause": rules["House Rule"], "param": "hand_limit", "value": 50}, format="json")
    assert answer.status_code == 409, answer.content
    assert error(answer) == {"code": "not_citable", "message": "That Special Rule says nothing of hand_limit.",
                             "details": {"field": "cause", "param": "hand_limit"}}
    assert store.current_version(f"game-{game_id}") == version


def test_a_rule_change_is_listed_with_its_number_and_ended_by_the_player_who_made_it(archive_deck, make_user,
                                                                                      client_for):
    game_id, (ann, bob) = small_hands_game(archive_deck, make_user, client_for)
    rule = ann.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    made = bob.post(f"/api/v1/games/{game_id}/commands/", {
        "type": "set_rule", "cause": rule, "param": "hand_limit", "value": 3, "seat": 1}, format="json")
    assert made.status_code == 201, made.content
    effect = bob.get(f"/api/v1/games/{game_id}/").json()["modifiers"][-1]
    assert effect == {"id": made.json()["version"], "source": rule, "param": "hand_limit", "value": 3, "seat": 1,
                      "card": None, "deny": False, "by": 1, "until": "ended"}
    assert {"type": "end_rule_effect", "effect": effect["id"]} in bob.get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
    refused = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "end_rule_effect", "effect": effect["id"]},
                       format="json")
    assert refused.status_code == 409 and error(refused)["code"] == "denied"
    ended = bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "end_rule_effect", "effect": effect["id"]},
                     format="json")
    assert ended.status_code == 201, ended.content
    assert [event["type"] for event in ended.json()["events"]] == ["rule.ended"]
    state = bob.get(f"/api/v1/games/{game_id}/").json()
    # Bob's change is gone; the Special Rule's own stays, "in effect throughout the game": "three instead of five".
    assert [m["by"] for m in state["modifiers"]] == [None] and state["rules"]["hand_limit"] == 3


def test_a_special_rule_proposal_with_a_bad_parameter_is_refused(archive_deck, make_user, client_for):
    deck = archive_deck()
    ann = client_for(make_user("ann"))
    game_id = ann.post("/api/v1/games/", {"deck": deck.slug, "creative": True}, format="json").json()["id"]
    answer = ann.post(f"/api/v1/games/{game_id}/commands/", {
        "type": "propose", "kind": "special_rule",
        "rule": {"title": "Tiny hands", "text": "Hand size is lots.", "params": {"hand_limit": "lots"}},
    }, format="json")
    assert answer.status_code == 400 and error(answer)["code"] == "invalid"
    assert error(answer)["details"]["field"] == "params.hand_limit"
    assert ann.get(f"/api/v1/games/{game_id}/").json()["proposals"] == []
