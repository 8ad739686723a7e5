"""`manage.py effect_coverage`: how much of the archive's card text the effect reader understands.

For each deck: the share of its cards, and of its Special Rules, whose text is read in full into the card-effect
language (``dvorak_core.effects``); then the unread phrases most common across the archive, which are what to
teach the reader next. A card or Special Rule whose effect a curator confirmed counts as understood (the server
knows what it does), whatever the reader makes of its text, and how many were confirmed is shown beside.

A Special Rule the reader does not understand may still be **carried out by the deck's ruleset**: most of a game's
Special Rules are its whole procedure (setup, turns, scoring, winning), which the game's own ruleset module
implements and lists (``Ruleset.special_rules_carried``). Those are counted apart, never as understood: the
engine follows them by its own code, not by an effect. Their phrases are still counted among the unread: the deck
may be played as a Dvorak game, where its Special Rules are in effect throughout and the reader must read them.
A Special Rule not understood that names a Basic Rule number (``dvorak_core.rule_params.named_numbers``) is counted
too (``special_rules_suspending``, the numbers in ``unenforced``): a Dvorak game of the deck does not enforce them.
Reads the archive only."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from decks import selectors
from dvorak_core.effects import read_card, read_special_rule
from dvorak_core.errors import DomainError, NotFound
from dvorak_core.rule_params import ENFORCED_NUMBERS, named_numbers
from dvorak_engine.rulesets import get_ruleset


def _carries(ruleset: str) -> Any:
    """The test whether the ruleset named ``ruleset`` carries out a Special Rule's text (never, when unknown)."""
    try:
        return get_ruleset(ruleset).carries_special_rule
    except DomainError:
        return lambda text: False


def coverage(decks: list[Any]) -> dict[str, Any]:
    """The coverage figures of ``decks`` (DeckData): per deck, in total, and the unread phrases by count."""
    rows = []
    unread: Counter[str] = Counter()
    total_cards = total_read = total_rules = total_rules_read = total_confirmed = total_rules_confirmed = 0
    total_rules_carried = total_rules_suspending = 0
    for deck in decks:
        cards_read = cards_confirmed = 0
        for card in deck.cards:
            if card.effect is not None:
                cards_read += 1
                cards_confirmed += 1
                continue
            reading = read_card(card.title, card.type, card.text)
            cards_read += reading.understood
            unread.update(reading.unread)
        rules_read = rules_confirmed = rules_carried = rules_suspending = 0
        suspended: set[str] = set()
        carries = _carries(deck.ruleset)
        for rule in deck.special_rules:
            if rule.effect is not None:
                rules_read += 1
                rules_confirmed += 1
                continue
            reading = read_special_rule(rule.title, rule.text)
            if reading.understood:
                rules_read += 1
                continue
            if carries(rule.text):
                rules_carried += 1  # the ruleset's own code follows it ...
            # ... but a Dvorak game of the deck, where Special Rules are in effect throughout, reads it too: its
            # phrases are still the reader's to learn, and a Basic Rule number it names goes unenforced there.
            unread.update(reading.unread)
            named = named_numbers(rule.text)
            if named:
                rules_suspending += 1
                suspended.update(named)
        rows.append({
            "slug": deck.slug, "ruleset": deck.ruleset,
            "cards": len(deck.cards), "cards_understood": cards_read, "cards_confirmed": cards_confirmed,
            "cards_share": _share(cards_read, len(deck.cards)),
            "special_rules": len(deck.special_rules), "special_rules_understood": rules_read,
            "special_rules_confirmed": rules_confirmed,
            "special_rules_share": _share(rules_read, len(deck.special_rules)),
            "special_rules_carried": rules_carried,
            "special_rules_carried_share": _share(rules_carried, len(deck.special_rules)),
            "special_rules_suspending": rules_suspending,
            "unenforced": [param for param in ENFORCED_NUMBERS if param in suspended],
        })
        total_rules_suspending += rules_suspending
        total_cards += len(deck.cards)
        total_read += cards_read
        total_confirmed += cards_confirmed
        total_rules += len(deck.special_rules)
        total_rules_read += rules_read
        total_rules_confirmed += rules_confirmed
        total_rules_carried += rules_carried
    return {
        "decks": rows,
        "total": {"cards": total_cards, "cards_understood": total_read, "cards_confirmed": total_confirmed,
                  "cards_share": _share(total_read, total_cards),
                  "special_rules": total_rules, "special_rules_understood": total_rules_read,
                  "special_rules_confirmed": total_rules_confirmed,
                  "special_rules_share": _share(total_rules_read, total_rules),
                  "special_rules_carried": total_rules_carried,
                  "special_rules_carried_share": _share(total_rules_carried, total_rules),
                  "special_rules_suspending": total_rules_suspending},
        "unread": [{"phrase": phrase, "count": count} for phrase, count in
                   sorted(unread.items(), key=lambda item: (-item[1], item[0]))],
    }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _percent(share: float | None) -> str:
    return "   -" if share is None else f"{share * 100:3.0f}%"


