"""Exporting decks in the old archive's formats, and importing the exports back."""

import csv
import io
import json
import tracemalloc

import pytest

from decks.exporters import EXPANDING, ExportTooLarge, UnknownFormatError, export_deck
from decks.importers import import_text
from dvorak_core.deckdata import (
    ACTION,
    MAX_CARDS_PER_DECK,
    MAX_COPIES_PER_CARD,
    CardData,
    DeckData,
    SpecialRuleData,
)
from tests.seeds import seed_decks

# The archive's seed decks (decks/seed_data), which are what the importer makes of the wiki listings.
SEED_DECKS = seed_decks()


def seed_deck(title: str) -> DeckData:
    return next(deck for deck in SEED_DECKS if deck.title == title)


def by_slug(deck: DeckData) -> str:
    return deck.slug


def test_the_seeds_give_seven_decks():
    assert len(SEED_DECKS) == 7


@pytest.mark.parametrize("deck", SEED_DECKS, ids=by_slug)
def test_json_round_trips_exactly(deck):
    content, content_type, filename = export_deck(deck, "json")
    assert (content_type, filename) == ("application/json", f"{deck.slug}.json")
    assert json.loads(content)["title"] == deck.title
    assert import_text(content, "json") == [deck]


@pytest.mark.parametrize("deck", SEED_DECKS, ids=by_slug)
def test_mushcode_round_trips_what_it_carries(deck):
    content, _, _ = export_deck(deck, "mushcode")
    [imported] = import_text(content, "mushcode")
    # MUSHcode knows only Things and Actions: a deck's own types (Soldier, Style, User) come back as Things.
    assert [(card.title, card.type, card.text, card.flavor, card.copies) for card in imported.cards] == [
        (card.title, ACTION if card.type == ACTION else "Thing", card.text, card.flavor, card.copies)
        for card in deck.cards
    ]


def test_mushcode_writes_cleardeck_then_a_loadcard_per_copy():
    deck = seed_deck("Article II, updated")
    lines = export_deck(deck, "mushcode")[0].splitlines()
    assert lines[0] == "cleardeck"
    assert len(lines) == 1 + 51
    tack_center = (
        'loadcard Tack Center/T/+4 Electability%r-3 Affiliation%r("I believe that you misheard me. '
        'I meant to say that I am against taxes.")'
    )
    assert lines.count(tack_center) == 4
    assert "loadcard The Lesser Evil/T/Your Affiliation is zero" in lines


def test_mushcode_marks_actions_with_a():
    lines = export_deck(seed_deck("Socialism"), "mushcode")[0].splitlines()
    assert "loadcard IPO/A/" in "\n".join(lines)
    assert sum(line.startswith("loadcard John Smith/T/") for line in lines) == 4


@pytest.mark.parametrize("deck", SEED_DECKS, ids=by_slug)
def test_lackey_has_one_row_per_copy(deck):
    content, content_type, filename = export_deck(deck, "lackey")
    header, *rows = content.splitlines()
    assert header == "Name\tSet\tImageFile\tType\tCornerValue\tText\tFlavorText\tCreator"
    assert len(rows) == deck.card_count
    assert all(len(row.split("\t")) == 8 for row in rows)
    assert content_type.startswith("text/tab-separated-values")
    assert filename == f"{deck.slug}-lackey.txt"


def test_lackey_rows_carry_type_corner_value_and_one_line_text():
    rows = export_deck(seed_deck("Simplistic Wargame with four stats S.E.R.M."), "lackey")[0].splitlines()[1:]
    ranger = rows[0].split("\t")
    assert ranger[:5] == ["Ranger", "simplistic_wargame_with_four_stats_s_e_r_m", "soldier", "Soldier", "2"]
    tack_center = export_deck(seed_deck("Article II"), "lackey")[0].splitlines()[1].split("\t")
    assert tack_center[5] == "+4 Electability -3 Affiliation"


def test_apprentice_csv_lists_each_card_with_its_copies():
    deck = seed_deck("Socialism")
    content, content_type, filename = export_deck(deck, "apprentice")
    rows = list(csv.DictReader(io.StringIO(content)))
    assert len(rows) == len(deck.cards)
    assert sum(int(row["Copies"]) for row in rows) == deck.card_count
    assert rows[0]["Name"] == "Sheila Callingworth"
    assert (content_type, filename) == ("text/csv; charset=utf-8", "socialism-apprentice.csv")
    serm = list(
        csv.DictReader(
            io.StringIO(
                export_deck(seed_deck("Simplistic Wargame with four stats S.E.R.M."), "apprentice")[0]
            )
        )
    )
    assert serm[0]["Stats"] == "Shoot 1 Endure 1 React 2 Move 1"


HOSTILE = DeckData(
    slug="hostile",
    title="Tom & Jerry <b>deck</b>",
    special_rules=(SpecialRuleData("Victory <i>", "First to <script>alert('rule')</script> wins."),),
    cards=(
        CardData(title="<script>alert(1)</script>", text="Destroy a <Thing> & draw.", copies=2),
        CardData(title="Zap", type=ACTION, text="Zap!", flavor='"<img src=x onerror=alert(2)>"'),
        CardData(title="Scout", type="Soldier", text="Looks around.", corner_value="3", stats={"Move": 2}),
    ),
)


