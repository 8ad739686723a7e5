"""Writes of the CCG side: one function per use case, keyword-only, one transaction each.

A card set changes only by versions: `card_set_version_build` (run by the Celery task) takes the accepted
changes not yet in a version under the set's row lock, writes them to the archive as one new revision, records
the next numbered version, brings every player deck built on the set to it and tells each owner once. A second
delivery of the same task finds nothing left to do.

CCG Dvorak: "Any adjustments to the Card Set should be immediately reflected in every player's deck." The set and
its player decks change in the same transaction, so no one ever sees a set that its decks do not follow; a deck
that a game is playing follows too (following the set is not the owner's tuning), while that game goes on with
the cards it was dealt (its events are history).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone

from ccg.models import CardSetPlayer, CardSetVersion, Notification, PlayerDeck, PlayerDeckEntry
from ccg.selectors import card_set_get, version_content_card, version_get, version_latest
from decks import selectors as archive
from decks.models import Card, Deck
from decks.services import CARD_ROW_FIELDS, _record_revision
from dvorak_core.deckdata import CARD_SET, MAX_COPIES_PER_CARD, CardData
from dvorak_core.errors import Conflict, DomainError, Forbidden, NotFound
from dvorak_core.vote_rules import ACCEPTED
from dvorak_kit import feed
from proposals.models import ADD, REMOVE, CardSetChange

logger = logging.getLogger(__name__)


def _card_set_for_update(card_set_id: int) -> Deck:
    deck = Deck.objects.select_for_update().filter(pk=card_set_id, kind=CARD_SET).first()
    if deck is None:
        raise NotFound(f"There is no card set {card_set_id}.")
    return deck


def _first_version(deck: Deck) -> CardSetVersion:
    """Version 1 is the set as the archive holds it when the CCG side first needs it. The caller holds the
    set's row lock, so two callers cannot both make it."""
    latest = version_latest(card_set=deck)
    if latest is not None:
        return latest
    return CardSetVersion.objects.create(
        card_set=deck, number=1, changelog=["The card set as first registered."],
        content=archive.deck_for_game(deck.slug),
    )


@transaction.atomic
def card_set_version_ensure(*, slug: str) -> CardSetVersion:
    """The set's latest version, making version 1 if the set has none yet."""
    deck = _card_set_for_update(card_set_get(slug=slug).pk)
    return _first_version(deck)


@transaction.atomic
def card_set_register(*, slug: str, user: Any) -> CardSetPlayer:
    """Register the user as a player of the set (again: nothing changes)."""
    if not user or not user.is_authenticated:
        raise Forbidden("Sign in to register as a player of a card set.")
    deck = _card_set_for_update(card_set_get(slug=slug).pk)
    _first_version(deck)
    player, _ = CardSetPlayer.objects.get_or_create(card_set=deck, user=user)
    return player


# --- building a version ----------------------------------------------------------------------------------


def _apply_change(deck: Deck, change: CardSetChange) -> str:
    """Write one accepted change to the archive's card rows; a kept card keeps its id. Returns the changelog
    line."""
    if change.kind == ADD:
        card = CardData.from_dict(change.content)
        last = deck.cards.order_by("-position").values_list("position", flat=True).first()
        Card.objects.create(deck=deck, position=0 if last is None else last + 1,
                            **{name: getattr(card, name) for name in CARD_ROW_FIELDS})
        return f"Added card {card.title!r}"
    row = deck.cards.filter(pk=change.card_id).first()
    if row is None:
        # An earlier change in the same batch removed it.
        return f"Skipped a {change.kind} of card {change.card_id}: it is no longer in the set"
    if change.kind == REMOVE:
        row.delete()
        return f"Removed card {row.title!r}"
    title = row.title
    content = dict(change.content)
    if row.effect is not None and "effect" not in content and any(
            name in content and content[name] != getattr(row, name) for name in _EFFECT_READS):
        # The confirmed effect was the old words'; the new ones are not confirmed until a change says so.
        content["effect"] = None
    for name in CARD_ROW_FIELDS:
        if name in content:
            setattr(row, name, content[name])
    row.save()
    return f"Changed card {title!r}: {', '.join(name for name in CARD_ROW_FIELDS if name in content)}"


