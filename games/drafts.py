"""Booster drafts on the game server (the ``draft`` ruleset, docs/draft.md): a draft is dealt from a card set's
latest version, and when it is over each person's picks become a player deck of theirs.

The engine stays pure: a ruleset that plays a card set's version says so (``plays_card_set_version``) and says what
each seat picked (``drafted``); this module finds the version when the game is created (``card_set_deck``) and
makes the decks when it ends (``make_player_decks``), in the transaction that appends the draft's last events
(``services.project_rows``): the decks are made exactly once, with the events that ended the draft, and a retry of
that command finds the game over. A deck is named after the day and the game, and one of that name already on the
set is not made again.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets import get_ruleset
from dvorak_engine.state import OVER

logger = logging.getLogger("dvorak.games")


def plays_card_set_version(ruleset: str) -> bool:
    """Whether games of ``ruleset`` are dealt from a card set's latest version (a draft)."""
    try:
        rules = get_ruleset(ruleset)
    except DomainError:
        return False  # refused as an unknown ruleset where the game is made
    return bool(getattr(rules, "plays_card_set_version", False))


def card_set_deck(slug: str) -> dict[str, Any]:
    """The card set ``slug`` at its latest version, as a game takes a deck (its cards with their ids in that
    version), with the version's number: 404 for no such deck, 409 ``not_a_card_set`` for a deck of another kind."""
    from ccg.services import card_set_version_ensure

    version = card_set_version_ensure(slug=slug)
    return {**version.content, "version": version.number}


def drafted(state: Any) -> dict[int, dict[str, int]]:
    """Each seat's picks of a draft that is over (card id in the set's version → copies); nothing otherwise."""
    if state is None or state.status not in OVER:
        return {}
    rules = get_ruleset(state.ruleset)
    picks = getattr(rules, "drafted", None)
    return picks(state) if picks is not None else {}


def has_player_decks(state: Any) -> bool:
    """Whether the end of this game makes player decks: a draft, with a person who picked something."""
    picks = drafted(state)
    return any(picks.get(seat.seat) for seat in state.seats if not seat.bot)


def deck_name(game_id: uuid.UUID) -> str:
    return f"Draft {timezone.now():%Y-%m-%d} (game {str(game_id)[:8]})"


def make_player_decks(game_id: uuid.UUID, state: Any) -> list[Any]:
    """Each person's picks as a player deck of theirs, built on the set's latest version (a card the set has lost
    since the draft left out); computer players get none. A deck already made for the game is not made again. A
    set gone from the archive meanwhile makes none, and says so in the log: the game still ends."""
    from ccg.models import PlayerDeck
    from ccg.services import card_set_version_ensure, notification_send, player_deck_create

    picks = drafted(state)
    people = [seat for seat in state.seats if not seat.bot and picks.get(seat.seat)]
    if not people:
        return []
    slug, name = state.table.deck.get("slug", ""), deck_name(game_id)
    try:
        with transaction.atomic():
            version = card_set_version_ensure(slug=slug)
    except DomainError as refused:
        logger.warning("The picks of draft %s make no player decks: %s", game_id, refused.message)
        return []
    in_set = {card["id"] for card in version.content["cards"]}
    owners = get_user_model().objects.in_bulk([seat.user_id for seat in people])
    made = []
    for seat in people:
        owner = owners.get(seat.user_id)
        entries = {int(card): count for card, count in picks[seat.seat].items()
                   if card.isdigit() and int(card) in in_set}
        if owner is None or not entries:
            continue
        if PlayerDeck.objects.filter(owner=owner, card_set=version.card_set, name=name).exists():
            continue
        deck = player_deck_create(owner=owner, card_set_slug=slug, name=name, entries=entries)
        notification_send(user=owner, subject=f"Your draft picks are the player deck {name!r}",
                          body=f"The {sum(entries.values())} cards you picked in the draft of "
                               f"{version.card_set.title} (game {game_id}) are your player deck {name!r}: tune it "
                               f"like any other.\n",
                          data={"game": str(game_id), "player_deck": deck.pk, "card_set": slug})
        made.append(deck)
    return made
