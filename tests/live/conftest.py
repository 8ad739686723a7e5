import pytest

from decks.deckdata import DeckData
from games.engine.testing import unique_title_deck


@pytest.fixture
def archive_deck(db):
    """An archive deck whose every card has its own title, so a leaked title names exactly one card."""
    from decks import services as deck_services

    def make(size: int = 40, *, slug: str = "test-deck", special_rules: list[dict] | None = None):
        content = unique_title_deck(size, special_rules=special_rules or [{"title": "House Rule", "text": "Be nice."}])
        content["slug"] = slug
        return deck_services.deck_create(author=None, data=DeckData.from_dict(content))

    return make


@pytest.fixture
def table(archive_deck, make_user, client_for):
    """A started game of ``players`` seats: (game id, [(user, client)] by seat)."""

    def make(players: int = 2, *, size: int = 40, start: bool = True):
        deck = archive_deck(size)
        seated = [(user, client_for(user)) for user in (make_user() for _ in range(players))]
        created = seated[0][1].post("/api/v1/games/", {"deck": deck.slug, "max_players": max(players, 2)}, format="json")
        assert created.status_code == 201, created.content
        game_id = created.json()["id"]
        for _, client in seated[1:]:
            joined = client.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
            assert joined.status_code == 200, joined.content
        if start:
            started = seated[0][1].post(f"/api/v1/games/{game_id}/start/")
            assert started.status_code == 200, started.content
        return game_id, seated

    return make
