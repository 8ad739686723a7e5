"""The server's clock: the games whose deadline has passed are sent ``expire`` through the one command pipeline
(``dvorak_engine.clock``), by a sweep every second (games/background.py), and before any read of a game whose
deadline has passed, so that no read shows a game past its deadline as if it were not."""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import DatabaseError
from django.utils import timezone

from dvorak_core.errors import DomainError
from dvorak_engine.clock import overdue
from dvorak_engine.state import ACTIVE, VOTING

logger = logging.getLogger("dvorak.games")


class ServerClock:
    """The sender of ``expire``: not a player of any game (no seat has its id); its events' actor is ``(clock)``,
    a name no account can take."""

    id = pk = None
    is_authenticated = True

    def get_username(self) -> str:
        return "(clock)"


CLOCK = ServerClock()
# How many games one sweep ends at most (the next sweep takes the rest), and on how many threads at once: a burst
# of deadlines (1,000 games started within seconds) is ended within 2 s of each only so (bench/live_tables.py).
SWEEP_BATCH = 500
SWEEP_THREADS = 4


def expire(game_id) -> bool:
    """Send the game's clock ``expire``: True when it ended somebody's time, False when no deadline had passed
    (another process was first, or a command came in time)."""
    from games import services

    try:
        services._game_command(user=CLOCK, game_id=game_id, command={"type": "expire"})
    except DomainError:
        return False
    return True


def expire_due() -> int:
    """Every game being played whose earliest deadline has passed is sent ``expire``; how many ended a seat's time."""
    from games.models import Game

    try:
        due = list(Game.objects.filter(deadline__lte=timezone.now(), status__in=(ACTIVE, VOTING))
                   .order_by("deadline").values_list("id", flat=True)[:SWEEP_BATCH])
    except DatabaseError:
        logger.exception("The clock could not read the games whose time has run out.")
        return 0
    if len(due) <= 1:
        return sum(_expired(game_id) for game_id in due)
    with ThreadPoolExecutor(max_workers=min(SWEEP_THREADS, len(due)), thread_name_prefix="dvorak-clock") as pool:
        return sum(pool.map(_expired, due))


def _expired(game_id) -> bool:
    """``expire`` for one game of a sweep, in a thread of the sweep's pool, whose connection it closes."""
    from django.db import connection

    try:
        return expire(game_id)
    except Exception:
        logger.exception("The clock could not end the time of game %s.", game_id)
        return False
    finally:
        if threading.current_thread().name.startswith("dvorak-clock"):
            connection.close()


def brought_up_to_time(game_id, state: Any) -> bool:
    """Before a read: when the game's clock has run out and nothing has said so, say so now (True: the caller reads
    the game again)."""
    if not overdue(state, time.time()):
        return False
    expire(game_id)  # or another process was first: either way the game has moved on
    return True
