"""The wiki listing: a deck archive page (or a blog post of several games) as a curator copies its text.

Two layouts occur. A wiki page has a header (Designer, Date, Players, the category and lock notices), then
"Special Rules" and "Card List". A blog post has no header: each game starts at its title line, its rules
run under short headings, and its cards follow a "Cards" heading, one blank-separated block per card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from decks.importers.cards import Line, parse_card_block, parse_card_lines
from decks.importers.errors import ListingError
from dvorak_core.deckdata import (
    CARD_SET,
    DECK,
    THING,
    UNCATEGORISED,
    CardData,
    DeckData,
    SpecialRuleData,
    slugify,
)
from dvorak_engine.rulesets import ruleset_for_title

_PAGE_BOILERPLATE = re.compile(
    r"^(From Dvorak - A Blank-Card Game|Revision as of |\(diff\)|Jump to navigation|To play Dvorak:|< |\S+\.gif\b)"
)
_HEADER_FIELD = re.compile(r"^(Designers?|Date|Players)\s+(.+)$")
_STATUS_NOTICE = re.compile(
    r"^This is an? (unfinished|untested|playable|nomic|CCG set|CCG deck)\b", re.IGNORECASE
)
_STATUSES_BY_WORD = {
    "unfinished": "unfinished",
    "untested": "untested",
    "playable": "playable",
    "nomic": "nomic",
    "ccg set": "CCG set",
    "ccg deck": "CCG deck",
}
_LOCKED_NOTICE = "This deck is locked"
_OPEN_NOTICE = re.compile(r"^This deck is .*under construction")
_UNCATEGORISED_NOTICE = "This deck has not been categorised"
_SPECIAL_RULES_HEADING = "Special Rules"
_CARD_LIST_HEADING = re.compile(r"^(cards|card list):?$", re.IGNORECASE)
_PLAYERS_LINE = re.compile(r"^(\S+)\s+players$", re.IGNORECASE)
_NUMBERED_STEP = re.compile(r"^\d+[.)]\s")
_DESIGNER_SEPARATOR = re.compile(r"\s*,\s*|\s+and\s+|\s*&\s*")
# "Updated Rules: Virtues of the Drake" adds to a game listed earlier in the same post.
_ADDENDUM = re.compile(r"^(?P<rule>[^:]+):\s*(?P<game>.+)$")


def looks_like_page(text: str) -> bool:
    # A blog post's sentence may start "Players ..."; the wiki's own lines and "Designer" mark a page.
    return any(
        _PAGE_BOILERPLATE.match(line) or line.startswith("Designer ") for line in text.splitlines()[:20]
    )


def parse_listing(text: str) -> list[DeckData]:
    # Pages copied from a browser keep HTML's no-break spaces inside sentences.
    lines = [
        Line(number, raw.replace("\xa0", " ").rstrip())
        for number, raw in enumerate(text.splitlines(), start=1)
    ]
    if not any(line.text.strip() for line in lines):
        raise ListingError("The listing is empty.", 1)
    if looks_like_page(text):
        return [_parse_page(lines)]
    return _parse_blog(lines)


# --- blocks, headings and rule sections, shared by both layouts ---------------------------------------


@dataclass
class _Block:
    lines: list[Line]
    blanks_before: int

    @property
    def first(self) -> Line:
        return self.lines[0]

    @property
    def is_single_line(self) -> bool:
        return len(self.lines) == 1

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def _blocks(lines: list[Line]) -> list[_Block]:
    blocks: list[_Block] = []
    current: list[Line] = []
    blanks = 0
    for line in lines:
        if line.text.strip():
            current.append(line)
            continue
        if current:
            blocks.append(_Block(current, blanks))
            current, blanks = [], 0
        blanks += 1
    if current:
        blocks.append(_Block(current, blanks))
    return blocks


def _is_heading(block: _Block) -> bool:
    """A short line standing alone, not a sentence: "Notes", "Play order:", "Socialism"."""
    if not block.is_single_line:
        return False
    text = block.first.text.strip()
    if text.endswith((".", "!", "?", '"')) or _NUMBERED_STEP.match(text) or not re.search("[A-Za-z]", text):
        return False
    words = len(text.split())
    return words <= 5 if text.endswith(":") else words <= 8


def _heading_title(block: _Block) -> str:
    return block.first.text.strip().rstrip(":").strip()


def _rule_sections(blocks: list[_Block], *, blank_pair_splits: bool) -> list[SpecialRuleData]:
    """Special Rules from headed sections; on a wiki page two blank lines mark a heading lost in copying."""
    rules: list[SpecialRuleData] = []
    heading: _Block | None = None
    paragraphs: list[str] = []

    def close() -> None:
        if heading is not None and not paragraphs:
            raise ListingError(
                f"The heading {_heading_title(heading)!r} has no rules under it.", heading.first.number
            )
        if paragraphs:
            rules.append(SpecialRuleData(_heading_title(heading) if heading else "", "\n\n".join(paragraphs)))

    for block in blocks:
        if _is_heading(block):
            close()
            heading, paragraphs = block, []
            continue
        if blank_pair_splits and block.blanks_before >= 2 and paragraphs:
            close()
            heading, paragraphs = None, []
        paragraphs.append(block.text)
    close()
    return rules


def _players(text: str) -> str:
    match = _PLAYERS_LINE.match(text.strip())
    return match[1] if match else ""


# --- the wiki page layout -----------------------------------------------------------------------------


@dataclass
class _Page:
    fields: dict[str, str] = field(default_factory=dict)
    status: str = UNCATEGORISED
    locked: bool = False
    notices_seen: bool = False
    preamble: list[Line] = field(default_factory=list)
    rules: list[Line] = field(default_factory=list)
    cards: list[Line] = field(default_factory=list)
    rules_heading: Line | None = None
    cards_heading: Line | None = None

    def section_lines(self) -> list[Line]:
        if self.cards_heading:
            return self.cards
        if self.rules_heading:
            return self.rules
        return self.preamble


def _parse_page(lines: list[Line]) -> DeckData:
    nonblank = [line for line in lines if line.text.strip()]
    title = nonblank[0].text.strip()
    page = _Page()
    for line in lines[nonblank[0].number :]:
        _read_page_line(page, line)

    description, special_rules = _page_texts(page)
    cards: list[CardData] = []
    if page.cards_heading:
        cards = parse_card_lines(page.cards)
        if not cards:
            raise ListingError("The Card List has no cards.", page.cards_heading.number)
    return DeckData(
        slug=slugify(title),
        title=title,
        kind=CARD_SET if page.status == "CCG set" else DECK,
        designers=tuple(name for name in _DESIGNER_SEPARATOR.split(page.fields.get("designer", "")) if name),
        date=page.fields.get("date", ""),
        players=page.fields.get("player", ""),
        status=page.status,
        locked=page.locked,
        ruleset=ruleset_for_title(title),
        description=description,
        special_rules=tuple(special_rules),
        cards=tuple(cards),
    )


def _read_page_line(page: _Page, line: Line) -> None:
    text = line.text.strip()
    if page.rules_heading is None and page.cards_heading is None and _read_page_header(page, line):
        return
    if text == _SPECIAL_RULES_HEADING and page.cards_heading is None:
        page.rules_heading = line
    elif _CARD_LIST_HEADING.match(text):
        page.cards_heading = line
    else:
        page.section_lines().append(line)


def _read_page_header(page: _Page, line: Line) -> bool:
    """Takes in a line of the page's header; False when the line is the page's own text."""
    text = line.text.strip()
    if _PAGE_BOILERPLATE.match(text):
        return True
    field_match = _HEADER_FIELD.match(text)
    if field_match and not page.notices_seen:
        if not page.fields:
            # The infobox repeats the deck's title just above its fields.
            while page.preamble and page.preamble[-1].text.strip():
                page.preamble.pop()
        value = field_match[2].strip()
        page.fields[field_match[1].lower().removesuffix("s")] = "" if value.lower() == "unknown" else value
        return True
    status_match = _STATUS_NOTICE.match(text)
    if status_match:
        page.status = _STATUSES_BY_WORD[status_match[1].lower()]
    elif text.startswith(_LOCKED_NOTICE):
        page.locked = True
    elif not (text.startswith(_UNCATEGORISED_NOTICE) or _OPEN_NOTICE.match(text)):
        return False
    page.notices_seen = True
    return True


def _page_texts(page: _Page) -> tuple[str, list[SpecialRuleData]]:
    preamble = _blocks(page.preamble)
    rules = _rule_sections(_blocks(page.rules), blank_pair_splits=True)
    if page.rules_heading is None and len(preamble) > 1:
        # A page copied without its "Special Rules" heading (the Filibuster set): its sections are the rules.
        return "", _rule_sections(preamble, blank_pair_splits=True)
    return "\n\n".join(block.text for block in preamble), rules


# --- the blog layout: several games in one text -------------------------------------------------------


@dataclass
class _Game:
    title: str
    players: str = ""
    description: str = ""
    # The rules' headings and paragraphs, in order; they become Special Rules when the game is done.
    rule_blocks: list[_Block] = field(default_factory=list)
    cards: list[CardData] = field(default_factory=list)
    cards_heading: Line | None = None
    in_card_list: bool = False
    card_type: str = THING

    def open_rule(self, heading: _Block) -> None:
        self.rule_blocks.append(heading)
        self.in_card_list = False

    def to_deck(self) -> DeckData:
        if self.cards_heading is not None and not self.cards:
            raise ListingError(f"{self.title!r} has a card list with no cards.", self.cards_heading.number)
        return DeckData(
            slug=slugify(self.title),
            title=self.title,
            players=self.players,
            ruleset=ruleset_for_title(self.title),
            description=self.description,
            special_rules=tuple(_rule_sections(self.rule_blocks, blank_pair_splits=False)),
            cards=tuple(self.cards),
        )


def _parse_blog(lines: list[Line]) -> list[DeckData]:
    blocks = _blocks(lines)
    if not _is_heading(blocks[0]):
        raise ListingError(
            "A listing starts with the deck's title on a line of its own.", blocks[0].first.number
        )
    games: list[_Game] = []
    game: _Game | None = None
    for index, block in enumerate(blocks):
        following = blocks[index + 1] if index + 1 < len(blocks) else None
        if _starts_game(block, following, game):
            game = _begin_game(block, games)
        elif game.in_card_list:
            _read_card_list_block(game, block, following)
        else:
            _read_rules_block(game, block)
    return [game.to_deck() for game in games]


def _starts_game(block: _Block, following: _Block | None, game: _Game | None) -> bool:
    if game is None:
        return True
    if not _is_heading(block) or block.first.text.strip().endswith(":"):
        return False
    if following is not None and following.is_single_line and _players(following.first.text):
        return True
    # After a game's cards, a title line that is not a sub-heading begins the next game.
    return bool(game.cards) and not _CARD_LIST_HEADING.match(block.first.text.strip())


def _begin_game(block: _Block, games: list[_Game]) -> _Game:
    title = block.first.text.strip()
    addendum = _ADDENDUM.match(title)
    if addendum:
        for earlier in games:
            if _same_game(earlier.title, addendum["game"]):
                earlier.open_rule(_Block([Line(block.first.number, addendum["rule"])], 0))
                return earlier
    game = _Game(title=title)
    games.append(game)
    return game


def _same_game(title: str, other: str) -> bool:
    def bare(name: str) -> str:
        return re.sub(r"^the\s+", "", name.strip().lower())

    return bare(title) == bare(other)


def _read_rules_block(game: _Game, block: _Block) -> None:
    if block.is_single_line and _players(block.first.text) and not game.players:
        game.players = _players(block.first.text)
        return
    if not _is_heading(block):
        game.rule_blocks.append(block)
        game.players = game.players or next(filter(None, (_players(line.text) for line in block.lines)), "")
        return
    heading = block.first.text.strip()
    if _CARD_LIST_HEADING.match(heading):
        game.in_card_list, game.cards_heading = True, block.first
    elif game.title.startswith(heading + ",") and not any(map(_is_heading, game.rule_blocks)):
        # A post titled "The Virtues of the Drake, update II" names the game itself in its next heading;
        # what the post said before that is its description.
        game.title = heading
        game.description = "\n\n".join(block.text for block in game.rule_blocks)
        game.rule_blocks = []
    else:
        game.open_rule(block)


def _read_card_list_block(game: _Game, block: _Block, following: _Block | None) -> None:
    if not block.is_single_line:
        game.cards.append(parse_card_block(block.lines, game.card_type))
        return
    heading = block.first.text.strip()
    if not heading.endswith(":") or not _is_heading(block):
        raise ListingError(f"The card {heading!r} has no text under its title.", block.first.number)
    if following is not None and not following.is_single_line:
        # "Users:" and "Actions:" give the type of the cards listed under them.
        game.card_type = heading.rstrip(":").strip().removesuffix("s")
    else:
        game.open_rule(block)
