"""Fixtures for watching, feeds and people: a small deck, a card set, and users with and without an address."""

from __future__ import annotations

import pytest

from decks import services as deck_services
from dvorak_core.deckdata import DeckData
from tests.engine.dvorak_games import unique_title_deck


@pytest.fixture
def deck(make_user):
    """A deck of Tweed Cap's, started by its own account."""
    author = make_user("tweed")
    return deck_services.deck_create(author=author, data=DeckData.from_dict({
        **unique_title_deck(6), "slug": "watched-deck", "title": "Watched Deck", "designers": ["Tweed Cap"]}))


@pytest.fixture
def card_set():
    return deck_services.deck_create(author=None, data=DeckData.from_dict({
        **unique_title_deck(8), "slug": "watched-set", "title": "Watched Set", "kind": "card_set"}))


@pytest.fixture
def ann(make_user):
    user = make_user("ann")
    user.email = "ann@example.org"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def bob(make_user):
    return make_user("bob")  # no email address


@pytest.fixture
def cora(make_user):
    return make_user("cora", curator=True)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Runs what the code leaves for after the commit (the notices), as a real request's commit would: the test's
    transaction never commits."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
