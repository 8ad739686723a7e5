"""The command catalogue (games/api/commands.py) is the contract of POST /games/{id}/commands/: it is what the
schema documents and what the endpoint checks, and it agrees with the engine's rulesets."""

import pytest

from dvorak_engine.rulesets import get_ruleset, ruleset_names
from games.api import commands

pytestmark = pytest.mark.django_db


def test_every_catalogued_command_is_a_command_of_the_rulesets_it_names():
    """A ruleset's own command need not be catalogued (a new game brings only its own files; the engine checks
    its body), but the catalogue names nothing the engine does not have, nor a ruleset that lacks the command."""
    engine_types = {name for ruleset in ruleset_names() for name in get_ruleset(ruleset).commands}
    assert set(commands.COMMANDS) <= engine_types
    for name in engine_types - set(commands.COMMANDS):
        commands.command_check({"type": name})  # not refused here: the engine checks its body
    for name, shape in commands.COMMANDS.items():
        shapes = commands.PROPOSALS.values() if name == "propose" else [shape]
        for each in shapes:
            assert {r for r in ruleset_names() if name in get_ruleset(r).commands} >= set(each.rulesets), name


def test_the_schema_documents_each_command_as_a_variant_with_a_discriminator_and_an_example(api_client):
    schema = api_client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/games/{game_id}/commands/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]
    components = schema["components"]["schemas"]
    command = components[body["schema"]["$ref"].rsplit("/", 1)[1]]
    assert command["discriminator"]["propertyName"] == "type"
    mapping = command["discriminator"]["mapping"]
    assert set(mapping) == set(commands.COMMANDS)
    assert len(command["oneOf"]) == len(mapping)

    play = components[mapping["play"].rsplit("/", 1)[1]]
    assert play["properties"]["type"]["enum"] == ["play"]
    assert play["required"] == ["card", "type"]
    assert {"onto", "target", "remove", "remove_before"} <= set(play["properties"])
    assert "article_ii" in play["properties"]["target"]["description"]

    proposal = components[mapping["propose"].rsplit("/", 1)[1]]
    assert proposal["discriminator"]["propertyName"] == "kind"
    assert set(proposal["discriminator"]["mapping"]) == set(commands.PROPOSALS)
    card_field = components[proposal["discriminator"]["mapping"]["card"].rsplit("/", 1)[1]]["properties"]["card"]
    new_card = components[card_field["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert new_card["additionalProperties"] is False

    examples = [example["value"] for example in body["examples"].values()]
    assert {example["type"] for example in examples} == set(commands.COMMANDS)
    assert {example["kind"] for example in examples if example["type"] == "propose"} == set(commands.PROPOSALS)
    assert "docs/api.md" in operation["description"]


def test_every_example_passes_the_check_it_documents():
    for example in commands.command_examples():
        commands.command_check(example.value)


@pytest.mark.parametrize(("body", "code", "field"), [
    ({"type": "teleport"}, "unknown_command", None),
    ({"card": "abc"}, "invalid", "non_field_errors"),
    ({"type": 3}, "invalid", "non_field_errors"),
    ({"type": "play"}, "invalid", "card"),
    ({"type": "play", "card": 7}, "invalid", "card"),
    ({"type": "play", "card": "abc", "target": "1"}, "invalid", "target"),
    ({"type": "play", "card": "abc", "target": True}, "invalid", "target"),
    ({"type": "discard", "cards": ["a", "a"]}, "invalid", "cards"),
    ({"type": "vote", "proposal": 1, "approve": "yes"}, "invalid", "approve"),
    ({"type": "roll", "cause": "c", "dice": "two dice"}, "invalid", "dice"),
    ({"type": "propose", "kind": "poem"}, "invalid", "kind"),
    ({"type": "propose", "kind": "card", "card": {"title": "T", "type": "Thing", "power": 9}}, "invalid", "card"),
    ({"type": "propose", "kind": "amend", "card": "abc", "changes": {}}, "invalid", "changes"),
    ({"type": "join", "player_deck": {"card_set": "x", "cards": [{"title": "Forged"}]}}, "invalid", "player_deck"),
])
def test_a_body_the_schema_forbids_is_refused_before_the_game_sees_it(table, body, code, field):
    game_id, seated = table(2)
    client = seated[0][1]
    before = client.get(f"/api/v1/games/{game_id}/").json()["version"]
    response = client.post(f"/api/v1/games/{game_id}/commands/", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == code
    if field:
        assert field in error["details"]
    else:
        assert "teleport" in error["message"] and "draw" in error["details"]["known"]
    assert client.get(f"/api/v1/games/{game_id}/").json()["version"] == before


def test_the_check_leaves_to_the_engine_what_depends_on_the_game(table):
    game_id, seated = table(2)
    client = seated[0][1]
    url = f"/api/v1/games/{game_id}/commands/"
    # Well-formed, so it reaches the engine, which knows whose turn it is and what can be seen.
    answers = [client.post(url, body, format="json") for body in (
        {"type": "pass"},  # a command of another ruleset
        {"type": "move", "cause": "no-such-card", "card": "nor-this", "to": "hand"},
    )]
    assert answers[0].json()["error"]["code"] == "unknown_command"
    assert answers[0].json()["error"]["details"]["known"] == sorted(get_ruleset("dvorak").commands)
    assert answers[1].status_code in {400, 409}
    # A field no command of that type takes depends on nothing in the game: the API refuses it, naming it.
    unknown = client.post(url, {"type": "draw", "comment": "a misspelt field"}, format="json")
    assert unknown.status_code == 400
    assert unknown.json()["error"]["details"] == {"comment": ["Not a field of this object."]}
