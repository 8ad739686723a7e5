"""Wiki history as text: a readable rendering of a deck and the unified diff between two of its revisions."""

from __future__ import annotations

import difflib

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
