"""Accounts in a real browser: a player signs up with an email address, forgets the password, gets the reset link
by mail (the server writes its mails to files here: the file backend), chooses a new password and signs in with
it; the old link then works no more. Someone guessing passwords on the sign-in page is shown the lockout page."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import daphne_serving, server_environment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 30_000


@pytest.fixture
def mailing_server(tmp_path):
    """The app as `make run` serves it, with its mails written to ``tmp_path/mail`` and 3 failures allowed."""
    mail = tmp_path / "mail"
    env = server_environment(tmp_path, debug=True)
    env.update(EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend", EMAIL_FILE_PATH=str(mail),
               SIGNIN_FAILURE_LIMIT="3")
    with daphne_serving(env, tmp_path) as base:
        yield base, mail


def mails(folder: Path) -> list[str]:
    return [path.read_text() for path in sorted(folder.glob("*.log"))] if folder.exists() else []


def test_a_forgotten_password_is_reset_through_the_mailed_link(mailing_server, chromium, screenshots):
    base, mail = mailing_server
    context = chromium.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/accounts/sign-up/")
    page.fill("#id_username", "rosalind")
    page.fill("#id_email", "rosalind@example.org")
    page.fill("#id_password1", "a-first-passphrase")
    page.fill("#id_password2", "a-first-passphrase")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/", timeout=WAIT_MS)
    context.close()

    context = chromium.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto(f"{base}/accounts/sign-in/")
    page.click("#forgot-password")
    page.fill("#id_email", "rosalind@example.org")
    page.click("#password-reset-form button[type=submit]")
    expect(page.locator("#password-reset-sent")).to_be_visible(timeout=WAIT_MS)
    page.screenshot(path=screenshots / "password-reset-sent.png")

    [sent] = mails(mail)
    assert "rosalind@example.org" in sent and '"rosalind"' in sent
    link = re.search(r"http://127\.0\.0\.1:\d+/accounts/reset/\S+/", sent).group(0)
    page.goto(link)
    page.fill("#id_new_password1", "a-second-passphrase")
    page.fill("#id_new_password2", "a-second-passphrase")
    page.screenshot(path=screenshots / "password-reset-choose.png")
    page.click("#password-reset-confirm button[type=submit]")
    expect(page.locator("#password-reset-complete")).to_be_visible(timeout=WAIT_MS)

    page.goto(link)  # once only
    expect(page.locator("#password-reset-invalid")).to_be_visible(timeout=WAIT_MS)

    page.goto(f"{base}/accounts/sign-in/")
    page.fill("#id_username", "rosalind")
    page.fill("#id_password", "a-second-passphrase")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/", timeout=WAIT_MS)
    assert "rosalind" in page.content()
    context.close()


def test_guessing_passwords_on_the_sign_in_page_shows_the_lockout_page(mailing_server, chromium, screenshots):
    base, _ = mailing_server
    page = chromium.new_page(viewport={"width": 1100, "height": 800})
    for attempt in range(3):
        page.goto(f"{base}/accounts/sign-in/")
        page.fill("#id_username", "someone")
        page.fill("#id_password", f"guess-{attempt}")
        with page.expect_navigation(timeout=WAIT_MS) as answered:
            page.click("button[type=submit]")
    assert answered.value.status == 429
    expect(page.locator("#locked-out")).to_contain_text("15 minutes")
    page.screenshot(path=screenshots / "sign-in-locked-out.png")
    page.close()
