"""The public archive pages without a browser, on the real seed decks: home, the deck list and its filters, a deck,
its print view, Recent Changes, designers, card search, the 404 page; user text escaped; queries bounded."""

import html
import re

import pytest
from django.core.management import call_command
from django.test import Client

from decks import services
from dvorak_core.deckdata import DeckData
from web import archive_views

pytestmark = pytest.mark.django_db

RPSE = "rock-paper-scissors-extreme-deck"
SERM = "simplistic-wargame-with-four-stats-s-e-r-m"


@pytest.fixture
def seeded(db):
    call_command("load_seed_decks", verbosity=0)


@pytest.fixture
def visitor() -> Client:
    return Client()


def page(client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def deck_slugs(body: str) -> list[str]:
    """The decks a page's deck table links to, in order."""
    table = body[body.index('<table class="decks">'):body.index("</table>")]
    return re.findall(r'<a href="/decks/([\w-]+)/">', table)


def test_home_says_what_the_site_is_links_every_page_and_lists_recently_changed_decks(seeded, visitor):
    body = page(visitor, "/")
    assert "blank" in body and "archive of 9 decks" in body
    for link in ('href="/decks/"', 'href="/cards/"', 'href="/recent-changes/"', 'href="/designers/"',
                 'href="/play/"', 'href="/api/v1/docs/"'):
        assert link in body, link
    assert "Rock Paper Scissors Extreme deck" in body and f'href="/decks/{RPSE}/"' in body


def test_every_page_has_the_site_navigation(seeded, visitor):
    for url in ("/", "/decks/", f"/decks/{RPSE}/", "/cards/", "/recent-changes/", "/designers/", "/play/"):
        nav = page(visitor, url).split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
        for target in ("/decks/", "/cards/", "/recent-changes/", "/designers/", "/play/"):
            assert f'href="{target}"' in nav, (url, target)


def test_the_deck_list_shows_every_seed_deck_by_title(seeded, visitor):
    body = page(visitor, "/decks/")
    assert "9 decks" in body
    slugs = deck_slugs(body)
    assert len(slugs) == 9 and slugs[0] == "article-ii"
    assert {RPSE, SERM, "socialism", "filibuster-ccg-set"} <= set(slugs)
    assert 'href="/designers/Tweed%20Cap/"' in body


@pytest.mark.parametrize(("query", "expected"), [
    ("q=tweed", [RPSE]),                               # a designer
    ("q=Socialism", ["socialism"]),                    # a title
    ("ruleset=serm", [SERM]),
    ("status=playable", ["virtues-of-the-drake-sample"]),
    ("players=5", ["filibuster-ccg-set", "filibuster-sample-set", "socialism"]),  # "2+", "2+", "2-5"
    ("players=3", ["article-ii", "article-ii-updated", "filibuster-ccg-set", "filibuster-sample-set", "socialism",
                   "virtues-of-the-drake-sample"]),                                      # "-4" is up to four
    ("players=9", ["filibuster-ccg-set", "filibuster-sample-set"]),  # beyond the choices, still a number
    ("kind=card_set", ["filibuster-ccg-set", "filibuster-sample-set"]),
    ("locked=yes&kind=deck", [RPSE, SERM]),
    ("locked=no&ruleset=article_ii", ["article-ii", "article-ii-updated"]),
])
def test_the_deck_list_filters_narrow_the_decks(seeded, visitor, query, expected):
    assert deck_slugs(page(visitor, f"/decks/?{query}")) == expected


def test_a_filter_value_out_of_its_choices_is_ignored_and_said_so(seeded, visitor):
    body = page(visitor, "/decks/?status=draft&ruleset=serm")
    assert deck_slugs(body) == [SERM]
    assert "Ignored" in body and "draft" in body


def test_the_players_filter_offers_numbers_and_ignores_a_text_that_is_not_one(seeded, visitor):
    body = page(visitor, "/decks/?players=2-5")
    assert len(deck_slugs(body)) == 9
    assert "Ignored" in body and "2-5" in body
    choices = re.findall(r'<option value="([^"]*)"', body.split('name="players"', 1)[1].split("</select>", 1)[0])
    assert choices == ["", "1", "2", "3", "4", "5"]


def test_a_search_ranks_a_title_match_before_a_match_elsewhere(seeded, visitor):
    # "election" is in Article II's cards and rules; S.E.R.M. names nothing of it, so only the two decks are found
    services.deck_update(slug="socialism", author=None, changes={"title": "Socialism: an Election"})
    assert deck_slugs(page(visitor, "/decks/?q=election"))[0] == "socialism"


def test_a_deck_page_shows_its_players_as_a_range(seeded, visitor):
    infobox = page(visitor, "/decks/article-ii/").split('class="infobox"', 1)[1].split("</aside>", 1)[0]
    assert '<dt>Players</dt><dd><span title="As the deck gives it: 2-4">2–4 players</span></dd>' in infobox
    assert "2 or more players" in page(visitor, "/decks/filibuster-ccg-set/")
    assert "<dt>Players</dt><dd>not given</dd>" in page(visitor, "/decks/the-virtues-of-the-drake/")


def test_no_matching_deck_says_so(seeded, visitor):
    body = page(visitor, "/decks/?q=no+such+deck+anywhere")
    assert '<table class="decks">' not in body
    assert "No deck matches these filters" in body


def test_the_deck_list_pages_keep_the_filters(seeded, visitor, monkeypatch):
    monkeypatch.setattr(archive_views, "DECKS_PER_PAGE", 2)
    first = page(visitor, "/decks/?kind=deck&locked=no")
    assert "Page 1 of 3" in first
    assert 'href="?kind=deck&amp;locked=no&amp;page=2"' in first
    second = page(visitor, "/decks/?kind=deck&locked=no&page=2")
    assert "Page 2 of 3" in second and 'href="?kind=deck&amp;locked=no&amp;page=1"' in second
    assert set(deck_slugs(first)).isdisjoint(deck_slugs(second))
    assert "selected" in second.split('name="kind"', 1)[1].split("</select>", 1)[0]  # the form keeps them too


def test_a_deck_page_shows_its_infobox_special_rules_and_cards(seeded, visitor):
    body = page(visitor, f"/decks/{RPSE}/")
    assert "<h1>Rock Paper Scissors Extreme deck</h1>" in body
    infobox = body.split('class="infobox"', 1)[1].split("</aside>", 1)[0]
    assert "Tweed Cap" in infobox and "5 December 2008" in infobox and "rock_paper_scissors_extreme" in infobox
    assert "locked" in infobox and "<dd>30 (30 different)</dd>" in infobox
    assert "is <strong>locked</strong>" in body
    assert "<h3>Diamond Totem</h3>" in body
    assert "If you and your opponent both throw Rock, it is a win for you." in body
    rules = body.split('id="special-rules"', 1)[1].split("</section>", 1)[0]
    assert "Shuffle the cards and place three face up in the center." in rules


def test_a_deck_page_shows_card_stats_and_corner_values(seeded, visitor):
    body = page(visitor, f"/decks/{SERM}/")
    ranger = body.split("<h3>Ranger</h3>", 1)[1].split("</article>", 1)[0]
    assert 'title="Corner value">2<' in ranger
    assert "<dt>Shoot</dt><dd>1</dd>" in ranger and "<dt>React</dt><dd>2</dd>" in ranger
    assert "Ranger has a 360 degree line of sight." in ranger


def test_a_deck_page_links_its_wiki_pages_exports_print_view_and_the_lobby(seeded, visitor):
    body = page(visitor, f"/decks/{RPSE}/")
    tabs = body.split('<nav class="tabs"', 1)[1].split("</nav>", 1)[0]
    for name, path in (("Talk", "talk/"), ("Edit", "edit/"), ("History", "history/")):
        assert f'<a href="/decks/{RPSE}/{path}">{name}</a>' in tabs
    assert f'href="/decks/{RPSE}/print/">Print this deck</a>' in body
    assert f'href="/play/?deck={RPSE}">Play this deck</a>' in body
    for export_format in ("json", "mushcode", "lackey", "apprentice", "print", "pdf", "cod"):
        url = f"/api/v1/decks/{RPSE}/export/{export_format}/"
        assert f'href="{url}"' in body
        assert visitor.get(url).status_code == 200, url


def test_an_open_deck_says_it_is_under_construction(seeded, visitor):
    body = page(visitor, "/decks/socialism/")
    assert "<strong>under construction</strong>" in body
    assert "<dd>under construction</dd>" in body


def test_the_print_view_prints_the_special_rules_and_every_copy_as_cards(seeded, visitor):
    body = page(visitor, "/decks/article-ii/print/")
    assert body.count('class="print-card"') == 5 + 56  # five Special Rules, 56 cards with their copies
    assert body.count('<div class="label">Special Rule</div>') == 5
    assert body.count('<span class="title">Tack Center</span>') == 8
    assert 'href="/api/v1/decks/article-ii/export/pdf/"' in body
    assert "/static/web/print.css" in body
    assert visitor.get("/api/v1/decks/article-ii/export/pdf/")["Content-Type"] == "application/pdf"


def test_recent_changes_lists_a_new_revision_first(seeded, visitor, make_user):
    ann = make_user("ann")
    services.deck_update(slug="socialism", author=ann, changes={"players": "2-6"}, summary="Room for a sixth")
    body = page(visitor, "/recent-changes/")
    first = body.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert 'href="/decks/socialism/">Socialism</a>' in first
    assert ">2</a>" in first and "ann" in first and "Room for a sixth" in first
    assert body.count("<tr>") == 1 + 10  # the header and every revision: nine imports and Ann's


def test_recent_changes_pages(seeded, visitor, monkeypatch):
    monkeypatch.setattr(archive_views, "REVISIONS_PER_PAGE", 4)
    assert "Page 1 of 3" in page(visitor, "/recent-changes/")
    assert "Page 3 of 3" in page(visitor, "/recent-changes/?page=3")


def test_designers_and_a_designers_decks(seeded, visitor):
    body = page(visitor, "/designers/")
    for name in ("Tweed Cap", "Coprolite Golem", "Drock"):
        assert f">{name}</a>" in body
    tweed = page(visitor, "/designers/Tweed%20Cap/")
    assert "<h1>Tweed Cap</h1>" in tweed and deck_slugs(tweed) == [RPSE]
    page(visitor, "/designers/Nobody%20At%20All/", status=404)


def test_designers_are_listed_a_page_at_a_time(seeded, visitor, monkeypatch):
    monkeypatch.setattr(archive_views, "DESIGNERS_PER_PAGE", 2)
    first = page(visitor, "/designers/")
    assert "Page 1 of " in first and 'rel="next"' in first
    assert first.count('<li><a href="/designers/') == 2
    names = []
    number = 1
    while True:
        body = page(visitor, f"/designers/?page={number}")
        names += re.findall(r'<li><a href="/designers/[^"]+">([^<]+)</a>', body)
        if 'rel="next"' not in body:
            break
        number += 1
    assert len(names) == len(set(names)) > 2  # every designer once, across the pages
    assert "Tweed Cap" in names and "Coprolite Golem" in names


def test_card_search_finds_cards_across_decks_with_their_deck(seeded, visitor):
    body = page(visitor, "/cards/?q=totem")
    assert "<h3>Diamond Totem</h3>" in body
    assert f'<a href="/decks/{RPSE}/#card-' in body
    assert "Socialism" not in body.split("<main>", 1)[1]


def test_card_search_filters_by_type(seeded, visitor):
    soldiers = page(visitor, "/cards/?type=Soldier")
    assert "8 cards" in soldiers and "<h3>Ranger</h3>" in soldiers and "<h3>Diamond Totem</h3>" not in soldiers
    assert "<h3>Rocket Launcher</h3>" in page(visitor, "/cards/?q=rock&type=Soldier")
    assert "<h3>Rocket Launcher</h3>" not in page(visitor, "/cards/?q=rock&type=Thing")
    assert "No card matches" in page(visitor, "/cards/?q=zzzz-no-card")


def test_an_unknown_deck_or_page_is_a_friendly_404_and_the_apis_stay_json(seeded, visitor):
    for url in ("/decks/no-such-deck/", "/decks/no-such-deck/print/", "/no/such/page/"):
        body = page(visitor, url, status=404)
        assert "<h1>Not found</h1>" in body and 'href="/decks/"' in body
    response = visitor.get("/api/v1/decks/no-such-deck/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    response = visitor.get("/api/v1/no/such/path/")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")


def test_user_text_is_escaped_on_every_page(db, visitor):
    hostile = "<script>alert('x')</script>"
    services.deck_create(author=None, data=DeckData.from_dict({
        "slug": "hostile", "title": "Hostile <b>deck</b>", "designers": ["<i>Mallory</i>"],
        "description": hostile, "special_rules": [{"title": "<em>Rule</em>", "text": hostile}],
        "cards": [{"title": "<img src=x onerror=alert(1)>", "type": "Thing", "text": hostile, "flavor": hostile,
                   "creator": hostile, "corner_value": "<u>", "stats": {"<s>": 1}}],
    }))
    urls = ["/", "/decks/", "/decks/hostile/", "/decks/hostile/print/", "/cards/?q=script", "/recent-changes/",
            "/designers/", "/designers/%3Ci%3EMallory%3C%2Fi%3E/"]
    for url in urls:
        body = page(visitor, url)
        for raw in ("<script>alert", "<b>deck</b>", "<i>Mallory</i>", "<img src=x", "<em>Rule</em>", "<u>", "<s>"):
            assert raw not in body, (url, raw)
    body = page(visitor, "/decks/hostile/")
    assert html.escape(hostile) in body and "Hostile &lt;b&gt;deck&lt;/b&gt;" in body


def test_the_deck_list_and_a_deck_page_take_a_bounded_number_of_queries(seeded, visitor, archive_deck,
                                                                       django_assert_max_num_queries):
    for number in range(12):
        archive_deck(3, slug=f"extra-deck-{number}")
    with django_assert_max_num_queries(6):
        assert visitor.get("/decks/").status_code == 200
    with django_assert_max_num_queries(6):
        assert visitor.get("/").status_code == 200
    with django_assert_max_num_queries(4):
        assert visitor.get("/decks/article-ii/").status_code == 200
    with django_assert_max_num_queries(4):
        assert visitor.get("/decks/article-ii/print/").status_code == 200
    with django_assert_max_num_queries(5):
        assert visitor.get("/cards/?q=a").status_code == 200
    with django_assert_max_num_queries(4):
        assert visitor.get("/recent-changes/").status_code == 200