# What a card's effect is read from: a change of one of them without an effect clears the confirmed one.
_EFFECT_READS = ("title", "type", "text")


def _write_to_archive(deck: Deck, changes: list[CardSetChange], number: int) -> list[str]:
    """The accepted changes as one archive revision.

    The set's version building is how a card set changes, so it goes ahead on a locked set, which still refuses
    direct edits. `decks.services` has no lock-exempt edit yet, so this writes the rows itself and records the
    revision through the archive's own revision writer.
    """
    changelog = [_apply_change(deck, change) for change in changes]
    _record_revision(deck, author=None, summary=f"Card set version {number}: " + "; ".join(changelog))
    return changelog


@dataclass(frozen=True)
class DeckUpdate:
    """What bringing a player deck to a newer version did to it."""

    removed: tuple[str, ...]
    changed: tuple[str, ...]


def _bring_to_version(player_deck: PlayerDeck, version: CardSetVersion) -> DeckUpdate:
    old = version_get(card_set=player_deck.card_set, number=player_deck.version).content
    removed, changed = [], []
    for entry in player_deck.entries.all():
        before = version_content_card(old, entry.card_id) or {}
        after = version_content_card(version.content, entry.card_id)
        if after is None:
            removed.append(f"{before.get('title', entry.card_id)} ({entry.count} copies)")
            entry.delete()
        elif any(before.get(name) != after.get(name) for name in CARD_ROW_FIELDS):
            changed.append(after["title"])
    player_deck.version = version.number
    player_deck.save(update_fields=["version", "updated_at"])
    return DeckUpdate(removed=tuple(removed), changed=tuple(changed))


def _deck_lines(player_deck: PlayerDeck, update: DeckUpdate) -> list[str]:
    lines = [f"Your deck {player_deck.name!r} now uses this version."]
    lines += [f"  Taken out (no longer in the set): {title}" for title in update.removed]
    lines += [f"  Changed text: {title}" for title in update.changed]
    if player_deck.games_in_play:
        lines.append("  The game it is being played in goes on with the cards it was dealt.")
    return lines


def _notify(*, user: Any, subject: str, body: str, data: dict[str, Any]) -> Notification:
    """An in-app notice now, and the same by email and on the user's account feed once the transaction has
    committed (never for work that was rolled back)."""
    notice = Notification.objects.create(user=user, subject=subject[:200], body=body, data=data)
    if user.email:
        transaction.on_commit(lambda: _send_email(subject=subject, body=body, address=user.email))
    transaction.on_commit(lambda: _tell(notice), robust=True)
    return notice


def _tell(notice: Notification) -> None:
    """The notice on its user's account feed (``GET /api/v1/account/stream/``), as ``GET /notifications/`` shows it."""
    from ccg.api.serializers import NotificationSerializer

    feed.tell(notice.user_id, {"type": "notice", "notice": dict(NotificationSerializer(notice).data)})


def _send_email(*, subject: str, body: str, address: str) -> None:
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except OSError:
        # The in-app notice is already stored; a mail server being down must not undo a built version (or a game).
        logger.exception("Could not email %s a notice (%s)", address, subject)


def _update_player_decks(deck: Deck, version: CardSetVersion) -> None:
    """Every player deck on an older version follows the set, those in a game too; one notice per owner, whose
    `data` names each of their decks and what the version did to it."""
    lines: dict[Any, list[str]] = defaultdict(list)
    decks: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    outdated = PlayerDeck.objects.select_for_update(of=("self",)).filter(card_set=deck, version__lt=version.number)
    for player_deck in outdated.select_related("owner", "card_set").order_by("owner_id", "name", "id"):
        update = _bring_to_version(player_deck, version)
        lines[player_deck.owner] += _deck_lines(player_deck, update)
        decks[player_deck.owner].append({"id": player_deck.pk, "name": player_deck.name,
                                         "removed": list(update.removed), "changed": list(update.changed),
                                         "in_game": bool(player_deck.games_in_play)})
    subject = f"{deck.title} is now at version {version.number}"
    changes = "\n".join(f"- {line}" for line in version.changelog)
    for owner, owner_lines in lines.items():
        body = f"{subject}.\n\nWhat changed:\n{changes}\n\n" + "\n".join(owner_lines) + "\n"
        _notify(user=owner, subject=subject, body=body,
                data={"card_set": deck.slug, "version": version.number, "player_decks": decks[owner]})


