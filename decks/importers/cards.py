"""Reading cards out of listing lines, in the shapes the archive's listings use."""

from __future__ import annotations

import re
from typing import NamedTuple

from decks.importers.errors import ListingError
from dvorak_core.deckdata import THING, CardData, plays_out_of_turn


class Line(NamedTuple):
    number: int
    text: str


# "Tack Center (x4)", "John Smith (4 copies)", "Viral Post (1 copy)"
_COPIES = re.compile(
    r"^(?P<title>.*?)\s*\((?:x\s*(?P<times>\d+)|(?P<count>\d+)\s+cop(?:y|ies))\)$", re.IGNORECASE
)
_STAT = re.compile(r"([A-Za-z]+)\s*(-?\d+)")
_STATS_LINE = re.compile(r"^(?:[A-Za-z]+\s*-?\d+\s*)+$")
_CORNER_VALUE = re.compile(r"^-?\d+$")
# A card's type is one capitalised word: Thing, Action, or the deck's own (Soldier, Style, Campaign...).
_TYPE = re.compile(r"^[A-Z][a-z]+$")
# Socialism marks a card without text this way; the card itself is blank.
_NO_TEXT = "(no text)"
_QUOTES = ('"', "\u201c")


def is_type_line(text: str) -> bool:
    return bool(_TYPE.match(text.strip()))


def title_and_copies(line: Line) -> tuple[str, int]:
    match = _COPIES.match(line.text.strip())
    if not match:
        return line.text.strip(), 1
    copies = int(match["times"] or match["count"])
    if copies < 1:
        raise ListingError(
            f"{match['title']!r} is listed with {copies} copies; a card has at least one.", line.number
        )
    return match["title"], copies


def parse_stats(text: str) -> dict[str, int] | None:
    """ "Shoot1 Endure1 React2 Move1" as {"Shoot": 1, ...}; None when the line is not a row of stats."""
    if not _STATS_LINE.match(text.strip()):
        return None
    return {name: int(value) for name, value in _STAT.findall(text)}


def make_card(
    title_line: Line,
    text_lines: list[Line],
    *,
    card_type: str = THING,
    corner_value: str = "",
    stats: dict[str, int] | None = None,
) -> CardData:
    title, copies = title_and_copies(title_line)
    if not title:
        raise ListingError("A card needs a title.", title_line.number)
    flavor, text_lines = _split_flavor(text_lines)
    text = "\n".join(line.text.strip() for line in text_lines)
    if text == _NO_TEXT:
        text = ""
    return CardData(
        title=title,
        type=card_type,
        text=text,
        flavor=flavor,
        copies=copies,
        corner_value=corner_value,
        stats=stats or {},
        out_of_turn=plays_out_of_turn(text),
    )


def _split_flavor(text_lines: list[Line]) -> tuple[str, list[Line]]:
    # A quotation above the card's effect is its flavour text (Article II's campaign quotes).
    if len(text_lines) > 1 and text_lines[0].text.strip().startswith(_QUOTES):
        return text_lines[0].text.strip(), text_lines[1:]
    return "", text_lines


def parse_card_block(block: list[Line], card_type: str) -> CardData:
    """One blank-separated block: title, an optional type line, an optional quotation, then the text."""
    title_line, rest = block[0], block[1:]
    if rest and is_type_line(rest[0].text):
        card_type, rest = rest[0].text.strip(), rest[1:]
    return make_card(title_line, rest, card_type=card_type)


def parse_card_lines(lines: list[Line]) -> list[CardData]:
    """A card list without blank lines between cards, as the wiki page shows it.

    Either each card is "[corner value] title, type, [stats], text lines", or (when no line is a type) each
    card is a title line followed by one line of text.
    """
    lines = [line for line in lines if line.text.strip()]
    starts = _typed_card_starts(lines)
    if not starts:
        return _title_text_pairs(lines)
    if starts[0][0] != 0:
        raise ListingError("Expected a card: a title line, then its type.", lines[0].number)
    cards = []
    ends = [index for index, _ in starts[1:]] + [len(lines)]
    for (start, has_corner), end in zip(starts, ends, strict=True):
        cards.append(_typed_card(lines[start:end], has_corner))
    return cards


def _typed_card_starts(lines: list[Line]) -> list[tuple[int, bool]]:
    starts: list[tuple[int, bool]] = []
    index = 0
    while index < len(lines):
        if _is_corner_start(lines, index):
            starts.append((index, True))
            index += 3
        elif index + 1 < len(lines) and is_type_line(lines[index + 1].text):
            starts.append((index, False))
            index += 2
        else:
            index += 1
    return starts


def _is_corner_start(lines: list[Line], index: int) -> bool:
    return (
        index + 2 < len(lines)
        and bool(_CORNER_VALUE.match(lines[index].text.strip()))
        and is_type_line(lines[index + 2].text)
    )


def _typed_card(lines: list[Line], has_corner: bool) -> CardData:
    corner_value = lines[0].text.strip() if has_corner else ""
    if has_corner:
        lines = lines[1:]
    title_line, type_line, rest = lines[0], lines[1], lines[2:]
    stats = parse_stats(rest[0].text) if rest else None
    if stats is not None:
        rest = rest[1:]
    return make_card(
        title_line, rest, card_type=type_line.text.strip(), corner_value=corner_value, stats=stats
    )


def _title_text_pairs(lines: list[Line]) -> list[CardData]:
    if len(lines) % 2:
        raise ListingError(
            f"The card {lines[-1].text.strip()!r} has no text: each card is a title line followed by its text.",
            lines[-1].number,
        )
    return [make_card(lines[index], [lines[index + 1]]) for index in range(0, len(lines), 2)]
