"""Article II's cards and scoring as pure data and functions.

The deck's card texts are machine-readable ("+4 Electability", "-3 Affiliation", "Draw two cards",
"Remove one card from play", and twelve Styles), so the engine reads each card's effect from its text and
applies it itself. Nothing here knows about events or game state: `ruleset.py` feeds it the cards in
front of each player and their Styles, and gets back attributes, Candidates and the President.

Choices the rulebook leaves open, made once here:
- a card that changes attributes stays in play in front of the player it was played on, and its effect
  lasts while it is there (so "Remove one card from play" undoes it), into the General Election;
- "halved" rounds toward zero, so Electability stays a whole number;
- a player's own Style applies before other players' Styles (the Mudslinger's subtraction);
- "opponents" and "everyone" mean every other player, and every player, in both phases;
- ties for a Candidate's place are broken by an order drawn at random when the Primary ends; ties for
  President are shared: every tied player is among the winners;
- in a two-player game there is no Spoiler, so when neither Candidate ends positive nobody becomes President
  and nobody wins: the election's ``outcome`` says so (``no_president``) rather than an empty list of winners;
- the party Variation's points (``president_points``): a President shared by a tie gains two points each, and a
  party member who is not a President gains one for each President of their party.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from dvorak_engine.cards import Card


class Style(StrEnum):
    SCREAMING_PARTISAN = "screaming_partisan"
    OUTSIDER = "outsider"
    INSIDER = "insider"
    GREAT_DEBATER = "great_debater"
    MUDSLINGER = "mudslinger"
    NECROMANCER = "necromancer"
    LESSER_EVIL = "lesser_evil"
    GREATER_EVIL = "greater_evil"
    HIGHLANDER = "highlander"
    HAIRPIECE = "hairpiece"
    THIRD_PARTY = "third_party"
    TEFLON_WONDER = "teflon_wonder"


# Each Style is recognised by the words of its text as the deck writes it; the order matters where one
# text contains another's words ("your Affiliation is zero" is in three of them).
_STYLE_WORDS: tuple[tuple[str, Style], ...] = (
    (r"affiliation is doubled", Style.SCREAMING_PARTISAN),
    (r"may not play cards on other players", Style.OUTSIDER),
    (r"electability is halved", Style.INSIDER),
    (r"play a card on them", Style.GREAT_DEBATER),
    (r"subtract your affiliation from everyone", Style.MUDSLINGER),
    (r"other candidate'?s affiliation", Style.NECROMANCER),
    (r"ignore all effects of affiliation", Style.THIRD_PARTY),
    (r"opponents'? affiliation is zero", Style.GREATER_EVIL),
    (r"your affiliation is zero", Style.LESSER_EVIL),
    (r"as a spoiler", Style.HIGHLANDER),
    (r"style has no effects?", Style.HAIRPIECE),
    (r"remove a card that'?s been played on you", Style.TEFLON_WONDER),
)

_STYLE_TITLES: dict[str, Style] = {
    "screaming partisan": Style.SCREAMING_PARTISAN,
    "outsider candidate": Style.OUTSIDER,
    "insider candidate": Style.INSIDER,
    "great debater": Style.GREAT_DEBATER,
    "mudslinger": Style.MUDSLINGER,
    "necromancer": Style.NECROMANCER,
    "lesser evil": Style.LESSER_EVIL,
    "greater evil": Style.GREATER_EVIL,
    "highlander": Style.HIGHLANDER,
    "hairpiece": Style.HAIRPIECE,
    "third-party candidate": Style.THIRD_PARTY,
    "teflon wonder": Style.TEFLON_WONDER,
}

# The Styles that set one of their holder's attributes to zero; after that no other modifier applies to it.
_ZERO_OWN_AFFILIATION = frozenset({Style.OUTSIDER, Style.LESSER_EVIL, Style.THIRD_PARTY})

_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_ATTRIBUTE_LINE = re.compile(r"^([+-]\s*\d+)\s+(electab\w*|affiliation)\b", re.IGNORECASE)
_DRAW_LINE = re.compile(r"^draw\s+(\w+)\s+cards?\b", re.IGNORECASE)
_REMOVE_LINE = re.compile(r"^remove\s+(\w+)\s+cards?\s+from\s+play\b", re.IGNORECASE)
_QUOTES = "\"'“”‘’"


@dataclass(frozen=True)
class CardEffect:
    """What one Article II card does to the player it is played on."""

    electability: int = 0
    affiliation: int = 0
    draws: int = 0
    removes: int = 0
    style: Style | None = None

    @property
    def lasts(self) -> bool:
        """A card whose effect lasts stays in play in front of its player; the rest go to the discard pile."""
        return self.style is not None or bool(self.electability or self.affiliation)


@dataclass(frozen=True)
class Attributes:
    electability: int
    affiliation: int


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word, 0)


def _effect_lines(card: Mapping[str, Any]) -> list[str]:
    # The archive puts effect lines in "text" and the quote in "flavor"; an importer that kept the quote
    # (or the word "Style") in the text must not change the effect, so quoted lines are skipped.
    lines = (line.strip() for line in str(card.get("text") or "").splitlines())
    return [line for line in lines if line and line[0] not in _QUOTES]


def _is_style(card: Mapping[str, Any], lines: Sequence[str]) -> bool:
    return str(card.get("type") or "").strip().lower() == "style" or any(
        line.lower() == "style" for line in lines
    )


def style_of(card: Mapping[str, Any]) -> Style | None:
    """The Style a Style card applies, read from its text (its title when the text is not one of the twelve)."""
    lines = _effect_lines(card)
    if not _is_style(card, lines):
        return None
    text = " ".join(line for line in lines if line.lower() != "style").lower().replace("’", "'")
    for words, style in _STYLE_WORDS:
        if re.search(words, text):
            return style
    title = re.sub(r"^the\s+", "", str(card.get("title") or "").strip().lower())
    # A Style the engine cannot read still replaces the old one; it simply has no effects.
    return _STYLE_TITLES.get(title, Style.HAIRPIECE)


def parse_effect(card: Mapping[str, Any]) -> CardEffect:
    """The machine-readable effect of a card, e.g. {"text": "+4 Electability\\n-3 Affiliation"}."""
    style = style_of(card)
    if style is not None:
        return CardEffect(style=style)
    electability = affiliation = draws = removes = 0
    for line in _effect_lines(card):
        if match := _ATTRIBUTE_LINE.match(line):
            amount = int(match.group(1).replace(" ", ""))
            if match.group(2).lower().startswith("electab"):
                electability += amount
            else:
                affiliation += amount
        elif match := _DRAW_LINE.match(line):
            draws += _count(match.group(1))
        elif match := _REMOVE_LINE.match(line):
            removes += _count(match.group(1))
    return CardEffect(electability, affiliation, draws, removes)


@lru_cache(maxsize=1024)
def _effect_of_text(title: str, card_type: str, text: str) -> CardEffect:
    return parse_effect({"title": title, "type": card_type, "text": text})


def effect_of(card: Card) -> CardEffect:
    """A game's card's effect (read once per distinct text)."""
    return _effect_of_text(card.title, card.type, card.text)


def _halve(value: int) -> int:
    return value // 2 if value >= 0 else -(-value // 2)


def compute_attributes(
    bases: Mapping[int, Attributes], styles: Mapping[int, Style | None]
) -> dict[int, Attributes]:
    """Each player's Electability and Affiliation: the sums of the cards in front of them (`bases`) under
    every player's Style. "If a Style changes one of your attributes to zero, then no other modifiers
    apply" to that attribute."""
    greater_evils = {seat for seat, style in styles.items() if style is Style.GREATER_EVIL}
    affiliation: dict[int, int] = {}
    for seat, base in bases.items():
        style = styles.get(seat)
        if style in _ZERO_OWN_AFFILIATION or greater_evils - {seat}:
            affiliation[seat] = 0
        elif style is Style.SCREAMING_PARTISAN:
            affiliation[seat] = 2 * base.affiliation
        else:
            affiliation[seat] = base.affiliation
    mudslingers = [seat for seat, style in styles.items() if style is Style.MUDSLINGER and seat in bases]
    result: dict[int, Attributes] = {}
    for seat, base in bases.items():
        style = styles.get(seat)
        electability = base.electability
        if style is Style.INSIDER:
            electability = _halve(electability)
            if electability == 0 and base.electability != 0:
                result[seat] = Attributes(0, affiliation[seat])
                continue
        if style is not Style.THIRD_PARTY:
            electability -= sum(affiliation[mudslinger] for mudslinger in mudslingers)
        result[seat] = Attributes(electability, affiliation[seat])
    return result


