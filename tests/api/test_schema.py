"""What the served schema says about errors, and that it reads well where people read it (Swagger UI renders
descriptions as Markdown, where `<word>` is an HTML tag and vanishes)."""

import re

import pytest

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture
def schema(api_client):
    return api_client.get("/api/v1/schema/?format=json").json()


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield f"{method.upper()} {path}", operation


def test_the_error_shape_is_one_component(schema):
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    body = schema["components"]["schemas"][error["properties"]["error"]["$ref"].rsplit("/", 1)[1]]
    assert set(body["properties"]) == {"code", "message", "details", "request_id"}
    assert sorted(body["required"]) == ["code", "message", "request_id"]


def test_every_4xx_answer_of_every_operation_is_in_the_error_shape(schema):
    for name, operation in operations(schema):
        errors = {status: answer for status, answer in operation["responses"].items() if status.startswith("4")}
        # The health checks take no body, no parameter and no token: nothing a probe sends can be refused.
        assert errors or operation["tags"] == ["health"], name
        for status, answer in errors.items():
            assert answer["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, (
                name, status)
            assert answer["description"], (name, status)


def test_the_answers_listed_follow_from_what_each_operation_is(schema):
    listed = {name: set(operation["responses"]) for name, operation in operations(schema)}
    assert {"400", "401", "403", "404", "409", "412", "415", "429"} <= listed["POST /api/v1/games/{game_id}/commands/"]
    assert "423" in listed["PATCH /api/v1/decks/{slug}/"]
    assert "423" not in listed["GET /api/v1/decks/{slug}/"]
    # No body, no parameter: only a body sent all the same can be refused (a field the operation does not take); a
    # path that names nothing: no 404. A read whose only header is If-None-Match refuses nothing of it.
    assert "400" in listed["POST /api/v1/auth/ticket/"] and "404" not in listed["POST /api/v1/auth/ticket/"]
    assert "400" not in listed["GET /api/v1/decks/{slug}/"]
    # Register and token read no token, so an invalid one cannot be refused; the token endpoint says 401 itself.
    assert "401" not in listed["POST /api/v1/auth/register/"]
    assert "401" in listed["POST /api/v1/auth/token/"]
    assert "415" not in listed["GET /api/v1/decks/"]


def test_the_commands_header_descriptions_render(schema):
    parameters = {p["name"]: p for p in schema["paths"]["/api/v1/games/{game_id}/commands/"]["post"]["parameters"]}
    assert parameters["If-Match"]["description"].startswith("The version the game must be at")
    assert '`"12"`' in parameters["If-Match"]["description"]
    text = str(schema)
    assert not re.search(r"(?<![`\w])<[a-z_]+>(?!`)", text.replace("`<URL>; rel=\\\"next\\\"`", "")), \
        "a bare <word> in a description renders as nothing"


def test_the_schema_says_where_the_command_reference_is(schema):
    description = schema["info"]["description"]
    assert "docs/api.md" in description and "API.md" not in description.replace("docs/api.md", "")


def test_export_media_types_are_documented(schema):
    ok = schema["paths"]["/api/v1/decks/{slug}/export/{export_format}/"]["get"]["responses"]["200"]["content"]
    assert {"application/json", "text/plain", "text/tab-separated-values", "text/csv", "text/html",
            "application/pdf", "application/xml"} == set(ok)


def test_nullable_fields_are_nullable(schema):
    components = schema["components"]["schemas"]
    assert components["TalkPost"]["properties"]["reply_to"]["nullable"] is True
    assert components["GameState"]["properties"]["you"]["nullable"] is True


