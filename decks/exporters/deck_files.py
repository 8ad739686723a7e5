"""Deck files of the card-game table programs: Cockatrice `.cod` and OCTGN `.o8d`, written and (`.cod`) read.

A Cockatrice deck names its cards; an OCTGN deck gives each card an id, here a UUID derived from the card set's
slug and the card's id in the set, so the same card has the same id in every export. Reading goes through
`defusedxml`: a file that declares entities (the "billion laughs", external entities) is refused, not expanded.
"""

from __future__ import annotations

import uuid
from xml.etree.ElementTree import Element, SubElement, tostring

import defusedxml.ElementTree as safe_xml
from defusedxml import DefusedXmlException

from dvorak_core.deckdata import DeckData
from dvorak_core.errors import DomainError

# The namespace of every id these files carry: uuid5(NAMESPACE_URL, "dvorak") and names beneath it.
DVORAK_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "dvorak")
MAX_DECK_FILE_CHARS = 1_000_000
MAX_ENTRIES = 2000


def card_uuid(card_set: str, card_id: int) -> str:
    return str(uuid.uuid5(DVORAK_NAMESPACE, f"{card_set}/{card_id}"))


def game_uuid(card_set: str) -> str:
    return str(uuid.uuid5(DVORAK_NAMESPACE, card_set))


def _xml(root: Element) -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="unicode") + "\n"


def cockatrice_deck(name: str, comments: str, cards: list[tuple[str, int]]) -> str:
    """`cards`: (name, copies), in order; the main zone holds them all."""
    root = Element("cockatrice_deck", version="1")
    SubElement(root, "deckname").text = name
    SubElement(root, "comments").text = comments
    zone = SubElement(root, "zone", name="main")
    for title, copies in cards:
        SubElement(zone, "card", number=str(copies), name=title)
    return _xml(root)


def octgn_deck(game: str, section: str, cards: list[tuple[str, str, int]]) -> str:
    """`cards`: (id, name, copies), in order, in one section."""
    root = Element("deck", game=game)
    part = SubElement(root, "section", name=section, shared="False")
    for card_id, title, copies in cards:
        SubElement(part, "card", qty=str(copies), id=card_id).text = title
    return _xml(root)


def export_cockatrice(deck: DeckData) -> str:
    """An archive deck as a Cockatrice deck: its cards by title and copies; its Special Rules in the comments."""
    comments = "\n\n".join(f"{rule.title}: {rule.text}" if rule.title else rule.text for rule in deck.special_rules)
    return cockatrice_deck(deck.title, comments, [(card.title, card.copies) for card in deck.cards])


def parse_cockatrice(text: str) -> tuple[str, list[tuple[str, int]]]:
    """(deck name, [(card name, copies)]) from a `.cod` file, the copies of a name listed twice added up; every
    zone counts (a side board is part of the deck here). Raises `DomainError` (400) for anything else."""
    if len(text) > MAX_DECK_FILE_CHARS:
        raise DomainError(f"A deck file has at most {MAX_DECK_FILE_CHARS} characters.",
                          details={"text": ["too long"]})
    try:
        root = safe_xml.fromstring(text, forbid_dtd=True)
    except DefusedXmlException as error:
        raise DomainError("The deck file declares a DTD or entities, which are not accepted.",
                          details={"text": [type(error).__name__]}) from None
    except (safe_xml.ParseError, ValueError) as error:
        raise DomainError(f"The deck file is not well-formed XML: {error}.", details={"text": [str(error)]}) from None
    if root.tag != "cockatrice_deck":
        raise DomainError("The deck file is not a Cockatrice deck (its root is not <cockatrice_deck>).",
                          details={"text": [f"root <{root.tag}>"]})
    name = (root.findtext("deckname") or "").strip()
    counts: dict[str, int] = {}
    cards = root.findall("zone/card")
    if len(cards) > MAX_ENTRIES:
        raise DomainError(f"A deck file lists at most {MAX_ENTRIES} cards.", details={"text": ["too many cards"]})
    problems = []
    for card in cards:
        title, number = (card.get("name") or "").strip(), (card.get("number") or "").strip()
        if not title or not number.isdigit() or not number.isascii() or int(number) < 1:
            problems.append(f"<card number={number!r} name={title!r}>: a name and a number of 1 or more")
            continue
        counts[title] = counts.get(title, 0) + int(number)
    if problems:
        raise DomainError("Some cards of the deck file are not valid.", details={"text": problems})
    return name, list(counts.items())
