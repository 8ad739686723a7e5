"""The CCG side of the site in a real browser: a player signs up, registers for the Filibuster sample set, builds a
valid deck by counting cards (the page never reloads while they count), saves it, finds it in My decks, exports it
as a Cockatrice file and imports that file back, then plays a Filibuster game with it: created from the lobby with
the deck, joined by a second player with theirs, started, and its first moves made at the table."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from ccg import services as ccg_services
from ccg.models import PlayerDeck
from games.models import Game

# transaction: the server process reads what this test commits (the seed decks, Bob's deck), and the test reads
# what the server commits (the decks saved, the game)
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "blank-cards-forever"
SET = "filibuster-sample-set"
WAIT_MS = 30_000
# Ann's deck: five cards of the set, four copies each (the set's Special Rule: "Decks of at least 20 cards.").
ANNS_CARDS = ["Grassroots Tour", "Stump Speech", "Attack Ad", "Endorsement", "Campaign Office"]


@pytest.fixture
def seed_decks():
    call_command("load_seed_decks", verbosity=0)


@pytest.fixture
def browser_contexts(chromium):
    contexts = []

    def make():
        context = chromium.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def sign_up(context, base: str, username: str, next_path: str):
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.goto(f"{base}/accounts/sign-up/?next={next_path}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(f"{base}{next_path}")
    return page


def mark_no_reload(page):
    page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(page):
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def more(page, title: str, times: int = 1):
    for _ in range(times):
        page.get_by_role("button", name=f"One more {title}", exact=True).click()


def outside_playwright(work):
    """Database work in a thread of its own: while Playwright's sync API is on, this thread counts as async to
    Django, which then refuses the ORM."""
    from django.db import connection

    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def whose_move(*pages):
    """The page that has a move to make now (the table's legal moves), waiting for the game to give one."""
    for _ in range(150):
        for page in pages:
            if page.locator("#moves form.move").count():
                return page
        pages[0].wait_for_timeout(200)
    raise AssertionError("no player was given a move")


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_player_builds_a_valid_deck_from_the_sample_set_and_plays_a_ccg_game_with_it(
        served, seed_decks, browser_contexts, screenshots, django_user_model, tmp_path):
    ann = sign_up(browser_contexts(), served, "ann", f"/decks/{SET}/")

    # The card set's page leads to the builder; the builder offers registering for the set.
    ann.get_by_role("link", name="Build a deck").first.click()
    ann.wait_for_url(f"{served}/decks/{SET}/build/")
    expect(ann.locator("#pool-cards tbody tr")).to_have_count(21, timeout=WAIT_MS)
    expect(ann.locator("#registration")).to_be_visible()
    ann.click("#register")
    expect(ann.locator("#registration")).to_be_hidden(timeout=WAIT_MS)
    mark_no_reload(ann)

    # Counting cards: the size, and the problems as the API words them.
    expect(ann.locator("#deck-valid")).to_have_text(re.compile("Not valid"), timeout=WAIT_MS)
    more(ann, ANNS_CARDS[0], 3)
    expect(ann.locator("#deck-size")).to_have_text("3")
    expect(ann.locator("#deck-problems")).to_have_text("A deck of this set has at least 20 cards; this one has 3.",
                                                       timeout=WAIT_MS)
    more(ann, ANNS_CARDS[0])
    # Search and type filters: cards found by their text, then only the Gambits.
    ann.fill("#card-search", "gain 20")
    expect(ann.locator("#pool-cards tbody tr:visible")).to_have_count(2)  # Endorsement, Think Tank
    more(ann, "Endorsement", 4)
    ann.fill("#card-search", "")
    ann.select_option("#type-filter", "Gambit")
    expect(ann.locator("#pool-cards tbody tr:visible")).to_have_count(10)
    more(ann, "Attack Ad", 4)
    ann.select_option("#type-filter", "")
    for title in (ANNS_CARDS[1], ANNS_CARDS[4]):
        more(ann, title, 4)
    expect(ann.locator("#deck-size")).to_have_text("20")
    expect(ann.locator("#deck-valid")).to_have_text("Valid: this deck may be played.", timeout=WAIT_MS)
    expect(ann.locator("#deck-problems li")).to_have_count(0)
    expect(ann.locator("#by-type")).to_have_text("Campaign 8 · Gambit 8 · Constant 4")
    ann.fill("#deck-name", "Ann's campaign")
    ann.screenshot(path=screenshots / "ccg-builder.png", full_page=True)

    # Saving: the deck is the API's, and the page is now the deck's own, without a reload.
    ann.click("#save-deck")
    ann.wait_for_url(re.compile(rf"{served}/player-decks/\d+/$"), timeout=WAIT_MS)
    expect(ann.locator("#save-status")).to_have_text("Saved.")
    assert_not_reloaded(ann)
    deck_id = int(ann.url.rstrip("/").rsplit("/", 1)[-1])
    owner, name, counts = outside_playwright(lambda: (lambda deck: (
        deck.owner.username, deck.name, sorted(entry.count for entry in deck.entries.all())))(
        PlayerDeck.objects.get(pk=deck_id)))
    assert (owner, name, counts) == ("ann", "Ann's campaign", [4] * 5)
    assert ann.problems == []

    # Export as Cockatrice: the file names the deck and each card with its count.
    with ann.expect_download() as download:
        ann.click("#export-cod")
    assert download.value.suggested_filename == "Ann-s-campaign.cod"
    cod_path = tmp_path / "Ann-s-campaign.cod"
    download.value.save_as(cod_path)
    cod = cod_path.read_text(encoding="utf-8")
    assert "<deckname>Ann's campaign</deckname>" in cod
    assert all(f'<card number="4" name="{title}" />' in cod for title in ANNS_CARDS)

    # Importing that file makes a second deck, shown in the builder at once.
    ann.set_input_files("#import-form input[type=file]", str(cod_path))
    ann.fill("#import-form input[name=name]", "From the file")
    ann.click("#import-form button[type=submit]")
    expect(ann.locator("#deck-name")).to_have_value("From the file", timeout=WAIT_MS)
    expect(ann.locator("#deck-size")).to_have_text("20")
    assert int(ann.url.rstrip("/").rsplit("/", 1)[-1]) != deck_id

    # My decks, from the site's header.
    ann.get_by_role("navigation", name="Site").get_by_role("link", name="My decks").click()
    ann.wait_for_url(f"{served}/player-decks/")
    row = ann.locator(f"#player-decks tr[data-deck='{deck_id}']")
    expect(row).to_contain_text("Ann's campaign")
    expect(row).to_contain_text("valid")
    expect(ann.locator("#player-decks tbody tr")).to_have_count(2)
    ann.screenshot(path=screenshots / "ccg-my-decks.png", full_page=True)

    # A second player, with a deck of their own (built through the same service the API uses).
    bob = sign_up(browser_contexts(), served, "bob", "/play/")
    bobs = outside_playwright(lambda: ccg_services.player_deck_create(
        owner=django_user_model.objects.get(username="bob"), card_set_slug=SET, name="Bob's surge",
        entries={card["id"]: 5 for card in ccg_services.card_set_version_ensure(slug=SET).content["cards"][:4]}))

    # Ann creates a Filibuster game (CCG by default) from the lobby, bringing her deck.
    ann.goto(f"{served}/play/")
    ann.locator(f"#deck-picker option[value='{SET}']").wait_for(state="attached", timeout=WAIT_MS)
    ann.select_option("#deck-picker", SET)
    expect(ann.locator("#player-deck-choice")).to_be_visible()
    expect(ann.locator("#player-deck-picker option")).to_have_count(2)
    ann.select_option("#player-deck-picker", str(deck_id))
    ann.fill("input[name=max_players]", "2")
    ann.screenshot(path=screenshots / "ccg-lobby-create.png", full_page=True)
    ann.click("#create-game button[type=submit]")
    ann.wait_for_url(re.compile(r".*/play/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    expect(ann.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    game_id = ann.url.rstrip("/").rsplit("/", 1)[-1]
    expect(ann.locator("#game-summary")).to_contain_text("filibuster (ccg)")

    # Bob joins it from the lobby with his deck.
    bob.goto(f"{served}/play/")
    join = bob.locator(f"#open-games tr[data-game='{game_id}']")
    join.locator("select.join-deck").wait_for(timeout=WAIT_MS)
    expect(join.locator("select.join-deck")).to_have_value(str(bobs.pk))
    bob.screenshot(path=screenshots / "ccg-lobby-join.png", full_page=True)
    join.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/play/{game_id}/")
    expect(bob.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    expect(ann.locator("#players .player[data-seat='1']")).to_contain_text("bob", timeout=WAIT_MS)
    mark_no_reload(ann)
    mark_no_reload(bob)

    ann.locator("form.move[data-move-type='start'] button").click()
    for page in (ann, bob):
        expect(page.locator("#game-status")).to_have_text("active", timeout=WAIT_MS)
    expect(ann.locator("#players .player[data-seat='0']")).to_contain_text("deck: Ann's campaign")
    expect(ann.locator("#my-hand .card")).to_have_count(5, timeout=WAIT_MS)
    hand = ann.locator("#my-hand .card .card-title").all_text_contents()
    assert set(hand) <= set(ANNS_CARDS), hand  # dealt from her own deck
    assert outside_playwright(lambda: Game.objects.values_list("ruleset", "variant").get(pk=game_id)) == (
        "filibuster", "ccg")
    assert outside_playwright(lambda: PlayerDeck.objects.get(pk=deck_id).games_in_play) == [game_id]

    # The first moves: whoever is asked answers (a pass), until a Campaign is played to begin the campaign.
    for _ in range(8):
        page = whose_move(ann, bob)
        version = page.evaluate("window.playClient.live.version")
        kinds = page.locator("#moves form.move").evaluate_all("forms => forms.map(f => f.dataset.moveType)")
        kind = "play" if "play" in kinds else "pass" if "pass" in kinds else kinds[0]
        page.locator(f"#moves form.move[data-move-type='{kind}'] button").first.click()
        page.wait_for_function(f"window.playClient.live.version > {version}", timeout=WAIT_MS)
        if kind == "play":
            break
    else:
        raise AssertionError("no Campaign was played")
    for page in (ann, bob):
        expect(page.locator("#log")).to_contain_text("played", timeout=WAIT_MS)
        assert_not_reloaded(page)
    ann.screenshot(path=screenshots / "ccg-table.png", full_page=True)

    # While the game plays it, the deck's page says so and does not let it be tuned.
    ann.goto(f"{served}/player-decks/{deck_id}/")
    expect(ann.locator("#in-game")).to_be_visible(timeout=WAIT_MS)
    expect(ann.locator("#save-deck")).to_be_disabled()
    assert ann.problems == [] and bob.problems == []


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_registered_players_change_the_set_and_a_deck_left_behind_is_updated_in_one_click(
        served, seed_decks, browser_contexts, screenshots, django_user_model):
    ann = sign_up(browser_contexts(), served, "ann", f"/decks/{SET}/versions/")
    bob = sign_up(browser_contexts(), served, "bob", f"/decks/{SET}/versions/")
    for page in (ann, bob):
        expect(page.locator("#propose-panel")).to_be_hidden()
        page.click("#register")
        expect(page.locator("#registered")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#propose-panel")).to_be_visible()
    expect(bob.locator("#players-count")).to_have_text("2 registered players.")
    stump = outside_playwright(lambda: next(card for card in ccg_services.card_set_version_ensure(slug=SET).content["cards"]
                                            if card["title"] == "Stump Speech"))
    deck = outside_playwright(lambda: ccg_services.player_deck_create(
        owner=django_user_model.objects.get(username="ann"), card_set_slug=SET, name="Speeches",
        entries={stump["id"]: 20}))
    mark_no_reload(ann)
    mark_no_reload(bob)

    # Bob proposes a new text for Stump Speech: the form starts from the card's own fields.
    bob.select_option("#change-kind", "change")
    bob.select_option("#change-card", str(stump["id"]))
    expect(bob.locator("textarea[name=text]")).to_have_value(stump["text"])
    bob.fill("textarea[name=text]", "Gain 12 points and draw a card.")
    bob.click("#propose-change button[type=submit]")
    change = bob.locator("#open-changes .change.open")
    expect(change).to_contain_text("Change “Stump Speech”", timeout=WAIT_MS)
    expect(change).to_contain_text("Accepted by bob.")
    # And a removal, which he withdraws: his own objection rejects it.
    bob.select_option("#change-kind", "remove")
    bob.select_option("#change-card", label="Scandal (Gambit)")
    bob.click("#propose-change button[type=submit]")
    expect(bob.locator("#open-changes .change.open")).to_have_count(2, timeout=WAIT_MS)
    bob.locator("#open-changes .change.open").filter(has_text="Remove “Scandal”").get_by_role("button", name="Withdraw").click()
    expect(bob.locator("#decided-changes .change.rejected")).to_contain_text("Remove “Scandal”", timeout=WAIT_MS)

    # Ann sees the open change with what it changes, and accepts it: it passes, and version 2 is built.
    ann.reload()
    opened = ann.locator("#open-changes .change.open")
    expect(opened).to_have_count(1, timeout=WAIT_MS)
    expect(opened.locator("del")).to_have_text(stump["text"])
    expect(opened.locator("ins")).to_have_text("Gain 12 points and draw a card.")
    mark_no_reload(ann)
    opened.get_by_role("button", name="Accept").click()
    expect(ann.locator("#decided-changes .change.accepted")).to_contain_text("in version 2", timeout=WAIT_MS)
    expect(ann.locator("#versions > li")).to_have_count(2)
    expect(ann.locator("#version-2")).to_contain_text("Changed card 'Stump Speech': text")
    ann.screenshot(path=screenshots / "ccg-versions.png", full_page=True)
    assert_not_reloaded(ann)
    assert_not_reloaded(bob)

    # Ann's deck followed the set; one left behind on version 1 shows the change and is updated in one click.
    assert outside_playwright(lambda: PlayerDeck.objects.get(pk=deck.pk).version) == 2
    outside_playwright(lambda: PlayerDeck.objects.filter(pk=deck.pk).update(version=1))
    ann.goto(f"{served}/player-decks/{deck.pk}/")
    outdated = ann.locator("#outdated")
    expect(outdated).to_be_visible(timeout=WAIT_MS)
    expect(outdated).to_contain_text("the set is now at version 2")
    expect(outdated.locator("#outdated-diff")).to_contain_text("Stump Speech changed")
    expect(outdated.locator("#outdated-diff ins")).to_have_text("Gain 12 points and draw a card.")
    ann.screenshot(path=screenshots / "ccg-deck-outdated.png", full_page=True)
    mark_no_reload(ann)
    ann.click("#update-deck")
    expect(outdated).to_be_hidden(timeout=WAIT_MS)
    expect(ann.locator("#save-status")).to_have_text("Updated to version 2 (changed: Stump Speech).")
    expect(ann.locator("#pool-version")).to_have_text("(version 2)")
    assert_not_reloaded(ann)
    assert outside_playwright(lambda: PlayerDeck.objects.get(pk=deck.pk).version) == 2
    assert ann.problems == [] and bob.problems == []


def create_ccg_game(page, base: str, deck_id: int) -> str:
    """A Filibuster game of two (CCG by default) made in the lobby with the player deck ``deck_id``: its id, its
    table open."""
    page.goto(f"{base}/play/")
    page.locator(f"#deck-picker option[value='{SET}']").wait_for(state="attached", timeout=WAIT_MS)
    page.select_option("#deck-picker", SET)
    page.select_option("#player-deck-picker", str(deck_id))
    page.fill("input[name=max_players]", "2")
    page.click("#create-game button[type=submit]")
    page.wait_for_url(re.compile(r".*/play/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_ccg_table_is_joined_with_a_deck_and_its_computer_player_brings_one_too(
        served, seed_decks, browser_contexts, screenshots, django_user_model):
    """The table page, not only the lobby, seats a player at a CCG table with one of their decks: Bob, who has
    none, is told so and sent to the builder; with one, he joins with it from the table. At another table Ann adds
    a computer player, which plays a copy of the deck she chooses for it, and the game goes on with it."""
    cards = outside_playwright(lambda: ccg_services.card_set_version_ensure(slug=SET).content["cards"])

    def deck_of(username, name):
        return outside_playwright(lambda: ccg_services.player_deck_create(
            owner=django_user_model.objects.get(username=username), card_set_slug=SET, name=name,
            entries={card["id"]: 5 for card in cards[:4]}).pk)

    ann = sign_up(browser_contexts(), served, "ann", "/play/")
    bob = sign_up(browser_contexts(), served, "bob", "/play/")
    anns, spare = deck_of("ann", "Ann's campaign"), deck_of("ann", "Ann's spare")
    game_id = create_ccg_game(ann, served, anns)

    # Bob has no deck of the set: the table says so, with the way to build one, and offers no Join.
    bob.goto(f"{served}/play/{game_id}/")
    no_deck = bob.locator("#moves .no-deck")
    expect(no_deck).to_have_text("You have no valid deck of this set. Build a deck of it.", timeout=WAIT_MS)
    expect(no_deck.get_by_role("link", name="Build a deck of it")).to_have_attribute("href", f"/decks/{SET}/build/")
    expect(bob.get_by_role("button", name="Join this game")).to_have_count(0)
    bob.screenshot(path=screenshots / "ccg-table-no-deck.png", full_page=True)

    # With a deck, he joins from the table with it: his seat shows it, and the game deals from it.
    bobs = deck_of("bob", "Bob's surge")
    bob.reload()
    picker = bob.get_by_role("combobox", name="Your deck for this game")
    expect(picker).to_have_value(str(bobs), timeout=WAIT_MS)
    bob.screenshot(path=screenshots / "ccg-table-join.png", full_page=True)
    mark_no_reload(bob)
    bob.get_by_role("button", name="Join this game").click()
    expect(bob.locator("#players .player.me")).to_contain_text("deck: Bob's surge", timeout=WAIT_MS)
    expect(ann.locator("#players .player[data-seat='1']")).to_contain_text("deck: Bob's surge", timeout=WAIT_MS)
    ann.locator("form.move[data-move-type='start'] button").click()
    expect(bob.locator("#game-status")).to_have_text("active", timeout=WAIT_MS)
    expect(bob.locator("#my-hand .card")).to_have_count(5, timeout=WAIT_MS)
    assert set(bob.locator("#my-hand .card .card-title").all_text_contents()) <= {card["title"] for card in cards[:4]}
    assert_not_reloaded(bob)

    # At a second table Ann plays against the computer: it brings by default the deck she brought, or another.
    second = create_ccg_game(ann, served, anns)
    computer_deck = ann.get_by_role("combobox", name="The computer player's deck")
    expect(computer_deck).to_have_value(str(anns), timeout=WAIT_MS)
    computer_deck.select_option(str(spare))
    ann.screenshot(path=screenshots / "ccg-table-add-computer.png", full_page=True)
    ann.get_by_role("button", name="Add a computer player").click()
    computer = ann.locator("#players .player[data-seat='1']")
    expect(computer).to_contain_text("computer", timeout=WAIT_MS)
    expect(computer).to_contain_text("deck: Ann's spare")
    ann.locator("form.move[data-move-type='start'] button").click()
    expect(ann.locator("#game-status")).to_have_text("active", timeout=WAIT_MS)
    # The computer player takes part: Ann answers what she is asked (a pass where she may) until it has moved.
    computer_moved = "window.playClient.log.some((e) => e.actor === 'Computer 1' && e.type !== 'player.joined')"
    for _ in range(8):
        if ann.evaluate(computer_moved):
            break
        whose_move(ann)
        if ann.evaluate(computer_moved):
            break
        version = ann.evaluate("window.playClient.live.version")
        kinds = [kind for kind in ann.locator("#moves form.move").evaluate_all("forms => forms.map(f => f.dataset.moveType)")
                 if kind not in ("concede", "abandon")]
        ann.locator(f"#moves form.move[data-move-type='{'pass' if 'pass' in kinds else kinds[0]}'] button").first.click()
        ann.wait_for_function(f"window.playClient.live.version > {version}", timeout=WAIT_MS)
    ann.wait_for_function(computer_moved, timeout=WAIT_MS)
    ann.screenshot(path=screenshots / "ccg-table-against-the-computer.png", full_page=True)
    assert outside_playwright(lambda: sorted(PlayerDeck.objects.get(pk=spare).games_in_play)) == [second]
    assert ann.problems == [] and bob.problems == []
