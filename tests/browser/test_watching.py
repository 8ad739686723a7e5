"""Watching in a real browser: a player signs up and presses Watch on a seed deck's page; another player edits the
deck; the first finds the notice in the header and on the Notices page, follows it to the edit's diff, finds the
deck on their watchlist, and reads the deck's history as an Atom feed the page names."""

import re

import httpx
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from decks.models import Deck

# transaction: the server process reads the seed decks this test commits
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "blank-cards-forever"
DECK = "socialism"
WAIT_MS = 30_000


@pytest.fixture
def first_card():
    """The seed decks loaded, and the card the other player edits (read before the browser starts: while
    Playwright runs, this thread may not use the database)."""
    call_command("load_seed_decks", verbosity=0)
    return Deck.objects.get(slug=DECK).cards.first()


def sign_up(page, served: str, username: str, then: str) -> None:
    page.goto(f"{served}/accounts/sign-up/?next={then}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"{served}{then}", timeout=WAIT_MS)


def test_a_watcher_sees_the_notice_of_anothers_edit(served, first_card, chromium, screenshots):
    problems = []
    watcher_context = chromium.new_context(viewport={"width": 1280, "height": 900})
    watcher = watcher_context.new_page()
    watcher.on("pageerror", lambda error: problems.append(str(error)))
    sign_up(watcher, served, "ann", f"/decks/{DECK}/")

    watcher.click("#watch button[type=submit]")
    watcher.wait_for_url(f"{served}/decks/{DECK}/", timeout=WAIT_MS)
    expect(watcher.locator("#watch button[type=submit]")).to_have_text("Unwatch")
    expect(watcher.locator(".messages")).to_contain_text("You are watching this deck")
    watcher.screenshot(path=screenshots / "deck-watched.png")

    editor_context = chromium.new_context(viewport={"width": 1280, "height": 900})
    editor = editor_context.new_page()
    sign_up(editor, served, "bob", f"/decks/{DECK}/edit/")
    row = editor.locator(".wiki-cards tbody tr").filter(has=editor.locator(f"input[value='{first_card.title}']"))
    row.locator("textarea[name$='-text']").fill(first_card.text + " Then everyone draws a card.")
    editor.fill("input[name=summary]", "Everyone draws")
    editor.click("#edit-form button[type=submit]")
    editor.wait_for_url(f"{served}/decks/{DECK}/history/", timeout=WAIT_MS)
    expect(editor.locator(".account")).not_to_contain_text("(1)")  # the one who made it is not told
    editor_context.close()

    watcher.goto(f"{served}/")
    expect(watcher.locator(".account a[href='/notifications/']")).to_contain_text("Notices (1)")
    watcher.click(".account a[href='/notifications/']")
    notice = watcher.locator(".notice-item").first
    expect(notice).to_contain_text("Socialism: revision 2 by bob")
    expect(notice).to_contain_text("Everyone draws")
    watcher.screenshot(path=screenshots / "notices.png", full_page=True)
    notice.locator("h2 a").click()
    watcher.wait_for_url(f"{served}/decks/{DECK}/history/2/", timeout=WAIT_MS)
    expect(watcher.locator(".revision-facts")).to_contain_text("Everyone draws")

    watcher.goto(f"{served}/notifications/")
    watcher.click("#read-all button[type=submit]")
    expect(watcher.locator(".account a[href='/notifications/']")).to_have_text("Notices")
    watcher.goto(f"{served}/watchlist/")
    expect(watcher.locator("table.watchlist")).to_contain_text("Socialism")

    watcher.goto(f"{served}/decks/{DECK}/history/")
    feed_path = watcher.locator("link[rel=alternate][type='application/atom+xml']").get_attribute("href")
    assert feed_path == f"/decks/{DECK}/history/feed/"
    atom = httpx.get(f"{served}{feed_path}").text
    assert re.search(r"<title>Socialism: revision 2</title>", atom) and "Everyone draws" in atom
    assert not problems
    watcher_context.close()