def primary_totals(attributes: Mapping[int, Attributes]) -> dict[int, int]:
    """After the Primary Election, Affiliation is added to Electability."""
    return {seat: a.electability + a.affiliation for seat, a in attributes.items()}


def choose_candidates(attributes: Mapping[int, Attributes], tiebreak: Sequence[int]) -> list[int]:
    """The two players with the highest Primary total are the Candidates; with two players, both are.
    `tiebreak` is every seat in an order drawn at random; it only matters between equal totals."""
    totals = primary_totals(attributes)
    ranked = sorted(totals, key=lambda seat: (-totals[seat], tiebreak.index(seat)))
    return sorted(ranked[:2])


# What the General Election's end says, in the seed's words: who became President, and by which rule.
PRESIDENT, NO_PRESIDENT = "president", "no_president"
REASONS = {
    "candidates": "The Candidate with the highest positive total becomes President (and wins the game).",
    "spoilers": "If neither Candidate has a positive total, the Spoiler with the highest Electability (ignoring "
                "Affiliation) becomes President.",
    "nobody": "Neither Candidate has a positive total, and a two player game has no Spoiler to become President "
              "instead: nobody is elected, and nobody wins.",
}


@dataclass(frozen=True)
class Election:
    """The General Election's result: `winners` is empty only when nobody can become President, which
    `outcome` (``president`` or ``no_president``) and `reason` (the rule that decided) state."""

    winners: list[int]
    totals: dict[int, int]
    decided_by: str  # "candidates", "spoilers" or "nobody"

    @property
    def outcome(self) -> str:
        return PRESIDENT if self.winners else NO_PRESIDENT

    @property
    def reason(self) -> str:
        return REASONS[self.decided_by]


