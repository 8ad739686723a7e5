"""The server's clock: the games whose deadline has passed are sent ``expire`` through the one command pipeline
(``dvorak_engine.clock``; ``services.expire``), by a sweep every half second or second (games/background.py). A
read of a game whose deadline has passed ends that time itself first (``services.brought_up_to_time``)."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import DatabaseError
from django.utils import timezone

from dvorak_engine.state import ACTIVE, VOTING
from games import services
from games.models import Game

logger = logging.getLogger("dvorak.games")

# How many games one sweep ends at most (the next sweep takes the rest), and on how many threads at once: a burst
# of deadlines (1,000 games started within seconds) is ended within 2 s of each only so (bench/live_tables.py).
SWEEP_BATCH = 500
SWEEP_THREADS = 4


def expire_due() -> int:
    """Every game being played whose earliest deadline has passed is sent ``expire``; how many ended a seat's time."""
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
        return services.expire(game_id)
    except Exception:
        logger.exception("The clock could not end the time of game %s.", game_id)
        return False
    finally:
        if threading.current_thread().name.startswith("dvorak-clock"):
            connection.close()
