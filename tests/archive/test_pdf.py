"""The PDF export: cards to cut out, on letter or A4, poker or record size, with crop marks and real Unicode text."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

from decks.exporters import export_deck
from dvorak_core.deckdata import CardData, DeckData, SpecialRuleData
from tests.archive.conftest import error_code

POINTS = 72  # to the inch

WORLDLY = DeckData(
    slug="worldly",
    title="Κόσμος",
    special_rules=(SpecialRuleData("Hand limit", "The hand limit is 7."),
                   SpecialRuleData("Голосование", "Все голосуют вместе.")),
    cards=(
        CardData(title="Αλφάβητο", text="Ο παίκτης παίρνει δύο κάρτες.", flavor="Καλή τύχη"),
        CardData(title="Жар-птица", text="Сожгите одну карту.", corner_value="3", creator="Зоя"),
        CardData(title="Crème brûlée", text="Łódź, Ærøskøbing, naïve café — „quoted“", copies=2),
    ),
)


def pdf(deck: DeckData, **options) -> PdfReader:
    return PdfReader(io.BytesIO(export_deck(deck, "pdf", **options)[0]))


def page_texts(reader: PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


def numbered_deck(count: int) -> DeckData:
    return DeckData(slug="many", title="Many", cards=tuple(
        CardData(title=f"Card {number:03d}", text=f"Text of card {number:03d}.") for number in range(count)))


@pytest.mark.parametrize(("paper", "size"), [("letter", (8.5, 11)), ("a4", (210 / 25.4, 297 / 25.4))])
def test_poker_cards_are_nine_to_a_portrait_page_of_the_chosen_paper(paper, size):
    reader = pdf(numbered_deck(20), paper=paper)

    assert len(reader.pages) == 3  # 9 + 9 + 2
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (size[0] * POINTS, size[1] * POINTS), abs=0.5)
    first, second, last = page_texts(reader)
    assert re.findall(r"Card \d{3}", first) == [f"Card {n:03d}" for n in range(9)]
    assert re.findall(r"Card \d{3}", second) == [f"Card {n:03d}" for n in range(9, 18)]
    assert re.findall(r"Card \d{3}", last) == ["Card 018", "Card 019"]


def test_letter_is_the_default_paper_and_poker_the_default_layout():
    reader = pdf(numbered_deck(10))
    page = reader.pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (8.5 * POINTS, 11 * POINTS)
    assert len(re.findall(r"Card \d{3}", page.extract_text())) == 9


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_record_cards_fill_a_landscape_page_four_at_a_time(paper):
    reader = pdf(numbered_deck(9), layout="record", paper=paper)

    page = reader.pages[0]
    assert float(page.mediabox.width) > float(page.mediabox.height)  # turned: 2 x 2 five-by-three cards fit
    assert [len(re.findall(r"Card \d{3}", text)) for text in page_texts(reader)] == [4, 4, 1]


def test_greek_cyrillic_and_accented_text_comes_out_as_itself():
    text = "\n".join(page_texts(pdf(WORLDLY)))

    for written in ("Αλφάβητο", "Ο παίκτης παίρνει δύο κάρτες.", "Καλή τύχη", "Жар-птица", "Сожгите одну карту.",
                    "Зоя", "Crème brûlée", "Łódź, Ærøskøbing, naïve café —", "„quoted“", "Голосование",
                    "Все голосуют вместе."):
        assert written in text, written


def test_the_font_is_embedded():
    page = pdf(WORLDLY).pages[0]
    fonts = [font.get_object() for font in page["/Resources"]["/Font"].values()]
    assert fonts and all(font["/Subtype"] == "/Type0" for font in fonts)  # TrueType, Unicode (not Latin-1 core)
    descriptors = [font["/DescendantFonts"][0].get_object()["/FontDescriptor"] for font in fonts]
    assert all("/FontFile2" in descriptor for descriptor in descriptors)


def test_each_special_rule_prints_on_a_card_of_its_own_marked_special_rule():
    first_page = page_texts(pdf(WORLDLY))[0]

    assert first_page.count("Special Rule") == 2
    # In reading order: each rule's title, its mark, its text; then the cards. No card shares a rule's card.
    rule_one = first_page.index("Hand limit")
    rule_two = first_page.index("Голосование")
    assert rule_one < first_page.index("Special Rule", rule_one) < first_page.index("The hand limit is 7.") < rule_two
    assert first_page.index("Все голосуют вместе.") < first_page.index("Αλφάβητο")


def test_crop_marks_are_drawn_in_the_margin_at_every_cut_line():
    page = pdf(numbered_deck(1)).pages[0]
    content = page.get_contents().get_data().decode("latin-1")
    # fpdf2 draws lines as "x1 y1 m x2 y2 l S" in points, y from the page's bottom.
    lines = [tuple(map(float, found)) for found in re.findall(
        r"([\d.]+) ([\d.]+) m ([\d.]+) ([\d.]+) l S", content)]
    card_w, card_h = 2.5 * POINTS, 3.5 * POINTS
    left, bottom = (8.5 * POINTS - 3 * card_w) / 2, (11 * POINTS - 3 * card_h) / 2
    cut_xs = {round(left + n * card_w, 1) for n in range(4)}
    cut_ys = {round(bottom + n * card_h, 1) for n in range(4)}
    vertical = {round(x1, 1) for x1, y1, x2, y2 in lines if x1 == x2}
    horizontal = {round(y1, 1) for x1, y1, x2, y2 in lines if y1 == y2}
    assert vertical == cut_xs and horizontal == cut_ys
    # Every mark lies outside the block of cards.
    for x1, y1, x2, y2 in lines:
        if x1 == x2:
            assert min(y1, y2) > bottom + 3 * card_h or max(y1, y2) < bottom
        else:
            assert min(x1, x2) > left + 3 * card_w or max(x1, x2) < left
    assert len(lines) == 2 * 4 + 2 * 4


def test_a_long_text_shrinks_then_runs_on_and_a_long_title_is_cut_to_fit():
    long_text = " ".join(f"word{number}" for number in range(1500))
    deck = DeckData(slug="long", title="Long", cards=(
        CardData(title="Verbose " * 12, text=long_text),))
    text = "".join(page_texts(pdf(deck)))

    assert all(f"word{number}" in text for number in range(1500))  # nothing lost
    assert "(continued)" in text
    assert "Verbose Verbose Verbose " in text and "Verbose " * 12 not in text


def test_a_deck_of_300_cards_renders_every_card():
    reader = pdf(DeckData(slug="big", title="Big", cards=tuple(
        CardData(title=f"Card {number:03d}", text="Shoot 1. " * (number % 30), copies=3) for number in range(100))))
    assert len(reader.pages) == 34  # 300 / 9, rounded up
    assert "Card 099" in reader.pages[-1].extract_text()


# --- through the API ----------------------------------------------------------------------------------------------

def test_the_api_takes_layout_and_paper(api_client, new_deck):
    slug = new_deck()["slug"]

    response = api_client.get(f"/api/v1/decks/{slug}/export/pdf/?layout=record&paper=a4")

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    page = PdfReader(io.BytesIO(response.content)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (842, 595)
    assert "Frying Pan" in page.extract_text()


@pytest.mark.parametrize("query", ["layout=tarot", "paper=a3", "layout=poker&paper=LETTER"])
def test_the_api_refuses_an_unknown_layout_or_paper_with_400(api_client, new_deck, query):
    slug = new_deck()["slug"]

    response = api_client.get(f"/api/v1/decks/{slug}/export/pdf/?{query}")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("application/json")
    assert error_code(response) == "invalid"


@pytest.mark.skipif(not Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf").is_file(),
                    reason="no CJK fallback font installed (Debian fonts-droid-fallback)")
def test_cjk_text_prints_from_the_system_fallback_font():
    deck = DeckData(slug="cjk", title="漢字", cards=(CardData(title="漢字カード", text="相手は二枚引く。"),))
    text = page_texts(pdf(deck))[0]
    assert "漢字カード" in text and "相手は二枚引く。" in text


def test_a_deck_in_open_sans_alone_loads_no_fallback_font():
    page = pdf(WORLDLY).pages[0]
    assert len(page["/Resources"]["/Font"]) == 3  # Open Sans regular, bold and italic