def test_print_sheet_escapes_every_text():
    content, content_type, filename = export_deck(HOSTILE, "print")
    assert "<script>" not in content and "<img" not in content and "<b>" not in content
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in content
    assert "Tom &amp; Jerry &lt;b&gt;deck&lt;/b&gt;" in content
    assert "Destroy a &lt;Thing&gt; &amp; draw." in content
    assert (content_type, filename) == ("text/html; charset=utf-8", "hostile-print.html")


def test_print_sheet_has_a_card_per_copy_and_special_rules_on_cards_of_their_own():
    deck = seed_deck("Simplistic Wargame with four stats S.E.R.M.")
    content = export_deck(deck, "print")[0]
    assert content.count('<section class="card"') == deck.card_count + len(deck.special_rules) == 8 + 5
    assert content.count(">Special Rule</div>") == 5
    hostile = export_deck(HOSTILE, "print")[0]
    assert hostile.count('<section class="card"') == 1 + 2 + 1 + 1


def test_print_sheet_tells_things_and_actions_apart_by_the_wiki_colours():
    content = export_deck(HOSTILE, "print")[0]
    cards = content.split('<section class="card"')[1:]
    colour_of = {
        card.split("<span>")[1].split("</span>")[0]: card.split("--colour: ")[1][:7] for card in cards
    }
    assert colour_of["&lt;script&gt;alert(1)&lt;/script&gt;"] == "#000066"
    assert colour_of["Zap"] == "#660000"
    assert colour_of["Scout"] not in ("#000066", "#660000")
    assert colour_of["Victory &lt;i&gt;"] not in ("#000066", "#660000", colour_of["Scout"])


@pytest.mark.parametrize("deck", SEED_DECKS, ids=by_slug)
def test_pdf_is_a_pdf(deck):
    content, content_type, filename = export_deck(deck, "pdf")
    assert isinstance(content, bytes)
    assert content.startswith(b"%PDF")
    assert (content_type, filename) == ("application/pdf", f"{deck.slug}.pdf")


def test_pdf_prints_text_outside_latin1_and_all_of_a_text_too_long_for_one_card():
    from pypdf import PdfReader

    deck = DeckData(
        slug="wide",
        title="Ünïcode \u201cdeck\u201d \u2014 \u6f22\u5b57",
        special_rules=(SpecialRuleData("Long", "A rule that goes on. " * 1000),),
        cards=(
            CardData(
                title="Emoji \U0001f409", text="Breathe fire \u2022 twice\u2026", flavor="\u0141\u00f3d\u017a"
            ),
        ),
    )
    content = export_deck(deck, "pdf")[0]
    assert content.startswith(b"%PDF")
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    assert text.count("rule") == 1000  # a word, unlike a phrase, is never split across lines
    assert "Long (continued)" in text
    assert "Breathe fire \u2022 twice\u2026" in text
    assert "\u0141\u00f3d\u017a" in text


def test_unknown_export_format_is_refused():
    with pytest.raises(UnknownFormatError):
        export_deck(HOSTILE, "thoth")


# --- a deck too large to write out copy by copy ------------------------------------------------------------------

# A deck from before the archive bounded its cards: one card of 35 million copies, as a staff admin edit once saved.
GIANT = DeckData(
    slug="legacy-giant",
    title="Legacy Giant",
    cards=(CardData(title="Grain of Sand", text="There are a lot of these.", copies=35_000_000),
           CardData(title="Beach", type=ACTION, text="Count the sand.")),
)


def at_the_bound() -> DeckData:
    """A deck as large as the archive lets one be: 2000 cards, copies counted."""
    per_card = MAX_COPIES_PER_CARD
    return DeckData(slug="full", title="Full", cards=tuple(
        CardData(title=f"Card {number}", text="Shoot 1", copies=per_card)
        for number in range(MAX_CARDS_PER_DECK // per_card)
    ))


@pytest.mark.parametrize("format", sorted(EXPANDING))
def test_a_format_that_writes_every_copy_refuses_a_deck_beyond_the_bound_without_expanding_it(format):
    tracemalloc.start()
    try:
        with pytest.raises(ExportTooLarge) as refused:
            export_deck(GIANT, format)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert refused.value.code == "export_too_large" and refused.value.status == 409
    assert refused.value.details == {"cards": 35_000_001, "limit": MAX_CARDS_PER_DECK}
    assert "export it as json or apprentice" in refused.value.message
    # Nothing was laid out: 35 million lines would take gigabytes; the refusal takes well under a megabyte.
    assert peak < 1_000_000


def test_json_and_apprentice_still_export_such_a_deck_with_its_copies_counted():
    assert json.loads(export_deck(GIANT, "json")[0])["cards"][0]["copies"] == 35_000_000
    rows = list(csv.DictReader(io.StringIO(export_deck(GIANT, "apprentice")[0])))
    assert [(row["Name"], row["Copies"]) for row in rows] == [("Grain of Sand", "35000000"), ("Beach", "1")]


@pytest.mark.parametrize("format", ["mushcode", "lackey", "print"])
def test_a_deck_as_large_as_the_archive_allows_exports_every_copy(format):
    deck = at_the_bound()
    content = export_deck(deck, format)[0]
    written = {
        "mushcode": content.count("\nloadcard "),
        "lackey": len(content.splitlines()) - 1,
        "print": content.count('<section class="card"'),
    }[format]
    assert written == deck.card_count == MAX_CARDS_PER_DECK
