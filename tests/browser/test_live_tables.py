"""Issue 34, "Live tables", in a real browser: the table's clocks count down for the seat the game waits on and a
player who runs out of time loses; a player asks to take a move back and the others accept or decline; a finished
game offers a rematch; the lobby creates games with invitations and a clock and shows a player the tables they are
invited to; computer players sit at a table, from the table itself or from a deck page, and play their seats."""

import re
import time

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from games.models import Game
from tests.browser.test_play import (
    DECK,
    WAIT_MS,
    assert_not_reloaded,
    click_move,
    create_game,
    expect_status,
    game_version,
    join_from_lobby,
    mark_no_reload,
    outside_playwright,
    seat_to_play,
    sign_up,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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


def lobby_options(page, *, invite: str = "", invite_only: bool = False, spectators: str = "anyone",
                  per_move: int | None = None, bank: tuple[int, int] | None = None):
    """Fill the lobby's new-game fields of a live table (before create_game fills the rest and submits)."""
    page.fill("input[name=invite]", invite)
    if invite_only:
        page.check("input[name=invite_only]")
    page.select_option("select[name=spectators]", spectators)
    if per_move is not None:
        page.select_option("#clock-kind", "per_move")
        page.fill("input[name=per_move]", str(per_move))
    if bank is not None:
        page.select_option("#clock-kind", "bank")
        page.fill("input[name=initial]", str(bank[0]))
        page.fill("input[name=increment]", str(bank[1]))


def caught_up(game_id: str, *pages):
    """Each page shows the game's latest version (a live update arriving later re-draws the move forms)."""
    version = str(game_version(game_id))
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-version", version, timeout=WAIT_MS)


def clock_seconds(page, seat: int) -> int:
    minutes, seconds = page.locator(f"#players .player[data-seat='{seat}'] .clock").inner_text().split(":")
    return int(minutes) * 60 + int(seconds)


def no_problems(*pages):
    for page in pages:
        assert page.problems == [], page.problems


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_clock_counts_down_the_player_out_of_time_loses_and_a_rematch_follows(
        served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    lobby_options(ann, bank=(12, 2))
    game_id = create_game(ann, DECK, ruleset="dvorak")
    expect(ann.locator("#game-summary")).to_contain_text("clock: 0:12 each + 2 s a move")
    join_from_lobby(bob, game_id)
    mark_no_reload(ann, bob)
    click_move(ann, "start")
    for page in (ann, bob):
        expect_status(page, "active")
    mover = seat_to_play(ann)
    other = 1 - mover
    # Both pages highlight the seat the game waits on, whose bank runs down each second; the other bank stands.
    for page in (ann, bob):
        expect(page.locator("#players .player.awaited")).to_have_attribute("data-seat", str(mover), timeout=WAIT_MS)
        expect(page.locator(f"#players .player[data-seat='{mover}'] .clock.running")).to_be_visible()
        expect(page.locator(f"#players .player[data-seat='{other}'] .clock")).to_have_text("0:12")
        expect(page.locator(f"#players .player[data-seat='{other}'] .clock")).not_to_have_class(re.compile("running"))
    first = clock_seconds(bob, mover)
    assert 3 <= first <= 12, first
    time.sleep(2.2)
    assert first - 4 <= clock_seconds(bob, mover) <= first - 2, "the clock did not run down a second at a time"
    bob.screenshot(path=screenshots / "live-clock-running.png", full_page=True)

    # Nobody moves: the mover's time runs out and the other wins on time, on both pages, live.
    names = {0: "ann", 1: "bob"}
    for page in (ann, bob):
        expect_status(page, "finished")
        expect(page.locator("#log")).to_contain_text(f"{names[mover]} ran out of time and is out of the game")
        expect(page.locator("#log")).to_contain_text(f"{names[other]} won the game")
        expect(page.locator(f"#players .player[data-seat='{other}'] .badge.win")).to_have_text("winner")
        expect(page.locator("#players .player.awaited")).to_have_count(0)
    assert_not_reloaded(ann, bob)
    ann.screenshot(path=screenshots / "live-won-on-time.png", full_page=True)

    # The loser asks for a rematch: a new table of the same game, with its clock; the winner is invited to it.
    loser, winner = (ann, bob) if mover == 0 else (bob, ann)
    loser.get_by_role("button", name="Rematch").click()
    loser.wait_for_url(lambda url: re.search(r"/play/[0-9a-f-]{36}/$", url) and game_id not in url, timeout=WAIT_MS)
    rematch_id = loser.url.rstrip("/").rsplit("/", 1)[-1]
    expect_status(loser, "open")
    expect(loser.locator("#game-summary")).to_contain_text("clock: 0:12 each + 2 s a move")
    expect(loser.locator("#players .player[data-seat='0']")).to_contain_text(names[mover])
    winner.goto(f"{served}/play/")
    invitation = winner.locator(f"#invitations li[data-game='{rematch_id}']")
    expect(invitation).to_contain_text(f"{names[mover]} asks you for a rematch", timeout=WAIT_MS)
    winner.screenshot(path=screenshots / "live-lobby-rematch-invitation.png", full_page=True)
    invitation.get_by_role("button", name="Join").click()
    winner.wait_for_url(f"**/play/{rematch_id}/")
    for page in (loser, winner):
        expect(page.locator("#players .player[data-seat='1']")).to_contain_text(names[other], timeout=WAIT_MS)
    no_problems(ann, bob)


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_invited_players_find_their_tables_and_only_they_may_join(served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    cat = sign_up(browser_contexts(), served, "cat")
    lobby_options(ann, invite="bob", invite_only=True, per_move=90)
    ann.screenshot(path=screenshots / "live-lobby-new-game-form.png", full_page=True)
    game_id = create_game(ann, DECK, ruleset="dvorak", max_players=3)
    expect(ann.locator("#game-summary")).to_contain_text("clock: 1:30 a move")

    # Cat, not invited, sees the open table and is refused a seat; the page says why.
    cat.goto(f"{served}/play/")
    cat.locator(f"#open-games tr[data-game='{game_id}'] button").click(timeout=WAIT_MS)
    expect(cat.locator("#lobby-error")).to_contain_text("invited", timeout=WAIT_MS)
    expect(cat.locator("#lobby-error code")).to_have_text("not_invited")
    expect(cat.locator("#invitations-panel")).to_be_hidden()

    # Bob's lobby lists his invitation, which takes him to his seat.
    bob.goto(f"{served}/play/")
    invitation = bob.locator(f"#invitations li[data-game='{game_id}']")
    expect(invitation).to_contain_text("ann invites you to a game of", timeout=WAIT_MS)
    bob.screenshot(path=screenshots / "live-lobby-invitation.png", full_page=True)
    invitation.get_by_role("button", name="Join").click()
    bob.wait_for_url(f"**/play/{game_id}/")
    expect(ann.locator("#players .player[data-seat='1']")).to_contain_text("bob", timeout=WAIT_MS)
    bob.goto(f"{served}/play/")
    expect(bob.locator(f"#invitations li[data-game='{game_id}']")).to_contain_text("You have taken your seat",
                                                                                  timeout=WAIT_MS)

    # Played: a minute and a half a move, counting down for the seat to move only.
    ann.bring_to_front()
    click_move(ann, "start")
    expect_status(ann, "active")
    mover = seat_to_play(ann)
    expect(ann.locator("#players .player.awaited")).to_have_attribute("data-seat", str(mover), timeout=WAIT_MS)
    assert 80 <= clock_seconds(ann, mover) <= 90
    expect(ann.locator(f"#players .player[data-seat='{1 - mover}'] .clock")).to_have_text("1:30")
    expect(ann.locator("#log")).to_contain_text(re.compile(r"the clock runs for (ann|bob) \(1:30 to decide\)"))
    ann.screenshot(path=screenshots / "live-clock-per-move.png", full_page=True)

    # A table closed to watchers: the invitation's link leads the invited player to a seat all the same.
    ann.goto(f"{served}/play/")
    lobby_options(ann, invite="cat", spectators="players")
    closed_id = create_game(ann, DECK, ruleset="dvorak")
    cat.goto(f"{served}/play/")
    invitation = cat.locator(f"#invitations li[data-game='{closed_id}']")
    invitation.get_by_role("link", name="Go to the table").click(timeout=WAIT_MS)
    cat.wait_for_url(f"**/play/{closed_id}/")
    cat.screenshot(path=screenshots / "live-closed-table-invited.png", full_page=True)
    cat.get_by_role("button", name="Take your seat").click()
    expect(cat.locator("#players .player[data-seat='1']")).to_contain_text("cat (you)", timeout=WAIT_MS)
    # and someone else gets no such offer there
    bob.goto(f"{served}/play/{closed_id}/")
    expect(bob.locator("main")).to_contain_text("Only the players of this game may watch it.")
    expect(bob.get_by_role("button", name="Take your seat")).to_have_count(0)
    no_problems(ann, bob, cat)


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_a_player_takes_a_move_back_when_the_others_agree(served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    game_id = create_game(ann, DECK, ruleset="dvorak")
    join_from_lobby(bob, game_id)
    click_move(ann, "start")
    expect_status(ann, "active")
    caught_up(game_id, ann, bob)
    # Neither has a move of their own to take back yet (taking a seat, or starting, is not one).
    for page in (ann, bob):
        expect(page.get_by_role("button", name="Undo last move")).to_have_count(0)
    player, other = (ann, bob) if seat_to_play(ann) == 0 else (bob, ann)
    name, other_name = ("ann", "bob") if player is ann else ("bob", "ann")
    click_move(player, "draw")
    expect(other.locator("#log")).to_contain_text(f"{name} drew a card", timeout=WAIT_MS)
    caught_up(game_id, ann, bob)
    hand = player.locator("#my-hand .card").count()
    played = player.locator("form.move[data-move-type='play'] button").first
    title = played.inner_text().removeprefix("play ")
    played.click()
    expect(other.locator("#log")).to_contain_text(f"{name} played {title}", timeout=WAIT_MS)
    caught_up(game_id, ann, bob)
    expect(player.locator("#my-hand .card")).to_have_count(hand - 1)
    mark_no_reload(ann, bob)

    # The player asks to take the play back: to the version before it.
    undo = player.get_by_role("button", name="Undo last move")
    before_play = int(undo.get_attribute("data-to"))
    assert player.evaluate(f"window.playClient.log.find(e => e.version === {before_play + 1}).type") == "card.played"
    undo.click()
    request = other.locator("#undo-request")
    expect(request).to_contain_text(f"{name} asks to take the game back to move {before_play}.", timeout=WAIT_MS)
    expect(request).to_contain_text(f"It takes back “{name} played {title}”")
    expect(player.locator("#undo-request")).to_contain_text(f"You ask to take the game back to move {before_play}.")
    expect(player.locator("#undo-request")).to_contain_text(f"Waiting for {other_name} to answer.")
    expect(player.get_by_role("button", name="Accept")).to_have_count(0)
    other.screenshot(path=screenshots / "live-undo-asked.png", full_page=True)

    # Declined: nothing is taken back, and the player may ask again.
    request.get_by_role("button", name="Decline").click()
    for page in (ann, bob):
        expect(page.locator("#undo-request")).to_have_count(0, timeout=WAIT_MS)
        expect(page.locator("#log")).to_contain_text(f"{other_name} declined to take the game back")
    expect(player.locator("#my-hand .card")).to_have_count(hand - 1)
    player.get_by_role("button", name="Undo last move").click()
    expect(request.get_by_role("button", name="Accept")).to_be_visible(timeout=WAIT_MS)
    request.get_by_role("button", name="Accept").click()
    for page in (ann, bob):
        expect(page.locator("#log")).to_contain_text(f"the game was taken back to move {before_play}", timeout=WAIT_MS)
        expect(page.locator("#undo-request")).to_have_count(0)
    # The card is back in the player's hand, and it is the player's move again.
    expect(player.locator("#my-hand .card")).to_have_count(hand, timeout=WAIT_MS)
    expect(player.locator("#my-hand")).to_contain_text(title)
    expect(player.locator("form.move[data-move-type='play']").first).to_be_visible(timeout=WAIT_MS)
    assert_not_reloaded(ann, bob)
    player.screenshot(path=screenshots / "live-undone.png", full_page=True)

    # A game is never taken back across a throw both players have seen: the server's refusal is shown.
    ann.goto(f"{served}/play/")
    odds = create_game(ann, "socialism", ruleset="odds_and_evens")
    join_from_lobby(bob, odds)
    click_move(ann, "start")
    for page in (ann, bob):
        expect(page.locator("form.move[data-move-type='throw']")).to_have_count(1, timeout=WAIT_MS)
    click_move(ann, "throw")
    expect(ann.locator("form.move[data-move-type='throw']")).to_have_count(0, timeout=WAIT_MS)
    click_move(bob, "throw")
    expect(ann.locator("form.move[data-move-type='throw']")).to_have_count(1, timeout=WAIT_MS)  # the next round
    caught_up(odds, ann, bob)
    ann.get_by_role("button", name="Undo last move").click()
    expect(ann.locator("#play-error")).to_contain_text("cannot be taken back", timeout=WAIT_MS)
    expect(ann.locator("#play-error code")).to_have_text("undo_not_possible")
    expect(bob.locator("#undo-request")).to_have_count(0)
    ann.screenshot(path=screenshots / "live-undo-refused.png", full_page=True)
    no_problems(ann, bob)


def computer_moved(page) -> bool:
    return page.evaluate("window.playClient.log.some(e => e.actor.startsWith('Computer') && e.type !== 'player.joined')")


@pytest.mark.parametrize("served", ["debug"], indirect=True)
def test_the_creator_seats_a_computer_player_that_plays_its_seat(served, seed_decks, browser_contexts, screenshots):
    ann = sign_up(browser_contexts(), served, "ann")
    bob = sign_up(browser_contexts(), served, "bob")
    game_id = create_game(ann, DECK, ruleset="dvorak", max_players=3)
    join_from_lobby(bob, game_id)
    # Only the creator is offered a computer player.
    expect(bob.locator("#add-computer")).to_have_count(0)
    ann.select_option("#add-computer select[name=level]", "greedy")
    ann.locator("#actions-panel").screenshot(path=screenshots / "live-computer-add.png")
    ann.get_by_role("button", name="Add a computer player").click()
    for page in (ann, bob):
        seat = page.locator("#players .player[data-seat='2']")
        expect(seat).to_contain_text("Computer 1", timeout=WAIT_MS)
        expect(seat.locator(".badge.bot")).to_have_text("computer · greedy")
        expect(page.locator("#log")).to_contain_text("Computer 1 (a computer player, greedy) took seat 2")
    # The table is full: no more computer players offered.
    expect(ann.locator("#add-computer")).to_have_count(0)
    ann.screenshot(path=screenshots / "live-computer-seated.png", full_page=True)
    click_move(ann, "start")
    expect_status(ann, "active")
    # The players play their turns (a draw, then the end of the turn) until the computer player has moved too.
    for _ in range(20):
        if computer_moved(ann):
            break
        caught_up(game_id, ann, bob)
        seat = seat_to_play(ann)
        if seat in (0, 1):
            page = ann if seat == 0 else bob
            kinds = page.locator("form.move").evaluate_all("forms => forms.map(f => f.dataset.moveType)")
            click_move(page, "draw" if "draw" in kinds else "end_turn")
        time.sleep(1)
    assert computer_moved(ann), "the computer player never moved"
    expect(bob.locator("#log")).to_contain_text(re.compile(r"Computer 1 (drew|played|ended)"), timeout=WAIT_MS)
    bob.screenshot(path=screenshots / "live-computer-played.png", full_page=True)
    # The computer player's turn over before the test ends: the server would otherwise go on appending its moves
    # after the test's events were cleared, and the database's flush that follows refuses to empty the event table.
    for _ in range(20):
        before = game_version(game_id)
        time.sleep(1.5)  # more than the computer player's think time between two of its moves
        if game_version(game_id) == before:
            caught_up(game_id, ann, bob)
            if seat_to_play(ann) in (0, 1):
                break
    assert seat_to_play(ann) in (0, 1), "the computer player's turn never ended"
    no_problems(ann, bob)


@pytest.mark.parametrize("served", ["debug", "collected"], indirect=True)
def test_a_deck_page_starts_a_game_against_the_computer(served, seed_decks, browser_contexts, screenshots, request):
    ann = sign_up(browser_contexts(), served, "ann")
    ann.goto(f"{served}/decks/{DECK}/")
    form = ann.locator("#play-computer")
    form.locator("select[name=level]").select_option("random")
    if request.node.callspec.params["served"] == "debug":
        ann.screenshot(path=screenshots / "live-deck-play-computer.png")
    form.get_by_role("button", name="Play against the computer").click()
    ann.wait_for_url(re.compile(r".*/play/[0-9a-f-]{36}/$"), timeout=WAIT_MS)
    game_id = ann.url.rstrip("/").rsplit("/", 1)[-1]
    expect_status(ann, "active")
    expect(ann.locator("#players .player[data-seat='0']")).to_contain_text("ann (you)")
    expect(ann.locator("#players .player[data-seat='1'] .badge.bot")).to_have_text("computer · random")
    # The deck's own ruleset (Rock Paper Scissors Extreme) starts with both throwing: the computer throws alone.
    expect(ann.locator("#game-summary")).to_contain_text("rock_paper_scissors_extreme")
    expect(ann.get_by_role("button", name="Undo last move")).to_have_count(0)  # starting the game is no move
    ann.wait_for_function("window.playClient.log.some(e => e.actor === 'Computer 1' && e.type !== 'player.joined')",
                          timeout=WAIT_MS)
    game = outside_playwright(lambda: Game.objects.get(pk=game_id))
    assert (game.deck_slug, game.status) == (DECK, "active")
    if request.node.callspec.params["served"] == "debug":
        ann.screenshot(path=screenshots / "live-deck-computer-table.png", full_page=True)
    # A visitor is asked to sign in first.
    visitor = browser_contexts().new_page()
    visitor.goto(f"{served}/decks/{DECK}/")
    expect(visitor.locator("#play-computer")).to_have_count(0)
    expect(visitor.locator("main")).to_contain_text("to play this deck against the computer")
    no_problems(ann)
