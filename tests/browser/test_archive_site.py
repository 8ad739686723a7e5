"""The public archive in a real browser that may reach nothing but 127.0.0.1: a visitor goes from the home page to
the deck list, filters it, opens a deck and its print view, with DEBUG on and off (the stylesheets served by
whitenoise either way). Leaves deck-list.png, deck-page.png and print-view.png in the screenshots folder."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

# transaction: the server process reads the seed decks this test commits
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERM = "simplistic-wargame-with-four-stats-s-e-r-m"
RPSE = "rock-paper-scissors-extreme-deck"
WAIT_MS = 30_000


@pytest.fixture
def seed_decks():
    """Before the browser starts (see the `chromium` fixture): loading them is the test's database work."""
    call_command("load_seed_decks", verbosity=0)


def deck_rows(page) -> list[str]:
    return [text.strip() for text in page.locator("table.decks tbody tr td:first-child a").all_inner_texts()]


def test_a_visitor_finds_a_deck_reads_it_and_opens_its_print_view(served, seed_decks, offline_page, screenshots,
                                                                    request):
    page = offline_page
    errors, styles = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: styles.append(response) if response.url.endswith(".css") else None)
    shoot = request.node.callspec.id == "debug"  # one set of pictures is enough

    page.goto(f"{served}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("The Dvorak archive")
    expect(page.locator("table.decks")).to_contain_text("Rock Paper Scissors Extreme deck")
    expect(page.locator(".site-header")).to_have_css("background-color", "rgb(255, 255, 255)")  # styled

    page.locator(".site-nav").get_by_role("link", name="Decks").click()
    page.wait_for_url(f"{served}/decks/")
    assert len(deck_rows(page)) == 9

    page.select_option("select[name=kind]", "deck")
    page.select_option("select[name=locked]", "yes")
    page.locator("form.filters button[type=submit]").click()
    page.wait_for_url("**/decks/?*locked=yes*")
    assert deck_rows(page) == ["Rock Paper Scissors Extreme deck", "Simplistic Wargame with four stats S.E.R.M."]
    expect(page.locator("select[name=locked]")).to_have_value("yes")  # the form keeps the filters
    if shoot:
        page.screenshot(path=screenshots / "deck-list.png", full_page=True)

    page.get_by_role("link", name="Simplistic Wargame with four stats S.E.R.M.").click()
    page.wait_for_url(f"{served}/decks/{SERM}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Simplistic Wargame with four stats S.E.R.M.")
    infobox = page.locator("aside.infobox")
    expect(infobox).to_contain_text("Coprolite Golem")
    expect(infobox).to_contain_text("serm")
    ranger = page.locator("article.card", has=page.get_by_role("heading", name="Ranger"))
    expect(ranger).to_contain_text("Ranger has a 360 degree line of sight.")
    expect(ranger.locator(".corner")).to_have_text("2")
    assert page.locator("#cards article.card").count() == 8
    for tab in ("Talk", "Edit", "History"):
        assert page.locator("nav.tabs").get_by_role("link", name=tab).get_attribute("href") == \
            f"/decks/{SERM}/{tab.lower()}/"
    if shoot:
        page.screenshot(path=screenshots / "deck-page.png", full_page=True)

    page.get_by_role("link", name="Print this deck").click()
    page.wait_for_url(f"{served}/decks/{SERM}/print/")
    cards = page.locator(".print-card")
    assert cards.count() == 5 + 8  # the five Special Rules, each on a card of its own, and the eight soldiers
    expect(cards.first.locator(".label")).to_have_text("Special Rule")
    assert cards.first.bounding_box()["width"] == pytest.approx(5 * 96, abs=1)  # 5 inches wide, as printed
    pdf = page.locator(".print-bar").get_by_role("link", name="PDF").get_attribute("href")
    assert pdf == f"/api/v1/decks/{SERM}/export/pdf/"
    answer = page.request.get(f"{served}{pdf}")
    assert answer.status == 200 and answer.headers["content-type"] == "application/pdf"
    if shoot:
        page.screenshot(path=screenshots / "print-view.png", full_page=True)
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()  # printing leaves out the site's frame and the help
    expect(page.locator(".print-bar")).to_be_hidden()
    expect(cards.first).to_be_visible()

    assert page.blocked == [], "the pages tried to reach outside 127.0.0.1"
    assert errors == []
    assert {response.url.rsplit("/", 1)[-1].split(".")[0] for response in styles} >= {"site", "print"}
    assert all(response.status == 200 for response in styles), [(r.url, r.status) for r in styles]


@pytest.mark.parametrize("served", ["collected"], indirect=True)  # with DEBUG on, Django shows its own 404 page
def test_a_deck_nobody_has_is_the_sites_404_page(served, seed_decks, offline_page):
    response = offline_page.goto(f"{served}/decks/no-such-deck/")
    assert response.status == 404
    expect(offline_page.get_by_role("heading", level=1)).to_have_text("Not found")
    offline_page.get_by_role("link", name="Search the decks").click()
    offline_page.wait_for_url(f"{served}/decks/")
    assert RPSE in offline_page.locator("table.decks").inner_html()


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_play_this_deck_opens_the_lobby_with_the_deck_chosen(served, seed_decks, offline_page):
    page = offline_page
    page.goto(f"{served}/decks/{RPSE}/")
    page.get_by_role("link", name="Play this deck").click()
    page.wait_for_url(f"{served}/play/?deck={RPSE}")
    page.get_by_role("link", name="Sign up").first.click()  # a visitor signs up and comes back to the lobby
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password1]", "blank-cards-forever")
    page.fill("input[name=password2]", "blank-cards-forever")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{served}/play/?deck={RPSE}")
    expect(page.locator("#deck-picker")).to_have_value(RPSE, timeout=WAIT_MS)
    expect(page.locator("#deck-ruleset")).to_contain_text("rock_paper_scissors_extreme")
    assert page.blocked == []
