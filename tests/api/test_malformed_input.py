"""Input no client should send still gets the error shape, never a server error, and changes nothing: JSON nested
past the parser's depth, a body over the size limit, a lone surrogate or a NUL where text is expected or inside a
JSON field (a card's stats, a game's options, a command, a proposed card, an import), a malformed header."""

import json

import pytest

from decks.models import Deck
from dvorak_core.deckdata import CardData, DeckData
from dvorak_core.errors import DomainError
from dvorak_kit.eventstore import store
from games.models import Game
from proposals.models import CardSetChange
from tests.engine.dvorak_games import unique_title_deck

pytestmark = pytest.mark.django_db


def error(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]


def test_json_nested_deeper_than_the_parser_goes_is_a_400(make_user, client_for):
    client = client_for(make_user())
    answer = client.post("/api/v1/games/", "[" * 5000 + "]" * 5000, content_type="application/json")
    assert answer.status_code == 400 and error(answer)["code"] == "invalid"


def nested(depth: int):
    value = 1
    for _ in range(depth):
        value = {"a": value}
    return value


def test_game_options_nested_deeper_than_the_store_writes_are_a_400_and_make_no_game(archive_deck, make_user,
                                                                                     client_for):
    """The event store writes a game's options with orjson, which stops at 254 levels: options 300 deep were a 500
    at the append (the write fuzz found it). A body may nest 64 deep in all, the body's own object included."""
    deck, client = archive_deck(), client_for(make_user())
    for depth in (64, 300):
        answer = send(client, "post", "/api/v1/games/", {"deck": deck.slug, "options": nested(depth)})
        assert answer.status_code == 400, answer.content
        assert error(answer)["code"] == "invalid" and "nested too deeply" in error(answer)["message"]
    assert not Game.objects.exists()
    answer = send(client, "post", "/api/v1/games/", {"deck": deck.slug, "options": nested(63)})
    assert answer.status_code == 201, answer.content


def test_a_command_nested_deeper_than_the_store_writes_is_a_400_and_appends_nothing(table):
    game_id, seated = table(2)
    client = seated[0][1]
    rule = client.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    version = store.current_version(f"game-{game_id}")
    command = {"type": "set_rule", "cause": rule, "param": "house_rule", "value": nested(300)}
    answer = send(client, "post", f"/api/v1/games/{game_id}/commands/", command)
    assert answer.status_code == 400, answer.content
    assert "nested too deeply" in error(answer)["message"]
    assert store.current_version(f"game-{game_id}") == version


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


# --- text the database cannot store, inside JSON fields --------------------------------------------------------
# PostgreSQL's text and jsonb take no NUL, and UTF-8 has no lone surrogate; JSON carries both as escapes, in keys as
# well as values. DRF refuses them in text fields itself; these are the fields that hold JSON.

UNSTORABLE = ["Shoot\x00", "\ud800"]


def send(client, method: str, path: str, body) -> object:
    """The body as a client writes it: JSON, the NUL and the surrogate as \\u escapes."""
    return getattr(client, method)(path, json.dumps(body), content_type="application/json")


def deck_rows(slug: str) -> tuple:
    deck = Deck.objects.get(slug=slug)
    return deck.revision, deck.updated_at, list(deck.cards.order_by("id").values_list("id", "title", "stats"))


@pytest.mark.parametrize("name", UNSTORABLE)
@pytest.mark.parametrize("write", ["new deck", "new card", "changed card"])
def test_a_card_stat_named_with_a_nul_or_a_lone_surrogate_is_a_400_and_changes_nothing(
    archive_deck, make_user, client_for, name, write
):
    deck = archive_deck(8)
    client = client_for(make_user())
    card_id = deck.cards.order_by("id").first().id
    before = deck_rows(deck.slug), Deck.objects.count()
    stats = {"Endure": 1, name: 2}
    method, path, body = {
        "new deck": ("post", "/api/v1/decks/", {"title": "Stats", "cards": [{"title": "A", "stats": stats}]}),
        "new card": ("post", f"/api/v1/decks/{deck.slug}/cards/", {"title": "A", "stats": stats}),
        "changed card": ("patch", f"/api/v1/decks/{deck.slug}/cards/{card_id}/", {"stats": stats}),
    }[write]
    answer = send(client, method, path, body)
    assert answer.status_code == 400, answer.content
    assert error(answer)["code"] == "invalid" and "cannot be stored" in error(answer)["message"]
    assert (deck_rows(deck.slug), Deck.objects.count()) == before


