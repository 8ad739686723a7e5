"""The service's Prometheus metrics, every one defined here; ``/metrics`` (dvorak_site/metrics.py) serves them.

Each label takes few values, whatever the traffic: a URL pattern (never the path, whose ids would make a series per
game), a method, a status class, a ruleset, an error code, a stream kind, a task's name. No user, game or path
ever becomes a label.

One registry per process (``make run``'s daphne, a test), or, when ``PROMETHEUS_MULTIPROC_DIR`` names a directory
before the process starts, values kept in files there that every process of one gunicorn server writes and any of
them reads back for ``/metrics`` (deploy/gunicorn.conf.py forgets a stopped worker's gauges). The gauges of open
connections add up the live processes' (``livesum``).

Cheap on the hot path: each metric's children are bound to their labels once and kept in a dict (``Bound``), so a
command's observations cost a dict look-up and the client's own increments (a few µs in all; bench/README.md).
With ``METRICS_ENABLED`` off nothing is observed at all: the calls return at once (the bench compares the two).
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import multiprocess as _multiprocess

ENABLED: bool = getattr(settings, "METRICS_ENABLED", True)

# Seconds. Requests: from a fast command's ~1 ms to a slow page's seconds. Appends: one statement's round trip.
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
APPEND_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)

# The methods a label may name; any other is counted as "other" (a client may send any word as its method).
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class Bound:
    """A metric's children by their labels, each bound once (``labels()`` takes a lock and builds a key each time).
    Two threads binding the same labels at once get the same child from the client, so the dict needs no lock."""

    __slots__ = ("metric", "children")

    def __init__(self, metric):
        self.metric = metric
        self.children: dict[tuple, Any] = {}

    def __call__(self, *labels: str):
        child = self.children.get(labels)
        if child is None:
            child = self.children[labels] = self.metric.labels(*labels)
        return child


REQUEST_SECONDS = Bound(Histogram(
    "dvorak_http_request_duration_seconds",
    "Time to answer an HTTP request, by URL pattern (route), method and status class; Django's requests and the "
    "game commands the ASGI server answers itself.",
    ["route", "method", "status"], buckets=REQUEST_BUCKETS))
COMMANDS = Bound(Counter(
    "dvorak_commands",
    "Game commands through the one command pipeline, by ruleset and outcome (accepted, refused), a refusal with "
    "its error code.",
    ["ruleset", "outcome", "code"]))
APPEND_SECONDS = Bound(Histogram(
    "dvorak_eventstore_append_duration_seconds",
    "Time to append events to a stream (one statement on PostgreSQL), by stream kind and outcome (written, or "
    "conflict: another writer moved the stream first).",
    ["kind", "outcome"], buckets=APPEND_BUCKETS))
OPEN_WEBSOCKETS = Gauge(
    "dvorak_open_websockets", "Websockets open on the game's live updates.", multiprocess_mode="livesum")
OPEN_STREAMS = Bound(Gauge(
    "dvorak_open_streams", "HTTP streams open, by kind (game, account).", ["kind"], multiprocess_mode="livesum"))
CHANNEL_DROPS = Bound(Counter(
    "dvorak_channel_layer_dropped",
    "Live-update messages dropped, by reason: redis_unavailable (the channel layer could not reach Redis), "
    "channel_full (a socket's channel over CHANNELS_CAPACITY), send_failed (the publisher's send failed).",
    ["reason"]))
CELERY_TASKS = Bound(Counter(
    "dvorak_celery_tasks", "Celery task outcomes (success, failure, retry), by task name.", ["task", "outcome"]))
CLOCK_EXPIRIES = Bound(Counter(
    "dvorak_clock_expiries", "Times the server's clock ended a seat's time (a clock.expired event), by ruleset.",
    ["ruleset"]))


def status_class(status: int) -> str:
    return f"{status // 100}xx" if 100 <= status < 600 else "other"


def method_label(method: str | None) -> str:
    return method if method in METHODS else "other"


def request_observed(route: str, method: str | None, status: int, seconds: float) -> None:
    if ENABLED:
        REQUEST_SECONDS(route, method_label(method), status_class(status)).observe(seconds)


def command_accepted(ruleset: str | None) -> None:
    if ENABLED:
        COMMANDS(ruleset or "unknown", "accepted", "").inc()


def command_refused(ruleset: str | None, code: str) -> None:
    if ENABLED:
        COMMANDS(ruleset or "unknown", "refused", code).inc()


def append_observed(kind: str, written: bool, seconds: float) -> None:
    if ENABLED:
        APPEND_SECONDS(kind, "written" if written else "conflict").observe(seconds)


def websocket_opened() -> None:
    if ENABLED:
        OPEN_WEBSOCKETS.inc()


def websocket_closed() -> None:
    if ENABLED:
        OPEN_WEBSOCKETS.dec()


def stream_opened(kind: str) -> None:
    if ENABLED:
        OPEN_STREAMS(kind).inc()


def stream_closed(kind: str) -> None:
    if ENABLED:
        OPEN_STREAMS(kind).dec()


def channel_dropped(reason: str, messages: int = 1) -> None:
    if ENABLED and messages:
        CHANNEL_DROPS(reason).inc(messages)


def task_outcome(task: str, outcome: str) -> None:
    if ENABLED:
        CELERY_TASKS(task, outcome).inc()


def clock_expired(ruleset: str | None) -> None:
    if ENABLED:
        CLOCK_EXPIRIES(ruleset or "unknown").inc()


# Prometheus's classic text format, which every Prometheus reads: what generate_latest writes of these metrics, whose
# names and labels need none of the newer format's escaping (the client's own default type names the newer one).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def exposition() -> tuple[bytes, str]:
    """Every metric in Prometheus's text format, and its content type: this process's, or, in multiprocess mode,
    those of every process writing to the directory."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        _multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE


def process_dead(pid: int) -> None:
    """A stopped process's live gauges forgotten (its counters and histograms stay in the sums)."""
    if multiprocess_dir():
        _multiprocess.mark_process_dead(pid)
