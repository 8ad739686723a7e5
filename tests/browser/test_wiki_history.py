"""The wiki in a real browser: a player signs up, edits a seed deck with an edit summary, finds the edit in the
deck's history and reads its side-by-side diff, removed words struck out and added words underlined."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from decks.models import Deck

# transaction: the server process reads the seed decks this test commits, and the test reads what it saves
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "blank-cards-forever"
DECK = "socialism"
WAIT_MS = 30_000


@pytest.fixture
def first_card():
    """The seed decks loaded, and the first card of the deck edited (read before the browser starts: while
    Playwright runs, this thread may not use the database)."""
    call_command("load_seed_decks", verbosity=0)
    return Deck.objects.get(slug=DECK).cards.first()


def test_a_player_edits_a_deck_and_reads_the_diff_in_its_history(served, first_card, chromium, screenshots):
    card = first_card
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))

    page.goto(f"{served}/accounts/sign-up/?next=/decks/{DECK}/edit/")
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"{served}/decks/{DECK}/edit/", timeout=WAIT_MS)

    row = page.locator(".wiki-cards tbody tr").filter(has=page.locator(f"input[value='{card.title}']"))
    text = row.locator("textarea[name$='-text']")
    text.fill(card.text + " Then everyone draws a card.")
    page.fill("input[name=summary]", "Everyone draws")
    page.click("#edit-form button[type=submit]")

    page.wait_for_url(f"{served}/decks/{DECK}/history/", timeout=WAIT_MS)
    newest = page.locator(".history-table tbody tr").first
    expect(newest).to_contain_text("Everyone draws")
    expect(newest).to_contain_text("ann")
    page.click("#compare button[type=submit]")
    page.wait_for_url(re.compile(rf".*/decks/{DECK}/history/2/\?against=1$"), timeout=WAIT_MS)

    section = page.locator(".diff-section").filter(has_text=f"Card: {card.title}")
    expect(section.locator(".diff-new ins")).to_contain_text("everyone draws a card.")
    expect(page.locator(".revision-facts")).to_contain_text("Everyone draws")
    page.screenshot(path=screenshots / "deck-history-diff.png", full_page=True)

    page.goto(f"{served}/decks/{DECK}/talk/")
    page.fill("form.talk-form textarea[name=body]", "Should drawing be optional?")
    page.click("form.talk-form button[type=submit]")
    expect(page.locator(".talk-post")).to_contain_text("Should drawing be optional?")
    page.goto(f"{served}/decks/{DECK}/edit/")
    page.screenshot(path=screenshots / "deck-edit.png")
    assert not problems
    context.close()
