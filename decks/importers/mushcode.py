"""MUSHcode as the Dvorak Engine reads it: `cleardeck`, then `loadcard Name/T/text` (or `newcard`) per card.

The format carries a card's title, Thing-or-Action, text and flavour; line breaks inside a text are `%r`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from decks.importers.errors import ListingError
from dvorak_core.deckdata import ACTION, THING, UNTITLED, CardData, DeckData, plays_out_of_turn, slugify

TYPE_LETTERS = {"T": THING, "A": ACTION}

# The name may itself hold slashes ("A/S/L?"): it ends at the first "/T/" or "/A/".
_CARD_LINE = re.compile(r"^(?P<command>loadcard|newcard)\s+(?P<title>.+?)/(?P<letter>[ATat])/(?P<text>.*)$")
_ESCAPE = re.compile(r"%(.)")
_FLAVOR = re.compile(r"^\((?P<flavor>.*)\)$")


def type_letter(card_type: str) -> str:
    """Only Things and Actions exist for the Engine; a deck's own types are played as Things."""
    return "A" if card_type == ACTION else "T"


def encode_text(text: str) -> str:
    return text.replace("%", "%%").replace("\n", "%r")


def decode_text(text: str) -> str:
    return _ESCAPE.sub(lambda match: "\n" if match[1] in "rR" else match[1], text)


def card_body(card: CardData) -> str:
    """The text field of a loadcard line: the card text, then its flavour on a line of its own in parentheses."""
    lines = [card.text] if card.text else []
    if card.flavor:
        lines.append(f"({card.flavor})")
    return encode_text("\n".join(lines))


def parse_mushcode(text: str) -> list[DeckData]:
    cards: list[CardData] = []
    saw_command = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("@@"):
            continue
        saw_command = True
        if line.lower() == "cleardeck":
            cards = []
            continue
        match = _CARD_LINE.match(line)
        if not match:
            raise ListingError(
                "Expected `cleardeck` or `loadcard Name/T/text` (T for a Thing, A for an Action).", number
            )
        cards.append(_card(match))
    if not saw_command:
        raise ListingError("The MUSHcode is empty.", 1)
    return [DeckData(slug=slugify(UNTITLED), title=UNTITLED, cards=_merge_copies(cards))]


def _card(match: re.Match[str]) -> CardData:
    lines = decode_text(match["text"]).split("\n")
    flavor = ""
    flavor_match = _FLAVOR.match(lines[-1])
    if flavor_match:
        flavor, lines = flavor_match["flavor"], lines[:-1]
    text = "\n".join(lines)
    return CardData(
        title=match["title"].strip(),
        type=TYPE_LETTERS[match["letter"].upper()],
        text=text,
        flavor=flavor,
        out_of_turn=plays_out_of_turn(text),
    )


def _merge_copies(cards: list[CardData]) -> tuple[CardData, ...]:
    """MUSHcode repeats a line per copy; the deck lists each card once with its number of copies."""
    merged: dict[tuple[str, str, str, str], CardData] = {}
    for card in cards:
        key = (card.title, card.type, card.text, card.flavor)
        earlier = merged.get(key)
        merged[key] = replace(earlier, copies=earlier.copies + 1) if earlier else card
    return tuple(merged.values())
