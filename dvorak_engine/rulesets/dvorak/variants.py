"""The Variants of Dvorak at the door: who may join a Team, Multi-Deck or CCG game, with what, and when it may start.

- Team Dvorak: in a ``team`` game every player names a team when joining (``{"type": "join", "team": "Red"}``;
  the creator in ``options["team"]``). It starts with three or more players in two or more teams. (In the other
  variants a team is optional; players who name the same team are team-mates there too.)
- Multi-Deck Dvorak: each player who joins gets a copy of their side's deck, every card with a fresh opaque id,
  written into their ``player.joined`` event with the seat as the cards' owner and the deck named (``deck``: slug,
  title). The join endpoint sends the archive deck the joiner names as ``side_deck`` (slug, title, cards); by
  default, and always for the creator, it is the game's own deck. A side deck's Special Rules stay out of the game
  (a reading: the game is played by the Special Rules of the deck it was created with). In a game of the first
  reading (``state.FIRST_READING``: no ``reading`` in its ``game.created``) every player gets a copy of the game's
  deck, and no deck is named.
- CCG Dvorak: each player brings their own player deck, built from the game's Card Set (the deck given to
  ``create_game``, which supplies the Special Rules and the title; its own cards are not played). The joiner
  sends it as ``player_deck`` (the creator in ``options["player_deck"]``)::

      {"id": <int>, "name": <str>, "card_set": <the Card Set's slug>, "version": <int>,
       "cards": [{"title": <str>, "type": "Thing"|"Action"|..., "text"?, "flavor"?, "corner_value"?,
                  "creator"?, "stats"?: {}, "copies"?: <int, 1 or more; 1 when left out>}, ...]}

  A deck of another Card Set, a deck without cards, or more than ``MAX_PLAYER_DECK_COPIES`` copies is
  ``invalid`` (``dvorak_engine.player_decks``, shared with every ruleset played from players' own decks). The Card Set's own deck-building rules (at least twenty cards, unless its Special Rules say
  otherwise) are checked where the deck is built, not here.
"""

from __future__ import annotations

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets.dvorak.state import TEAM
from dvorak_engine.state import GameState, teams

TEAM_GAME_MIN_PLAYERS = 3


def require_team(team: str | None, *, variant: str) -> None:
    """In a team game a joiner names their team (elsewhere a team is optional)."""
    if team is None and variant == TEAM:
        raise DomainError("In a team game, name the team you join (\"team\").", code="invalid",
                          details={"field": "team"})


def require_ready_to_start(state: GameState) -> None:
    """A team game needs three or more players in at least two teams."""
    if state.table.variant != TEAM:
        return
    if len(state.seats) < TEAM_GAME_MIN_PLAYERS:
        raise DomainError(f"A team game needs at least {TEAM_GAME_MIN_PLAYERS} players.",
                          code="not_enough_players", details={"min_players": TEAM_GAME_MIN_PLAYERS})
    if len(teams(state)) < 2:
        raise DomainError("A team game needs at least two teams.", code="not_enough_players", details={"teams": teams(state)})
