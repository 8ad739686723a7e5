"""The cyclic garbage collector in a server process: what lives as long as the process is kept out of its sight.

A full collection walks every object the collector tracks. A server's long-lived objects are of two kinds: those it
made while loading (about 100,000: the project's modules, views, rulesets), frozen once at its start
(``dvorak_site/startup.py``); and those of its live readers, made as they open and kept for as long as they stay
(each socket's consumer, tasks, queues and protocol objects: about a hundred objects a socket). With 2,500 sockets a
worker the second kind made each full collection a pause of 150–730 ms on this machine's 2 cores, every socket and
command of the process waiting (bench/README.md, "Live updates at scale"). So the process freezes again when its
live readers have grown (``settle_live``), and every ``GC_UNFREEZE_SECONDS`` lets the collector see everything once
more, so that what a closed socket left in a reference cycle is still freed (an object frozen is still freed when
its last reference goes; only a cycle waits for the unfreeze).

Each full collection that pauses the process ``GC_PAUSE_LOG_MS`` or more is logged (``dvorak.gc``, INFO), so that a
pause in the live updates' tail can be told from others (bench/fanout.py counts them). ``DVORAK_GC_FREEZE=0`` leaves
the collector alone.
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import sys
import time

logger = logging.getLogger("dvorak.gc")

ENABLED = os.environ.get("DVORAK_GC_FREEZE", "1") != "0"
GC_PAUSE_LOG_MS = float(os.environ.get("GC_PAUSE_LOG_MS", 20))
GC_UNFREEZE_SECONDS = float(os.environ.get("GC_UNFREEZE_SECONDS", 3600))
# Readers opened since the last freeze past which the next live pass freezes again.
FREEZE_AFTER_READERS = 50

_began = [0.0]
_unfrozen_at = [time.monotonic()]


def _timed(phase: str, info: dict) -> None:
    if info.get("generation") != 2 or sys.is_finalizing():
        return
    if phase == "start":
        _began[0] = time.perf_counter()
        return
    paused = (time.perf_counter() - _began[0]) * 1000
    if paused >= GC_PAUSE_LOG_MS:
        logger.info("garbage collection paused the process %.0f ms (%s objects freed)", paused, info.get("collected"))


def freeze_loaded() -> None:
    """Once loaded: what is garbage already is freed, the rest frozen; full collections' pauses logged from now."""
    if ENABLED:
        gc.collect()
        gc.freeze()
    if _timed not in gc.callbacks:
        gc.callbacks.append(_timed)
        atexit.register(_stop_timing)  # the collections of the process's end have no log left to go to


def _stop_timing() -> None:
    if _timed in gc.callbacks:
        gc.callbacks.remove(_timed)


def settle_live(opened: int) -> bool:
    """From a live pass: freeze again when ``opened`` readers have opened since the last freeze (a young
    collection first, so that what just died is not frozen); or, every ``GC_UNFREEZE_SECONDS``, unfreeze, so the
    next full collection sees everything once. Whether it froze."""
    if not ENABLED:
        return False
    if time.monotonic() - _unfrozen_at[0] >= GC_UNFREEZE_SECONDS:
        _unfrozen_at[0] = time.monotonic()
        gc.unfreeze()
        return False
    if opened < FREEZE_AFTER_READERS:
        return False
    gc.collect(1)
    gc.freeze()
    return True