@transaction.atomic
def card_set_version_build(
    *, card_set_id: int, after_version_written: Callable[[], None] | None = None
) -> CardSetVersion | None:
    """Group the set's accepted changes that are in no version yet into its next version; None if there are
    none (a repeated delivery of the task). `after_version_written` runs inside the transaction, for tests that
    stop a worker half-way."""
    deck = _card_set_for_update(card_set_id)
    previous = _first_version(deck)
    waiting = list(
        CardSetChange.objects.select_for_update()
        .filter(card_set=deck, status=ACCEPTED, version__isnull=True)
        .order_by("decided_at", "id")
    )
    if not waiting:
        return None
    number = previous.number + 1
    changelog = _write_to_archive(deck, waiting, number)
    version = CardSetVersion.objects.create(
        card_set=deck, number=number, changelog=changelog, content=archive.deck_for_game(deck.slug)
    )
    CardSetChange.objects.filter(pk__in=[change.pk for change in waiting]).update(version=version)
    if after_version_written is not None:
        after_version_written()
    _update_player_decks(deck, version)
    return version


# --- player decks ----------------------------------------------------------------------------------------


def _check_cards_exist(entries: dict[int, int], content: dict[str, Any]) -> None:
    unknown = sorted(card_id for card_id in entries if version_content_card(content, card_id) is None)
    if unknown:
        raise DomainError(f"The set has no cards {unknown} in this version.",
                          details={"entries": [f"Card {card_id} is not in the set." for card_id in unknown]})
    if any(count < 1 for count in entries.values()):
        raise DomainError("An entry has at least one copy of its card.", details={"entries": ["count >= 1"]})


def _write_entries(player_deck: PlayerDeck, entries: dict[int, int]) -> None:
    player_deck.entries.all().delete()
    PlayerDeckEntry.objects.bulk_create(
        PlayerDeckEntry(player_deck=player_deck, card_id=card_id, count=count) for card_id, count in entries.items()
    )


@transaction.atomic
def player_deck_create(*, owner: Any, card_set_slug: str, name: str, entries: dict[int, int]) -> PlayerDeck:
    """A deck built on the set's latest version. It is stored even when it is not yet valid (too few cards):
    the player sees the problems and tunes it."""
    version = card_set_version_ensure(slug=card_set_slug)
    _check_cards_exist(entries, version.content)
    player_deck = PlayerDeck.objects.create(owner=owner, card_set=version.card_set, name=name,
                                            version=version.number)
    _write_entries(player_deck, entries)
    return player_deck


def _own_deck_for_update(*, user: Any, player_deck_id: int) -> PlayerDeck:
    # Only the deck's own row: the card set's lock belongs to version building, which locks the set first.
    player_deck = (PlayerDeck.objects.select_for_update(of=("self",)).select_related("card_set")
                   .filter(pk=player_deck_id).first())
    # Someone else's deck answers as a missing one: a 403 would confirm that it exists.
    if player_deck is None or player_deck.owner_id != getattr(user, "pk", None):
        raise NotFound(f"There is no player deck {player_deck_id}.")
    return player_deck


def _ensure_not_in_game(player_deck: PlayerDeck, doing: str) -> None:
    if player_deck.games_in_play:
        raise Conflict(f"The deck {player_deck.name!r} is being played in a game; {doing} after the game.",
                       code="deck_in_game", details={"games": list(player_deck.games_in_play)})


@transaction.atomic
def player_deck_tune(
    *, user: Any, player_deck_id: int, name: str | None = None, entries: dict[int, int] | None = None
) -> PlayerDeck:
    """Rename it, or tune it: `entries` (card id → copies) replaces what the deck holds. Never during a game."""
    player_deck = _own_deck_for_update(user=user, player_deck_id=player_deck_id)
    _ensure_not_in_game(player_deck, "tune it")
    if entries is not None:
        _check_cards_exist(entries, version_get(card_set=player_deck.card_set, number=player_deck.version).content)
        _write_entries(player_deck, entries)
    if name is not None:
        player_deck.name = name
    player_deck.save()
    return player_deck


