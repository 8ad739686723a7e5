"""Every write to the archive: one function per use case, keyword-only, one transaction each.

Each write takes the deck's row lock, refuses changes to a locked deck, and leaves a numbered revision.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from decks import signals
from decks.importers import ListingError, UnknownFormatError, import_text
from decks.models import Card, Deck, Revision, SpecialRule, TalkPost
from decks.search import refresh_search
from decks.selectors import card_data, deck_data, revision_deck, revision_get, special_rule_data
from dvorak_core.card_data import INVALID, cards_named
from dvorak_core.deckdata import (
    MAX_CARDS_PER_DECK,
    MAX_COPIES_PER_CARD,
    STATUSES,
    CardData,
    DeckData,
    SpecialRuleData,
    plays_out_of_turn,
    slugify,
)
from dvorak_core.effects import checked_effect, read_card, read_special_rule, rule_params_with_effect, to_json
from dvorak_core.errors import Conflict, DeckLocked, DomainError, Forbidden, NotFound, VersionConflict
from dvorak_core.player_counts import parse_players
from dvorak_core.rule_params import checked_params
from dvorak_core.storable import ensure_storable
from dvorak_engine.rulesets import card_problems

# Paths under /decks/ that a deck's slug would hide.
RESERVED_SLUGS = frozenset({"import"})

DECK_FIELDS = ("title", "kind", "designers", "date", "players", "status", "ruleset", "description")
CARD_FIELDS = ("title", "type", "text", "flavor", "copies", "corner_value", "creator", "stats", "out_of_turn")
# A card's row: its printed fields and its confirmed effect (the effect language's JSON list, or null).
CARD_ROW_FIELDS = (*CARD_FIELDS, "effect")
RULE_ROW_FIELDS = ("title", "text", "params", "effect")


def is_curator(user: Any) -> bool:
    return bool(
        user is not None and user.is_authenticated and user.is_active and user.is_staff
        and user.has_perm("decks.curate")
    )


def _author(user: Any) -> Any:
    """The user to credit, or None for the system (management commands, seed data)."""
    return user if user is not None and user.is_authenticated else None


def _deck_for_update(slug: str) -> Deck:
    try:
        return Deck.objects.select_for_update().get(slug=slug)
    except Deck.DoesNotExist:
        raise NotFound(f"There is no deck {slug!r}.") from None


def _ensure_unlocked(deck: Deck) -> None:
    if deck.locked:
        raise DeckLocked(
            f"The deck {deck.slug!r} is locked; a curator must unlock it before it can be changed.",
            details={"slug": deck.slug},
        )


class RevisionConflict(VersionConflict):
    """The deck has a newer revision than the one the edit started from: saving would silently undo someone's
    change, so nothing is saved. `base` and `current` name the two revisions."""

    def __init__(self, *, slug: str, base: int, current: int) -> None:
        super().__init__(
            f"The deck {slug!r} is at revision {current}, not {base}: someone saved a change meanwhile.",
            details={"expected_revision": base, "current_revision": current},
        )
        self.base = base
        self.current = current


def _ensure_base(deck: Deck, base_revision: int | None) -> None:
    """No silent last write wins: an edit that names the revision it started from is refused once there is a
    newer one. `None` (a client that names none) keeps the old behaviour."""
    if base_revision is not None and base_revision != deck.revision:
        raise RevisionConflict(slug=deck.slug, base=base_revision, current=deck.revision)


def _ensure_curator(user: Any, doing: str) -> None:
    if not is_curator(user):
        raise Forbidden(f"Only curators may {doing}.")


def _record_revision(deck: Deck, *, author: Any, summary: str, kind: str = signals.REVISION) -> Revision:
    """The deck's rows as they are now, recorded as its next revision. Every write of a deck's rows ends here
    (the CCG's version building too), so this also brings the deck's search vectors up to date, and tells
    whoever follows the deck (`signals.deck_changed`, of `kind`)."""
    # The caller holds the deck's row lock, so numbers follow one another without gaps.
    refresh_search(deck)
    number = deck.revision + 1
    revision = Revision.objects.create(
        deck=deck, number=number, author=_author(author), summary=summary[:300], content=deck_data(deck).to_dict()
    )
    Deck.objects.filter(pk=deck.pk).update(revision=number)
    deck.revision = number
    signals.deck_changed.send(sender=Deck, deck=deck, actor=revision.author, kind=kind, summary=revision.summary,
                              revision=number, post=None)
    return revision


# The bounds (`MAX_COPIES_PER_CARD`, `MAX_CARDS_PER_DECK`) live with the deck's values, where the exporters read
# them too; the lengths fit the database's columns.
MAX_TEXT = 5000
MAX_RULE_TEXT = 20000
MAX_RULE_PARAMS = 2000  # characters of the parameters as JSON
DECK_FIELD_LENGTHS = {"slug": 200, "title": 200, "date": 100, "players": 50, "ruleset": 100, "description": 20000}
CARD_FIELD_LENGTHS = {"title": 200, "type": 50, "text": MAX_TEXT, "flavor": MAX_TEXT, "corner_value": 50,
                      "creator": 100}
RULE_FIELD_LENGTHS = {"title": 200, "text": MAX_RULE_TEXT}
MAX_DESIGNER = 100


def _too_long(values: dict[str, Any], limits: dict[str, int], where: str) -> None:
    for name, limit in limits.items():
        if len(str(values.get(name) or "")) > limit:
            raise DomainError(f"{where}: {name} is longer than {limit} characters.",
                              details={name: [f"At most {limit} characters."]})


def check_card(card: CardData) -> None:
    """A card the archive can hold: its texts within their columns, its copies within bounds, nothing in it (a
    stat's name included) that the database cannot store."""
    for name, value in card.to_dict().items():
        ensure_storable(value, field=name)
    _too_long(card.to_dict(), CARD_FIELD_LENGTHS, f"Card {card.title[:40]!r}")
    if not 1 <= card.copies <= MAX_COPIES_PER_CARD:
        raise DomainError(f"A card has 1 to {MAX_COPIES_PER_CARD} copies; {card.title[:40]!r} has {card.copies}.",
                          details={"copies": [f"Between 1 and {MAX_COPIES_PER_CARD}."]})
    _check_stats(card.title, card.stats)


def _check_stats(title: Any, stats: Any) -> None:
    if not isinstance(stats, dict) or not all(
        isinstance(name, str) and isinstance(value, int) and not isinstance(value, bool)
        for name, value in stats.items()
    ):
        raise DomainError(f"Card {str(title)[:40]!r}: stats map names to whole numbers, e.g. {{\"Shoot\": 1}}.",
                          details={"stats": ["Names mapped to whole numbers."]})


def _check_size(cards: Iterable[CardData]) -> None:
    total = 0
    for card in cards:
        check_card(card)
        total += card.copies
    if total > MAX_CARDS_PER_DECK:
        raise DomainError(f"A deck holds at most {MAX_CARDS_PER_DECK} cards (copies counted); this one {total}.",
                          details={"cards": [f"At most {MAX_CARDS_PER_DECK} cards, copies counted."]})


def _check_card_data(ruleset: str, cards: Iterable[CardData]) -> None:
    """A deck naming a ruleset whose cards carry its values (a type from its list, numbers in ``stats``) may still
    lack some, as a curator enters them card by card, but may not hold one that cannot be right."""
    wrong = [problem for problem in card_problems(ruleset, {"cards": [card.to_dict() for card in cards]})
             if problem["problem"] == INVALID]
    if wrong:
        raise DomainError(f"Cards carry values that {ruleset} cannot play: {cards_named(wrong)}.",
                          details={"cards": wrong})


def _check_rule(rule: SpecialRuleData) -> None:
    _too_long(rule.to_dict(), RULE_FIELD_LENGTHS, "A Special Rule")
    if not isinstance(rule.params, dict) or not all(isinstance(name, str) and name for name in rule.params):
        raise DomainError("A Special Rule's params map rule parameters by name to values, e.g. {\"hand_limit\": 7}.",
                          details={"params": ["An object of rule parameters."]})
    if len(json.dumps(rule.params)) > MAX_RULE_PARAMS:
        raise DomainError(f"A Special Rule's params take at most {MAX_RULE_PARAMS} characters as JSON.",
                          details={"params": [f"At most {MAX_RULE_PARAMS} characters as JSON."]})
    try:  # the bounds a game holds them to, so no deck carries a value that would stall its games
        checked_params(rule.params)
    except DomainError as error:
        raise DomainError(f"The Special Rule {rule.title[:60]!r}: {error.message}", details=error.details) from None


def _check_values(data: DeckData) -> None:
    for name, value in data.to_dict().items():
        if name != "cards":  # each card is checked with its own fields' names
            ensure_storable(value, field=name)
    _too_long(data.to_dict(), DECK_FIELD_LENGTHS, "The deck")
    if any(len(name) > MAX_DESIGNER for name in data.designers):
        raise DomainError(f"A designer's name has at most {MAX_DESIGNER} characters.",
                          details={"designers": [f"At most {MAX_DESIGNER} characters each."]})
    for rule in data.special_rules:
        _check_rule(rule)
    _check_size(data.cards)
    _check_card_data(data.ruleset, data.cards)
    if not data.title.strip():
        raise DomainError("A deck needs a title.", details={"title": ["This field may not be blank."]})
    if data.status not in STATUSES:
        raise DomainError(
            f"A deck's status is one of {', '.join(repr(s) for s in STATUSES)}, not {data.status!r}.",
            details={"status": [f"{data.status!r} is not a status."]},
        )


def _with_effects(data: DeckData) -> DeckData:
    """The deck with each confirmed effect checked (400 ``invalid`` naming its place: ``cards[2].effect[0].count``,
    ``special_rules[0].effect``) and kept in its full JSON, and each Special Rule's ``params`` holding what its
    confirmed effect sets (``set_rule``: a hand limit of 3). Every write of a deck's cards or rules passes here."""
    rules = tuple(_rule_with_effect(rule, index) for index, rule in enumerate(data.special_rules))
    cards = tuple(replace(card, effect=checked_effect(card.effect, field=f"cards[{index}].effect"))
                  for index, card in enumerate(data.cards))
    return replace(data, special_rules=rules, cards=cards)


def _rule_with_effect(rule: SpecialRuleData, index: int) -> SpecialRuleData:
    effect = checked_effect(rule.effect, field=f"special_rules[{index}].effect")
    if effect is None:
        return rule  # its params are checked with the rest of the rule (`_check_rule`)
    try:
        params = rule_params_with_effect(rule.params, effect, field=f"special_rules[{index}].params")
    except DomainError as error:
        raise DomainError(f"The Special Rule {rule.title[:60]!r}: {error.message}", details=error.details) from None
    return replace(rule, effect=effect, params=params)


def _from_values(make: Callable[[dict[str, Any]], Any], values: Mapping[str, Any], what: str) -> Any:
    """A deck, card or Special Rule (`make` is its `from_dict`) from a form's or a request's values; values it
    cannot hold (no title, no copy, a number that is not one) are refused in words a person reads."""
    try:
        return make(dict(values))
    except KeyError as missing:
        raise DomainError(f"{what} needs a {missing.args[0]}.",
                          details={missing.args[0]: ["This field is required."]}) from None
    except (ValueError, TypeError) as error:
        raise DomainError(f"{what} cannot be saved: {error}") from None


def _card(values: Mapping[str, Any]) -> CardData:
    """A card from its values (`CardData.from_dict`: `out_of_turn` left out follows the card's text)."""
    _check_stats(values.get("title", ""), values.get("stats", {}))
    checked_effect(values.get("effect"))  # refused naming the card's own field, before the deck's check
    return _from_values(CardData.from_dict, values, "A card")


def _special_rule(values: Mapping[str, Any]) -> SpecialRuleData:
    return _from_values(SpecialRuleData.from_dict, values, "A Special Rule")


def deck_from_values(values: Mapping[str, Any]) -> DeckData:
    """A new deck from a form's values (`DeckData.from_dict`), refused as `deck_create` refuses a bad one."""
    _deck_fields(values)
    for card in values.get("cards", ()):
        _check_stats(card.get("title", ""), card.get("stats", {}))
    return _from_values(DeckData.from_dict, values, "The deck")


def _write_special_rules(deck: Deck, rules: Iterable[SpecialRuleData]) -> None:
    deck.special_rules.all().delete()
    SpecialRule.objects.bulk_create(
        SpecialRule(deck=deck, position=position, title=rule.title, text=rule.text, params=dict(rule.params),
                    effect=rule.effect)
        for position, rule in enumerate(rules)
    )


def _card_row(deck: Deck, position: int, card: CardData) -> Card:
    return Card(deck=deck, position=position, **{name: getattr(card, name) for name in CARD_ROW_FIELDS})


def _write_cards(deck: Deck, cards: Iterable[CardData]) -> None:
    deck.cards.all().delete()
    Card.objects.bulk_create(_card_row(deck, position, card) for position, card in enumerate(cards))


def _set_player_range(deck: Deck) -> None:
    """`players_min` and `players_max` from the deck's `players` text (both None when it reads as no range)."""
    found = parse_players(deck.players)
    deck.players_min, deck.players_max = (None, None) if found is None else found


def _write_deck(deck: Deck, data: DeckData) -> None:
    for name in DECK_FIELDS:
        value = getattr(data, name)
        setattr(deck, name, list(value) if name == "designers" else value)
    _set_player_range(deck)
    deck.save()
    _write_special_rules(deck, data.special_rules)
    _write_cards(deck, data.cards)


def _create(*, author: Any, data: DeckData, summary: str, locked: bool) -> Deck:
    data = _with_effects(data)
    _check_values(data)
    slug = data.slug or slugify(data.title)
    if not slug or slug in RESERVED_SLUGS:
        raise DomainError(f"{slug!r} cannot be a deck's slug.", details={"slug": [f"{slug!r} is reserved."]})
    if Deck.objects.filter(slug=slug).exists():
        raise Conflict(f"A deck {slug!r} exists already; give the new one another slug.", code="deck_exists")
    try:
        with transaction.atomic():
            deck = Deck.objects.create(slug=slug, title=data.title, locked=locked)
    except IntegrityError:
        raise Conflict(f"A deck {slug!r} exists already.", code="deck_exists") from None
    _write_deck(deck, data)
    _record_revision(deck, author=author, summary=summary, kind=signals.CREATED)
    return deck


@transaction.atomic
def deck_create(*, author: Any, data: DeckData, summary: str = "") -> Deck:
    """A new deck, open for editing whatever `data.locked` says: only curators lock, and only by locking."""
    return _create(author=author, data=data, summary=summary or "Created", locked=False)


@transaction.atomic
def deck_update(*, slug: str, author: Any, changes: dict[str, Any], summary: str = "",
                base_revision: int | None = None) -> Deck:
    """Change the deck's own fields; `special_rules`, when given, replaces the deck's Special Rules.
    With `base_revision`, refused (`RevisionConflict`) unless the deck is still at that revision."""
    return _edit(slug=slug, author=author, changes=changes, summary=summary, base_revision=base_revision).deck


@transaction.atomic
def deck_edit(
    *,
    slug: str,
    author: Any,
    changes: Mapping[str, Any] | None = None,
    added: Sequence[Mapping[str, Any]] = (),
    changed: Mapping[int, Mapping[str, Any]] | None = None,
    removed: Sequence[int] = (),
    summary: str = "",
    base_revision: int | None = None,
) -> Deck:
    """A deck changed as a whole in one save, as the admin's change form sends it: the deck's own fields and
    Special Rules (`changes`, as `deck_update` takes them), cards `added` (their values), `changed` (card id →
    the values that changed, as `card_update` takes them) and `removed` (card ids).

    The same checks as every other edit, on the deck all of it makes, and one revision; with `base_revision`
    (the revision the form was filled from), refused with `RevisionConflict` if the deck has a newer one."""
    return _edit(slug=slug, author=author, changes=changes, added=added, changed=changed, removed=removed,
                 summary=summary, base_revision=base_revision).deck


@dataclass(frozen=True)
class _Edited:
    deck: Deck
    added: list[Card]
    changed: list[Card]


def _edit(
    *,
    slug: str,
    author: Any,
    changes: Mapping[str, Any] | None = None,
    added: Sequence[Mapping[str, Any]] = (),
    changed: Mapping[int, Mapping[str, Any]] | None = None,
    removed: Sequence[int] = (),
    summary: str = "",
    base_revision: int | None = None,
) -> _Edited:
    """Every edit of an existing deck: under the deck's row lock, refused while it is locked, checked as the
    whole deck it makes (bounds, lengths, title, status), written, and recorded as one revision."""
    deck = _deck_for_update(slug)
    _ensure_unlocked(deck)
    current = deck_data(deck)
    fields = _deck_fields(changes or {})
    changed, removed = changed or {}, set(removed)
    rows = {row.pk: row for row in deck.cards.all()}
    for card_id in [*changed, *removed]:
        if card_id not in rows:
            raise NotFound(f"The deck {deck.slug!r} has no card {card_id}.")
    for card_id, values in changed.items():
        _change_row(rows[card_id], values)
    kept = [row for card_id, row in rows.items() if card_id not in removed]
    new_cards = [_card(values) for values in added]
    try:
        proposed = replace(current, **fields, cards=(*(card_data(row) for row in kept), *new_cards))
    except (ValueError, TypeError) as error:  # a kind that is none, a card of no copies, stats that are not
        raise DomainError(str(error)) from error
    proposed = _with_effects(proposed)
    _check_values(proposed)
    # Checked after the edit itself, so a malformed edit is refused as such (400) whatever revision it names.
    _ensure_base(deck, base_revision)
    for row, card in zip(kept, proposed.cards, strict=False):
        row.effect = card.effect  # in its full JSON
    new_cards = list(proposed.cards[len(kept):])

    _save_fields(deck, proposed, fields)
    Card.objects.filter(pk__in=removed).delete()
    changed_rows = [rows[card_id] for card_id in changed]
    for row in changed_rows:
        row.save()
    last = max((row.position for row in rows.values()), default=-1)
    new_rows = [_card_row(deck, last + 1 + offset, card) for offset, card in enumerate(new_cards)]
    for row in new_rows:
        row.save()
    removed_rows = [rows[card_id] for card_id in removed]
    _record_revision(deck, author=author,
                     summary=summary or _edit_summary(fields, new_cards, changed_rows, removed_rows))
    return _Edited(deck=deck, added=new_rows, changed=changed_rows)


def _deck_fields(changes: Mapping[str, Any]) -> dict[str, Any]:
    """The deck's own fields among `changes`, as `DeckData` holds them; `special_rules` replaces the rules."""
    fields = {name: changes[name] for name in DECK_FIELDS if name in changes}
    if "designers" in fields:
        designers = fields["designers"]
        if not isinstance(designers, list | tuple) or not all(isinstance(name, str) for name in designers):
            raise DomainError("A deck's designers are a list of names.", details={"designers": ["A list of names."]})
        fields["designers"] = tuple(designers)
    if "special_rules" in changes:
        fields["special_rules"] = tuple(_special_rule(rule) for rule in changes["special_rules"])
    return fields


def _change_row(row: Card, values: Mapping[str, Any]) -> None:
    """A card's changed values onto its row (saved once the whole edit is checked). A new text that leaves
    `out_of_turn` unsaid decides it again, as a new card's text does."""
    fields = {name: values[name] for name in CARD_ROW_FIELDS if name in values}
    if "effect" in fields:
        checked_effect(fields["effect"])
    if "text" in fields and "out_of_turn" not in fields:
        fields["out_of_turn"] = plays_out_of_turn(fields["text"])
    for name, value in fields.items():
        setattr(row, name, value)


def _edit_summary(fields: dict[str, Any], added: list[CardData], changed: list[Card], removed: list[Card]) -> str:
    parts = [f"Changed {', '.join(sorted(fields))}"] if fields else []
    parts += [f"Added card {card.title!r}" for card in added]
    parts += [f"Changed card {row.title!r}" for row in changed]
    parts += [f"Removed card {row.title!r}" for row in removed]
    return "; ".join(parts) or "Changed nothing"


def _save_fields(deck: Deck, data: DeckData, fields: dict[str, Any]) -> None:
    # Cards keep their rows (and ids); only what changed is written.
    for name in DECK_FIELDS:
        if name in fields:
            setattr(deck, name, list(fields[name]) if name == "designers" else fields[name])
    if "players" in fields:
        _set_player_range(deck)
    deck.save()
    if "special_rules" in fields:
        _write_special_rules(deck, data.special_rules)


@transaction.atomic
def deck_delete(*, slug: str, actor: Any) -> None:
    _ensure_curator(actor, "delete decks")
    deck = _deck_for_update(slug)
    _ensure_unlocked(deck)
    deck.delete()


def _set_locked(*, slug: str, actor: Any, locked: bool) -> Deck:
    _ensure_curator(actor, "lock and unlock decks")
    deck = _deck_for_update(slug)
    if deck.locked == locked:
        return deck
    deck.locked = locked
    deck.save(update_fields=["locked", "updated_at"])
    _record_revision(deck, author=actor, summary="Locked" if locked else "Unlocked",
                     kind=signals.LOCK if locked else signals.UNLOCK)
    return deck


@transaction.atomic
def deck_lock(*, slug: str, actor: Any) -> Deck:
    return _set_locked(slug=slug, actor=actor, locked=True)


@transaction.atomic
def deck_unlock(*, slug: str, actor: Any) -> Deck:
    return _set_locked(slug=slug, actor=actor, locked=False)


@transaction.atomic
def card_add(*, slug: str, author: Any, card: CardData, summary: str = "") -> Card:
    return _edit(slug=slug, author=author, added=[card.to_dict()], summary=summary).added[0]


@transaction.atomic
def card_update(*, slug: str, card_id: int, author: Any, changes: dict[str, Any], summary: str = "") -> Card:
    return _edit(slug=slug, author=author, changed={card_id: changes}, summary=summary).changed[0]


@transaction.atomic
def card_delete(*, slug: str, card_id: int, author: Any, summary: str = "") -> None:
    _edit(slug=slug, author=author, removed=[card_id], summary=summary)


@transaction.atomic
def deck_import(
    *, author: Any, text: str, format: str, slug: str | None = None, skip_existing: bool = False
) -> list[Deck]:
    """Every deck in the text, or none: a malformed listing raises `invalid` naming its line.

    A deck whose slug is taken is a conflict, or with `skip_existing` left as it is (and not returned).

    The importer becomes the first revision's author. A listing's own lock is kept only when a curator
    (or the system, `author=None`) imports it, since only curators lock decks.
    """
    try:
        found = import_text(text, format)
    except ListingError as error:
        raise DomainError(str(error), details={"line": error.line, "format": format}) from error
    except UnknownFormatError as error:
        raise DomainError(str(error), details={"format": [str(error)]}) from error
    if not found:
        raise DomainError("The text holds no deck.", details={"line": 1})
    if slug:
        if len(found) > 1:
            raise DomainError(f"The text holds {len(found)} decks; a slug can name only one.")
        found = [replace(found[0], slug=slug)]
    if skip_existing:
        taken = set(Deck.objects.filter(slug__in=[data.slug for data in found]).values_list("slug", flat=True))
        found = [data for data in found if data.slug not in taken]
    keep_locks = author is None or is_curator(author)
    return [
        _create(
            author=author,
            data=data,
            summary=_import_summary(data, format),
            locked=data.locked and keep_locks,
        )
        for data in found
    ]


def _import_summary(data: DeckData, format: str) -> str:
    credit = f"; designed by {', '.join(data.designers)}" if data.designers else ""
    return f"Imported from {format}{credit}"


@transaction.atomic
def revision_restore(*, slug: str, number: int, author: Any) -> Deck:
    """The deck as revision `number` had it, saved as a new revision; the lock stays as it is now."""
    deck = _deck_for_update(slug)
    _ensure_unlocked(deck)
    old = _with_effects(revision_deck(revision_get(deck=deck, number=number)))
    _check_values(old)
    _write_deck(deck, old)
    _record_revision(deck, author=author, summary=f"Restored revision {number}")
    return deck


@transaction.atomic
def talk_post(*, slug: str, author: Any, body: str, reply_to: int | None = None) -> TalkPost:
    """A post on the talk page; open while the deck is locked. The body is kept exactly as written."""
    if _author(author) is None:
        raise Forbidden("Sign in to post on a talk page.")
    if not body.strip():
        raise DomainError("A post needs some text.", details={"body": ["This field may not be blank."]})
    deck = _deck_for_update(slug)
    parent = None
    if reply_to is not None:
        parent = deck.talk_posts.filter(pk=reply_to).first()
        if parent is None:
            raise NotFound(f"The talk page of {deck.slug!r} has no post {reply_to} to reply to.")
    post = TalkPost.objects.create(deck=deck, author=author, body=body, reply_to=parent)
    signals.deck_changed.send(sender=Deck, deck=deck, actor=author, kind=signals.TALK, summary=body[:300],
                              revision=deck.revision, post=post)
    return post


@transaction.atomic
def talk_hide(*, slug: str, post_id: int, actor: Any, reason: str) -> TalkPost:
    """A curator hides a post (spam, abuse): its text is no longer shown to anyone but curators, and who hid it,
    when and why is kept with it. Hiding a hidden post changes nothing."""
    _ensure_curator(actor, "hide talk posts")
    if not reason.strip():
        raise DomainError("Say why the post is hidden.", details={"reason": ["This field may not be blank."]})
    deck = _deck_for_update(slug)
    post = deck.talk_posts.filter(pk=post_id).first()
    if post is None:
        raise NotFound(f"The talk page of {deck.slug!r} has no post {post_id}.")
    if post.hidden_at is None:
        post.hidden_at = timezone.now()
        post.hidden_by = actor
        post.hidden_reason = reason.strip()[:300]
        post.save(update_fields=["hidden_at", "hidden_by", "hidden_reason"])
    return post


@transaction.atomic
def deck_replace_content(*, slug: str, author: Any, data: DeckData, summary: str) -> Deck:
    """Replace the deck's cards and Special Rules with `data`'s, as a new revision (a game's Aftermath).

    The deck keeps its own title, status and other fields; the designers gain whoever `data` credits.
    """
    deck = _deck_for_update(slug)
    _ensure_unlocked(deck)
    current = deck_data(deck)
    designers = tuple(dict.fromkeys((*current.designers, *data.designers)))
    updated = _with_effects(replace(current, designers=designers, special_rules=data.special_rules, cards=data.cards))
    _check_values(updated)
    _write_deck(deck, updated)
    _record_revision(deck, author=author, summary=summary)
    return deck


@dataclass(frozen=True)
class Confirmed:
    """What `deck_effects_confirm` confirmed: the card and Special Rule rows whose effect it set."""

    deck: Deck
    cards: list[Card]
    special_rules: list[SpecialRule]


@transaction.atomic
def deck_effects_confirm(*, slug: str, author: Any, cards: Sequence[int] | None = None,
                         special_rules: Sequence[int] | None = None, base_revision: int | None = None) -> Confirmed:
    """The reader's reading of each named card's and Special Rule's text becomes its confirmed effect, as one
    revision (none when nothing is confirmed). Named by id (`cards`, `special_rules`), a card or rule is confirmed
    with whatever the reader made of it, even in part; with neither given, every card and rule whose reading is
    understood in full and that has no confirmed effect yet. Refused as every edit is: a locked deck (423), an
    older `base_revision` (412), an id the deck does not have (404)."""
    deck = _deck_for_update(slug)
    _ensure_unlocked(deck)
    _ensure_base(deck, base_revision)
    card_rows = list(deck.cards.all())
    rule_rows = list(deck.special_rules.all())
    if cards is None and special_rules is None:
        chosen_cards = [row for row in card_rows if row.effect is None
                        and read_card(row.title, row.type, row.text).understood]
        chosen_rules = [row for row in rule_rows if row.effect is None
                        and read_special_rule(row.title, row.text).understood]
    else:
        chosen_cards = _named(card_rows, cards or (), f"The deck {deck.slug!r} has no card")
        chosen_rules = _named(rule_rows, special_rules or (), f"The deck {deck.slug!r} has no Special Rule")
    for row in chosen_cards:
        row.effect = to_json(read_card(row.title, row.type, row.text).effects)
    for row in chosen_rules:
        row.effect = to_json(read_special_rule(row.title, row.text).effects)
    if not chosen_cards and not chosen_rules:
        return Confirmed(deck=deck, cards=[], special_rules=[])
    chosen_rule_ids = {row.pk for row in chosen_rules}
    proposed = _with_effects(replace(deck_data(deck), special_rules=tuple(special_rule_data(row) for row in rule_rows),
                                     cards=tuple(card_data(row) for row in card_rows)))
    _check_values(proposed)
    for row, rule in zip(rule_rows, proposed.special_rules, strict=True):
        if row.pk in chosen_rule_ids:
            row.effect, row.params = rule.effect, rule.params
            row.save(update_fields=["effect", "params"])
    for row in chosen_cards:
        row.save(update_fields=["effect"])
    deck.save(update_fields=["updated_at"])
    names = [f"card {row.title!r}" for row in chosen_cards] + [f"Special Rule {str(row)!r}" for row in chosen_rules]
    _record_revision(deck, author=author, summary=f"Confirmed the effect of {', '.join(names)}")
    return Confirmed(deck=deck, cards=chosen_cards, special_rules=chosen_rules)


def _named(rows: list[Any], ids: Sequence[int], missing: str) -> list[Any]:
    by_id = {row.pk: row for row in rows}
    for row_id in ids:
        if row_id not in by_id:
            raise NotFound(f"{missing} {row_id}.")
    wanted = set(ids)
    return [row for row in rows if row.pk in wanted]
