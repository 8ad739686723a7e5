"""The wiki's own markup, as a curator copies it from the old wiki's edit box.

An `{{Infobox ...}}` gives the header, `== Special Rules ==` and `== Card List ==` the sections, and each card
is a `{{card|title=...|type=...|text=...|cornervalue=...|flavortext=...|creator=...}}` template.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from decks.importers.cards import parse_stats
from decks.importers.errors import ListingError
from dvorak_core.deckdata import (
    CARD_SET,
    DECK,
    STATUSES,
    THING,
    UNTITLED,
    CardData,
    DeckData,
    SpecialRuleData,
    plays_out_of_turn,
    slugify,
)
from dvorak_engine.rulesets import ruleset_for_title

# Markup's templates and headings stand at the start of their lines; a page copied from the browser can still
# quote "{{Infobox" inside a line (its revision line shows the edit summary), so `{{` anywhere proves nothing.
_MARKUP_LINE = re.compile(r"^\s*(\{\{\s*(card|infobox)\b|=+[^=].*=+\s*$)", re.IGNORECASE | re.MULTILINE)
_HEADING = re.compile(r"^(=+)\s*(?P<title>.+?)\s*\1$")
_LINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]")
_CATEGORY = re.compile(r"\[\[Category:[^\]]*\]\]", re.IGNORECASE)
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_DESIGNER_FIELDS = ("designer", *(f"designer{number}" for number in range(2, 8)))
_STATUS_BY_NAME = {status.lower(): status for status in STATUSES}


def looks_like_markup(text: str) -> bool:
    return bool(_MARKUP_LINE.search(text))


@dataclass(frozen=True)
class _Template:
    name: str
    params: dict[str, str]
    line: int


def parse_markup(text: str) -> list[DeckData]:
    templates, prose = _split_templates(text)
    infobox = next((template for template in templates if template.name.startswith("infobox")), None)
    fields = infobox.params if infobox else {}
    title = _clean(fields.get("title", "")) or UNTITLED
    status = _STATUS_BY_NAME.get(fields.get("status", "").strip().lower(), fields.get("status", "").strip())
    description, special_rules, card_list = _sections(prose)
    cards = tuple(_card(template) for template in templates if template.name == "card")
    if card_list is not None and not cards:
        raise ListingError("The Card List has no {{card}} in it.", card_list)
    return [
        DeckData(
            slug=slugify(title),
            title=title,
            kind=CARD_SET if status == "CCG set" else DECK,
            designers=tuple(
                _clean(fields[name]) for name in _DESIGNER_FIELDS if fields.get(name, "").strip()
            ),
            date=_clean(fields.get("date", "")),
            players=_clean(fields.get("players", "")),
            status=status,
            # The infobox's "unlocked" left blank means the page shows "This deck is locked".
            locked=infobox is not None and fields.get("unlocked", "").strip().lower() != "true",
            ruleset=ruleset_for_title(title),
            description=description,
            special_rules=special_rules,
            cards=cards,
        )
    ]


def _split_templates(text: str) -> tuple[list[_Template], str]:
    """The templates, and the text around them with each template blanked out (its line breaks kept)."""
    templates: list[_Template] = []
    prose: list[str] = []
    position = 0
    while (start := text.find("{{", position)) != -1:
        line = text.count("\n", 0, start) + 1
        end = _closing(text, start)
        if end is None:
            raise ListingError("This template is never closed with }}.", line)
        templates.append(_template(text[start + 2 : end - 2], line))
        prose.append(text[position:start] + "\n" * text.count("\n", start, end))
        position = end
    prose.append(text[position:])
    return templates, "".join(prose)


def _closing(text: str, start: int) -> int | None:
    depth = 0
    index = start
    while index < len(text):
        pair = text[index : index + 2]
        if pair == "{{":
            depth += 1
            index += 2
        elif pair == "}}":
            depth -= 1
            index += 2
            if depth == 0:
                return index
        else:
            index += 1
    return None


def _template(body: str, line: int) -> _Template:
    name, *parts = _split_top_level(body)
    params: dict[str, str] = {}
    for part in parts:
        key, equals, value = part.partition("=")
        if equals:
            params[key.strip().lower()] = value.strip()
    return _Template(name.strip().lower(), params, line)


def _split_top_level(body: str) -> list[str]:
    """Splits at "|" except inside nested templates and [[links|labels]]."""
    parts, current, depth, index = [], [], 0, 0
    while index < len(body):
        pair = body[index : index + 2]
        if pair in ("{{", "[["):
            depth += 1
            current.append(pair)
            index += 2
        elif pair in ("}}", "]]"):
            depth -= 1
            current.append(pair)
            index += 2
        elif body[index] == "|" and depth == 0:
            parts.append("".join(current))
            current = []
            index += 1
        else:
            current.append(body[index])
            index += 1
    parts.append("".join(current))
    return parts


def _clean(value: str) -> str:
    """Wiki text as a reader sees it: links as their labels, no bold or italic quotes, <br> as a line break."""
    value = _CATEGORY.sub("", value)
    value = _LINK.sub(r"\1", value)
    value = _LINE_BREAK.sub("\n", value)
    value = value.replace("'''", "").replace("''", "")
    return "\n".join(line.strip() for line in html.unescape(value).strip().splitlines())


def _card(template: _Template) -> CardData:
    params = template.params
    title = _clean(params.get("title", ""))
    if not title:
        raise ListingError("This {{card}} has no title=.", template.line)
    text = _clean(params.get("text", ""))
    stats = parse_stats(params.get("stats", "")) if params.get("stats") else {}
    if stats is None:
        raise ListingError(f"The stats of {title!r} should read like 'Shoot1 Endure1'.", template.line)
    copies = params.get("copies", "1").strip()
    if not copies.isdigit() or int(copies) < 1:
        raise ListingError(f"The copies= of {title!r} should be a whole number, at least 1.", template.line)
    return CardData(
        title=title,
        type=_clean(params.get("type", "")) or THING,
        text=text,
        flavor=_clean(params.get("flavortext", "")),
        copies=int(copies),
        corner_value=_clean(params.get("cornervalue", "")),
        creator=_clean(params.get("creator", "")),
        stats=stats,
        out_of_turn=plays_out_of_turn(text),
    )


def _sections(prose: str) -> tuple[str, tuple[SpecialRuleData, ...], int | None]:
    """The description (before any heading), the Special Rules (under it and its sub-headings), and the line
    of the Card List heading (None without one)."""
    description: list[str] = []
    rules: list[tuple[str, list[str]]] = []
    in_rules = False
    card_list: int | None = None
    for number, line in enumerate(prose.splitlines(), start=1):
        heading = _HEADING.match(line.strip())
        name = _clean(heading["title"]) if heading else ""
        if heading and name.lower() == "special rules":
            in_rules = True
            rules.append(("", []))
        elif heading and name.lower() == "card list":
            in_rules = False
            card_list = card_list or number
        elif heading and (in_rules or rules):
            # Sections after the Special Rules ("Notes", "Variation") are rules too, under their own titles.
            in_rules = True
            rules.append((name, []))
        elif in_rules:
            rules[-1][1].append(line)
        else:
            description.append(line)
    special_rules = tuple(
        SpecialRuleData(title, _paragraphs(lines)) for title, lines in rules if _paragraphs(lines)
    )
    return _paragraphs(description), special_rules, card_list


def _paragraphs(lines: list[str]) -> str:
    text = _clean("\n".join(lines))
    return "\n\n".join(paragraph.strip() for paragraph in re.split(r"\n\s*\n", text) if paragraph.strip())
