"""The play client in a real browser: players sign up, create a game in the lobby, join it, play it to its end
through the legal moves, a creative proposal and an effect move, each page following the game live without a
reload; a third player watches; and nothing a player may not see reaches their page or their websocket."""

import json
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from dvorak_engine.rulesets.dvorak.state import cards_visible_to
from games import services
from games.models import Game

# transaction: the server process reads what this test commits (the seed decks), and the test reads what the
# server commits (the game's events)
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "blank-cards-forever"
DECK = "rock-paper-scissors-extreme-deck"  # a seed deck, played here by Dvorak's Basic and Creative Rules
SERM_DECK = "simplistic-wargame-with-four-stats-s-e-r-m"
SOCIALISM_DECK = "socialism"
WAIT_MS = 30_000


@pytest.fixture
def seed_decks():
    call_command("load_seed_decks", verbosity=0)


@pytest.fixture
def browser_contexts(chromium):
    contexts = []

    def make():
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def sign_up(context, base: str, username: str):
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda error: page.problems.append(str(error)))
    page.goto(f"{base}/accounts/sign-up/?next=/play/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit], main form input[type=submit]").first.click()
    page.wait_for_url(f"{base}/play/")
    return page


def create_game(page, deck: str, *, ruleset: str = "", creative: bool = False, max_players: int = 2) -> str:
    page.locator(f"#deck-picker option[value='{deck}']").wait_for(state="attached", timeout=WAIT_MS)
    page.select_option("#deck-picker", deck)
    page.select_option("#ruleset-picker", ruleset)
    page.fill("input[name=max_players]", str(max_players))
    if creative:
        page.check("input[name=creative]")
    page.click("#create-game button[type=submit]")
    page.wait_for_url(re.compile(r".*/play/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def join_from_lobby(page, game_id: str, screenshot=None):
    page.goto(page.url.split("/play/")[0] + "/play/")
    join = page.locator(f"#open-games tr[data-game='{game_id}'] button")
    join.wait_for(timeout=WAIT_MS)
    if screenshot:
        page.screenshot(path=screenshot, full_page=True)
    join.click()
    page.wait_for_url(f"**/play/{game_id}/")
    expect(page.locator("#live")).to_have_text("live", timeout=WAIT_MS)


def click_move(page, move_type: str, label: str | None = None):
    form = page.locator(f"form.move[data-move-type='{move_type}']")
    if label:
        form = form.filter(has=page.get_by_role("button", name=re.compile(label)))
    form.first.locator("button").click(timeout=WAIT_MS)


def mark_no_reload(*pages):
    for page in pages:
        page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(*pages):
    for page in pages:
        assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def expect_status(page, status: str):
    expect(page.locator("#game-status")).to_have_text(status, timeout=WAIT_MS)


def seat_to_play(page) -> int:
    return page.evaluate("window.playClient.live.turn.seat")


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_two_players_play_a_creative_game_to_its_end_while_a_third_watches(
        served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    cat = sign_up(browser_contexts(), served, "cat")

    game_id = create_game(ann, DECK, ruleset="dvorak", creative=True)
    expect(ann.locator("#game-summary")).to_contain_text("dvorak, creative")
    cat.goto(f"{served}/play/{game_id}/")
    expect(cat.locator("#live")).to_have_text("live", timeout=WAIT_MS)
    expect(cat.locator("#moves")).to_contain_text("You are watching")
    mark_no_reload(ann, cat)

    join_from_lobby(bob, game_id, screenshot=screenshots / "lobby.png")
    mark_no_reload(bob)
    for page in (ann, cat):  # the join reaches the pages already open
        expect(page.locator("#players .player[data-seat='1']")).to_contain_text("bob", timeout=WAIT_MS)
        expect(page.locator("#log")).to_contain_text("bob took seat 1")

    click_move(ann, "start")
    for page in (ann, bob, cat):
        expect_status(page, "active")
    expect(ann.locator("#my-hand .card")).to_have_count(5)
    expect(bob.locator("#my-hand .card")).to_have_count(5)
    expect(cat.locator("#my-hand")).to_have_count(0)
    expect(cat.locator("#players .player[data-seat='0']")).to_contain_text("Hand: 5 cards")

    # An effect move the server refuses: its JSON error is shown as a sentence, and nothing happened.
    ann.select_option("#effect-form select[name=type]", "destroy")
    ann.click("#effect-form button[type=submit]")
    expect(ann.locator("#play-error")).to_contain_text("card", timeout=WAIT_MS)
    expect(ann.locator("#play-error code")).to_have_text("invalid")

    # A creative proposal, voted in by both. Ann's page first catches up with the game (a live update that arrives
    # late re-draws the form: a field Playwright is filling at that moment is the one replaced, not the new one).
    expect(ann.locator("body")).to_have_attribute("data-version", str(game_version(game_id)), timeout=WAIT_MS)
    ann.select_option("#propose-form select[name=kind]", "special_rule")
    ann.fill("#propose-form input[name=title]", "Quick draw")
    ann.fill("#propose-form textarea[name=text]", "Whoever draws a card in their own turn wins the game.")
    # Bob carries out a card meanwhile (a roll of a die): Ann's page follows, and keeps what she was writing.
    bob.select_option("#effect-form select[name=type]", "roll")
    bob.click("#effect-form button[type=submit]")
    expect(ann.locator("#log")).to_contain_text("bob rolled 1d6", timeout=WAIT_MS)
    expect(ann.locator("#propose-form select[name=kind]")).to_have_value("special_rule")
    expect(ann.locator("#propose-form input[name=title]")).to_have_value("Quick draw")
    ann.click("#propose-form button[type=submit]")
    for page in (ann, bob, cat):
        expect_status(page, "voting")
        expect(page.locator(".proposal[data-proposal='1']")).to_contain_text("open")
    # "presented to the other players for their immediate judgment": Ann, its author, has no vote on it.
    expect(bob.locator("form.move[data-move-type='vote']").first).to_be_visible(timeout=WAIT_MS)
    expect(ann.locator("form.move[data-move-type='vote']")).to_have_count(0)
    click_move(bob, "vote", "^vote for proposal 1")
    expect(ann.locator(".proposal[data-proposal='1']")).to_contain_text("bob for", timeout=WAIT_MS)
    for page in (ann, bob, cat):
        expect(page.locator(".proposal[data-proposal='1'] .status")).to_have_text("accepted", timeout=WAIT_MS)
        expect(page.locator("#piles")).to_contain_text("Quick draw")
        expect_status(page, "active")
    # The deck's "Players begin with no cards and can have a maximum of three." is a Special Rule the server does not
    # read: the players keep those numbers, and the page says so.
    expect(cat.locator("p.unenforced")).to_contain_text("hand_limit, starting_hand")
    expect(cat.locator("#log")).to_contain_text("ann proposed the Special Rule \"Quick draw\" (proposal 1)")
    expect(cat.locator("#log")).to_contain_text("bob voted for proposal 1")
    expect(cat.locator("#log")).to_contain_text("bob rolled 1d6")

    # The player whose turn it is draws, then carries out the new Special Rule: they win.
    player, other = (ann, bob) if seat_to_play(ann) == 0 else (bob, ann)
    name, other_name = ("ann", "bob") if player is ann else ("bob", "ann")
    click_move(player, "draw")
    expect(other.locator("#log")).to_contain_text(f"{name} drew a card", timeout=WAIT_MS)
    expect(player.locator("#log")).to_contain_text(re.compile(f"{name} drew (?!a card)"))
    latest = ann.locator("#log li").first.get_attribute("data-version")
    expect(ann.locator("body")).to_have_attribute("data-version", latest)  # the table caught up with its log
    ann.screenshot(path=screenshots / "table-midgame.png", full_page=True)

    player.select_option("#effect-form select[name=type]", "win")
    player.select_option("#effect-form select[name=cause]", label="Quick draw")
    player.click("#effect-form button[type=submit]")
    for page in (ann, bob, cat):
        expect_status(page, "finished")
        expect(page.locator(f"#players .player:has-text('{name}') .badge.win")).to_have_text("winner")
        expect(page.locator("#log")).to_contain_text(f"{name} won the game (carrying out Quick draw)")
    expect(other.locator("#moves")).to_contain_text("The game is over")
    assert_not_reloaded(ann, bob, cat)

    # Replay: the game as it was before the start, then live again.
    cat.locator("#log li[data-version='3'] button").click()
    expect(cat.locator("#game-summary")).to_contain_text("replaying version 3")
    expect_status(cat, "open")
    cat.click("#replay-live")
    expect_status(cat, "finished")

    for page in (ann, bob, cat):
        assert page.problems == [], page.problems


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_table_resumes_after_its_websocket_drops(served, seed_decks, browser_contexts):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    game_id = create_game(ann, DECK, ruleset="dvorak", max_players=2)
    join_from_lobby(bob, game_id)
    click_move(ann, "start")
    expect_status(bob, "active")
    expect_status(ann, "active")
    mark_no_reload(bob)

    connects = int(bob.locator("#live").get_attribute("data-connects"))
    bob.evaluate("window.playClient.socket.close()")
    player = ann if seat_to_play(ann) == 0 else bob
    name = "ann" if player is ann else "bob"
    click_move(player, "draw")  # while (or just after) Bob's socket is down
    expect(bob.locator("#live")).to_have_attribute("data-connects", str(connects + 1), timeout=WAIT_MS)
    expect(bob.locator("#log")).to_contain_text(f"{name} drew", timeout=WAIT_MS)
    versions = bob.locator("#log li").evaluate_all("items => items.map(i => Number(i.dataset.version))")
    assert sorted(versions) == list(range(1, max(versions) + 1)), "an event was missed or shown twice"
    assert_not_reloaded(bob)


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_the_serm_field_and_the_socialism_grid(served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    game_id = create_game(ann, SERM_DECK, max_players=2)
    join_from_lobby(bob, game_id)
    click_move(ann, "start")
    expect(bob.locator(".serm-field .soldier")).to_have_count(16, timeout=WAIT_MS)
    expect(bob.locator("#board-title")).to_have_text("The field")  # the title the ruleset gives its board
    for page in (ann, bob):  # both tables caught up: no later update re-draws the move forms under the clicks
        expect(page.locator("body")).to_have_attribute("data-version", str(game_version(game_id)), timeout=WAIT_MS)
    starter, waiting = (ann, bob) if ann.evaluate("window.playClient.live.board.initiative") == 0 else (bob, ann)
    seat = 0 if starter is ann else 1
    guardsman = f"{seat}-guardsman"
    turn = starter.locator("form.move[data-move-type='turn']").filter(
        has=starter.get_by_role("button", name="turn soldier Guardsman"))
    turns = starter.locator("form.move[data-move-type='turn'] select[name=facing]")
    assert turns.count() > 1
    # Each soldier's form keeps its own choice when a live update re-draws the moves (they were once all reset to
    # the first form's).
    turn.locator("select[name=facing]").select_option(label="E")
    other = starter.locator("form.move[data-move-type='turn']").filter(
        has_not=starter.get_by_role("button", name="turn soldier Guardsman")).first
    other.locator("select[name=facing]").select_option(label="W")
    starter.evaluate("window.playClient.render()")
    chosen = lambda form: form.locator("select[name=facing] option:checked").inner_text()  # noqa: E731
    assert (chosen(turn), chosen(other)) == ("E", "W")
    turn.locator("button").click()
    # "Turning counts as the start and end of a Move": the enemy, who sees the Guardsman, may React; it passes.
    click_move(waiting, "pass")
    expect(waiting.locator("#log")).to_contain_text("Guardsman moved to", timeout=WAIT_MS)
    expect(waiting.locator(f".serm-field [data-soldier='{guardsman}'] title")).to_contain_text("facing E")
    ranger = f"{seat}-ranger"  # it sees all round: the enemies in its sight have lines drawn to them
    starter.locator(f".serm-field [data-soldier='{ranger}']").click()
    sees = starter.evaluate(f"window.playClient.live.board.soldiers.find(s => s.id === '{ranger}').in_sight")
    assert sees
    expect(starter.locator(f".serm-field .sight-line[data-from='{ranger}']")).to_have_count(len(sees))
    expect(starter.locator(".sight-note")).to_contain_text("Lines of sight of Ranger")
    starter.locator("#board-panel").screenshot(path=screenshots / "board-serm.png")

    carl = sign_up(browser_contexts(), served, "carl")
    dora = sign_up(browser_contexts(), served, "dora")
    # About one deal in twenty leaves the first player no site to place (a hand of Actions and users only): then
    # the pair starts another game, as players would.
    for _ in range(5):
        game_id = create_game(carl, SOCIALISM_DECK, max_players=2)
        join_from_lobby(dora, game_id)
        click_move(carl, "start")
        expect_status(carl, "active")
        # Each step waits for the pages to be caught up with the game: a live update arriving later re-draws the
        # move forms, and a click on a form being re-drawn is lost.
        for page in (carl, dora):
            expect(page.locator("body")).to_have_attribute("data-version", str(game_version(game_id)),
                                                           timeout=WAIT_MS)
        first = carl if carl.evaluate("window.playClient.live.board.turn.seat") == 0 else dora
        click_move(first, "draw")
        expect(first.locator("form.move[data-move-type='play']").first).to_be_visible(timeout=WAIT_MS)
        expect(first.locator("body")).to_have_attribute("data-version", str(game_version(game_id)), timeout=WAIT_MS)
        placing = first.locator("form.move[data-move-type='play']").filter(
            has=first.get_by_role("button", name=re.compile(r"x 0 y 0")))
        if placing.count():
            break
        carl.goto(served + "/play/")
    else:
        pytest.fail("five deals in a row with no site for the first player")
    click_move(first, "play", r"x 0 y 0")
    for page in (carl, dora):
        if page is not first:
            expect(page.locator("form.move[data-move-type='pass']")).to_have_count(1, timeout=WAIT_MS)
            click_move(page, "pass")
    click_move(first, "invite", "^invite how auto")
    for page in (carl, dora):
        expect(page.locator(".social-grid td.user-cell[data-cell='0,0'] .token")).to_have_count(1, timeout=WAIT_MS)
    first.locator("#board-panel").screenshot(path=screenshots / "board-socialism.png")


def outside_playwright(work):
    """Run database work in a thread of its own: while Playwright's sync API is on, this thread counts as async to
    Django, which then refuses the ORM."""
    from django.db import connection

    def run():
        try:
            return work()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def game_version(game_id: str) -> int:
    return outside_playwright(lambda: Game.objects.get(pk=game_id).version)


def hidden_from(game_id: str, seat: int | None) -> tuple[set[str], set[str]]:
    return outside_playwright(lambda: _hidden_from(game_id, seat))


def _hidden_from(game_id: str, seat: int | None) -> tuple[set[str], set[str]]:
    """The ids and titles of the cards ``seat`` may not see now, from the server's whole state."""
    game = Game.objects.get(pk=game_id)
    state = services.state_at(game.stream_id, game.version)
    table = state.table
    visible = cards_visible_to(state, seat)
    hidden = set(table.cards) - visible
    visible_titles = {table.cards[card].title for card in visible}
    return hidden, {table.cards[card].title for card in hidden} - visible_titles


def capture(page):
    """Every websocket frame the page receives and every API answer it reads."""
    page.frames_received, page.answers = [], []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda payload: page.frames_received.append(payload)))
    page.on("response", lambda response: page.answers.append(response) if "/api/v1/" in response.url or "/watch/" in response.url else None)


def leaks(page, ids: set[str], titles: set[str]) -> list[str]:
    bodies = [page.content(), *map(str, page.frames_received)]
    for response in page.answers:
        try:
            bodies.append(response.text())
        except Exception:  # a redirect or an aborted request has no body
            pass
    found = []
    for body in bodies:
        found += [card for card in ids if card in body]
        found += [title for title in titles if re.search(r'"title":\s*' + re.escape(json.dumps(title)), body)]
    shown = page.locator(".card-title").all_inner_texts()
    log = page.inner_text("#log")
    found += [title for title in titles if title in shown or title in log]
    return sorted(set(found))


@pytest.mark.parametrize("served", ["collected"], indirect=True)
def test_no_page_or_websocket_frame_holds_a_card_hidden_from_its_viewer(served, seed_decks, browser_contexts):
    ann_context, bob_context, cat_context = browser_contexts(), browser_contexts(), browser_contexts()
    ann = sign_up(ann_context, served, "ann")
    capture(ann)
    game_id = create_game(ann, DECK, ruleset="dvorak", creative=True)
    bob = sign_up(bob_context, served, "bob")
    capture(bob)
    join_from_lobby(bob, game_id)
    cat = sign_up(cat_context, served, "cat")
    capture(cat)
    cat.goto(f"{served}/play/{game_id}/")
    click_move(ann, "start")
    expect_status(ann, "active")
    player = ann if seat_to_play(ann) == 0 else bob
    click_move(player, "draw")
    for page in (ann, bob, cat):
        expect(page.locator("#log")).to_contain_text("drew", timeout=WAIT_MS)
        expect(page.locator("body")).to_have_attribute("data-version", str(game_version(game_id)),
                                                      timeout=WAIT_MS)
    anonymous = browser_contexts().new_page()
    capture(anonymous)
    anonymous.goto(f"{served}/play/{game_id}/")
    expect(anonymous.locator("#live")).to_contain_text("watching", timeout=WAIT_MS)

    for page, seat in ((ann, 0), (bob, 1), (cat, None), (anonymous, None)):
        ids, titles = hidden_from(game_id, seat)
        assert len(ids) >= 5 and titles, "the test needs cards hidden from this viewer"
        assert page.frames_received or page is anonymous, "the page had no websocket frames to check"
        assert leaks(page, ids, titles) == [], f"seat {seat} was shown cards it may not see"
    # and the check can fail: Ann's own hand is hidden from Bob, and is on Ann's page
    bob_hidden, bob_hidden_titles = hidden_from(game_id, 1)
    ann_hand = {card for card in bob_hidden if card in ann.content()}
    assert ann_hand and leaks(ann, set(), bob_hidden_titles), "Ann's hand should be on her own page"


def test_odds_and_evens_plays_in_the_browser_with_no_page_of_its_own(served, seed_decks, browser_contexts,
                                                                      screenshots):
    """The eighth game brought no change to the pages: the lobby offers it from the registry, the table draws its
    state and its moves as it draws any ruleset's, and a throw stays secret until both are in."""
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    game_id = create_game(ann, "socialism", ruleset="odds_and_evens")
    join_from_lobby(bob, game_id)
    click_move(ann, "start")
    for page in (ann, bob):
        expect(page.locator("form.move[data-move-type='throw']")).to_have_count(1, timeout=WAIT_MS)
    # Fingers are numbers, not seats (a number was once labelled as the player in that seat).
    fingers = ann.locator("form.move[data-move-type='throw'] select[name=fingers] option")
    assert fingers.all_inner_texts() == ["1", "2", "3", "4", "5"]
    click_move(ann, "throw")
    expect(ann.locator("form.move[data-move-type='throw']")).to_have_count(0, timeout=WAIT_MS)
    # Bob's page hears of the throw over its socket, a moment after Ann's own answer: only that a throw was made.
    bob.wait_for_function("() => (window.playClient.live.choices || {}).made?.length === 1", timeout=WAIT_MS)
    assert bob.evaluate("window.playClient.live.choices.made") == [{"seat": 0}]
    click_move(bob, "throw")
    # Both throws revealed: the next round's throw offered again to each.
    for page in (ann, bob):
        expect(page.locator("form.move[data-move-type='throw']")).to_have_count(1, timeout=WAIT_MS)
    expect(ann.locator("body")).to_have_attribute("data-version", str(game_version(game_id)), timeout=WAIT_MS)
    sums = ann.evaluate("window.playClient.live.sums")
    assert ann.evaluate("window.playClient.live.round") == 2 and len(sums) == 1 and 2 <= sums[0] <= 10
    ann.screenshot(path=screenshots / "odds-and-evens.png", full_page=True)
    assert not ann.problems and not bob.problems


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_player_leaves_an_open_table_and_its_creator_cancels_it(served, seed_decks, browser_contexts,
                                                                 screenshots):
    """Issue 34, "Live tables": "`POST /games/{id}/leave/` frees a player's seat in an open game ...
    `DELETE /games/{id}/` by the creator cancels an open game (204; the game then shows status `cancelled` and
    leaves the lobby)". The table offers "Leave the table" to a seated player and "Cancel game" to its creator,
    from the listed moves; every page follows live, and the log says what happened."""
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    cat = sign_up(browser_contexts(), served, "cat")
    game_id = create_game(ann, DECK, ruleset="dvorak", max_players=3)
    join_from_lobby(bob, game_id)
    expect(bob.get_by_role("button", name="Leave the table")).to_be_visible(timeout=WAIT_MS)
    expect(ann.get_by_role("button", name="Cancel game")).to_be_visible(timeout=WAIT_MS)
    mark_no_reload(ann, bob)

    click_move(bob, "leave")
    # Bob is a spectator of the open table again, who may join it; Ann's page saw him go, live.
    expect(bob.locator("button.join")).to_be_visible(timeout=WAIT_MS)
    expect(ann.locator("#players")).not_to_contain_text("bob", timeout=WAIT_MS)
    expect(ann.locator("#log")).to_contain_text("bob left the table, giving up seat 1", timeout=WAIT_MS)
    assert outside_playwright(lambda: list(Game.objects.get(pk=game_id).seats.values_list("user__username", flat=True))) \
        == ["ann"]

    join_from_lobby(cat, game_id)  # the freed seat is taken
    expect(ann.locator("#players")).to_contain_text("cat", timeout=WAIT_MS)
    ann.screenshot(path=screenshots / "table-open-after-leaving.png", full_page=True)
    click_move(ann, "cancel")
    for page in (ann, cat):
        expect_status(page, "cancelled")
        expect(page.locator("#moves")).to_contain_text("The game was cancelled.", timeout=WAIT_MS)
    expect(ann.locator("#log")).to_contain_text("ann cancelled the game", timeout=WAIT_MS)
    ann.screenshot(path=screenshots / "table-cancelled.png", full_page=True)
    assert_not_reloaded(ann, bob)
    assert outside_playwright(lambda: Game.objects.get(pk=game_id).status) == "cancelled"

    # The lobby's open games no longer hold it.
    bob.goto(f"{served}/play/")
    expect(bob.locator("#open-games")).to_be_visible(timeout=WAIT_MS)
    bob.locator("#my-games tr, #my-games td").first.wait_for(timeout=WAIT_MS)
    expect(bob.locator(f"#open-games tr[data-game='{game_id}']")).to_have_count(0)
    assert not ann.problems and not bob.problems and not cat.problems


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_draft_plays_in_the_browser_against_a_computer_player_with_no_page_of_its_own(
        served, seed_decks, browser_contexts, screenshots):
    """A booster draft brought no change to the pages either: Ann creates a draft of the sample set in the lobby,
    seats a computer player, picks each card from the moves the table draws ("pick <title>"), sees her own pack and
    picks and only the counts of the computer player's, and ends with a player deck of her picks."""
    from ccg.models import PlayerDeck

    ann = sign_up(browser_contexts(), served, "ann")
    game_id = create_game(ann, "filibuster-sample-set", ruleset="draft")
    ann.select_option("#add-computer select[name=level]", "greedy")
    ann.click("#add-computer button[type=submit]")
    expect(ann.locator(".player[data-seat='1']")).to_contain_text("computer · greedy", timeout=WAIT_MS)
    click_move(ann, "start")
    picked = []
    for _ in range(12):
        pick = ann.locator("form.move[data-move-type='pick'] button").first
        pick.wait_for(timeout=WAIT_MS)
        label = pick.inner_text()
        assert re.fullmatch(r"pick \S.*", label) and not re.fullmatch(r"pick \d+", label), label  # a title, not an id
        picked.append(label.removeprefix("pick "))
        if len(picked) == 1:  # her pack, as cards in her seat; the computer player's only counted
            expect(ann.locator(".player.me .zone h4", has_text="pack")).to_be_visible()
            expect(ann.locator(".player[data-seat='1']")).to_contain_text("pack count: 4")
            ann.screenshot(path=screenshots / "draft-pick.png", full_page=True)
        pick.click()
        ann.wait_for_function(f"() => window.playClient.live.players[0].picks_count >= {len(picked)}",
                              timeout=WAIT_MS)
    expect_status(ann, "finished")
    expect(ann.locator("#moves")).to_contain_text("The game is over.", timeout=WAIT_MS)
    me = ann.locator(".player[data-seat='0']")
    expect(me).to_contain_text("picks count: 12")
    assert sorted(ann.evaluate("window.playClient.live.players[0].picks.map((card) => card.title)")) == sorted(picked)
    computer = ann.evaluate("window.playClient.live.players[1]")
    assert computer["picks_count"] == 12 and "picks" not in computer and "pack" not in computer
    ann.screenshot(path=screenshots / "draft-over.png", full_page=True)
    decks = outside_playwright(lambda: [(deck.owner.username, deck.name, sum(e.count for e in deck.entries.all()))
                                        for deck in PlayerDeck.objects.select_related("owner")])
    assert decks == [("ann", decks[0][1], 12)] and decks[0][1].startswith("Draft ") and game_id[:8] in decks[0][1]
    assert not ann.problems