class Command(BaseCommand):
    help = ("Print, per deck of the archive, the share of cards and Special Rules whose effect the card-effect "
            "reader understands, the Special Rules its ruleset carries out instead, and the unread phrases most "
            "common across the archive.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--deck", metavar="SLUG", help="Only this deck.")
        parser.add_argument("--top", type=int, default=20, metavar="N",
                            help="How many of the most common unread phrases to print (default 20).")
        parser.add_argument("--json", action="store_true", help="Print the figures as JSON.")

    def handle(self, *args, **options) -> None:
        if options["top"] < 0:
            raise CommandError("--top is a whole number from 0.")
        if options["deck"]:
            try:
                decks = [selectors.deck_data(selectors.deck_get(slug=options["deck"]))]
            except NotFound as missing:
                raise CommandError(missing.message) from None
        else:
            decks = [selectors.deck_data(deck) for deck in
                     selectors.deck_list().prefetch_related("cards", "special_rules").order_by("slug")]
        figures = coverage(decks)
        figures["unread"] = figures["unread"][: options["top"]]
        if options["json"]:
            self.stdout.write(json.dumps(figures, indent=2))
            return
        width = max([len(row["slug"]) for row in figures["decks"]] + [5])
        self.stdout.write(f"{'deck'.ljust(width)}  {'ruleset':<28} {'cards':>12}  {'special rules':<15}"
                          f"{'carried by ruleset':<19}confirmed")
        for row in [*figures["decks"], {"slug": "total", "ruleset": "", **figures["total"]}]:
            self.stdout.write(
                f"{row['slug'].ljust(width)}  {row['ruleset']:<28} "
                f"{row['cards_understood']:>3}/{row['cards']:<3} {_percent(row['cards_share'])}  "
                f"{row['special_rules_understood']:>3}/{row['special_rules']:<3} "
                f"{_percent(row['special_rules_share'])}   "
                f"{row['special_rules_carried']:>3}/{row['special_rules']:<3} "
                f"{_percent(row['special_rules_carried_share'])}       "
                f"{row['cards_confirmed']} card(s), {row['special_rules_confirmed']} rule(s)")
        self.stdout.write("")
        self.stdout.write("special rules: understood by the reader (or confirmed); carried by ruleset: not understood, "
                          "but a procedure the deck's ruleset module carries out by its own code.")
        suspending = [row for row in figures["decks"] if row["special_rules_suspending"]]
        if suspending:
            self.stdout.write("")
            self.stdout.write("Special Rules not understood that name a Basic Rule number (a Dvorak game of the deck "
                              "leaves it to the players: \"unenforced\"):")
            for row in suspending:
                self.stdout.write(f"{row['special_rules_suspending']:>4}  {row['slug']}: {', '.join(row['unenforced'])}")
        if figures["unread"]:
            self.stdout.write("")
            self.stdout.write(f"Most common unread phrases (top {len(figures['unread'])}):")
            for item in figures["unread"]:
                self.stdout.write(f"{item['count']:>4}  {item['phrase']}")