def as_json_schema(node):
    """OpenAPI 3.0's schemas as JSON Schema: ``nullable: true`` becomes "or null"."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    return {"anyOf": [converted, {"type": "null"}]} if node.get("nullable") else converted


# One deck per ruleset: the seed deck where it has its cards, else the project's sample set.
DECK_OF_RULESET = {
    "dvorak": ("seed_data", "socialism", {"ruleset": "dvorak"}),
    "article_ii": ("seed_data", "article-ii-updated", {}),
    "rock_paper_scissors_extreme": ("seed_data", "rock-paper-scissors-extreme-deck", {}),
    "serm": ("seed_data", "simplistic-wargame-with-four-stats-s-e-r-m", {}),
    "socialism": ("seed_data", "socialism", {}),
    "filibuster": ("sample_data", "filibuster-sample-set", {"variant": "standard"}),
    "virtues_of_the_drake": ("sample_data", "virtues-of-the-drake-sample", {}),
    "odds_and_evens": ("seed_data", "socialism", {"ruleset": "odds_and_evens"}),  # it plays no cards
    "draft": ("sample_data", "filibuster-sample-set", {"ruleset": "draft"}),  # a card set's version, drafted
}


def test_every_ruleset_has_a_deck_here():
    from dvorak_engine.rulesets import ruleset_names

    assert sorted(DECK_OF_RULESET) == ruleset_names()


@pytest.mark.parametrize("ruleset", sorted(DECK_OF_RULESET))
def test_the_state_of_a_game_of_every_ruleset_is_what_the_schema_says(schema, make_user, client_for, ruleset):
    """The schema's GameState is true of every ruleset's state: the envelope they all keep, then Dvorak's table or
    a `board` of the ruleset's own, before and after the start, for a player and for a spectator."""
    import jsonschema

    from decks import services as deck_services
    from decks.management.commands.load_seed_decks import SEED_DATA

    folder, slug, extra = DECK_OF_RULESET[ruleset]
    text = (SEED_DATA.parent / folder / f"{slug}.json").read_text(encoding="utf-8")
    deck_services.deck_import(author=None, text=text, format="json", skip_existing=True)
    ann, bob, eve = (client_for(make_user(name)) for name in ("ann", "bob", "eve"))
    created = ann.post("/api/v1/games/", {"deck": slug, "max_players": 2, **extra}, format="json")
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json").status_code == 200
    before = ann.get(f"/api/v1/games/{game_id}/").json()
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200

    component = {"$ref": "#/components/schemas/GameState", "components": as_json_schema(schema["components"])}
    for state in (created.json(), before, ann.get(f"/api/v1/games/{game_id}/").json(),
                  eve.get(f"/api/v1/games/{game_id}/").json()):
        assert state["ruleset"] == ruleset
        jsonschema.validate(state, component)


def test_a_card_set_version_is_what_the_schema_says(schema, api_client):
    """A version keeps its cards and Special Rules as they were stored: `effect` and `params` only where they were
    set, and no reader's suggestion (which is the live archive's, not the version's)."""
    import jsonschema

    from decks import services as deck_services
    from dvorak_core.deckdata import DeckData

    deck_services.deck_create(author=None, data=DeckData.from_dict({
        "slug": "versioned-set", "title": "Versioned Set", "kind": "card_set",
        "special_rules": [{"title": "Size", "text": "Hand size is seven instead of five.", "params": {"hand_limit": 7}},
                          {"title": "Manners", "text": "Be nice."}],
        "cards": [{"title": "Plain", "type": "Thing", "text": "Nothing much."},
                  {"title": "Drawer", "type": "Action", "text": "Draw two cards.",
                   "effect": [{"kind": "draw", "who": "you", "count": 2}]}],
    }))
    answer = api_client.get("/api/v1/decks/versioned-set/versions/1/")
    assert answer.status_code == 200, answer.content
    version = answer.json()
    assert [("effect" in card) for card in version["cards"]] == [False, True]
    assert [("params" in rule) for rule in version["special_rules"]] == [True, False]

    documented = schema["paths"]["/api/v1/decks/{slug}/versions/{number}/"]["get"]["responses"]["200"]
    component = {**documented["content"]["application/json"]["schema"], "components": as_json_schema(schema["components"])}
    jsonschema.validate(version, component)


def test_the_schema_s_version_is_the_one_docs_api_md_states(schema):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    stated = re.search(r"This page describes version (\d+(?:\.\d+)*) of the API", text)
    assert stated, "docs/api.md no longer states its version"
    assert schema["info"]["version"] == stated[1]


def test_the_headers_clients_rely_on_are_in_the_schema(schema):
    paths = schema["paths"]
    create = paths["/api/v1/games/"]["post"]
    assert "Idempotency-Key" in {p["name"] for p in create["parameters"]} and "422" in create["responses"]
    assert "Location" in create["responses"]["201"]["headers"]
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(create["responses"]["400"]["headers"])
    assert set(schema["components"]["headers"]) == {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}
    assert "Location" not in paths["/api/v1/auth/ticket/"]["post"]["responses"]["201"].get("headers", {})
    state = paths["/api/v1/games/{game_id}/"]["get"]
    assert "If-None-Match" in {p["name"] for p in state["parameters"]} and "304" in state["responses"]
    assert "ETag" in state["responses"]["200"]["headers"]
    events = paths["/api/v1/games/{game_id}/events/"]["get"]
    assert "limit" in {p["name"] for p in events["parameters"]} and "Link" in events["responses"]["200"]["headers"]
    # Every request body's object is closed: a field it does not list is refused.
    body = schema["components"]["schemas"]["GameCreateRequest"]
    assert body["additionalProperties"] is False
