"""Swagger UI and ReDoc, in a real browser that may reach nothing but 127.0.0.1: the API docs work offline,
their scripts and styles served by whitenoise from the one ASGI process, with DEBUG on and off."""

import pytest
from django.conf import settings

# django_db: so that the run sets up the test database, which the server process is pointed at
pytestmark = [pytest.mark.browser, pytest.mark.django_db]

COMMANDS_PATH = "/games/{game_id}/commands/"
RENDER_MS = 60_000  # ReDoc lays out the whole schema before it shows anything; this machine is small


def static_responses(page) -> list:
    seen = []
    page.on("response", lambda response: seen.append(response) if "/static/" in response.url else None)
    return seen


def open_swagger_ui(page, base: str) -> list:
    assets = static_responses(page)
    page.goto(f"{base}/api/v1/docs/")
    page.locator(".opblock-tag", has_text="games").first.wait_for(timeout=RENDER_MS)
    return assets


def expand_the_command_operation(page):
    summary = page.locator(f'.opblock-post .opblock-summary-path[data-path$="{COMMANDS_PATH}"]')
    summary.first.click()
    return page.locator('tr[data-param-name="If-Match"] .parameters-col_description').first


def test_swagger_ui_lists_the_operations_offline(offline_page, served, screenshots, request):
    page = offline_page
    assets = open_swagger_ui(page, served)

    assert page.locator(".info .title").first.inner_text().startswith(settings.SPECTACULAR_SETTINGS["TITLE"])
    tags = [tag.strip() for tag in page.locator(".opblock-tag").all_inner_texts()]
    assert any(tag.startswith("games") for tag in tags), tags
    command = page.locator(".opblock-post", has=page.locator(f'.opblock-summary-path[data-path$="{COMMANDS_PATH}"]'))
    assert command.count() == 1
    assert command.locator(".opblock-summary-method").inner_text() == "POST"

    if_match = expand_the_command_operation(page)
    if_match.wait_for(timeout=RENDER_MS)
    if_match.scroll_into_view_if_needed()
    assert "412" in if_match.inner_text()
    page.screenshot(path=screenshots / f"swagger-ui-{request.node.callspec.id}.png")

    assert page.blocked == [], "the page tried to reach outside 127.0.0.1"
    assert assets and all(response.status == 200 for response in assets), [(r.url, r.status) for r in assets]
    assert any(r.url.endswith("swagger-ui-bundle.js") for r in assets)


def test_swagger_ui_shows_the_if_match_description_whole(offline_page, served):
    open_swagger_ui(offline_page, served)
    if_match = expand_the_command_operation(offline_page)
    if_match.wait_for(timeout=RENDER_MS)
    text = if_match.inner_text()
    assert '""' not in text and "412" in text and "version" in text, text


def test_redoc_renders_offline(offline_page, served, screenshots, request):
    page = offline_page
    assets = static_responses(page)
    page.goto(f"{served}/api/v1/redoc/")

    heading = page.locator(".api-info h1")
    heading.wait_for(timeout=RENDER_MS)
    assert heading.inner_text().startswith(settings.SPECTACULAR_SETTINGS["TITLE"])
    menu = page.locator(".menu-content")
    assert "games" in menu.inner_text()
    page.get_by_text(COMMANDS_PATH).first.wait_for(timeout=RENDER_MS)  # the operation, with its path
    page.screenshot(path=screenshots / f"redoc-{request.node.callspec.id}.png")

    assert page.blocked == [], "the page tried to reach outside 127.0.0.1"
    assert any(r.url.endswith("redoc.standalone.js") and r.status == 200 for r in assets), [r.url for r in assets]
