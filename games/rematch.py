"""A rematch (``POST /games/{id}/rematch/``): once a game is over, one of its players opens a new game played as it
was (the same deck, ruleset, variant, creative rules, seats and options), sits in its seat 0, invites the game's
other people (each gets a notice naming the game it follows) and seats its computer players again at their
levels. Made through ``services.game_create``, the one way a game is created, and ``bots.game_add_bot``."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import dvorak_engine as engine
from dvorak_core.errors import Conflict, DomainError, Forbidden, NotFound
from dvorak_engine.state import OVER
from games import bots, services


def game_rematch(*, user, game_id) -> dict:
    """The new game, as its creator (the caller) sees it once its computer players are seated. 403 for anyone who
    did not play the game, 409 ``game_not_finished`` while it is not over; in a CCG game the caller brings the
    player deck they played again, refused as a join would refuse it (gone, no longer valid, outdated in a formal
    game)."""
    old = services.get_game(game_id)
    state = services.state_at(old.stream_id, old.version)
    seat = engine.seat_of(state, user.id)
    if seat is None:
        raise Forbidden("Only the players of a game ask for a rematch of it.")
    if state.status not in OVER:
        raise Conflict("A rematch is asked for once the game is over.", code="game_not_finished")
    options = rematch_options(state, state.seat(seat))
    if "player_deck" in options:
        player_deck_again(user, options)
    people = [other.user_id for other in state.seats if other.bot is None and other.seat != seat]
    names = dict(get_user_model().objects.filter(pk__in=people).values_list("pk", "username"))
    invite = [names[user_id] for user_id in people if user_id in names]  # their names now, in their seats' order
    levels = [other.bot for other in state.seats if other.bot is not None]
    with transaction.atomic():
        created = services.game_create(user=user, deck=old.deck_slug, variant=old.variant, creative=old.creative,
                                       max_players=old.max_players, options=options, ruleset=old.ruleset,
                                       invite=invite, rematch_of=str(old.id))
        for level in levels:
            bots.game_add_bot(user=user, game_id=created["id"], level=level)
    return services.game_state(user=user, game_id=created["id"])


def rematch_options(state: Any, asker: Any) -> dict[str, Any]:
    """The old game's options for the new one. The creator's own among them are the asker's now: their team, and
    in a CCG game the player deck they played (by its id, checked again as it stands)."""
    options = dict(state.options)
    options.pop("team", None)
    if asker.team is not None:
        options["team"] = asker.team
    options.pop("player_deck", None)  # the creator's, where a ruleset keeps it in its options
    brought = services.player_deck_brought(state, asker.seat)
    if brought is not None:
        options["player_deck"] = brought
    return options


def player_deck_again(user, options: dict[str, Any]) -> None:
    """The CCG player deck the asker played, checked before the new game is made: one deleted since (404
    ``not_found``), or no longer valid (409 ``deck_invalid``), or outdated for a formal game (409
    ``deck_outdated``) is refused with that code, the message saying it is the deck of the last game."""
    try:
        services.player_deck_for(user=user, player_deck=options["player_deck"], formal=bool(options.get("formal")))
    except DomainError as refused:
        message = (f"A rematch brings the player deck you played (id {options['player_deck']}) again, and it cannot "
                   f"be brought: {refused.message} Create a new game with another deck instead.")
        details = {**refused.details, "player_deck": options["player_deck"]}
        if isinstance(refused, NotFound):
            raise NotFound(message, details=details) from None
        raise Conflict(message, code=refused.code, details=details) from None