def _general_total(seat: int, candidates: Sequence[int], attributes: Mapping[int, Attributes],
                   styles: Mapping[int, Style | None]) -> int:
    subtracted = seat
    if styles.get(seat) is Style.NECROMANCER and seat in candidates:
        subtracted = next((other for other in candidates if other != seat), seat)
    return attributes[seat].electability - attributes[subtracted].affiliation


def _highest(scores: Mapping[int, int]) -> list[int]:
    best = max(scores.values())
    return sorted(seat for seat, score in scores.items() if score == best)


def elect_president(attributes: Mapping[int, Attributes], styles: Mapping[int, Style | None],
                    candidates: Sequence[int]) -> Election:
    """After the General Election, Affiliation is subtracted from Electability; the Candidate with the
    highest positive total becomes President. If none is positive, the Spoiler with the highest
    Electability does (the Spoiler rule). A Highlander Spoiler also runs as if a Candidate. A two-player
    game has no Spoiler: if neither Candidate is positive, nobody is President."""
    spoilers = [seat for seat in attributes if seat not in candidates]
    running = list(candidates) + [seat for seat in spoilers if styles.get(seat) is Style.HIGHLANDER]
    totals = {seat: _general_total(seat, candidates, attributes, styles) for seat in running}
    positive = {seat: total for seat, total in totals.items() if total > 0}
    if positive:
        return Election(_highest(positive), totals, "candidates")
    if spoilers:
        return Election(_highest({seat: attributes[seat].electability for seat in spoilers}), totals, "spoilers")
    return Election([], totals, "nobody")


# --- the party Variation ------------------------------------------------------------------------------------------
# "Divide the four players into two parties, and count points. When a player becomes a Candidate, that player
# gets a point, and when a player is elected President, that player gains two points and other party members
# gain one. After four games, the player with the most points wins."
PARTIES_PLAYERS, PARTIES_GAMES = 4, 4
CANDIDATE_POINTS, PRESIDENT_POINTS, PARTY_MEMBER_POINTS = 1, 2, 1


def candidate_points(candidates: Sequence[int]) -> dict[int, int]:
    """"When a player becomes a Candidate, that player gets a point"."""
    return {seat: CANDIDATE_POINTS for seat in candidates}


def president_points(presidents: Sequence[int], parties: Mapping[str, Sequence[int]]) -> dict[int, int]:
    """"when a player is elected President, that player gains two points and other party members gain one"."""
    gains: dict[int, int] = {}
    for president in presidents:
        gains[president] = gains.get(president, 0) + PRESIDENT_POINTS
        party = next((members for members in parties.values() if president in members), ())
        for member in party:
            if member not in presidents:
                gains[member] = gains.get(member, 0) + PARTY_MEMBER_POINTS
    return gains


def most_points(points: Sequence[int], among: Sequence[int] | None = None) -> list[int]:
    """"After four games, the player with the most points wins" (a tie is shared); ``among``: the seats still in
    the game, when some are out of it."""
    scores = {seat: score for seat, score in enumerate(points) if among is None or seat in among}
    return _highest(scores) if scores else []
