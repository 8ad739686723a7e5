"""Every write operation of the API, fed hostile input: no answer is a server error, every refusal is in the error
shape of API.md, and a refused request changes nothing.

The operations come from the OpenAPI schema the service serves (every POST, PUT, PATCH and DELETE), so a new
endpoint is fuzzed without a change here; its path parameters must name rows of the world below (the test fails
for a parameter it has no rows for). The world is real: a registered user's token (a curator, so that curator-only
operations are exercised past their 403), decks with cards, revisions and a talk post, a locked deck, a CCG card
set with registered players, an open proposed change and a player deck, a notice, and games open, in play, in a
vote, finished, and of other rulesets.

Each operation's share of the requests starts with its valid bodies changed one part at a time, each part in
turn (up to half the share): replaced by text with a NUL or a lone surrogate, by an object with such a key, by
10**30, and by values of the wrong type or size; each object given a key with a NUL; the JSON inside an import's
text changed the same way. Hypothesis makes the rest: hostile JSON (huge and deeply nested values, text with NUL,
lone surrogates, right-to-left marks, emoji and combining marks, in keys too, numbers out of every range, NaN-like
strings, wrong types), malformed bodies as raw bytes, and valid bodies with one random change (a value replaced, a
key dropped, renamed or added, a value nested deep), with hostile If-Match and Idempotency-Key headers now and then.

Each request runs in a savepoint that is rolled back afterwards, so every request meets the same world (a
deck one request deletes is there for the next) and "nothing changed" has one reference: the hash of every
table's rows, taken once before the run. A refusal (4xx) must leave each table's rows exactly as they were.

It runs on PostgreSQL only: what it looks for first is text that PostgreSQL cannot store (SQLite stores it).
``FUZZ_REQUESTS`` sets how many requests a run sends (400 in `make test`, 1,500 in `make soak`: tests/sizes.py), shared
among the operations by weight;
``FUZZ_SEED`` fixes the seed of a run (a run without it prints its seed, to repeat it); in CI the run is
derandomized, the same requests each time. ``FUZZ_VERBOSE=1`` prints each operation's statuses.
"""

from __future__ import annotations

import json
import os
import random
import re
import traceback
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import hypothesis
import pytest
from django.apps import apps
from django.core.signals import got_request_exception
from django.db import connection, transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, given, seed
from hypothesis import strategies as st
from knox.models import AuthToken

from ccg import changes as proposal_services
from ccg import services as ccg_services
from ccg.models import Notification
from decks import services as deck_services
from dvorak_core.deckdata import DeckData
from dvorak_engine.rulesets.dvorak.state import is_action
from games import services as game_services
from tests.conftest import IN_CI
from tests.engine.dvorak_games import legal_commands, unique_title_deck
from tests.engine.test_legal_moves import filled
from tests.seeds import listing_text, seed_deck_json
from tests.sizes import size

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

FUZZ_REQUESTS = size("FUZZ_REQUESTS", 400, 1500)
WRITE_METHODS = ("post", "put", "patch", "delete")
PASSWORD = "a-long-passphrase"
MISSING = 987_654_321  # an id no row has
# Operations whose bodies have more shapes to explore get a larger share of the requests.
WEIGHTS = {
    ("POST", "/api/v1/games/{game_id}/commands/"): 6,
    ("POST", "/api/v1/decks/"): 3,
    ("POST", "/api/v1/decks/import/"): 3,
    ("POST", "/api/v1/decks/{slug}/cards/"): 2,
    ("PATCH", "/api/v1/decks/{slug}/cards/{card_id}/"): 2,
    ("POST", "/api/v1/decks/{slug}/changes/"): 2,
    ("POST", "/api/v1/games/"): 2,
}
NO_BODY_WEIGHT = 0.4
# Signing out revokes the token the fuzz sends every request with: every later request would be a 401. They are
# tested on their own (tests/api/test_accounts.py); revoking a token by its id is fuzzed, with spare tokens' ids.
# A refused sign-in is counted (django-axes' tables): a refusal that changes them is what they are for.
COUNTS_REFUSALS = {"axes"}
SIGNS_THE_FUZZ_OUT = {("DELETE", "/api/v1/auth/token/"), ("DELETE", "/api/v1/auth/tokens/")}
ERROR_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


# --- the world the requests meet ----------------------------------------------------------------------------------


