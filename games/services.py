"""The game server's use cases: one function each, one transaction each.

Every command follows the same path: lock the game's stream row, load its state (from this process's cache
when it is at the locked version, else snapshot plus tail), let the engine decide, append the events with the
expected version, update the projections, and publish to the game's live group only after commit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
import queue
import re
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

import structlog
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

import dvorak_engine as engine
from dvorak_core.deckdata import MAX_CARDS_PER_DECK
from dvorak_core.errors import (
    Conflict,
    DomainError,
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    VersionConflict,
)
from dvorak_core.storable import ensure_storable
from dvorak_engine.clock import next_deadline, overdue
from dvorak_engine.events import stored_event
from dvorak_engine.state import CANCELLED, OPEN, OVER
from dvorak_kit import metrics, publisher
from dvorak_kit.eventstore import store
from games import drafts
from games.models import CommandReceipt, Game, Seat, stream_of

logger = logging.getLogger("dvorak.games")

FOLDER = store.Folder(
    engine_version=engine.ENGINE_VERSION,
    initial=lambda: None,
    evolve=engine.evolve,
    to_json=engine.state_to_json,
    from_json=engine.state_from_json,
    replay=lambda state, events: engine.replay(events, state),
    event=stored_event,
)


def to_engine_event(recorded: store.RecordedEvent) -> engine.Event:
    return engine.Event(type=recorded.type, data=recorded.data, schema=recorded.schema)


def group_name(game_id) -> str:
    return f"game.{game_id}"


# --- state loading -------------------------------------------------------------------------------------------


class StateCache:
    """Recently used game states of this process, keyed by stream, each with its version.

    A cached state is only a head start: callers pass the version they read under the stream's lock, and an
    entry behind it is brought forward from the store, so several processes serving one game stay correct.
    States are immutable values, so sharing them between threads is safe.
    """

    def __init__(self, size: int | None = None):
        self._size = size
        self.entries: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self.lock = threading.Lock()

    @property
    def size(self) -> int:
        """How many games it keeps: ``DVORAK_STATE_CACHE_GAMES`` unless it was made with a size of its own."""
        return self._size if self._size is not None else settings.STATE_CACHE_GAMES

    def get(self, stream_id: str) -> tuple[int, Any] | None:
        with self.lock:
            entry = self.entries.get(stream_id)
            if entry is not None:
                self.entries.move_to_end(stream_id)
            return entry

    def put(self, stream_id: str, version: int, state: Any) -> None:
        with self.lock:
            current = self.entries.get(stream_id)
            if current is None or current[0] <= version:
                self.entries[stream_id] = (version, state)
                self.entries.move_to_end(stream_id)
            size = self.size
            while len(self.entries) > size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


STATE_CACHE = StateCache()


def state_at(stream_id: str, version: int) -> Any:
    """The game's state at ``version``, which the caller knows to be current (it holds the lock) or past."""
    cached = STATE_CACHE.get(stream_id)
    if cached is not None and cached[0] == version:
        return cached[1]
    if cached is not None and cached[0] < version:
        state = store.fold(FOLDER, store.read(stream_id, after=cached[0], until=version), cached[1])
    else:
        _, state = store.load(stream_id, FOLDER, until=version, snapshot_every=settings.EVENTSTORE_SNAPSHOT_EVERY)
    STATE_CACHE.put(stream_id, version, state)
    return state


