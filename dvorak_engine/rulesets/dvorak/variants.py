"""The Variants of Dvorak at the door: who may join a Team, Multi-Deck or CCG game, with what, and when it may start.

- Team Dvorak: in a ``team`` game every player names a team when joining (``{"type": "join", "team": "Red"}``;
  the creator in ``options["team"]``). It starts with three or more players in two or more teams. (In the other
  variants a team is optional; players who name the same team are team-mates there too.)
- Multi-Deck Dvorak: each player who joins gets their own copy of the game's deck, every card with a fresh
  opaque id, written into their ``player.joined`` event with the seat as the cards' owner.
- CCG Dvorak: each player brings their own player deck, built from the game's Card Set (the deck given to
  ``create_game``, which supplies the Special Rules and the title; its own cards are not played). The joiner
  sends it as ``player_deck`` (the creator in ``options["player_deck"]``)::

      {"id": <int>, "name": <str>, "card_set": <the Card Set's slug>, "version": <int>,
       "cards": [{"title": <str>, "type": "Thing"|"Action"|..., "text"?, "flavor"?, "corner_value"?,
                  "creator"?, "stats"?: {}, "copies"?: <int, 1 or more; 1 when left out>}, ...]}

  A deck of another Card Set, a deck without cards, or more than ``MAX_PLAYER_DECK_COPIES`` copies is
  ``invalid``. The Card Set's own deck-building rules (at least twenty cards, unless its Special Rules say
  otherwise) are checked where the deck is built, not here.
"""

from __future__ import annotations

from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets.dvorak.state import TEAM
from dvorak_engine.state import GameState, teams

MAX_PLAYER_DECK_COPIES = 500
TEAM_GAME_MIN_PLAYERS = 3


def require_team(team: str | None, *, variant: str) -> None:
    """In a team game a joiner names their team (elsewhere a team is optional)."""
    if team is None and variant == TEAM:
        raise DomainError("In a team game, name the team you join (\"team\").", code="invalid",
                          details={"field": "team"})


def read_player_deck(value: Any, *, card_set: str) -> dict[str, Any]:
    """A CCG player deck as the service sends it (the shape in this module's docstring), checked."""
    if value is None:
        raise DomainError("A CCG game is joined with a player deck (\"player_deck\").",
                          code="invalid", details={"field": "player_deck"})
    if not isinstance(value, dict):
        raise DomainError("\"player_deck\" must be an object.", code="invalid", details={"field": "player_deck"})
    if str(value.get("card_set", "")) != card_set:
        raise DomainError(f"This game is played with the Card Set {card_set!r}; that deck is built "
                                     f"from another.", code="invalid", details={"field": "player_deck.card_set", "card_set": card_set})
    cards = value.get("cards")
    if not isinstance(cards, list) or not cards:
        raise DomainError("A player deck needs a list of cards.", code="invalid", details={"field": "player_deck.cards"})
    total = 0
    for card in cards:
        if not isinstance(card, dict) or not isinstance(card.get("title"), str) or not card["title"].strip():
            raise DomainError("Each card of a player deck has a title.", code="invalid", details={"field": "player_deck.cards"})
        copies = card.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            raise DomainError("A card's \"copies\" is a whole number, 1 or more.",
                              code="invalid", details={"field": "player_deck.cards"})
        total += copies
    if total > MAX_PLAYER_DECK_COPIES:
        raise DomainError(f"A player deck holds at most {MAX_PLAYER_DECK_COPIES} cards.",
                          code="invalid", details={"field": "player_deck.cards"})
    return {**player_deck_summary(value), "cards": cards}


def player_deck_summary(deck: dict[str, Any]) -> dict[str, Any]:
    """What everyone sees of a player's deck: which deck it is, not its cards."""
    version = deck.get("version")
    return {"id": deck.get("id"), "name": str(deck.get("name") or ""), "card_set": str(deck.get("card_set", "")),
            "version": version if isinstance(version, int) and not isinstance(version, bool) else None}


def require_ready_to_start(state: GameState) -> None:
    """A team game needs three or more players in at least two teams."""
    if state.table.variant != TEAM:
        return
    if len(state.seats) < TEAM_GAME_MIN_PLAYERS:
        raise DomainError(f"A team game needs at least {TEAM_GAME_MIN_PLAYERS} players.",
                          code="not_enough_players", details={"min_players": TEAM_GAME_MIN_PLAYERS})
    if len(teams(state)) < 2:
        raise DomainError("A team game needs at least two teams.", code="not_enough_players", details={"teams": teams(state)})
