"""Talk pages: threaded posts, open while a deck is locked, shown as text and never run as HTML."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.safestring import SafeData

from decks.api.serializers import TalkPostSerializer
from decks.models import Deck, TalkPost
from tests.archive.conftest import error_code

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("pwned")</script> & <b>bold</b>'


def test_posts_thread_by_reply_and_anyone_reads_them(api_client, user_client, client_for, make_user, new_deck):
    new_deck()
    first = user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": "Is the Frying Pan too strong?"}).json()
    reply = client_for(make_user("cook")).post(
        "/api/v1/decks/kitchen-sink/talk/", {"body": "Only with two copies.", "reply_to": first["id"]}
    ).json()

    posts = api_client.get("/api/v1/decks/kitchen-sink/talk/").json()

    assert [(post["author"], post["body"], post["reply_to"]) for post in posts] == [
        ("reader", "Is the Frying Pan too strong?", None),
        ("cook", "Only with two copies.", first["id"]),
    ]
    assert posts[1]["id"] == reply["id"]
    assert set(posts[0]) == {"id", "author", "body", "created_at", "reply_to", "hidden", "hidden_at"}


def test_a_reply_to_a_post_elsewhere_is_not_found(user_client, new_deck):
    new_deck()
    new_deck(title="Other Deck")
    elsewhere = user_client.post("/api/v1/decks/other-deck/talk/", {"body": "Hello"}).json()

    response = user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": "Hi", "reply_to": elsewhere["id"]})

    assert response.status_code == 404
    assert not TalkPost.objects.filter(deck__slug="kitchen-sink").exists()


def test_the_talk_page_stays_open_on_a_locked_deck(user_client, curator_client, new_deck):
    new_deck()
    curator_client.post("/api/v1/decks/kitchen-sink/lock/")

    response = user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": "Please unlock it for a fix."})

    assert response.status_code == 201
    assert Deck.objects.get().locked is True


def test_anonymous_and_empty_posts_are_refused(api_client, user_client, new_deck):
    new_deck()
    anonymous = api_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": "hi"}, format="json")
    empty = user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": "   "})
    assert anonymous.status_code == 401
    assert empty.status_code == 400 and error_code(empty) == "invalid"
    assert not TalkPost.objects.exists()


def test_the_api_returns_a_script_post_as_plain_text_never_marked_safe(user_client, new_deck):
    new_deck()
    user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": SCRIPT})

    response = user_client.get("/api/v1/decks/kitchen-sink/talk/")

    assert response["Content-Type"] == "application/json"
    assert response.json()[0]["body"] == SCRIPT
    assert not isinstance(TalkPostSerializer(TalkPost.objects.get()).data["body"], SafeData)


@pytest.fixture
def staff_browser(make_user) -> Client:
    user = make_user("moderator")
    user.is_staff = True
    user.save()
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_talk_page_escapes_what_people_write(staff_browser, user_client, new_deck):
    new_deck()
    user_client.post("/api/v1/decks/kitchen-sink/talk/", {"body": SCRIPT})
    deck = Deck.objects.get()

    page = staff_browser.get(f"/admin/decks/deck/{deck.pk}/talk/").content.decode()
    listing = staff_browser.get("/admin/decks/talkpost/").content.decode()

    for html in (page, listing):
        assert "<script>alert" not in html
        assert "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page


def test_staff_post_and_reply_on_the_admin_talk_page_of_a_locked_deck(staff_browser, curator_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    curator_client.post("/api/v1/decks/kitchen-sink/lock/")

    staff_browser.post(f"/admin/decks/deck/{deck.pk}/talk/", {"body": "First."})
    first = TalkPost.objects.get()
    reply_form = staff_browser.get(f"/admin/decks/deck/{deck.pk}/talk/?reply_to={first.pk}").content.decode()
    assert f'name="reply_to" value="{first.pk}"' in reply_form
    staff_browser.post(f"/admin/decks/deck/{deck.pk}/talk/", {"body": "Second.", "reply_to": first.pk})

    reply = TalkPost.objects.exclude(pk=first.pk).get()
    assert (reply.body, reply.reply_to_id, reply.author.username) == ("Second.", first.pk, "moderator")
    page = staff_browser.get(f"/admin/decks/deck/{deck.pk}/talk/").content.decode()
    assert page.index("First.") < page.index("Second.")
