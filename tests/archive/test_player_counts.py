"""A deck's `players` text read as a range of player counts: the spellings the wiki's decks use, and what is not
read (kept to be matched as written)."""

import json
from pathlib import Path

import pytest

from dvorak_core.player_counts import PlayerRange, describe, parse_players

DECKS = Path(__file__).resolve().parents[2] / "decks"


@pytest.mark.parametrize(("text", "expected"), [
    ("2", (2, 2)),
    ("1", (1, 1)),
    (" 4 ", (4, 4)),
    ("2 players", (2, 2)),
    ("2 Players.", (2, 2)),
    ("1 player", (1, 1)),
    ("2p", (2, 2)),
    ("two", (2, 2)),
    ("2-4", (2, 4)),
    ("2–4", (2, 4)),       # en dash
    ("2—4", (2, 4)),       # em dash
    ("2 - 4", (2, 4)),
    ("2-4 players", (2, 4)),
    ("2 to 4", (2, 4)),
    ("two to four", (2, 4)),
    ("Two to Four players", (2, 4)),
    ("between 3 and 6", (3, 6)),
    ("from 3 to 6", (3, 6)),
    ("3~5", (3, 5)),
    ("4-2", (2, 4)),
    ("3-6", (3, 6)),
    ("2 or 3", (2, 3)),
    ("2, 3 or 4", (2, 4)),
    ("3/4/5", (3, 5)),
    ("2+", (2, None)),
    ("2 +", (2, None)),
    ("2+ players", (2, None)),
    ("3 or more", (3, None)),
    ("3 or more players", (3, None)),
    ("three or more", (3, None)),
    ("2 and up", (2, None)),
    ("at least 3", (3, None)),
    ("minimum 3", (3, None)),
    ("3-", (3, None)),
    ("2-∞", (2, None)),
    ("2-many", (2, None)),
    ("2-n", (2, None)),
    ("1+", (1, None)),
    ("any", (1, None)),
    ("Any", (1, None)),
    ("any number", (1, None)),
    ("any number of players", (1, None)),
    ("unlimited", (1, None)),
    ("-4", (1, 4)),        # as the wiki's "Article II (updated)" gives it: up to four
    ("up to 4", (1, 4)),
    ("4 or fewer", (1, 4)),
    ("max 6", (1, 6)),
    ("solo", (1, 1)),
])
def test_a_player_count_is_read_as_a_range(text, expected):
    assert parse_players(text) == PlayerRange(*expected)


@pytest.mark.parametrize("text", [
    "", "   ", "0", "0-4", "2 or 4", "2 (4 in teams)", "even numbers", "many", "2-99999", "9999", "teams of 2",
    "2-4+", "varies", "?", "2 and 4",
])
def test_a_player_count_that_says_something_else_is_not_read(text):
    assert parse_players(text) is None


def test_every_seed_and_sample_decks_player_count_reads_or_is_blank():
    for path in [*(DECKS / "seed_data").glob("*.json"), *(DECKS / "sample_data").glob("*.json")]:
        players = json.loads(path.read_text(encoding="utf-8")).get("players", "")
        assert players == "" or parse_players(players) is not None, (path.name, players)


def test_a_range_holds_the_counts_between_its_bounds():
    assert PlayerRange(2, 4).holds(3) and PlayerRange(2, 4).holds(2) and PlayerRange(2, 4).holds(4)
    assert not PlayerRange(2, 4).holds(5) and not PlayerRange(2, 4).holds(1)
    assert PlayerRange(2, None).holds(40) and not PlayerRange(2, None).holds(1)


@pytest.mark.parametrize(("low", "high", "words"), [
    (2, 4, "2–4 players"),
    (2, 2, "2 players"),
    (1, 1, "1 player"),
    (3, None, "3 or more players"),
    (1, None, "any number of players"),
    (1, 4, "1–4 players"),
    (None, None, ""),
])
def test_a_range_is_described_for_people(low, high, words):
    assert describe(low, high) == words