@dataclass
class World:
    """What the fuzz's requests meet: the fuzzer's token, rows to name in paths, and bodies the server accepts."""

    token: str
    params: dict[str, list[Any]]  # path parameter → values, existing rows and one that names nothing
    rows: list[dict[str, Any]]  # path parameters that belong together (a deck's own card, a set's own change)
    bodies: dict[tuple[str, str], list[Any]]  # an operation's valid bodies
    commands: dict[str, list[dict]] = field(default_factory=dict)  # game id → commands valid in it now


def api(client, method: str, path: str, body: Any = None) -> dict:
    response = getattr(client, method)(path, body, format="json")
    assert response.status_code < 300, (method, path, response.status_code, response.content[:500])
    return response.json() if response.content else {}


def state_of(game_id: str):
    game = game_services.get_game(game_id)
    return game_services.state_at(game.stream_id, game.version)


def to_fuzzers_turn(game_id: str, fuzzer_client, other_client) -> None:
    """Play the game on until it is the fuzzer's turn in the play stage, with a Thing of theirs in play."""
    for _ in range(10):
        state = state_of(game_id)
        turn = state.table.turn
        client = fuzzer_client if turn.seat == 0 else other_client
        commands = legal_commands(state, turn.seat)
        if turn.seat == 0 and turn.stage == "play":
            things = [
                c
                for c in commands
                if c["type"] == "play" and "onto" not in c and not is_action(state, c["card"])
            ]
            if state.table.player(0).in_play or not things:
                return
            api(client, "post", f"/api/v1/games/{game_id}/commands/", things[0])
            continue
        step = next(c for c in commands if c["type"] in ("draw", "end_turn", "discard"))
        api(client, "post", f"/api/v1/games/{game_id}/commands/", step)
    raise AssertionError("the game did not come to the fuzzer's turn")


def command_bodies(game_id: str, client) -> list[dict]:
    """Commands valid in the game now: every move the API offers (choices made), and for `dvorak` the effect
    moves and proposals the engine's own test helper lists."""
    offered = api(client, "get", f"/api/v1/games/{game_id}/moves/")["moves"]
    chooser = random.Random(0)
    bodies = [filled(move, chooser) for move in offered]
    state = state_of(game_id)
    if state.ruleset == "dvorak":
        seat = next((s.seat for s in state.seats if s.username == "fuzzer"), None)
        if seat is not None:
            bodies += legal_commands(state, seat)
    unique = {json.dumps(body, sort_keys=True): body for body in bodies}
    return list(unique.values()) or [{"type": "draw"}]