@pytest.mark.parametrize("change", [
    {"title": "\ud800"},
    {"special_rules": [{"title": "Rule", "text": "Be \udfff nice."}]},
    {"cards": [{"title": "A", "stats": {"\ud800": 1}}]},
    {"designers": ["Ann\ud83d"]},
])
def test_a_json_import_holding_a_lone_surrogate_escape_is_a_400_and_imports_nothing(make_user, client_for, change):
    """The listing's own JSON decodes \\ud800 to a lone surrogate, past the request's text checks."""
    listing = json.dumps({"slug": "surrogate", "title": "Surrogate", "cards": [{"title": "A"}], **change})
    answer = client_for(make_user()).post("/api/v1/decks/import/", {"format": "json", "text": listing}, format="json")
    assert answer.status_code == 400, answer.content
    assert error(answer)["code"] == "invalid" and "cannot be stored" in error(answer)["message"]
    assert not Deck.objects.filter(slug="surrogate").exists()


@pytest.fixture
def card_set_player(make_user, client_for):
    """A registered player of a card set, and the set's card ids."""
    from ccg import services as ccg_services
    from decks import services as deck_services

    player = make_user()
    deck_services.deck_create(author=player, data=DeckData.from_dict({
        **unique_title_deck(12), "slug": "a-set", "kind": "card_set"}))
    ccg_services.card_set_register(slug="a-set", user=player)
    return client_for(player), list(Deck.objects.get(slug="a-set").cards.values_list("id", flat=True))


@pytest.mark.parametrize("content", [
    {"title": "New", "stats": {"Shoot\x00": 1}},
    {"title": "New", "stats": {"\ud800": 1}},
    {"title": "New", "text": "Boom \udfff."},
    {"title": "x" * 201},  # the card's title column holds 200
    {"title": "New", "copies": 10**30},  # a card has 1 to 100 copies
])
def test_a_proposed_card_the_archive_cannot_hold_is_a_400_not_a_failed_version_build_later(card_set_player,
                                                                                          content):
    """A change is written to the set's cards by a task once accepted: what the archive would refuse then is
    refused now, when the player can still hear it."""
    client, _ = card_set_player
    answer = send(client, "post", "/api/v1/decks/a-set/changes/", {"kind": "add", "content": content})
    assert answer.status_code == 400, answer.content
    assert error(answer)["code"] == "invalid"
    assert not CardSetChange.objects.exists()


@pytest.mark.parametrize("options", [
    {"spectators": "anyone", "Shoot\x00": 1},
    {"house": {"rules": ["a\x00b"]}},
    {"\ud800": True},
])
def test_game_options_holding_unstorable_text_are_a_400_and_make_no_game(archive_deck, make_user, client_for, options):
    deck = archive_deck()
    answer = send(client_for(make_user()), "post", "/api/v1/games/", {"deck": deck.slug, "options": options})
    assert answer.status_code == 400, answer.content
    assert error(answer)["code"] == "invalid" and "cannot be stored" in error(answer)["message"]
    assert not Game.objects.exists()


def test_a_command_holding_unstorable_text_is_a_400_and_appends_nothing(table):
    """A rule parameter's value goes into the event as sent, keys and all; a field no command takes is refused
    before anything is stored (it is not a field of the command)."""
    game_id, seated = table(2)
    client = seated[0][1]
    rule = client.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    version = store.current_version(f"game-{game_id}")
    for command in (
        {"type": "set_rule", "cause": rule, "param": "house_rule", "value": "a\x00b"},
        {"type": "set_rule", "cause": rule, "param": "house_rule", "value": {"\ud800": 1}},
        {"type": "set_rule", "cause": rule, "param": "house_rule", "value": {"note\x00": 1}},
    ):
        answer = send(client, "post", f"/api/v1/games/{game_id}/commands/", command)
        assert answer.status_code == 400, (command, answer.content)
        assert error(answer)["code"] == "invalid" and "cannot be stored" in error(answer)["message"]
    answer = send(client, "post", f"/api/v1/games/{game_id}/commands/", {"type": "draw", "note\x00": 1})
    assert answer.status_code == 400 and error(answer)["details"] == {"note\x00": ["Not a field of this object."]}
    assert store.current_version(f"game-{game_id}") == version


