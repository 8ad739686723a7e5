"""Logs: one JSON object a line (``LOG_FORMAT=json``), or lines for a person at a terminal (``console``).

Every logger of the process comes out through the one formatter, structlog's ``ProcessorFormatter`` on the root
logger's handler: Django's, daphne's, gunicorn's, uvicorn's, Celery's and the project's own (``dvorak.*``), whether
they log with the standard library or with structlog. Each line has ``time`` (UTC, ISO 8601), ``level``,
``logger`` and ``message``, and what the request being answered has bound (structlog's context variables):
``request_id``, and ``user``, ``game``, ``ruleset`` and ``command`` where they are known. An exception comes with
its traceback (``exception``).

Nothing logs a request's or an answer's body: a command's body may name a card in its sender's hand, and a state or
an event may hold a card hidden from others. The request line (``dvorak.request``) says the method, the path, the
status and the duration; a game command adds the game, its ruleset and the command's type.

The request ids (``X-Request-ID``): a client's own when it is a sane token, else a new one (``request_id_of``).

Plain Python with structlog: gunicorn's configuration file reads this module before Django is set up.
"""

from __future__ import annotations

import logging
import re
import sys
import uuid

import orjson
import structlog

FORMATS = ("json", "console")
# A request id a client may choose: what a proxy or a client library makes (a UUID, hex, a dotted trace id).
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,200}")


def request_id_of(sent: str | bytes | None) -> str:
    """The request's id: the one it was sent with (``X-Request-ID``) when that is 1 to 200 characters of
    ``[A-Za-z0-9._-]``, else a new one (a UUID4 in hex). Anything else (spaces, quotes, control characters, a
    novel) would go into every log line and every answer of the request, so it is replaced, not echoed."""
    if isinstance(sent, bytes):
        sent = sent.decode("latin-1")
    if sent and REQUEST_ID.fullmatch(sent):
        return sent
    return uuid.uuid4().hex


def current_request_id() -> str | None:
    """The id of the request this thread or task is answering, if any (bound by the request's middleware)."""
    return structlog.contextvars.get_contextvars().get("request_id")


def _json(data, **_) -> str:
    return orjson.dumps(data, default=repr).decode()


# What every line gets, from structlog's loggers and the standard library's alike.
_PRE_CHAIN = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_log_level,
    structlog.stdlib.add_logger_name,
    structlog.processors.TimeStamper(fmt="iso", utc=True, key="time"),
]


def _renderer(log_format: str) -> list:
    if log_format == "json":
        return [structlog.processors.format_exc_info, structlog.processors.EventRenamer("message"),
                structlog.processors.JSONRenderer(serializer=_json)]
    # A plain traceback: structlog's default where rich is installed shows each frame's local variables, and a
    # frame's locals may hold a hand, a draw pile or a token.
    return [structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty(), timestamp_key="time",
                                          exception_formatter=structlog.dev.plain_traceback)]


def formatter(log_format: str) -> logging.Formatter:
    """The formatter of every line in ``log_format`` (``json`` or ``console``)."""
    if log_format not in FORMATS:
        raise ValueError(f"LOG_FORMAT is one of {', '.join(FORMATS)}, not {log_format!r}.")
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_PRE_CHAIN,
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *_renderer(log_format)],
    )


class WithoutQueryStrings(logging.Filter):
    """uvicorn says each websocket's path with its query string (``"WebSocket /ws/games/…/?token=…" [accepted]``),
    where a socket's credential travels (dvorak_site/wsauth.py): its lines keep the path alone, as nginx's do
    (deploy/nginx.conf, ``no_query``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(arg, str) and "?" in arg for arg in record.args):
            record.args = tuple(arg.split("?", 1)[0] if isinstance(arg, str) and arg.startswith("/") else arg
                                for arg in record.args)
        return True


def configure(log_format: str, level: str) -> dict:
    """Set structlog up (its loggers hand their events to the standard library's, formatted by ``formatter``) and
    answer the ``logging.config.dictConfig`` of the process: one handler, on the root logger, and every server's
    and library's logger sent there instead of to a handler of its own."""
    formatter(log_format)  # refuses an unknown format
    structlog.configure(
        processors=[structlog.stdlib.filter_by_level, *_PRE_CHAIN,
                    structlog.processors.StackInfoRenderer(),
                    structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    quiet = {"handlers": [], "propagate": False}
    through_root = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"structlog": {"()": formatter, "log_format": log_format}},
        "filters": {"without_query_strings": {"()": WithoutQueryStrings}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structlog"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's own configuration gives "django" a console handler of its own while DEBUG is on: with the
            # root's, each of its lines came out twice under `make run`.
            "django": through_root,
            # A 4xx is in the request line already (its status); an exception (5xx) is logged, with its traceback.
            "django.request": {**through_root, "level": "ERROR"},
            "django.server": {**through_root, "level": "WARNING"},  # runserver's access log: the request line's
            "django.db.backends": {**through_root, "level": "WARNING"},
            "daphne": through_root,
            "gunicorn.error": through_root,
            "uvicorn": through_root,
            "uvicorn.error": {**through_root, "filters": ["without_query_strings"]},
            "celery": through_root,
            # django-axes says each failed sign-in at INFO; its WARNING, an account or address locked out, stays.
            "axes": {**through_root, "level": "WARNING"},
            # The servers' access logs: each request's line is dvorak.request's, once.
            "gunicorn.access": quiet,
            "uvicorn.access": quiet,
        },
    }