@pytest.fixture
def world(unthrottled, make_user, client_for) -> World:
    """Rows for every path parameter, and valid bodies for every operation that takes one."""
    fuzzer = make_user("fuzzer", curator=True, password=PASSWORD)
    other = make_user("opponent")
    me, them = client_for(fuzzer), client_for(other)

    rules = [{"title": "House Rule", "text": "Be nice."}]
    deck = deck_services.deck_create(
        author=fuzzer,
        data=DeckData.from_dict(
            {**unique_title_deck(40, special_rules=rules), "slug": "fuzz-deck", "title": "Fuzz Deck"}
        ),
    )
    deck_services.deck_update(slug=deck.slug, author=fuzzer, changes={"players": "2-5"}, summary="Players")
    post = deck_services.talk_post(slug=deck.slug, author=fuzzer, body="First!")
    locked = deck_services.deck_create(
        author=fuzzer,
        data=DeckData.from_dict({**unique_title_deck(8), "slug": "fuzz-locked", "title": "Fuzz Locked"}),
    )
    deck_services.deck_lock(slug=locked.slug, actor=fuzzer)

    card_set = deck_services.deck_create(
        author=fuzzer,
        data=DeckData.from_dict(
            {**unique_title_deck(30), "slug": "fuzz-set", "title": "Fuzz Set", "kind": "card_set"}
        ),
    )
    for player in (fuzzer, other):
        ccg_services.card_set_register(slug=card_set.slug, user=player)
    version = ccg_services.card_set_version_ensure(slug=card_set.slug)
    set_cards = [card["id"] for card in version.content["cards"]]
    change = proposal_services.card_set_change_propose(
        slug=card_set.slug, author=other, kind="remove", card_id=set_cards[0], content=None
    )
    player_deck = ccg_services.player_deck_create(
        owner=fuzzer,
        card_set_slug=card_set.slug,
        name="Fuzz",
        entries={card_id: 1 for card_id in set_cards[:20]},
    )
    their_deck = ccg_services.player_deck_create(
        owner=other,
        card_set_slug=card_set.slug,
        name="Theirs",
        entries={card_id: 1 for card_id in set_cards[5:25]},
    )
    notice = Notification.objects.create(user=fuzzer, subject="Hello", body="A notice.", data={})

    def new_game(creator, body: dict, joiners=(), start: bool = False) -> str:
        game_id = api(client_for(creator), "post", "/api/v1/games/", body)["id"]
        for joiner in joiners:
            api(client_for(joiner), "post", f"/api/v1/games/{game_id}/join/", {})
        if start:
            api(client_for(creator), "post", f"/api/v1/games/{game_id}/start/")
        return game_id

    in_play = new_game(fuzzer, {"deck": deck.slug, "creative": True}, [other], start=True)
    to_fuzzers_turn(in_play, me, them)
    voting = new_game(fuzzer, {"deck": deck.slug, "creative": True}, [other], start=True)
    api(
        them,
        "post",
        f"/api/v1/games/{voting}/commands/",
        {
            "type": "propose",
            "kind": "card",
            "card": {"title": "Armageddon", "type": "Action", "text": "Boom."},
        },
    )
    open_game = new_game(
        other, {"deck": deck.slug, "variant": "team", "max_players": 4, "options": {"team": "B"}}
    )
    ccg_game = new_game(
        other, {"deck": card_set.slug, "variant": "ccg", "options": {"player_deck": their_deck.id}}
    )
    finished = new_game(fuzzer, {"deck": deck.slug}, [other], start=True)
    api(them, "post", f"/api/v1/games/{finished}/commands/", {"type": "concede"})
    for seed_slug in ("rock-paper-scissors-extreme-deck", "article-ii-updated"):
        deck_services.deck_import(author=None, text=seed_deck_json(seed_slug), format="json")
    throws = new_game(fuzzer, {"deck": "rock-paper-scissors-extreme-deck"}, [other], start=True)
    article_ii = new_game(fuzzer, {"deck": "article-ii-updated"}, [other], start=True)
    games = [in_play, voting, open_game, ccg_game, finished, throws, article_ii]

    deck_cards = list(deck.cards.order_by("id").values_list("id", flat=True))
    locked_card = locked.cards.order_by("id").first().id
    import_deck = {**unique_title_deck(3), "slug": "imported", "title": "Imported"}
    import_deck["cards"][0]["stats"] = {"Shoot": 1, "Endure": 2}
    spare_tokens = [AuthToken.objects.create(user=fuzzer)[0].token_key for _ in range(3)]
    return World(
        token=fuzzer.api_token,
        params={
            "slug": [deck.slug, locked.slug, card_set.slug, "no-such-deck"],
            "card_id": [deck_cards[0], deck_cards[-1], locked_card, set_cards[1], MISSING],
            "number": [1, 2, MISSING],
            "change_id": [change.id, MISSING],
            "game_id": [*games, str(uuid.uuid4())],
            "player_deck_id": [player_deck.id, MISSING],
            "token_id": [*spare_tokens, "dvorak_00000000"],
        },
        rows=[
            {"slug": deck.slug, "card_id": deck_cards[3], "number": 1},
            {"slug": locked.slug, "card_id": locked_card, "number": 1},
            {"slug": card_set.slug, "card_id": set_cards[2], "change_id": change.id, "number": 1},
        ],
        bodies={
            ("POST", "/api/v1/auth/register/"): [
                {"username": "newcomer", "password": "another-long-passphrase"}
            ],
            ("POST", "/api/v1/auth/token/"): [{"username": "fuzzer", "password": PASSWORD}],
            ("POST", "/api/v1/decks/"): [
                {
                    "title": "Fuzzed Deck",
                    "slug": "fuzzed",
                    "designers": ["Ann"],
                    "players": "2-4",
                    "special_rules": [{"title": "Rule", "text": "A rule."}],
                    "cards": [
                        {"title": "A Card", "text": "Draw a card.", "copies": 2, "stats": {"Shoot": 1}}
                    ],
                }
            ],
            ("PATCH", "/api/v1/decks/{slug}/"): [
                {
                    "title": "Renamed",
                    "designers": ["Bo"],
                    "special_rules": [{"title": "Rule", "text": "A rule."}],
                }
            ],
            ("POST", "/api/v1/decks/{slug}/cards/"): [
                {
                    "title": "New Card",
                    "type": "Action",
                    "text": "Boom.",
                    "copies": 2,
                    "stats": {"Shoot": 1},
                    "summary": "Added",
                }
            ],
            ("PATCH", "/api/v1/decks/{slug}/cards/{card_id}/"): [
                {"text": "Changed.", "stats": {"Endure": 2}}
            ],
            ("POST", "/api/v1/decks/{slug}/changes/"): [
                {"kind": "add", "content": {"title": "Added", "text": "New.", "stats": {"Shoot": 1}}},
                {
                    "kind": "change",
                    "card": set_cards[2],
                    "content": {"text": "Changed.", "stats": {"Endure": 2}},
                },
                {"kind": "remove", "card": set_cards[3]},
            ],
            ("POST", "/api/v1/decks/{slug}/talk/"): [{"body": "A reply.", "reply_to": post.id}],
            ("POST", "/api/v1/decks/import/"): [
                {"format": "json", "text": json.dumps(import_deck)},
                {"format": "wiki", "text": listing_text("serm-wargame.txt")},
                {
                    "format": "mushcode",
                    "text": "cleardeck\nloadcard Armageddon/A/Destroy all Things.\nloadcard Rock/T/A rock.",
                },
            ],
            ("POST", "/api/v1/games/"): [
                {
                    "deck": deck.slug,
                    "variant": "standard",
                    "creative": True,
                    "max_players": 3,
                    "options": {"spectators": "players"},
                },
                {"deck": card_set.slug, "variant": "ccg", "options": {"player_deck": player_deck.id}},
            ],
            ("POST", "/api/v1/games/{game_id}/join/"): [
                {},
                {"team": "Team A"},
                {"player_deck": player_deck.id},
            ],
            ("POST", "/api/v1/games/{game_id}/mush/"): [
                {"line": "drawcard"},
                {"line": "newcard Armageddon/A/Destroy all Things."},
                {"line": "playcard 1"},
            ],
            ("POST", "/api/v1/games/{game_id}/publish/"): [
                {"new_deck": True, "slug": "published", "title": "Published"},
                {"summary": "After the game"},
            ],
            ("POST", "/api/v1/notifications/read/"): [{"ids": [notice.id]}, {}],
            ("POST", "/api/v1/player-decks/"): [
                {
                    "card_set": card_set.slug,
                    "name": "Mine",
                    "entries": [{"card": card_id, "count": 1} for card_id in set_cards[1:21]],
                }
            ],
            ("POST", "/api/v1/player-decks/check/"): [
                {"card_set": card_set.slug, "entries": [{"card": card_id, "count": 2} for card_id in set_cards[1:11]]},
                {"card_set": card_set.slug, "version": 1, "entries": [{"card": set_cards[1], "count": 1}]},
            ],
            ("PATCH", "/api/v1/player-decks/{player_deck_id}/"): [
                {"name": "Tuned", "entries": [{"card": card_id, "count": 1} for card_id in set_cards[2:22]]}
            ],
        },
        commands={game_id: command_bodies(game_id, me) for game_id in games},
    )


