"""A game's rows rebuilt from its stream, and checked against it: what ``import_events`` and ``verify_events``
need beside the event store's own tools (dvorak_kit/eventstore/tools.py).

The events are the truth; the ``Game`` row and its ``Seat`` rows follow them (games/models.py). A live game writes
them through ``services.game_row`` (status, version, deadline) and ``services.project_rows`` (seats); a rebuild
goes through the same two, from the state the engine replays. What only the row holds is read from the stream:
ruleset, variant, creative, seats and spectators from ``game.created``, the creator from the first
``player.joined``, the deck from ``game.created``'s ``deck`` where the ruleset records it (else its state's table).
"""

import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

import dvorak_engine as engine
from dvorak_kit.eventstore import store
from games.models import Game, Seat
from games.services import FOLDER, game_row, project_rows

STREAM_PREFIX = "game-"


def is_game_stream(stream_id: str) -> bool:
    return stream_id.startswith(STREAM_PREFIX)


def game_id_of(stream_id: str) -> uuid.UUID:
    return uuid.UUID(stream_id[len(STREAM_PREFIX):])


def replayed(stream_id: str) -> tuple[list[store.RecordedEvent], Any]:
    """The stream's events and the state the engine folds them into (no snapshot: the events alone)."""
    events = store.read(stream_id)
    return events, store.fold(FOLDER, events)


def deck_of(created: dict, state: Any) -> dict:
    deck = created.get("deck")
    if not isinstance(deck, dict):
        deck = getattr(getattr(state, "table", None), "deck", None)
    return deck if isinstance(deck, dict) else {}


def creator_of(events: list[store.RecordedEvent]) -> tuple[int, str]:
    joined = next(event for event in events if event.type == "player.joined")
    return joined.data["user_id"], joined.data["username"]


def players_of(events: list[store.RecordedEvent]) -> dict[int, str]:
    """Every account the game names (each who ever joined), by id."""
    return {event.data["user_id"]: event.data["username"] for event in events
            if event.type == "player.joined" and "user_id" in event.data}


def accounts_provided(players: dict[int, str]) -> list[str]:
    """An account for each player the database lacks, under the game's id and username, with no usable password
    (an operator sets one, or the player resets theirs). Refuses, naming it, an id taken by another username."""
    User = get_user_model()
    found = dict(User.objects.filter(pk__in=list(players)).values_list("pk", User.USERNAME_FIELD))
    clashes = [f"account {pk} is {found[pk]!r} here, {name!r} in the events"
               for pk, name in players.items() if pk in found and found[pk] != name]
    if clashes:
        raise ValueError("; ".join(clashes))
    made = []
    for pk, name in sorted(players.items()):
        if pk not in found:
            user = User(pk=pk, **{User.USERNAME_FIELD: name})
            user.set_unusable_password()
            user.save()
            made.append(name)
    if made:
        with connection.cursor() as cursor:
            from django.core.management.color import no_style

            for statement in connection.ops.sequence_reset_sql(no_style(), [User]):
                cursor.execute(statement)
    return made


def rebuild(stream_id: str) -> None:
    """The game's rows from its stream, as the live path writes them. The row must not exist yet."""
    events, state = replayed(stream_id)
    created = events[0].data
    creator_id, _ = creator_of(events)
    deck = deck_of(created, state)
    game_id = game_id_of(stream_id)
    Game.objects.create(
        id=game_id, deck_slug=deck.get("slug", ""), deck_title=deck.get("title", ""), ruleset=state.ruleset,
        variant=created.get("variant", "standard"), creative=bool(created.get("creative", False)),
        max_players=state.max_players, spectators=state.options.get("spectators", "anyone"),
        created_by_id=creator_id,
    )
    projection = game_row(game_id, state, events[-1].version)
    with connection.cursor() as cursor:
        cursor.execute(projection.sql, projection.params)
    Game.objects.filter(pk=game_id).update(created_at=events[0].recorded_at)
    project_rows(game_id, None, state)


def problems(stream_id: str) -> list[str]:
    """What in the game's rows does not match its stream, or why its stream does not replay."""
    try:
        events, state = replayed(stream_id)
    except Exception as exc:  # noqa: BLE001 - a check reports every failure, it does not raise it
        return [f"{stream_id}: does not replay through the engine: {exc.__class__.__name__}: {exc}"]
    if state is None:
        return [f"{stream_id}: has no events"]
    game = Game.objects.filter(pk=game_id_of(stream_id)).first()
    if game is None:
        return [f"{stream_id}: no game row (run import_events, which rebuilds it)"]
    found = []
    expected = {"status": engine.game_status(state), "version": events[-1].version, "ruleset": state.ruleset,
                "max_players": state.max_players}
    for name, value in expected.items():
        if getattr(game, name) != value:
            found.append(f"{stream_id}: the game row's {name} is {getattr(game, name)!r}, the stream says {value!r}")
    seats = {(seat.seat, seat.user_id, seat.team or "") for seat in state.seats}
    rows = set(Seat.objects.filter(game=game).values_list("number", "user_id", "team"))
    if seats != rows:
        found.append(f"{stream_id}: the seat rows {sorted(rows)} differ from the stream's seats {sorted(seats)}")
    return found