@transaction.atomic
def player_deck_delete(*, user: Any, player_deck_id: int) -> None:
    player_deck = _own_deck_for_update(user=user, player_deck_id=player_deck_id)
    _ensure_not_in_game(player_deck, "delete it")
    player_deck.delete()


@transaction.atomic
def player_deck_update(*, user: Any, player_deck_id: int) -> tuple[PlayerDeck, DeckUpdate]:
    """Bring the deck to its set's latest version: changed cards follow, removed cards are taken out. Each version
    does this to every deck as it is built; this is for a deck left behind (see
    `selectors.player_deck_for_game`), in a game or not, as following the set is not tuning."""
    player_deck = _own_deck_for_update(user=user, player_deck_id=player_deck_id)
    latest = version_latest(card_set=player_deck.card_set)
    if latest is None or latest.number == player_deck.version:
        return player_deck, DeckUpdate(removed=(), changed=())
    return player_deck, _bring_to_version(player_deck, latest)


def _deck_for_update(player_deck_id: int) -> PlayerDeck:
    player_deck = PlayerDeck.objects.select_for_update().filter(pk=player_deck_id).first()
    if player_deck is None:
        raise NotFound(f"There is no player deck {player_deck_id}.")
    return player_deck


@transaction.atomic
def player_deck_mark_in_game(*, player_deck_id: int, game_id: Any) -> None:
    """The game server's call when the deck enters a game: from now until its release, no tuning."""
    player_deck = _deck_for_update(player_deck_id)
    if str(game_id) not in player_deck.games_in_play:
        player_deck.games_in_play = [*player_deck.games_in_play, str(game_id)]
        player_deck.save(update_fields=["games_in_play", "updated_at"])


@transaction.atomic
def player_deck_release(*, player_deck_id: int, game_id: Any) -> None:
    """The game server's call when that game is over for the deck (releasing twice changes nothing)."""
    player_deck = _deck_for_update(player_deck_id)
    if str(game_id) in player_deck.games_in_play:
        player_deck.games_in_play = [game for game in player_deck.games_in_play if game != str(game_id)]
        player_deck.save(update_fields=["games_in_play", "updated_at"])


def notification_send(*, user: Any, subject: str, body: str, data: dict[str, Any]) -> Notification:
    """A notice to ``user`` from elsewhere in the service (a game's invitation): in their list, and by email once
    the transaction has committed."""
    return _notify(user=user, subject=subject, body=body, data=data)


@transaction.atomic
def notification_mark_read(*, user: Any, ids: list[int] | None = None) -> int:
    """Mark the user's notices read (the given ones, or all); returns how many were unread."""
    notices = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        notices = notices.filter(pk__in=ids)
    return notices.update(read_at=timezone.now())


def player_deck_import(*, owner: Any, card_set_slug: str, text: str, name: str = "") -> PlayerDeck:
    """A player deck from a Cockatrice `.cod` file: its card names matched to the titles of the set's latest
    version (exactly, then ignoring case). Names the set lacks are refused, all listed, and nothing is made."""
    from decks.exporters.deck_files import parse_cockatrice

    file_name, cards = parse_cockatrice(text)
    version = card_set_version_ensure(slug=card_set_slug)
    by_title: dict[str, int] = {}
    for card in version.content["cards"]:
        by_title.setdefault(card["title"], card["id"])
        by_title.setdefault(card["title"].casefold(), card["id"])
    entries: dict[int, int] = {}
    unknown = []
    for title, copies in cards:
        card_id = by_title.get(title, by_title.get(title.casefold()))
        if card_id is None:
            unknown.append(title)
        else:
            entries[card_id] = entries.get(card_id, 0) + copies
    if unknown:
        raise DomainError(f"The set {card_set_slug!r} has no cards named {', '.join(map(repr, unknown))}.",
                          details={"unknown_cards": unknown})
    if any(count > MAX_COPIES_PER_CARD for count in entries.values()):
        raise DomainError(f"A card has at most {MAX_COPIES_PER_CARD} copies in a deck.",
                          details={"text": [f"at most {MAX_COPIES_PER_CARD} copies"]})
    deck_name = (name or file_name or "Imported deck")[:200]
    return player_deck_create(owner=owner, card_set_slug=card_set_slug, name=deck_name, entries=entries)