# --- the operations, from the schema --------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    method: str
    path: str
    params: tuple[str, ...]
    body_schema: dict | None

    @property
    def key(self) -> tuple[str, str]:
        return self.method, self.path


def write_operations(schema: dict) -> list[Operation]:
    operations = []
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            if method not in WRITE_METHODS:
                continue
            params = tuple(p["name"] for p in operation.get("parameters", []) if p["in"] == "path")
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            operations.append(Operation(method.upper(), path, params, content.get("schema")))
    return operations


def resolve(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    return schema


def example_of(schema: dict, components: dict) -> Any:
    """A body the schema admits, for an operation no valid body is written for here: its required fields, each with
    the plainest value of its type."""
    schema = resolve(schema, components)
    for combined in ("oneOf", "anyOf", "allOf"):
        if combined in schema:
            return example_of(schema[combined][0], components)
    if "enum" in schema:
        return next(value for value in schema["enum"] if value is not None)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = schema.get("required", [])
        return {name: example_of(schema["properties"][name], components) for name in required}
    if kind == "array":
        return [example_of(schema.get("items", {}), components)] * schema.get("minItems", 0)
    if kind == "integer":
        return max(schema.get("minimum", 1), 1)
    if kind == "number":
        return 1.5
    if kind == "boolean":
        return False
    return "Fuzz" + "z" * max(0, schema.get("minLength", 0) - 4)


# --- hostile values -----------------------------------------------------------------------------------------------

NASTY_PIECES = [
    "\x00",
    "\ud800",
    "\udfff",
    "\ud83d",
    "\udc00\ud800",
    "\u202e",
    "\u200f",
    "\u200b",
    "\ufeff",
    "\uffff",
    "\U0010ffff",
    "😀",
    "👩‍👩‍👧",
    "e\u0301",
    "Z̷̢͉̈́",
    "\u0000\u0000",
    "'",
    '"',
    "\\",
    "<script>",
    "%00",
    "../",
    "\n",
    "\r\n",
    "\t",
    " ",
    "a",
    "0",
    "-1",
    "Thing",
    "Action",
    "draw",
    "dvorak",
    "fuzz-deck",
]
nasty_text = st.lists(st.sampled_from(NASTY_PIECES), min_size=1, max_size=6).map("".join)
huge_text = st.builds(
    lambda piece, times: piece * times,
    st.sampled_from(["x", "é", "😀", "\u202e", "\x00", " ", "a\u0301", "\ud800"]),
    st.sampled_from([201, 2_001, 5_001, 20_001, 100_000]),
)
texts = st.one_of(
    nasty_text,
    huge_text,
    st.text(max_size=30),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "10", "", "true", "null"]),
)
numbers = st.one_of(
    st.sampled_from([10**30, -(10**30), 2**63, 2**63 - 1, -(2**63) - 1, 2**31, -1, 0, 1, 101, 2001, 10**6]),
    st.sampled_from([1.5, -0.0, 1e308, -1e308, 5e-324, 2.0]),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
)
keys = st.one_of(
    st.sampled_from(["", "\x00", "\ud800", "__proto__", "type", "id", "stats", "😀", "x" * 10_000]),
    st.builds(
        str.__add__,
        st.sampled_from(["Shoot", "title", "type", "text", "spectators", "value", "card"]),
        st.sampled_from(["\x00", "\ud800", "\u202e", "😀", "e\u0301", ""]),
    ),
    st.text(max_size=12),
    nasty_text,
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
hostile_json = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=12,
)


