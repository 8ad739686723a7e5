"""The OpenAPI schema is the contract, checked: Schemathesis generates requests from the schema the service serves
(valid ones and, in its coverage and negative modes, invalid ones) for every operation, sends them to the app
in process, and runs every check on each answer: no server error; every status code, content type, header
and body as documented; valid requests accepted and invalid ones refused; authentication not ignored.

The app answers through its real WSGI handler in this thread, inside the test's transaction (pytest-django),
signed in as a registered user by token. Path parameters draw from real rows part of the time (a deck, a card
set, a game in play, …) so that operations are exercised past their 404s.

Run it alone with ``pytest tests/api/test_schemathesis.py``; ``SCHEMATHESIS_MAX_EXAMPLES`` sets how many
examples each operation gets in the fuzzing phase (4 in `make test`, 100 in `make soak`); the coverage phase's cases
come on top in `make soak` (``SCHEMATHESIS_COVERAGE=1`` adds them anywhere).
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from schemathesis.config import SchemathesisConfig

from ccg import changes as proposal_services
from ccg import services as ccg_services
from ccg.models import Notification
from decks import services as deck_services
from dvorak_core.deckdata import DeckData
from dvorak_site.wsgi import application
from tests.engine.dvorak_games import unique_title_deck
from tests.sizes import size

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = size("SCHEMATHESIS_MAX_EXAMPLES", 4, 100)
# The coverage phase (every parameter's boundary and invalid values, every unexpected method: some 4,000 requests,
# three quarters of the test's time) runs in `make soak`; `make test` runs the explicit examples and the fuzzing.
# ``SCHEMATHESIS_COVERAGE=1`` runs it in either.
COVERAGE = bool(size("SCHEMATHESIS_COVERAGE", 0, 1))
# Refusals a request the schema admits may still get, because they turn on what is stored, not on the request's
# shape; the schema cannot say them. Every other operation must accept every schema-valid request (2xx, or 401,
# 403, 404, 409: the defaults).
REFUSED_BY_CONTENT = {
    ("POST", "/api/v1/auth/register/"): [400],  # the username is taken, or the password is a common one
    ("POST", "/api/v1/decks/"): [400],  # a title that makes no slug and no slug given; over 2000 cards in all; a
    # Special Rule's params out of the bounds of the parameter named; a card value the deck's ruleset cannot play
    ("POST", "/api/v1/decks/import/"): [400],  # the text does not parse as a listing in its format
    ("POST", "/api/v1/games/"): [400],  # the deck's ruleset does not exist or is not played in that variant
    ("POST", "/api/v1/games/{game_id}/commands/"): [400, 412],  # the ruleset refuses a field (a cause you
    # cannot see, a command it does not have); If-Match names another version
    ("POST", "/api/v1/games/{game_id}/publish/"): [400],  # as a new deck: a title that makes no slug
    ("POST", "/api/v1/games/{game_id}/mush/"): [400],  # the line is free text: not a MUSH command
    ("POST", "/api/v1/player-decks/"): [400],  # a card that is not in the set's latest version
    ("POST", "/api/v1/player-decks/check/"): [400],  # the same card listed twice, over 100 copies in all
    ("POST", "/api/v1/player-decks/import/"): [400],  # the text is not a Cockatrice deck, or names cards the set lacks
    ("PATCH", "/api/v1/player-decks/{player_deck_id}/"): [400],  # the same
    ("PATCH", "/api/v1/decks/{slug}/"): [400, 412],  # a Special Rule's params out of the bounds of the parameter
    # named; If-Match names another revision than the deck's latest
    ("POST", "/api/v1/decks/{slug}/changes/"): [400],  # a card's content the set's cards cannot hold
    # A card's effect whose fields its kind does not have or are out of their bounds (docs/effects.md: the
    # schema gives each effect's kind, not every kind's fields).
    ("POST", "/api/v1/decks/{slug}/cards/"): [400],
    ("PATCH", "/api/v1/decks/{slug}/cards/{card_id}/"): [400],
    ("POST", "/api/v1/decks/{slug}/effects/confirm/"): [412],  # If-Match names another revision than the latest
}
# 422: an Idempotency-Key that came before with another request (the generated keys repeat; what a key came with is
# stored, not in the request).
POSITIVE_DEFAULT = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]


@pytest.fixture
def world(unthrottled, make_user, client_for):
    """Real rows for the operations to find: the fuzzer's deck with a second revision and a talk post, a card set
    the fuzzer plays with a proposed change and a player deck, a notice, and a game in play."""
    fuzzer, other = make_user("fuzzer"), make_user("opponent")
    deck = deck_services.deck_create(author=fuzzer, data=DeckData.from_dict({**unique_title_deck(12),
                                                                             "slug": "fuzz-deck"}))
    deck_services.deck_update(slug=deck.slug, author=fuzzer, changes={"players": "2-5"}, summary="Players")
    post = deck_services.talk_post(slug=deck.slug, author=fuzzer, body="First!")
    card_set = deck_services.deck_create(author=fuzzer, data=DeckData.from_dict({
        **unique_title_deck(30), "slug": "fuzz-set", "kind": "card_set"}))
    ccg_services.card_set_register(slug=card_set.slug, user=fuzzer)
    version = ccg_services.card_set_version_ensure(slug=card_set.slug)
    card_ids = [card["id"] for card in version.content["cards"]]
    change = proposal_services.card_set_change_propose(slug=card_set.slug, author=fuzzer, kind="remove",
                                                       card_id=card_ids[0], content=None)
    player_deck = ccg_services.player_deck_create(owner=fuzzer, card_set_slug=card_set.slug, name="Fuzz",
                                                  entries={card_id: 1 for card_id in card_ids[:20]})
    Notification.objects.create(user=fuzzer, subject="Hello", body="A notice.", data={})

    client = client_for(fuzzer)
    game = client.post("/api/v1/games/", {"deck": deck.slug}, format="json").json()["id"]
    assert client_for(other).post(f"/api/v1/games/{game}/join/", {}, format="json").status_code == 200
    assert client.post(f"/api/v1/games/{game}/start/").status_code == 200
    return {
        "token": fuzzer.api_token,
        "slug": [deck.slug, card_set.slug],
        "game_id": [game],
        "card_id": [deck.cards.order_by("id").first().id, *card_ids[:2]],
        "number": [1, 2],
        "change_id": [change.id],
        "post_id": [post.id],
        "player_deck_id": [player_deck.id],
    }


@pytest.fixture
def api_schema(world):
    # Django's test client does the same: a request in a test must not close the test's connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    names = [name for name in world if name != "token"]
    config = SchemathesisConfig.from_dict({
        # The token as the schema's own scheme: Schemathesis then knows every request signed in by it, also one
        # that carries a made-up session cookie beside it (which it would otherwise take for the credential).
        "auth": {"openapi": {"tokenAuth": {"api_key": f"Token {world['token']}"}}},
        # PostgreSQL cannot store NUL in text, so text fields refuse it; the schema does not repeat that on every
        # string.
        "phases": {"coverage": {"enabled": COVERAGE}},
        "generation": {"max-examples": MAX_EXAMPLES, "allow-x00": False, "deterministic": True},
        "checks": {"positive_data_acceptance": {"expected-statuses": POSITIVE_DEFAULT}},
        "dictionaries": {name: {"values": world[name]} for name in names},
        "parameters": {f"path.{name}": {"dictionary": name, "probability": 0.7} for name in names},
        "operations": [
            {"include-name": f"{method} {path}",
             "checks": {"positive_data_acceptance": {"expected-statuses": [*POSITIVE_DEFAULT, *map(str, extra)]}}}
            for (method, path), extra in REFUSED_BY_CONTENT.items()
        ],
    })
    yield schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application, config=config)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request):
    """Schemathesis (4.x) names each operation's subtest through the node's ``_nodeid``, which pytest 9.2 no
    longer has; give it the node id it reads."""
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


@schema.parametrize()
def test_every_operation_keeps_to_the_schema(case):
    case.call_and_validate()
