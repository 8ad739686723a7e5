"""Fixtures for the archive's Django side: users, and decks made through the API. (The seed listings the
archive's tests import are in tests.seeds.)"""

from __future__ import annotations

import json

import pytest


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