@st.composite
def nested(draw) -> Any:
    """A value nested deep (in lists or objects), with something hostile at the bottom."""
    value = draw(scalars)
    depth = draw(st.sampled_from([10, 100, 600]))
    key = draw(st.sampled_from(["a", "\x00", "stats"]))
    for _ in range(depth):
        value = [value] if draw(st.booleans()) else {key: value}
    return value


hostile_values = st.one_of(
    scalars,
    hostile_json,
    nested(),
    st.sampled_from([[], {}, [None], {"": None}, {"\x00": 1}, {"a": "\x00"}, ["\ud800"]]),
)


class Raw(bytes):
    """A body sent as these bytes, not as JSON made from a value."""


raw_bodies = st.one_of(
    st.sampled_from(
        [
            b"",
            b"{",
            b"not json",
            b"null",
            b'"text"',
            b"[]",
            b"123",
            b"{}{}",
            b'{"a": NaN}',
            b'{"a": Infinity}',
            b'{"a": 1e999}',
            b'{"a": -1e999}',
            b'{"title": "\xff\xfe"}',
            b"\xef\xbb\xbf{}",
            b'{"a": "\\ud800"}',
            b'{"\\u0000": 1}',
            b'{"a": 1, "a": 2}',
            b"[" * 5000 + b"]" * 5000,
            b'{"a": ' + b"{" * 3000 + b"}" * 3000 + b"}",
        ]
    ).map(Raw),
    st.binary(max_size=40).map(Raw),
)


# --- changing valid bodies one part at a time -----------------------------------------------------------------


