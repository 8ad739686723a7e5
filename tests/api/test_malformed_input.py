"""Input no client should send still gets the error shape, never a server error: JSON nested past the parser's
depth, a body over the size limit, a lone surrogate or a NUL where text is expected."""

import pytest

from dvorak_site.eventstore import store

pytestmark = pytest.mark.django_db


def error(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]


def test_json_nested_deeper_than_the_parser_goes_is_a_400(make_user, client_for):
    client = client_for(make_user())
    answer = client.post("/api/v1/games/", "[" * 5000 + "]" * 5000, content_type="application/json")
    assert answer.status_code == 400 and error(answer)["code"] == "invalid"


def test_a_body_over_the_limit_is_a_json_413_and_changes_nothing(table, settings):
    game_id, seated = table(2)
    version = store.current_version(f"game-{game_id}")
    body = '{"type": "draw", "padding": "' + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1) + '"}'
    answer = seated[0][1].post(f"/api/v1/games/{game_id}/commands/", body, content_type="application/json")
    assert answer.status_code == 413 and error(answer)["code"] == "too_large"
    assert store.current_version(f"game-{game_id}") == version


@pytest.mark.parametrize("body", ['{"deck": "\\ud800"}', '{"deck": "a\\u0000b"}'])
def test_a_lone_surrogate_or_a_nul_in_text_is_a_400(make_user, client_for, body):
    answer = client_for(make_user()).post("/api/v1/games/", body, content_type="application/json")
    assert answer.status_code == 400 and error(answer)["code"] == "invalid"


def test_a_nul_in_a_query_parameter_is_a_400(api_client):
    answer = api_client.get("/api/v1/decks/?search=%00")
    assert answer.status_code == 400 and error(answer)["code"] == "invalid"


def test_a_text_longer_than_its_maximum_is_refused_even_when_whitespace_pads_it(make_user, client_for):
    """The schema's maxLength counts the text as sent: trimming must not let a longer one through."""
    padded = " " * 10 + "x" * 20000  # the description's maximum is 20,000 characters
    answer = client_for(make_user()).post("/api/v1/decks/", {"title": "Padded", "description": padded}, format="json")
    assert answer.status_code == 400 and "description" in error(answer)["details"]
