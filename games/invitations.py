"""Invitations to a game: a notice to each player its creator invites (``POST /games/``'s ``invite``, and a
rematch's other players), in their list of notices (``GET /notifications/``), by email and on their account feed
(an ``invited`` line, games/feed.py); the invited accept by joining the game. The game keeps who is invited in its
first event (``game.created``'s ``invited``: with ``options.invite_only`` only they may join); the notices are how
the invited find the game (``GET /games/``'s ``invited``)."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from dvorak_kit.feed import tell

logger = logging.getLogger("dvorak.games")

KIND = "invitation"

def notify(game_id, host_username: str, user_ids: list[int], rematch_of: str | None = None) -> None:
    """One notice for each invited player (their user ids) of the game ``game_id`` their host created, with
    ``data`` ``{"kind": "invitation", "game", "from"}`` (and ``"rematch_of"`` for a rematch). Runs once the game is
    committed; a failure is logged, never undoes the game."""
    from ccg.services import notification_send
    from games.models import Game

    old = rematch_of
    try:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return
        title = game.deck_title or game.deck_slug
        if old is None:
            subject = f"{host_username} invites you to a game of {title}"
            opening = f"{host_username} has opened a game of {title} ({game.ruleset}) and invites you to it."
        else:
            subject = f"{host_username} asks you for a rematch of {title}"
            opening = (f"{host_username} asks you for a rematch of your last game of {title} ({game.ruleset}): a "
                       "new table, played as that game was.")
        body = (f"{opening}\n\nTake your seat at /play/{game.id}/ (or with POST /api/v1/games/{game.id}/join/) "
                "while it is open.\n")
        data: dict[str, Any] = {"kind": KIND, "game": str(game.id), "from": host_username}
        if old is not None:
            data["rematch_of"] = old
        with transaction.atomic():
            invited = list(get_user_model().objects.filter(pk__in=user_ids).order_by("pk"))
            for user in invited:
                notification_send(user=user, subject=subject, body=body, data=data)
        for user in invited:  # each one's account feed (games/feed.py), once the notices are committed
            tell(user.pk, invited_line(game, host_username))
    except Exception:
        logger.exception("The invitations to game %s could not be sent.", game_id)


def invited_line(game, by: str) -> dict[str, Any]:
    """The invitation to ``game`` (from ``by``) as the invited player's account feed shows it (games/feed.py)."""
    return {"type": "invited", "game": str(game.id), "ruleset": game.ruleset, "by": by, "version": game.version}


def games_invited_to(user) -> list[uuid.UUID]:
    """The games ``user`` has been invited to, by their invitations' notices, newest first."""
    from ccg.selectors import notification_list

    found = []
    for game in notification_list(user=user).filter(data__kind=KIND).values_list("data__game", flat=True):
        try:
            found.append(uuid.UUID(str(game)))
        except ValueError:
            continue
    return list(dict.fromkeys(found))