def paths_in(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value: the paths of its object members and list items (the first two of a list: the
    rest are alike), at every depth."""
    found = []
    items = (
        value.items() if isinstance(value, dict) else enumerate(value[:2]) if isinstance(value, list) else ()
    )
    for key, inner in items:
        found.append((*prefix, key))
        found += paths_in(inner, (*prefix, key))
    return found


def at(value: Any, path: tuple) -> Any:
    for key in path:
        value = value[key]
    return value


def json_object_in(text: Any) -> Any:
    """The JSON value a text holds (an import's text in the json format), or None."""
    if not isinstance(text, str) or not text.startswith("{"):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


@st.composite
def mutated(draw, valid: Any) -> Any:
    """The valid body with one change: a value replaced, a key dropped, renamed or added, a value nested; inside
    JSON held as text (an import), the same."""
    body = json.loads(json.dumps(valid))
    paths = paths_in(body)
    members = [path for path in paths if isinstance(at(body, path[:-1]), dict)]
    held = [path for path in paths if json_object_in(at(body, path)) is not None]
    how = draw(
        st.sampled_from(["replace", "replace", "replace", "drop", "rename", "rename", "add", "nest", "inner"])
    )
    if how == "add" or not paths:
        parent = at(
            body, draw(st.sampled_from([(), *(path for path in paths if isinstance(at(body, path), dict))]))
        )
        if isinstance(parent, dict):
            parent[draw(keys)] = draw(hostile_values)
        return body
    if how == "rename" and members:
        path = draw(st.sampled_from(members))
        parent = at(body, path[:-1])
        parent[draw(keys)] = parent.pop(path[-1])
        return body
    if how == "inner" and held:
        path = draw(st.sampled_from(held))
        inner = draw(mutated(json_object_in(at(body, path))))
        at(body, path[:-1])[path[-1]] = json.dumps(inner, ensure_ascii=draw(st.booleans()))
        return body
    path = draw(st.sampled_from(paths))
    parent, key = at(body, path[:-1]), path[-1]
    if how == "drop":
        del parent[key]
    elif how == "nest":
        parent[key] = [draw(nested()), parent[key]]
    else:
        parent[key] = draw(hostile_values)
    return body


@dataclass(frozen=True)
class Case:
    params: dict[str, Any]
    body: Any
    headers: dict[str, str]

    def content(self) -> bytes:
        if isinstance(self.body, Raw):
            return bytes(self.body)
        try:
            return json.dumps(
                self.body
            ).encode()  # ASCII: lone surrogates go as \ud800 escapes, as a client sends
        except RecursionError:
            return b"[]"

    def describe(self) -> str:
        text = repr(bytes(self.body)) if isinstance(self.body, Raw) else json.dumps(self.body)
        return f"{self.params} {self.headers or ''} {text[:400]}{'…' if len(text) > 400 else ''}"


def valid_bodies(operation: Operation, world: World, components: dict, params: dict) -> list[Any]:
    if operation.path.endswith("/commands/"):
        return world.commands.get(params.get("game_id"), [{"type": "draw"}])
    if operation.key in world.bodies:
        return world.bodies[operation.key]
    return [example_of(operation.body_schema, components) if operation.body_schema else {}]


def rows_for(operation: Operation, world: World) -> list[dict[str, Any]]:
    """Path parameters that belong together for the operation (a deck and its own card), and each parameter's first
    row."""
    together = [
        {name: row[name] for name in operation.params}
        for row in world.rows
        if operation.params and all(name in row for name in operation.params)
    ]
    firsts = {name: world.params[name][0] for name in operation.params}
    return [*together, *([firsts] if firsts not in together else [])]


def accepting_place(run: Run, operation: Operation, world: World, components: dict) -> dict[str, Any]:
    """The path parameters at which the operation accepts one of its valid bodies (a card set's changes are
    proposed at the card set, not at a deck), where its changed bodies go furthest before they are refused."""
    rows = rows_for(operation, world)
    for params in rows:
        for body in valid_bodies(operation, world, components, params)[:3]:
            if run.send(operation, Case(params, body, {})) < 300:
                return params
    return rows[0]


# Each part of a valid body is replaced by each of these (text the database cannot store, a number no column
# holds), and by two of the others in turn.
EVERY_TIME = ["a\x00b", "\ud800", {"\x00": 1, "stat": "\udfff"}, 10**30]
IN_TURN = [
    -(10**30),
    1.5,
    "NaN",
    None,
    True,
    [],
    {},
    "x" * 100_000,
    "\u202e😀e\u0301",
    [[[[["deep"]]]]] * 3,
    {"a": {"b": {"c": "\x00"}}},
    "",
    -1,
    2**63,
]


def replaced(body: Any, path: tuple, value: Any) -> Any:
    copy = json.loads(json.dumps(body))
    at(copy, path[:-1])[path[-1]] = value
    return copy


def one_part_changed(valid: Any) -> list[Any]:
    """The valid body with one part changed, for each part in turn: each value replaced (by text the database
    cannot store, and by values out of range or of the wrong type), each object given a key it cannot store;
    inside JSON held as text (an import's), the same."""
    changed = []
    for index, path in enumerate(paths_in(valid)):
        for value in (*EVERY_TIME, IN_TURN[index % len(IN_TURN)], IN_TURN[(index + 7) % len(IN_TURN)]):
            changed.append(replaced(valid, path, value))
        if (held := json_object_in(at(valid, path))) is not None:
            changed += [replaced(valid, path, json.dumps(inner)) for inner in one_part_changed(held)]
    objects = [path for path in [(), *paths_in(valid)] if isinstance(at(valid, path), dict)]
    changed += [replaced(valid, (*path, key), 1) for path in objects for key in ("\x00", "Shoot\ud800")]
    return changed


def distinct(bodies: list[Any]) -> list[Any]:
    """One body of each command type and proposal kind; other operations' bodies are all different already."""
    by_shape: dict[Any, Any] = {}
    for body in bodies:
        shape = (
            (body.get("type"), body.get("kind"))
            if isinstance(body, dict) and "type" in body
            else len(by_shape)
        )
        by_shape.setdefault(shape, body)
    return list(by_shape.values())


def sweep(
    operation: Operation, world: World, components: dict, place: dict, limit: int, run_seed: int
) -> list[Case]:
    """One part of a valid body changed at a time, for the operation's valid bodies (for commands, one body of each
    type and kind in each game), at most ``limit`` of them, spread evenly."""
    if operation.path.endswith("/commands/"):
        places = [{"game_id": game_id} for game_id in world.commands]
    else:
        places = [place]
    found = [
        Case(params, body, {})
        for params in places
        for valid in distinct(valid_bodies(operation, world, components, params))
        for body in one_part_changed(valid)
    ]
    if len(found) > limit:
        found = random.Random(run_seed).sample(found, limit)
    return found


def cases(operation: Operation, world: World, components: dict, place: dict) -> st.SearchStrategy[Case]:
    values = {name: world.params[name] for name in operation.params}
    any_params = st.fixed_dictionaries({name: st.sampled_from(options) for name, options in values.items()})
    params = st.one_of(st.just(place), st.sampled_from(rows_for(operation, world)), any_params)

    @st.composite
    def case(draw) -> Case:
        chosen = draw(params)
        valid = draw(st.sampled_from(valid_bodies(operation, world, components, chosen)))
        kind = draw(
            st.sampled_from(
                ["valid", "mutated", "mutated", "mutated", "mutated", "mutated", "hostile", "hostile", "raw"]
            )
        )
        body = {
            "valid": st.just(valid),
            "mutated": mutated(valid),
            "raw": raw_bodies,
            "hostile": st.one_of(hostile_values, st.dictionaries(keys, hostile_values, max_size=5)),
        }[kind]
        headers = {}
        if operation.path.endswith("/commands/") and draw(st.integers(0, 4)) == 0:
            name = draw(st.sampled_from(["HTTP_IF_MATCH", "HTTP_IDEMPOTENCY_KEY"]))
            headers[name] = draw(
                st.sampled_from(
                    [
                        '"1"',
                        'W/"2"',
                        '"99999999999999999999"',
                        '"-1"',
                        "abc",
                        "",
                        " ",
                        "x" * 300,
                        "é",
                        "key\x00",
                        "\x00",
                        '"\x00"',
                        "key-1",
                    ]
                )
            )
        return Case(chosen, draw(body), headers)

    return case()


# --- what every answer must be ----------------------------------------------------------------------------------


def table_hashes() -> dict[str, str]:
    """Each table of the service's models as its row count and the sum of its rows' hashes: any row added, removed
    or changed changes it (a timestamp, a version or a counter included), and it needs no sort."""
    tables = sorted({model._meta.db_table for model in apps.get_models()
                     if model._meta.managed and model._meta.app_label not in COUNTS_REFUSALS})
    query = " UNION ALL ".join(
        f"SELECT '{table}', count(*) || ':' || coalesce(sum(hashtextextended(row::text, 0)), 0) FROM \"{table}\" row"
        for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(query)
        return dict(cursor.fetchall())


def error_shape_problem(response) -> str | None:
    if not response["Content-Type"].startswith("application/json"):
        return f"not JSON but {response['Content-Type']}"
    try:
        body = json.loads(response.content)
    except ValueError:
        return "a body that is not JSON"
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or set(body) != {"error"}:
        return f"not {{'error': {{…}}}}: {response.content[:200]!r}"
    if not isinstance(error.get("code"), str) or not ERROR_CODE.match(error["code"]):
        return f"no snake_case code: {error.get('code')!r}"
    if not isinstance(error.get("message"), str) or not error["message"]:
        return "no message"
    if set(error) - {"code", "message", "details", "request_id"} or not isinstance(error.get("details", {}), dict):
        return f"fields besides code, message, details and request_id: {sorted(error)}"
    if error.get("request_id") != response.get("X-Request-ID"):
        return f"a request id other than the answer's X-Request-ID: {error.get('request_id')!r}"
    return None


class Rollback(Exception):
    """Ends a request's savepoint, whatever the request did."""


@dataclass
class Run:
    client: Client
    reference: dict[str, str]
    statuses: Counter = field(default_factory=Counter)
    by_operation: dict[str, Counter] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    last_exception: list[str] = field(default_factory=list)

    def send(self, operation: Operation, case: Case) -> int:
        """Send the case, judge the answer, roll back whatever it did; its status."""
        path = operation.path
        for name, value in case.params.items():
            path = path.replace("{" + name + "}", str(value))
        self.last_exception.clear()
        try:
            with transaction.atomic():
                response = self.client.generic(
                    operation.method, path, case.content(), content_type="application/json", **case.headers
                )
                problem = self.judge(response)
                raise Rollback
        except Rollback:
            pass
        finally:
            game_services.STATE_CACHE.clear()  # it may hold states of the rolled-back branch
        self.statuses[response.status_code] += 1
        self.by_operation.setdefault(f"{operation.method} {operation.path}", Counter())[
            response.status_code
        ] += 1
        if problem:
            where = "".join(self.last_exception[-1:]).strip().splitlines()[-3:]
            self.failures.append(
                f"{operation.method} {path} → {response.status_code} ({problem}) "
                f"{case.describe()} {' | '.join(where)}"
            )
        return response.status_code

    def judge(self, response) -> str | None:
        if response.status_code >= 500:
            return "server error"
        if response.status_code < 400:
            return None
        if problem := error_shape_problem(response):
            return f"refusal not in the error shape: {problem}"
        changed = [table for table, digest in table_hashes().items() if self.reference.get(table) != digest]
        return f"refused, yet changed {', '.join(changed)}" if changed else None

    def record_exception(self, sender, request=None, **kwargs) -> None:
        self.last_exception.append(traceback.format_exc())


def fuzz(
    run: Run, operation: Operation, world: World, components: dict, place: dict, examples: int, run_seed: int
):
    """The operation's share of the run: ``examples`` requests Hypothesis makes for it."""

    @seed(run_seed)
    @hypothesis.settings(
        max_examples=examples,
        derandomize=IN_CI,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases(operation, world, components, place))
    def send(case: Case) -> None:
        run.send(operation, case)

    return send


def test_every_write_operation_refuses_hostile_input_cleanly(world, capsys):
    client = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {world.token}")
    schema = client.get("/api/v1/schema/?format=json").json()
    components = schema["components"]["schemas"]
    operations = [op for op in write_operations(schema) if (op.method, op.path) not in SIGNS_THE_FUZZ_OUT]
    assert len(operations) >= 25, [op.key for op in operations]
    unknown = {
        (op.method, op.path, name) for op in operations for name in op.params if name not in world.params
    }
    assert not unknown, f"Operations with path parameters the fuzz world has no rows for: {sorted(unknown)}"

    run = Run(client, table_hashes())
    got_request_exception.connect(run.record_exception)
    run_seed = int(os.environ.get("FUZZ_SEED") or random.randrange(2**32))
    weights = {op.key: WEIGHTS.get(op.key, 1 if op.body_schema else NO_BODY_WEIGHT) for op in operations}
    try:
        for operation in operations:
            share = max(10, round(FUZZ_REQUESTS * weights[operation.key] / sum(weights.values())))
            place = accepting_place(run, operation, world, components)
            swept = (
                sweep(operation, world, components, place, share // 2, run_seed)
                if operation.body_schema
                else []
            )
            for case in swept:
                run.send(operation, case)
            fuzz(run, operation, world, components, place, share - len(swept), run_seed)()
    finally:
        got_request_exception.disconnect(run.record_exception)

    summary = (
        f"{sum(run.statuses.values())} requests over {len(operations)} write operations (seed {run_seed}); "
        f"statuses {dict(sorted(run.statuses.items()))}"
    )
    with capsys.disabled():
        print(f"\n{summary}")
        if os.environ.get("FUZZ_VERBOSE"):
            for name, statuses in run.by_operation.items():
                print(f"  {name}: {dict(sorted(statuses.items()))}")
    assert not run.failures, summary + "\n" + "\n".join(run.failures[:40])
