"""Fixtures for the archive's Django side: the real seed listings, users, and decks made through the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SEEDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "seeds"
RULEBOOK = "dvorak-rules-2000-2007.txt"
DECK_LISTINGS = sorted(path.name for path in SEEDS.glob("*.txt") if path.name != RULEBOOK)


def seed_text(name: str) -> str:
    return (SEEDS / name).read_text(encoding="utf-8")


@pytest.fixture
def user(make_user):
    return make_user("reader")


@pytest.fixture
def curator(make_user):
    return make_user("curator", curator=True)


@pytest.fixture
def user_client(client_for, user):
    return client_for(user)


@pytest.fixture
def curator_client(client_for, curator):
    return client_for(curator)


@pytest.fixture
def new_deck(user_client):
    """Create a small deck through the API and return its JSON."""

    def make(**fields):
        body = {
            "title": "Kitchen Sink",
            "designers": ["Tweed Cap"],
            "players": "2-4",
            "status": "playable",
            "special_rules": [{"title": "Hand limit", "text": "The hand limit is 7."}],
            "cards": [
                {"title": "Frying Pan", "type": "Thing", "text": "Shoot 1", "copies": 2},
                {"title": "Wash Up", "type": "Action", "text": "Discard a Thing."},
            ],
            **fields,
        }
        response = user_client.post("/api/v1/decks/", body, format="json")
        assert response.status_code == 201, response.content
        return response.json()

    return make


def error_code(response) -> str:
    return json.loads(response.content)["error"]["code"]
