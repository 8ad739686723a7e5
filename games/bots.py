"""Computer players at the server's tables: seated by a game's creator (``POST /games/{id}/bots/``), each plays its
seat through the one command pipeline as a client would, from its seat's own view and listed moves
(``dvorak_engine.bots``), a short think time after the command that gave it something to do (games/background.py).

A computer player is an account of its own, ``Computer 1`` to ``Computer 20`` (a name with a space, which no one
can register), taken by the first one not seated at the game; its level (``random`` or ``greedy``) is its seat's,
in the game's events. At a CCG table it brings a player deck like anyone seated there: a copy of one of the
creator's own, by default the one the creator brought."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

import dvorak_engine as engine
from dvorak_core.errors import Conflict, DomainError, Forbidden, VersionConflict
from dvorak_engine import bots as choosing
from dvorak_engine.state import ACTIVE, OPEN, VOTING
from games import background, services

logger = logging.getLogger("dvorak.games")

NAME = "Computer {}"
MOST = 20


def computer_account(taken: set[str]):
    """The first computer player's account whose name is not in ``taken``, made on first use."""
    users = get_user_model()
    for number in range(1, MOST + 1):
        name = NAME.format(number)
        if name in taken:
            continue
        try:
            with transaction.atomic():
                account, made = users.objects.get_or_create(username=name)
                if made:
                    account.set_unusable_password()
                    account.save(update_fields=["password"])
        except IntegrityError:  # made meanwhile by another request
            account = users.objects.get(username=name)
        return account
    raise Conflict("Every computer player is already seated at this game.", code="limit_reached")


def game_add_bot(*, user, game_id, level: str, player_deck: int | None = None) -> dict[str, Any]:
    """The game's creator seats a computer player of ``level`` at its open table: its seat, as the game's players
    list shows it. 403 for anyone else, 409 once the game has started or is full. At a CCG table it plays a copy of
    the creator's ``player_deck``, by default of the deck the creator brought, checked as a join checks it."""
    if level not in choosing.LEVELS:
        raise DomainError(f"\"level\" is one of: {', '.join(choosing.LEVELS)}.",
                          details={"level": [f"Choose one of: {', '.join(choosing.LEVELS)}."]})
    game = services.get_game(game_id)
    if game.created_by_id != user.pk:
        raise Forbidden("Only the game's creator seats computer players.")
    state = services.state_at(game.stream_id, game.version)
    if state.status != OPEN:
        raise Conflict("This game has already started.", code="game_not_open")
    command: dict[str, Any] = {"type": "join", "bot": level}
    brought = None
    if player_deck is not None and game.variant != "ccg":
        raise DomainError("A computer player brings a player deck only to a CCG game.",
                          details={"player_deck": ["Leave it out: this game is not played with player decks."]})
    if player_deck is None and game.variant == "ccg":
        player_deck = services.player_deck_brought(state, engine.seat_of(state, user.pk))
    if player_deck is not None:
        # The creator's own deck, refused as their join would refuse it: the computer player has none of its own.
        brought = services.player_deck_for(user=user, player_deck=player_deck, formal=bool(state.options.get("formal")))
        command["player_deck"] = brought
    account = computer_account({seat.username for seat in state.seats})
    with transaction.atomic():
        played = services._game_command(user=account, game_id=game.id, command=command)
        services.mark_player_deck(game.id, brought)
    seat = next(event["data"]["seat"] for event in played.events if event["type"] == "player.joined")
    return {"seat": seat, "username": account.get_username(), "bot": level, "version": played.version}


def wanted(state: Any) -> bool:
    """Whether a computer player of this game may have something to do."""
    return state.status in (ACTIVE, VOTING) and any(seat.bot for seat in state.seats)


def after_commit(committed: services.Committed) -> None:
    """After every command (``services.AFTER_COMMIT``): the game's computer players look at it after their think
    time."""
    look_again(committed.game_id, committed.state)


def look_again(game_id, state: Any) -> None:
    if wanted(state):
        background.bot_turn(game_id, settings.BOT_THINK_SECONDS, play)


# A computer player whose move failed (the database away for a moment, a move the rules refused) looks at the game
# again this long after, at most RETRIES times at one version of the game: the game is not left waiting on it for
# good, nor is a move that fails every time tried for ever.
RETRY_SECONDS = 1.0
RETRIES = 5
_failures: dict[str, tuple[int, int]] = {}  # game id: (the version its last failure was at, failures there)


def play(game_id) -> bool:
    """One move of one computer player of the game that has something to do, through the one command pipeline:
    True when it moved (the move's commit brings the next look). A move overtaken by another command is looked at
    again at once; one that failed, a little later (``RETRY_SECONDS``)."""
    try:
        moved, version = _play(game_id)
    except Exception:
        logger.exception("A computer player of game %s could not move; it looks again in %s s", game_id,
                         RETRY_SECONDS)
        retry_later(game_id, -1)
        return False
    if moved:
        _failures.pop(str(game_id), None)
    elif version is not None:
        retry_later(game_id, version)
    return moved


def retry_later(game_id, version: int) -> None:
    key = str(game_id)
    at, count = _failures.get(key, (version, 0))
    count = count + 1 if at == version else 1
    if count > RETRIES:
        _failures.pop(key, None)
        logger.error("The computer players of game %s gave up after %s failed moves at version %s", game_id,
                     RETRIES, version)
        return
    _failures[key] = (version, count)
    background.bot_turn(game_id, RETRY_SECONDS, play)


def _play(game_id) -> tuple[bool, int | None]:
    """Whether a computer player moved; and, when one meant to and could not, the version it looked at."""
    game = services.Game.objects.filter(pk=game_id).first()
    if game is None:
        return False, None
    version = game.version
    state = services.state_at(game.stream_id, version)
    if not wanted(state):
        return False, None
    users = get_user_model()
    rng = engine.SecureRng()
    refused = False
    for seat in state.seats:
        if not seat.bot:
            continue
        command = choosing.choose(state, seat.seat, seat.bot, rng)
        if command is None:
            continue
        account = users.objects.get(pk=seat.user_id)
        try:
            services._game_command(user=account, game_id=game.id, command=command, if_match=version)
        except VersionConflict:  # another command came first: look at the game as it is now
            look_again(game_id, state)
            return False, None
        except DomainError as error:
            logger.warning("Computer player %s's move %s in game %s was refused: %s", seat.username,
                           command.get("type"), game_id, error.code)
            refused = True
            continue
        return True, None
    return False, version if refused else None
