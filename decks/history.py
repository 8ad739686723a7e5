"""Wiki history as text: a readable rendering of a deck, the unified diff between two of its revisions, and the
word-level diff the history pages show side by side."""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass

from dvorak_core.deckdata import CardData, DeckData


def render_text(deck: DeckData) -> str:
    """The deck as a person reads it, one fact per line, so a diff shows what changed and nothing else."""
    lines = [
        f"Title: {deck.title}",
        f"Kind: {deck.kind}",
        f"Designers: {', '.join(deck.designers)}",
        f"Date: {deck.date}",
        f"Players: {deck.players}",
        f"Status: {deck.status or 'uncategorised'}",
        f"Ruleset: {deck.ruleset}",
        f"Locked: {'yes' if deck.locked else 'no'}",
    ]
    if deck.description:
        lines += ["", "Description:", *deck.description.splitlines()]
    lines += ["", "== Special Rules =="]
    for rule in deck.special_rules:
        lines += ["", f"--- {rule.title or '(untitled)'}", *rule.text.splitlines()]
    lines += ["", f"== Cards ({deck.card_count}) =="]
    for card in deck.cards:
        lines += ["", *_card_lines(card)]
    return "\n".join(lines) + "\n"


def _card_lines(card: CardData) -> list[str]:
    heading = f"{card.title} (x{card.copies}) [{card.type}]"
    if card.corner_value:
        heading += f" corner {card.corner_value}"
    lines = [heading]
    if card.stats:
        lines.append(" ".join(f"{name} {value}" for name, value in card.stats.items()))
    lines += card.text.splitlines()
    if card.flavor:
        lines += [f"  {line}" for line in card.flavor.splitlines()]
    if card.creator:
        lines.append(f"Created by {card.creator}")
    return lines


def unified_diff(old: DeckData, new: DeckData, *, old_label: str, new_label: str) -> str:
    return "".join(
        difflib.unified_diff(
            render_text(old).splitlines(keepends=True),
            render_text(new).splitlines(keepends=True),
            fromfile=old_label,
            tofile=new_label,
        )
    )


# --- word-level, side-by-side diffs for the history pages -----------------------------------------------------

_WORDS = re.compile(r"\s+|[^\s]+")


@dataclass(frozen=True)
class DiffSection:
    """One part of the deck compared (its fields, its Special Rules, one card): `status` is `added`, `removed`,
    `changed` or `same`; `old_html` and `new_html` are escaped text with `<del>`/`<ins>` around changed words."""

    label: str
    status: str
    old_html: str
    new_html: str


def word_diff(old: str, new: str) -> tuple[str, str]:
    """The two texts as escaped HTML: words only in `old` inside `<del>`, words only in `new` inside `<ins>`."""
    a, b = _WORDS.findall(old), _WORDS.findall(new)
    left: list[str] = []
    right: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        gone, came = html.escape("".join(a[i1:i2])), html.escape("".join(b[j1:j2]))
        if op == "equal":
            left.append(gone)
            right.append(came)
            continue
        left.append(_marked("del", gone))
        right.append(_marked("ins", came))
    return "".join(left), "".join(right)


def _marked(tag: str, text: str) -> str:
    # The spaces around a changed run stay unmarked, so only the words themselves are struck out or underlined.
    words = text.strip()
    if not words:
        return text
    start = text.index(words)
    return f"{text[:start]}<{tag}>{words}</{tag}>{text[start + len(words):]}"


def _fields_text(deck: DeckData) -> str:
    return "\n".join(render_text(deck).split("\n== Special Rules ==", 1)[0].splitlines()) + "\n"


def _rules_text(deck: DeckData) -> str:
    return "\n\n".join(f"{rule.title or '(untitled)'}\n{rule.text}" for rule in deck.special_rules)


def _section(label: str, old: str | None, new: str | None) -> DiffSection:
    if old is None:
        return DiffSection(label, "added", "", f"<ins>{html.escape(new or '')}</ins>")
    if new is None:
        return DiffSection(label, "removed", f"<del>{html.escape(old)}</del>", "")
    if old == new:  # most of a deck's cards, between two revisions: nothing to match word by word
        same = html.escape(old)
        return DiffSection(label, "same", same, same)
    left, right = word_diff(old, new)
    return DiffSection(label, "changed", left, right)


def _keyed_cards(deck: DeckData) -> dict[tuple[str, int], str]:
    """Each card's text, keyed by its title and which card of that title it is, in the deck's order."""
    seen: dict[str, int] = {}
    keyed: dict[tuple[str, int], str] = {}
    for card in deck.cards:
        nth = seen[card.title] = seen.get(card.title, 0) + 1
        keyed[(card.title, nth)] = "\n".join(_card_lines(card))
    return keyed


def deck_word_diff(old: DeckData, new: DeckData) -> list[DiffSection]:
    """The deck's fields, its Special Rules and every card, each compared word by word; a card is matched by its
    title, so a card renamed shows as one removed and one added."""
    sections = [_section("Deck", _fields_text(old), _fields_text(new)),
                _section("Special Rules", _rules_text(old), _rules_text(new))]
    before, after = _keyed_cards(old), _keyed_cards(new)
    for key in [*after, *(key for key in before if key not in after)]:
        title, nth = key
        label = f"Card: {title}" + (f" ({nth})" if nth > 1 else "")
        sections.append(_section(label, before.get(key), after.get(key)))
    return sections