def snapshot_due(old_version: int, new_version: int) -> bool:
    every = settings.EVENTSTORE_SNAPSHOT_EVERY
    return bool(every and new_version // every > old_version // every)


class SnapshotWriter:
    """Snapshots written by one background thread per process, after the command that made them due has answered:
    a snapshot is a cache (a game loads without it, replaying further), and writing one (its JSON, a row of tens of
    kilobytes) was the slowest part of the command that happened to cross the hundredth event. The thread has its
    own database connection, closed when broken or old as Django closes a request's. Started on first use, again
    after a fork. ``flush()`` waits until every snapshot handed over is written (tests)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._queue: queue.Queue | None = None
        self._pid = 0

    def submit(self, stream_id: str, version: int, state: Any) -> None:
        with self._lock:
            if self._queue is None or self._pid != os.getpid():
                self._queue, self._pid = queue.Queue(maxsize=1000), os.getpid()
                threading.Thread(target=self._run, args=(self._queue,), name="dvorak-snapshots", daemon=True).start()
            work = self._queue
        try:
            work.put_nowait((stream_id, version, state))
        except queue.Full:  # far behind: this one is skipped, the next due is taken
            logger.warning("Snapshot of %s at version %s skipped: the writer is behind.", stream_id, version)

    def flush(self) -> None:
        if self._queue is not None and self._pid == os.getpid():
            self._queue.join()

    @staticmethod
    def _run(work: queue.Queue) -> None:
        from django.db import close_old_connections

        while True:
            stream_id, version, state = work.get()
            try:
                close_old_connections()
                store.save_snapshot(stream_id, version, engine.ENGINE_VERSION, engine.state_to_json_bytes(state))
            except Exception:
                logger.exception("A snapshot of %s at version %s could not be written.", stream_id, version)
            finally:
                close_old_connections()
                work.task_done()


SNAPSHOTS = SnapshotWriter()


# --- views for a caller ----------------------------------------------------------------------------------------


def event_json(recorded: store.RecordedEvent, viewer: int | None, before: Any, after: Any) -> dict:
    return {
        "version": recorded.version,
        "type": recorded.type,
        "actor": recorded.actor,
        "at": recorded.recorded_at.isoformat().replace("+00:00", "Z"),
        "data": engine.view_event(to_engine_event(recorded), viewer, before, after),
    }


def fold_and_view(state: Any, events: list[store.RecordedEvent], viewer_of: Callable[[Any], int | None]):
    """Fold ``events`` into ``state``; each event is shown as its viewer saw it then."""
    shown = []
    for recorded in events:
        after = engine.evolve(state, to_engine_event(recorded))
        shown.append(event_json(recorded, viewer_of(after), state, after))
        state = after
    return state, shown


def state_json(game: Game, state: Any, viewer: int | None) -> dict:
    return {"id": str(game.id), **engine.view_state(state, viewer)}


@dataclass(frozen=True)
class Played:
    """What a command did, as its sender may see it: the game's version after it, and the events it appended as
    the sender sees them. (The API answers it with 201; the route, not the service, chooses the status.)"""

    version: int
    events: list
    ruleset: str | None = None  # the game's, for the count of commands (not part of the answer)

    def as_json(self) -> dict:
        return {"version": self.version, "events": self.events}


# --- use cases -------------------------------------------------------------------------------------------------


def get_game(game_id) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound("There is no such game.")
    return game


def actor_of(user) -> engine.Actor:
    return engine.Actor(user_id=user.id, username=user.get_username())


def game_create(*, user, deck: str, variant: str | None = None, creative: bool = False, max_players: int | None = None,
                options: dict | None = None, ruleset: str | None = None, invite: list[str] | None = None,
                rematch_of: str | None = None) -> dict:
    """A new open game, its creator in seat 0; each player of ``invite`` gets a notice of it (which says, for a
    rematch, the game it follows: ``rematch_of``)."""
    from decks.selectors import deck_for_game

    ensure_storable(options, field="options")  # the game's first event carries them
    deck_data = deck_for_game(deck)
    options = dict(options or {})
    ruleset = ruleset or deck_data.get("ruleset") or "dvorak"
    if drafts.plays_card_set_version(ruleset):  # a draft: the card set's latest version (409 for another deck)
        deck_data = drafts.card_set_deck(deck)
    _require_within_bound(deck_data)
    variant = variant or engine.default_variant(ruleset)
    player_deck = None
    if variant == "ccg" and "player_deck" in options:
        player_deck = player_deck_for(user=user, player_deck=options["player_deck"], formal=bool(options.get("formal")))
        options["player_deck"] = player_deck
    events = engine.create_game(
        ruleset=ruleset,
        deck=deck_data,
        variant=variant,
        creative=creative,
        max_players=max_players,
        options=options,
        creator=actor_of(user),
        rng=engine.SecureRng(),
        invite=invite if invite is None else list(invite),
    )
    invited = users_named(events[0].data.get("invited", []))
    with transaction.atomic():
        game = Game.objects.create(
            deck_slug=deck_data["slug"], deck_title=deck_data.get("title", ""), ruleset=ruleset, variant=variant,
            creative=creative, max_players=events[0].data["max_players"], created_by=user,
            spectators=options.get("spectators", "anyone"),
        )
        recorded = store.pending(game.stream_id, 0, [store.NewEvent(e.type, e.data, e.schema) for e in events],
                                 actor=user.get_username())
        state = store.fold(FOLDER, recorded)
        store.append_recorded(recorded, projection=game_row(game.id, state, recorded[-1].version), ids=False)
        project_rows(game.id, None, state)
        mark_player_deck(game.id, player_deck)
        _written(game.id, 0, recorded, None, state, [])
        invitations_sent(game, user, invited, rematch_of)
    return state_json(game, state, engine.seat_of(state, user.id))


def users_named(usernames: list[str]) -> list[Any]:
    """The accounts of these usernames, in their order; 400 naming every username no account has."""
    from django.contrib.auth import get_user_model

    if not usernames:
        return []
    found = {found.get_username(): found for found in get_user_model().objects.filter(username__in=usernames)}
    unknown = [name for name in usernames if name not in found]
    if unknown:
        raise DomainError(f"No player is called {', '.join(repr(name) for name in unknown)}.",
                          details={"invite": [f"There is no player {name!r}." for name in unknown]})
    return [found[name] for name in usernames]


def invitations_sent(game: Game, host, invited: list[Any], rematch_of: str | None = None) -> None:
    """Each invited player's notice of the game (``games.invitations``), sent once the game is committed."""
    if invited:
        from games import invitations

        transaction.on_commit(partial(invitations.notify, game.id, host.get_username(), [u.pk for u in invited],
                                      rematch_of))


def _require_within_bound(deck_data: dict) -> None:
    """A game copies every copy of every card into its first event: a deck stored before the archive bounded
    its size (one card of 35 million copies) is refused before a single copy is made."""
    size = sum(int(card.get("copies", 1)) for card in deck_data.get("cards", []))
    if size > MAX_CARDS_PER_DECK:
        raise Conflict(f"The deck {deck_data['slug']!r} has {size} cards, copies counted, and a game deals at most "
                       f"{MAX_CARDS_PER_DECK}; it must be brought within that first.", code="deck_too_large",
                       details={"cards": size, "limit": MAX_CARDS_PER_DECK})


def request_fingerprint(game_id, command: Any) -> str:
    """What a retry must repeat to get the first answer: the method, the path and the body (its JSON, keys in
    order, so that the same command written in another key order is the same request)."""
    body = json.dumps(command, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"POST /api/v1/games/{game_id}/commands/\n{body}".encode()).hexdigest()


def game_command(*, user, game_id, command: Any, idempotency_key: str | None = None,
                 if_match: int | None = None) -> Played:
    """Carry out one command a client sent. Refusals raise domain errors and append nothing."""
    return _game_command(user=user, game_id=game_id, command=command, idempotency_key=idempotency_key,
                         if_match=if_match, from_client=True)


def _client_command_check(command: Any) -> None:
    ensure_storable(command, field="command")  # its fields may go into the events as sent
    # A CCG player deck, or a Multi-Deck side's deck, comes only through `game_join`, which finds it (the caller's
    # player deck, an archive deck): a client's own "join" body carrying one would seat it with any cards it liked.
    if isinstance(command, dict) and command.get("type") == "join" and "player_deck" in command:
        raise DomainError("A player deck comes with POST /games/{id}/join/, which checks it.",
                          details={"player_deck": ["Join a CCG game with POST /games/{id}/join/."]})
    if isinstance(command, dict) and command.get("type") == "join" and "bot" in command:
        raise DomainError("A computer player is seated by the game's creator with POST /games/{id}/bots/.",
                          details={"bot": ["Seat a computer player with POST /games/{id}/bots/."]})
    if isinstance(command, dict) and command.get("type") == "join" and "side_deck" in command:
        raise DomainError("A side's deck comes with POST /games/{id}/join/, which finds it in the archive.",
                          details={"side_deck": ["Join a Multi-Deck game with POST /games/{id}/join/ "
                                                 "{\"deck\": <slug>}."]})


def _game_command(*, user, game_id, command: Any, idempotency_key: str | None = None,
                  if_match: int | None = None, from_client: bool = False) -> Played:
    """The one command pipeline, whatever the route (the DRF view, the ASGI route, MUSH, a join): decide the command
    on the game's state and write its events, optimistically where it may (``_optimistic``), else under the
    stream's lock in one transaction (``_locked``); then one ending for both (``_written``). A command a client
    wrote (``from_client``) is first checked for what only the server may send (``_client_command_check``).

    Counted here, once a command (``dvorak_commands_total``): accepted under its game's ruleset, or refused with its
    error code (the ruleset of the state it was refused on, which ``decided`` puts on the error; none for a refusal
    before the game is read)."""
    try:
        if from_client:
            _client_command_check(command)
        played = _pipeline(user=user, game_id=game_id, command=command, idempotency_key=idempotency_key,
                           if_match=if_match)
    except DomainError as error:
        metrics.command_refused(getattr(error, "ruleset", None), error.code)
        raise
    metrics.command_accepted(played.ruleset)
    return played


def _pipeline(*, user, game_id, command: Any, idempotency_key: str | None = None,
              if_match: int | None = None) -> Played:
    game_id = game_uuid_of(game_id)
    with logged_command(game_id, command):
        if connection.vendor == "postgresql" and not idempotency_key and not connection.in_atomic_block:
            played = _optimistic(user=user, game_id=game_id, command=command, if_match=if_match)
            if played is not None:
                return played
        return _locked(user=user, game_id=game_id, command=command, idempotency_key=idempotency_key,
                       if_match=if_match)


# A command's type as logs may show it: one of the catalogue's words, not whatever a client put there.
COMMAND_TYPE = re.compile(r"[a-z_]{1,40}")


@contextmanager
def logged_command(game_id: uuid.UUID, command: Any):
    """The game, its ruleset (bound by ``decided``) and the command's type in every log line of the command,
    the request's own line among them (dvorak_site.middleware: it is logged after the command, and the request's
    end clears them). Never the command's body: a card it names may be one its sender's hand hides from the others.
    Outside a request (the clock, a computer player), the thread's log context is put back as it was after."""
    kind = command.get("type") if isinstance(command, dict) else None
    before = structlog.contextvars.get_contextvars()
    structlog.contextvars.bind_contextvars(
        game=str(game_id), command=kind if isinstance(kind, str) and COMMAND_TYPE.fullmatch(kind) else None)
    try:
        yield
    finally:
        if "request_id" not in before:
            structlog.contextvars.clear_contextvars()
            structlog.contextvars.bind_contextvars(**before)


# How many times a command read unlocked is decided again after another writer moved its game first, before it
# takes the game's lock instead.
UNLOCKED_ATTEMPTS = 3


def _optimistic(*, user, game_id: uuid.UUID, command: Any, if_match: int | None) -> Played | None:
    """Most commands, on PostgreSQL: decide on the game as this process last saw it, and write the events with the
    game row's projection in one statement of their own, which refuses them if the stream has moved meanwhile. One
    round trip when nothing has moved the game since this process last did; else the game's version is read (and
    the events this process has not seen), and the command decided again. No transaction held open, no lock waited on.

    A refusal decided on the state this process remembers is not trusted: another process may have moved the game
    since (the turn passed, a card drawn), so the command is decided again on the game as it is. Only a refusal
    decided on the version read now is answered.

    None when the command needs more than the events and the game row (``project_rows``' seats taken or CCG decks
    given back) or lost the race ``UNLOCKED_ATTEMPTS`` times: then it runs ``_locked``."""
    stream_id = stream_of(game_id)
    remembered = STATE_CACHE.get(stream_id)
    for _ in range(UNLOCKED_ATTEMPTS + (remembered is not None)):
        if remembered is not None:
            (version, state), remembered, trusted = remembered, None, False
        else:
            version = version_of(game_id)
            if version is None:
                raise NotFound("There is no such game.")
            state, trusted = state_at(stream_id, version), True
        try:
            recorded, new_state, shown = decided(stream_id, version, state, user, command, if_match)
        except DomainError:
            if trusted:
                raise
            continue
        if not recorded or new_rows(state, new_state):
            return None
        if store.append_if_current(recorded, projection=game_row(game_id, new_state, recorded[-1].version),
                                   ids=False) is None:
            continue
        return _written(game_id, version, recorded, state, new_state, shown)
    return None


def decided(stream_id: str, version: int, state: Any, user, command: Any, if_match: int | None
            ) -> tuple[list[store.RecordedEvent], Any, list]:
    """The command decided on the game's ``state`` at ``version``: the events as they will be recorded, the state
    after them and the events as the sender sees them. Refused (412) when ``if_match`` is another version.

    Folded (once, by the engine as it decides) before they are written, so the game row's new status and version
    travel in the append's own statement. A refusal carries the game's ruleset (``ruleset``) for its count."""
    structlog.contextvars.bind_contextvars(ruleset=getattr(state, "ruleset", None))  # in the command's log lines
    try:
        if if_match is not None and if_match != version:
            # A malformed command is refused as such (400) whatever the version: only a well-formed one is out of date.
            engine.check_command(state, command)
            raise VersionConflict(
                f"The game is at version {version}, not {if_match}.",
                details={"expected_version": if_match, "current_version": version},
            )
        events, states = engine.decide_folded(state, command, actor=actor_of(user), rng=engine.SecureRng(),
                                              now=time.time(), past=StoredPast(stream_id, version))
    except DomainError as error:
        error.ruleset = getattr(state, "ruleset", None)
        raise
    recorded = store.pending(stream_id, version, [store.NewEvent(e.type, e.data, e.schema) for e in events],
                             actor=user.get_username())
    shown, before = [], state
    for event, after in zip(recorded, states, strict=True):
        shown.append(event_json(event, engine.seat_of(after, user.id), before, after))
        before = after
    return recorded, before, shown


class StoredPast:
    """The game's history as a command may read it (``dvorak_engine.ruleset.Past``: an undo), from the store: the
    state at a version, and the events after one, up to the version the command is decided at."""

    def __init__(self, stream_id: str, version: int):
        self.stream_id, self.version = stream_id, version

    def state(self, version: int) -> Any:
        return state_at(self.stream_id, version)

    def events(self, after: int) -> list[engine.Event]:
        return [to_engine_event(recorded) for recorded in store.read(self.stream_id, after=after, until=self.version)]


def _locked(*, user, game_id: uuid.UUID, command: Any, idempotency_key: str | None = None,
            if_match: int | None = None) -> Played:
    """A command under its stream's lock, in one transaction with everything it writes: its events and the game
    row, the rows of ``project_rows``, the receipt of an ``Idempotency-Key`` (a retry gets the first answer)."""
    stream_id = stream_of(game_id)
    with transaction.atomic():
        # The game's stream is locked first, as the optimistic write's own version move takes it before it updates
        # the game row: taken in the same order, the two never wait on each other. Every append to the stream
        # waits on this lock, and the game row's version moves in the same statement as the stream's, so the
        # version read next is the stream's. append() still refuses a stale one.
        store.lock(stream_id)
        version = version_of(game_id)
        if version is None:
            raise NotFound("There is no such game.")
        if idempotency_key:
            fingerprint = request_fingerprint(game_id, command)
            receipt = CommandReceipt.objects.filter(game_id=game_id, user=user, key=idempotency_key).first()
            if receipt is not None:
                if receipt.request_hash and receipt.request_hash != fingerprint:
                    raise IdempotencyKeyReused("This Idempotency-Key came first with another command; use a new key.")
                return Played(receipt.response["version"], receipt.response["events"])
        state = state_at(stream_id, version)
        recorded, new_state, shown = decided(stream_id, version, state, user, command, if_match)
        new_version = recorded[-1].version if recorded else version
        store.append_recorded(recorded, projection=game_row(game_id, new_state, new_version), ids=False)
        project_rows(game_id, state, new_state)
        played = _written(game_id, version, recorded, state, new_state, shown)
        if idempotency_key:
            CommandReceipt.objects.create(game_id=game_id, user=user, key=idempotency_key, request_hash=fingerprint,
                                          status=201, response=played.as_json())
    return played


def _written(game_id: uuid.UUID, version: int, recorded: list, before: Any, state: Any, shown: list) -> Played:
    """The one ending of a command whose events are written: once they are committed (at once when no transaction
    is open), this process remembers the new state, a snapshot due is handed to the ``SnapshotWriter`` (a cache,
    written after the answer), the game's live sockets are told, and the ``AFTER_COMMIT`` hooks see the game as it
    was (``before``, None for a game just created) and is. Nothing after the commit may turn the command's answer
    into an error: each step's failure is logged."""
    new_version = recorded[-1].version if recorded else version
    stream_id = recorded[0].stream_id if recorded else stream_of(game_id)
    actor = recorded[0].actor if recorded else ""
    if connection.in_atomic_block:
        transaction.on_commit(partial(_committed, game_id, stream_id, version, new_version, before, state, actor),
                              robust=True)
    else:  # the append's own statement committed it: nothing to wait for (and on_commit's lookups cost 20 µs)
        _committed(game_id, stream_id, version, new_version, before, state, actor)
    return Played(new_version, shown, getattr(state, "ruleset", None))


@dataclass(frozen=True)
class Committed:
    """A command as what follows it sees it once committed: the game at ``version`` (``before``; None for a game
    just created) and at ``new_version`` (``state``), and the username of whoever sent it (``actor``: ``(clock)``
    for the server's clock)."""

    game_id: uuid.UUID
    version: int
    new_version: int
    before: Any
    state: Any
    actor: str


# What else follows every committed command, each registered by the module that needs it when the app is ready
# (games/apps.py): the game's computer players looking at it (games/bots.py), the account feeds of its players
# (games/feed.py).
AFTER_COMMIT: list[Callable[[Committed], None]] = []


class ServerClock:
    """The sender of ``expire``, the server's clock (games/clocks.py): no seat has its id, and its events' actor is
    ``(clock)``, a name no account can take."""

    id = pk = None

    def get_username(self) -> str:
        return "(clock)"


CLOCK = ServerClock()


def expire(game_id) -> bool:
    """The server's clock sends the game ``expire`` through the one pipeline: True when it ended somebody's time,
    False when no deadline had passed (another process was first, or a command came in time)."""
    try:
        played = _game_command(user=CLOCK, game_id=game_id, command={"type": "expire"})
    except DomainError:
        return False
    metrics.clock_expired(played.ruleset)  # its events were appended: clock.expired among them
    return True


def brought_up_to_time(game_id, state: Any) -> bool:
    """Before a read: when the game's clock has run out and nothing has said so, say so now (True: the caller reads
    the game again)."""
    if not overdue(state, time.time()):
        return False
    expire(game_id)  # or another process was first: either way the game has moved on
    return True


def _committed(game_id: uuid.UUID, stream_id: str, version: int, new_version: int, before: Any, state: Any,
               actor: str) -> None:
    STATE_CACHE.put(stream_id, new_version, state)
    if snapshot_due(version, new_version):
        SNAPSHOTS.submit(stream_id, new_version, state)
    try:
        publish(game_id, new_version, after=version)
    except Exception:
        logger.exception("A live update of game %s could not be handed on.", game_id)
    committed = Committed(game_id, version, new_version, before, state, actor)
    for hook in AFTER_COMMIT:
        try:
            hook(committed)
        except Exception:
            logger.exception("A command's follow-up (%s) for game %s failed.", hook.__qualname__, game_id)


VERSION_SQL = (f"SELECT {connection.ops.quote_name(Game._meta.get_field('version').column)} "
               f"FROM {connection.ops.quote_name(Game._meta.db_table)} "
               f"WHERE {connection.ops.quote_name(Game._meta.pk.column)} = %s")


def version_of(game_id: uuid.UUID) -> int | None:
    """The game's version as committed now, None when there is no such game: the one way the services read it.
    The game row's, which moves in the same statement as its stream's (``game_row``), read without a lock; on
    PostgreSQL by one prepared statement (every command starts with it)."""
    if connection.vendor != "postgresql":
        return Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    rows = store.execute_prepared(VERSION_SQL, [game_id], binary=True)
    return rows[0][0] if rows else None


def game_uuid_of(game_id) -> uuid.UUID:
    """A game's id, from its id as a client may write it; NotFound for one no game can have."""
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound("There is no such game.") from None


def game_join(*, user, game_id, team: str | None = None, player_deck: int | None = None,
              deck: str | None = None) -> dict:
    """Take a seat; in a CCG game, with one of your player decks (refused if outdated in a formal game); in a
    Multi-Deck game, with the archive deck of your side (``deck``, a slug; by default the game's own)."""
    command: dict[str, Any] = {"type": "join"}
    if team is not None:
        command["team"] = team
    if deck is not None:
        command["side_deck"] = side_deck_for(game_id=game_id, slug=deck)
    brought = None
    if player_deck is not None:
        game = get_game(game_id)
        options = state_at(game.stream_id, game.version).options
        brought = player_deck_for(user=user, player_deck=player_deck, formal=bool(options.get("formal")))
        command["player_deck"] = brought
    with transaction.atomic():
        _game_command(user=user, game_id=game_id, command=command)
        mark_player_deck(game_id, brought)
    return game_state(user=user, game_id=game_id)


def side_deck_for(*, game_id, slug: str) -> dict[str, Any]:
    """A Multi-Deck joiner's own deck, as the join command carries it (slug, title, cards): the archive deck
    ``slug`` (404 if there is none), within the size a game deals. Refused in a game of another variant."""
    from decks.selectors import deck_for_game

    if get_game(game_id).variant != "multi_deck":
        # A well-formed body this game cannot take (as a player deck at a table that is not CCG): a conflict.
        raise Conflict("Only a Multi-Deck game is joined with a deck of your own.", code="not_multi_deck",
                       details={"deck": ["\"deck\" is for Multi-Deck games: each side plays its own deck."]})
    content = deck_for_game(slug)
    _require_within_bound(content)
    return {"slug": content["slug"], "title": content.get("title", ""), "cards": content["cards"]}


def game_start(*, user, game_id) -> dict:
    game_command(user=user, game_id=game_id, command={"type": "start"})
    return game_state(user=user, game_id=game_id)


def game_leave(*, user, game_id) -> None:
    """Give up one's seat at an open table (``player.left``: later seats move down one; a CCG player deck brought
    is free again); the creator's leaving cancels the game. A game being played is conceded instead (409)."""
    _game_command(user=user, game_id=game_id, command={"type": "leave"})


def game_cancel(*, user, game_id) -> None:
    """The creator calls off an open game (``game.cancelled``): its status becomes ``cancelled``, it leaves the
    lobby's open games, and every CCG player deck brought to it is free again. 403 for anyone else, 409 once
    started."""
    _game_command(user=user, game_id=game_id, command={"type": "cancel"})


GAME_ROW_FIELDS = [Game._meta.get_field(name) for name in ("status", "version", "deadline", "updated_at", "id")]
GAME_ROW_SQL = (f"UPDATE {connection.ops.quote_name(Game._meta.db_table)} SET "
                + ", ".join(f"{connection.ops.quote_name(field.column)} = %s" for field in GAME_ROW_FIELDS[:-1])
                + f" WHERE {connection.ops.quote_name(GAME_ROW_FIELDS[-1].column)} = %s")


def game_row(game_id: uuid.UUID, state: Any, version: int) -> store.Projection:
    """The one projection of the game row: its status and version brought up to the state, as an UPDATE that goes
    with the append (on PostgreSQL in the append's own statement)."""
    deadline = next_deadline(state)
    values = (engine.game_status(state), version,
              dt.datetime.fromtimestamp(deadline, tz=dt.UTC) if deadline is not None else None, timezone.now(), game_id)
    if connection.vendor != "postgresql":  # psycopg takes them as they are (an aware datetime, a UUID)
        values = tuple(field.get_db_prep_value(value, connection)
                       for field, value in zip(GAME_ROW_FIELDS, values, strict=True))
    return store.Projection(GAME_ROW_SQL, values)


def project_rows(game_id: uuid.UUID, before: Any, state: Any) -> None:
    """The rows a state change adds beside the game's own: a seat row per new player; a player who left an open
    table loses theirs (the later seats' rows take their new numbers) and their CCG player deck is given back;
    and when the game ends or is cancelled, the CCG players' decks given back for tuning, and a draft's picks made
    player decks of their players (``games.drafts``)."""
    seats, gone, finished = rows_changed(before, state)
    if gone:
        Seat.objects.filter(game_id=game_id, user_id__in=[seat.user_id for seat in gone]).delete()
        rows = {row.user_id: row for row in Seat.objects.filter(game_id=game_id)}
        for seat in state.seats:  # in seat order: each moves down into a number already free
            row = rows.get(seat.user_id)
            if row is not None and row.number != seat.seat:
                row.number = seat.seat
                row.save(update_fields=["number"])
        taken = set(player_deck_ids(state))
        release_player_decks(game_id, before, only=[deck for deck in player_deck_ids(before) if deck not in taken])
    for seat in seats:
        Seat.objects.create(game_id=game_id, user_id=seat.user_id, number=seat.seat, team=seat.team or "")
    if finished:
        release_player_decks(game_id, state)
        if drafts.has_player_decks(state):
            drafts.make_player_decks(game_id, state)


def rows_changed(before: Any, state: Any) -> tuple[tuple, tuple, bool]:
    """What ``project_rows`` writes for a state change: the new seats, the seats given up (as they were), and
    whether the game has just ended or been cancelled."""
    seated = {seat.user_id for seat in before.seats} if before is not None else set()
    now = {seat.user_id for seat in state.seats}
    closed = (*OVER, CANCELLED)
    return (tuple(seat for seat in state.seats if seat.user_id not in seated),
            tuple(seat for seat in before.seats if seat.user_id not in now) if before is not None else (),
            state.status in closed and (before is None or before.status not in closed))


def new_rows(before: Any, state: Any) -> bool:
    """Whether ``project_rows`` writes anything for this state change (a game's end, only when CCG player decks
    are to be given back or a draft's picks made player decks)."""
    seats, gone, finished = rows_changed(before, state)
    return bool(seats) or bool(gone) or (finished and (bool(player_deck_ids(state)) or drafts.has_player_decks(state)))


def player_deck_ids(state: Any) -> list[int]:
    """The CCG player decks brought to the game: the ``deck`` its ruleset's players carry, where they do (by its
    id; a Multi-Deck side's archive deck, named by its slug, is no player deck)."""
    return [player.deck["id"] for player in getattr(state.table, "players", ())
            if getattr(player, "deck", None) and "id" in player.deck]


def player_deck_brought(state: Any, seat: int | None) -> int | None:
    """The id of the CCG player deck this seat brought to the game, if it brought one (a Multi-Deck side's archive
    deck, named by its slug, is no player deck)."""
    deck = next((getattr(player, "deck", None) for player in getattr(state.table, "players", ())
                 if getattr(player, "seat", None) == seat), None)
    return deck["id"] if isinstance(deck, dict) and "id" in deck else None


def release_player_decks(game_id: uuid.UUID, state: Any, *, only: list[int] | None = None) -> None:
    """The CCG player decks brought to the game (``only`` these, if named) free for tuning again."""
    ids = player_deck_ids(state) if only is None else only
    if ids:
        from ccg.services import player_deck_release

        for player_deck_id in ids:
            player_deck_release(player_deck_id=player_deck_id, game_id=game_id)


def player_deck_for(*, user, player_deck: Any, formal: bool) -> dict:
    """A CCG player's deck as the engine takes it, checked: the caller's own, valid, and (formal games) current."""
    from ccg.selectors import player_deck_for_game

    if isinstance(player_deck, bool) or not isinstance(player_deck, int):
        raise DomainError("\"player_deck\" is the id of one of your player decks.",
                          details={"player_deck": ["Give the id of one of your player decks."]})
    return player_deck_for_game(user=user, player_deck_id=player_deck, formal=formal)


def mark_player_deck(game_id, player_deck: dict | None) -> None:
    if player_deck:
        from ccg.services import player_deck_mark_in_game

        player_deck_mark_in_game(player_deck_id=player_deck["id"], game_id=game_id)


def publish(game_id, version: int, *, after: int = 0) -> None:
    """Tell the processes following the game live that it has moved on from ``after`` to ``version``; each reads and
    redacts for its readers' viewers, and one that had not reached ``after`` knows it missed a notice.
    On Redis the message leaves from a background thread (dvorak_kit/publisher.py): the request does not wait."""
    group = group_name(game_id)  # named in the message too: a process's one channel is in many games' groups
    publisher.group_send(group, {"type": "game.advanced", "group": group, "version": version, "after": after})


# --- selectors -------------------------------------------------------------------------------------------------


def may_watch(game: Game, user) -> bool:
    """Whether ``user`` may see ``game`` by its ``options.spectators``: its players always; anyone else when it is
    ``anyone``'s, or ``players``' once it is over (its replay opens); under ``nobody`` no one else, ever."""
    if game.spectators == "anyone" or (game.spectators == "players" and game.status in OVER):
        return True
    return game.seats.filter(user_id=user.pk).exists()


def invited_to(game: Game, user) -> bool:
    """Whether ``user`` was invited to ``game`` while it is open: an invitation lets them see the table they may
    take a seat at, even one closed to spectators."""
    if game.status != OPEN:
        return False
    return user.get_username() in state_at(game.stream_id, game.version).invited


def game_for_viewer(game_id, user) -> Game:
    game = get_game(game_id)
    if not may_watch(game, user) and not invited_to(game, user):
        raise Forbidden("Only the players of this game may watch it (its `options.spectators`).")
    return game


def game_state(*, user, game_id, at: int | None = None) -> dict:
    game = game_for_viewer(game_id, user)
    current = game.version
    if at is not None and not 1 <= at <= current:
        raise NotFound(f"The game has no version {at}; it is at version {current}.")
    state = state_at(game.stream_id, at or current)
    if at is None and brought_up_to_time(game.id, state):
        return game_state(user=user, game_id=game_id)
    return state_json(game, state, engine.seat_of(state, user.id))


def game_moves(*, user, game_id) -> dict:
    """Every command the caller may send now, as complete bodies (a choice left to them written ``{"choose": k,
    "from": [...], "list": bool}``), at the game's current version; none for someone not playing."""
    game = game_for_viewer(game_id, user)
    version = game.version
    state = state_at(game.stream_id, version)
    if brought_up_to_time(game.id, state):
        return game_moves(user=user, game_id=game_id)
    return {"version": version, "moves": engine.legal_moves(state, engine.seat_of(state, user.id))}


def game_events(*, user, game_id, after: int = 0, limit: int | None = None) -> dict:
    """The game's events after version ``after`` as ``user`` may see them, oldest first: all of them up to its
    current ``version``, or the first ``limit`` (the rest follow after the last one shown)."""
    game = game_for_viewer(game_id, user)
    current = game.version
    if brought_up_to_time(game.id, state_at(game.stream_id, current)):
        return game_events(user=user, game_id=game_id, after=after, limit=limit)
    after = max(0, min(after, current))
    until = current if limit is None else min(current, after + limit)
    start = state_at(game.stream_id, after) if after else None
    tail = store.read(game.stream_id, after=after, until=until)
    _, shown = fold_and_view(start, tail, lambda state: engine.seat_of(state, user.id))
    return {"version": current, "events": shown}


def game_mush(*, user, game_id, line: str) -> dict:
    """One line of the old Dvorak Engine's text commands, through the same rules and views as JSON commands."""
    from games import mush

    game = game_for_viewer(game_id, user)
    version = game.version
    state = state_at(game.stream_id, version)
    result = mush.run_line(state, line, seat=engine.seat_of(state, user.id))
    if isinstance(result, mush.Query):
        return {"lines": result.lines, "version": version}
    played = game_command(user=user, game_id=game_id, command=result.command)
    return {"lines": result.describe(played.events), "version": played.version}


@dataclass(frozen=True)
class Published:
    """The archive decks a game's Aftermath went into, the game's own first. ``per_side``: a Multi-Deck game in
    which each side played its own deck, whose every deck the game changed is among them."""

    decks: list[Any]
    per_side: bool = False


def game_publish(*, user, game_id, new_deck: bool = False, slug: str | None = None, title: str | None = None,
                 summary: str = "") -> Published:
    """The Aftermath: publish a finished game's deck to the archive, each card's creator recorded.

    As a new revision of the deck the game was played from (refused with 423 if that deck is locked), or, with
    ``new_deck``, as a new deck. In a Multi-Deck game with a deck per side, the game's own deck holds the cards of
    the sides that played it, and every other side's deck the game changed becomes a new revision of its own
    archive deck, with its own Special Rules kept (one locked deck refuses them all, 423); with ``new_deck`` only
    the game's own deck is published, as a new deck.
    """
    from decks import services as deck_services
    from decks.selectors import special_rule_data
    from dvorak_core.deckdata import DeckData, slugify

    game = get_game(game_id)
    state = state_at(game.stream_id, game.version)
    if engine.seat_of(state, user.id) is None:
        raise Forbidden("Only the players of a game publish its deck.")
    if state.status not in OVER:
        raise Conflict("A game's deck is published once the game is over.", code="game_not_finished")
    after = engine.deck_after_game(state)
    side_decks = after.pop("side_decks", None)
    content = DeckData.from_dict(after)
    summary = summary or f"The Aftermath of game {game.id}"
    per_side = side_decks is not None
    if new_deck:
        title = title or f"{content.title} (after game {str(game.id)[:8]})"
        content = DeckData.from_dict({**content.to_dict(), "title": title, "slug": slug or slugify(title)})
        return Published([deck_services.deck_create(author=user, data=content, summary=summary)], per_side)
    if not side_decks:
        return Published([deck_services.deck_replace_content(slug=game.deck_slug, author=user, data=content,
                                                             summary=summary)], per_side)
    with transaction.atomic():
        locked = _decks_locked([game.deck_slug, *(side["slug"] for side in side_decks)])
        published = [deck_services.deck_replace_content(slug=game.deck_slug, author=user, data=content,
                                                        summary=summary)]
        for side in side_decks:
            # A side's Special Rules were never the game's: its deck keeps its own, as they stand.
            rules = [special_rule_data(rule).to_dict() for rule in locked[side["slug"]].special_rules.all()]
            data = DeckData.from_dict({**side, "special_rules": rules})
            published.append(deck_services.deck_replace_content(slug=side["slug"], author=user, data=data,
                                                                summary=summary))
    return Published(published, per_side)


def _decks_locked(slugs: list[str]) -> dict[str, Any]:
    """The archive decks named, each row locked, in one order, so that two Aftermaths publishing the same decks
    wait for each other rather than deadlock (404 for a deck no longer in the archive)."""
    from decks.models import Deck

    locked = {deck.slug: deck for deck in Deck.objects.select_for_update().filter(slug__in=slugs).order_by("slug")}
    missing = [slug for slug in slugs if slug not in locked]
    if missing:
        raise NotFound(f"There is no deck {missing[0]!r}.")
    return locked