@pytest.mark.parametrize("key", ["key\x00", "\x00", " padded", "x" * 201])
def test_an_idempotency_key_with_a_control_character_or_out_of_bounds_is_a_400_and_appends_nothing(table, key):
    game_id, seated = table(2)
    version = store.current_version(f"game-{game_id}")
    for _, client in seated:
        answer = client.post(f"/api/v1/games/{game_id}/commands/", {"type": "draw"}, format="json",
                             HTTP_IDEMPOTENCY_KEY=key)
        assert answer.status_code == 400 and "Idempotency-Key" in error(answer)["details"]
    assert store.current_version(f"game-{game_id}") == version


def test_the_services_refuse_unstorable_text_below_the_api_too(archive_deck, make_user):
    """Every caller (the admin, imports, tasks) meets the same refusal as the API's, before a row is written."""
    from decks import services as deck_services
    from games import services as game_services

    deck, user = archive_deck(), make_user()
    with pytest.raises(DomainError, match="cannot be stored"):
        deck_services.card_add(slug=deck.slug, author=user, card=CardData(title="A", stats={"\ud800": 1}))
    with pytest.raises(DomainError, match="cannot be stored"):
        game_services.game_create(user=user, deck=deck.slug, options={"a\x00": 1})
    assert deck.cards.count() == 40 and not Game.objects.exists()


def test_a_number_beyond_64_bits_is_a_400_and_appends_nothing(table):
    """JSON bounds no number, but an event is kept as JSON a 64-bit reader must take back: a counter's delta of
    10**30 (found by the write fuzz, once a server error) is refused with the other unstorable input."""
    game_id, seated = table(2)
    client = seated[0][1]
    rule = client.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    version = store.current_version(f"game-{game_id}")
    for command in (
        {"type": "counter", "cause": rule, "seat": 0, "name": "gold", "delta": 10**30},
        {"type": "counter", "cause": rule, "seat": 0, "name": "gold", "delta": -(2**63) - 1},
        {"type": "set_rule", "cause": rule, "param": "house_rule", "value": [2**64]},
    ):
        answer = send(client, "post", f"/api/v1/games/{game_id}/commands/", command)
        assert answer.status_code == 400, (command, answer.content)
        assert error(answer)["code"] == "invalid" and "beyond 64 bits" in error(answer)["message"]
    assert store.current_version(f"game-{game_id}") == version


def test_a_counter_stays_within_what_every_json_reader_keeps_exactly(table):
    game_id, seated = table(2)
    client = seated[0][1]
    rule = client.get(f"/api/v1/games/{game_id}/").json()["special_rules"][0]["id"]
    commands = f"/api/v1/games/{game_id}/commands/"
    most = 2**53 - 1
    answer = send(client, "post", commands, {"type": "counter", "cause": rule, "seat": 1, "name": "gold", "delta": most})
    assert answer.status_code == 201, answer.content
    assert answer.json()["events"][0]["data"]["value"] == most
    version = store.current_version(f"game-{game_id}")
    answer = send(client, "post", commands, {"type": "counter", "cause": rule, "seat": 1, "name": "gold", "delta": 1})
    assert answer.status_code == 400 and error(answer)["details"] == {"field": "delta"}, answer.content
    assert store.current_version(f"game-{game_id}") == version
    answer = send(client, "post", commands,
                  {"type": "counter", "cause": rule, "seat": 1, "name": "gold", "delta": -2 * most})
    assert answer.status_code == 201 and answer.json()["events"][0]["data"]["value"] == -most, answer.content
