"""The wiki's pages for a deck: talk (post, reply, a curator hides), editing with an edit summary, locked decks,
conflicts refused in the page, the admin and the API, and the history with its word-level diff."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from decks import services
from decks.models import Deck, TalkPost
from tests.seeds import seed_deck

pytestmark = pytest.mark.django_db

SLUG = "socialism"


@pytest.fixture
def deck() -> Deck:
    return services.deck_create(author=None, data=seed_deck(SLUG))


@pytest.fixture
def ann(make_user):
    return make_user("ann")


@pytest.fixture
def cora(make_user):
    return make_user("cora", curator=True)


def browser(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def field_value(value) -> str | None:
    if isinstance(value, list | dict):
        return json.dumps(value)
    if value is None or value is False:
        return None
    return "on" if value is True else str(value)


def edit_form_data(client: Client, slug: str = SLUG) -> dict[str, str]:
    """What the browser sends back from the edit page, unchanged."""
    context = client.get(f"/decks/{slug}/edit/").context
    data: dict[str, str] = {}

    def add(form) -> None:
        for name in form.fields:
            value = field_value(form[name].value())
            if value is not None:
                data[form.add_prefix(name)] = value

    add(context["form"])
    for formset in (context["rules"], context["cards"]):
        for name, value in formset.management_form.initial.items():
            data[formset.add_prefix(name)] = str(value)
        for form in formset.forms:
            add(form)
    return data


def card_index(data: dict[str, str], title: str) -> int:
    return next(int(key.split("-")[1]) for key, value in data.items()
                if key.startswith("cards-") and key.endswith("-title") and value == title)


# --- talk ---------------------------------------------------------------------------------------------------


def test_a_player_posts_and_replies_on_the_talk_page(deck, ann, make_user):
    client = browser(ann)
    posted = client.post(f"/decks/{SLUG}/talk/", {"body": "Should <b>Strike</b> cost more?"})
    assert posted.status_code == 302
    first = TalkPost.objects.get()
    bob = browser(make_user("bob"))
    bob.post(f"/decks/{SLUG}/talk/", {"body": "I think it is fine.", "reply_to": first.pk})

    page = browser().get(f"/decks/{SLUG}/talk/").content.decode()
    assert "Should &lt;b&gt;Strike&lt;/b&gt; cost more?" in page and "<b>Strike</b>" not in page
    assert "I think it is fine." in page
    reply = TalkPost.objects.get(body="I think it is fine.")
    assert reply.reply_to == first and reply.author.username == "bob"
    # The reply is shown inside the thread it answers.
    assert page.index(f'id="post-{first.pk}"') < page.index(f'id="post-{reply.pk}"')
    assert 'class="talk-reply"' in page


def test_anonymous_posts_are_sent_to_sign_in(deck):
    response = browser().post(f"/decks/{SLUG}/talk/", {"body": "hello"})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/sign-in/?next=/decks/socialism/talk/")
    assert not TalkPost.objects.exists()


def test_a_curator_hides_a_post_and_only_curators_still_read_it(deck, ann, cora, make_user, client_for):
    browser(ann).post(f"/decks/{SLUG}/talk/", {"body": "Buy cheap watches at spam.example"})
    post = TalkPost.objects.get()
    bob = make_user("bob")

    refused = browser(bob).post(f"/decks/{SLUG}/talk/{post.pk}/hide/", {"reason": "I dislike it"})
    assert refused.status_code == 403
    post.refresh_from_db()
    assert post.hidden_at is None

    hidden = browser(cora).post(f"/decks/{SLUG}/talk/{post.pk}/hide/", {"reason": "Spam"})
    assert hidden.status_code == 302
    post.refresh_from_db()
    assert post.hidden_by == cora and post.hidden_reason == "Spam" and post.hidden_at is not None

    for reader in (None, bob, ann):
        page = browser(reader).get(f"/decks/{SLUG}/talk/").content.decode()
        assert "spam.example" not in page
        assert "A post was hidden by a curator." in page
    curator_page = browser(cora).get(f"/decks/{SLUG}/talk/").content.decode()
    assert "spam.example" in curator_page and "Hidden by cora" in curator_page and "Spam" in curator_page

    listing = client_for(bob).get(f"/api/v1/decks/{SLUG}/talk/").json()
    listed = listing["results"] if isinstance(listing, dict) else listing
    assert listed[0]["hidden"] is True and listed[0]["hidden_at"] and listed[0]["body"] == ""
    assert "spam.example" not in json.dumps(listing)
    anonymous = Client().get(f"/api/v1/decks/{SLUG}/talk/").content.decode()
    assert "spam.example" not in anonymous
    assert "spam.example" in client_for(cora).get(f"/api/v1/decks/{SLUG}/talk/").content.decode()


# --- editing ------------------------------------------------------------------------------------------------


def test_an_edit_saves_a_revision_with_its_summary(deck, ann):
    client = browser(ann)
    data = edit_form_data(client)
    index = card_index(data, deck.cards.first().title)
    data[f"cards-{index}-text"] = "A brand new text."
    data["description"] = "Everyone shares."
    data["summary"] = "Clearer first card"

    response = client.post(f"/decks/{SLUG}/edit/", data)

    assert response.status_code == 302, response.content.decode()[:3000]
    deck.refresh_from_db()
    assert deck.revision == 2 and deck.description == "Everyone shares."
    revision = deck.revisions.get(number=2)
    assert revision.summary == "Clearer first card" and revision.author == ann
    assert "A brand new text." in json.dumps(revision.content)
    assert deck.cards.count() == len(seed_deck(SLUG).cards)


def test_an_edit_needs_a_summary(deck, ann):
    client = browser(ann)
    data = edit_form_data(client)
    data["description"] = "Changed"
    data["summary"] = ""
    response = client.post(f"/decks/{SLUG}/edit/", data)
    assert response.status_code == 400
    deck.refresh_from_db()
    assert deck.revision == 1


def test_an_unchanged_card_text_with_browser_line_breaks_is_not_a_change(deck, ann):
    client = browser(ann)
    data = edit_form_data(client)
    data = {key: value.replace("\n", "\r\n") for key, value in data.items()}
    data["summary"] = "Nothing really"
    client.post(f"/decks/{SLUG}/edit/", data)
    assert deck.revisions.get(number=2).content["cards"] == deck.revisions.get(number=1).content["cards"]


def test_a_card_is_added_and_one_removed_in_the_same_edit(deck, ann):
    client = browser(ann)
    data = edit_form_data(client)
    gone = deck.cards.first().title
    data[f"cards-{card_index(data, gone)}-DELETE"] = "on"
    extra = int(data["cards-TOTAL_FORMS"]) - 1
    data.update({f"cards-{extra}-title": "Picket Line", f"cards-{extra}-type": "Action",
                 f"cards-{extra}-copies": "2", f"cards-{extra}-text": "Nobody plays a Thing this turn."})
    data["summary"] = "Picket Line in, first card out"
    assert client.post(f"/decks/{SLUG}/edit/", data).status_code == 302
    titles = list(deck.cards.values_list("title", flat=True))
    assert "Picket Line" in titles and gone not in titles


def test_a_locked_deck_cannot_be_edited(deck, ann, cora):
    client = browser(ann)
    data = edit_form_data(client)
    services.deck_lock(slug=SLUG, actor=cora)
    page = client.get(f"/decks/{SLUG}/edit/")
    assert "This deck is locked" in page.content.decode() and 'id="edit-form"' not in page.content.decode()
    data["description"] = "Sneaky"
    data["summary"] = "Sneaky"
    refused = client.post(f"/decks/{SLUG}/edit/", data)
    assert refused.status_code == 423 and "This deck is locked" in refused.content.decode()
    deck.refresh_from_db()
    assert deck.description != "Sneaky" and deck.revision == 2  # the lock's own revision only


def test_anonymous_editors_are_sent_to_sign_in(deck):
    response = browser().get(f"/decks/{SLUG}/edit/")
    assert response.status_code == 302 and response["Location"] == "/accounts/sign-in/?next=/decks/socialism/edit/"
    posted = browser().post(f"/decks/{SLUG}/edit/", {"summary": "x"})
    assert posted.status_code == 302 and "/accounts/sign-in/" in posted["Location"]


def test_a_300_card_deck_can_be_edited(ann):
    cards = [{"title": f"Card {n}", "type": "Thing", "text": f"Text {n}"} for n in range(300)]
    services.deck_create(author=None, data=services.deck_from_values({"slug": "big", "title": "Big", "cards": cards}))
    client = browser(ann)
    data = edit_form_data(client, "big")
    data["cards-150-text"] = "Changed in the middle"
    data["summary"] = "One card of 300"
    response = client.post("/decks/big/edit/", data)
    assert response.status_code == 302
    assert Deck.objects.get(slug="big").cards.get(title="Card 150").text == "Changed in the middle"


# --- conflicts ----------------------------------------------------------------------------------------------


def test_a_stale_edit_is_refused_with_the_conflict_shown_and_nothing_saved(deck, ann, make_user):
    client = browser(ann)
    data = edit_form_data(client)  # ann starts from revision 1
    services.deck_update(slug=SLUG, author=make_user("bob"), changes={"description": "Bob's words"},
                         summary="Bob first")
    data["description"] = "Ann's own words"
    data["summary"] = "Ann second"

    response = client.post(f"/decks/{SLUG}/edit/", data)

    page = response.content.decode()
    assert response.status_code == 409
    assert "Edit conflict: nothing was saved" in page
    assert "<ins>Bob&#x27;s words</ins>" in page or "<ins>Bob&#x27;s" in page  # what changed since ann's base
    assert "Ann&#x27;s own words" in page  # ann's edit is kept in the form
    deck.refresh_from_db()
    assert deck.revision == 2 and deck.description == "Bob's words"
    # Saving again from the conflict page is a deliberate choice, made having seen bob's change.
    again = response.context["form"]
    assert again["base_revision"].value() == "2"


def test_the_admin_refuses_a_stale_change_form(deck, make_user):
    from tests.archive.test_admin import change_form_data, change_url

    editor = make_user("editor")
    editor.is_staff = True
    editor.save()
    client = browser(editor)
    data = change_form_data(client, deck)
    assert data["base_revision"] == "1"
    services.deck_update(slug=SLUG, author=None, changes={"description": "Meanwhile"}, summary="meanwhile")
    data["title"] = "Overwritten?"

    response = client.post(change_url(deck), data)

    assert response.status_code == 200
    assert "is at revision 2, not 1" in response.content.decode()
    deck.refresh_from_db()
    assert deck.title != "Overwritten?" and deck.description == "Meanwhile" and deck.revision == 2


def test_the_api_patch_takes_if_match(deck, ann, client_for):
    api = client_for(ann)
    got = api.get(f"/api/v1/decks/{SLUG}/")
    assert got["ETag"] == '"1"'

    current = api.patch(f"/api/v1/decks/{SLUG}/", {"description": "One"}, format="json", HTTP_IF_MATCH='"1"')
    assert current.status_code == 200 and current["ETag"] == '"2"'

    stale = api.patch(f"/api/v1/decks/{SLUG}/", {"description": "Two"}, format="json", HTTP_IF_MATCH='"1"')
    assert stale.status_code == 412
    assert stale.json()["error"]["code"] == "version_conflict"
    assert stale.json()["error"]["details"] == {"expected_revision": 1, "current_revision": 2}
    deck.refresh_from_db()
    assert deck.description == "One" and deck.revision == 2

    for bad_tag in ("two", "", '""'):
        bad = api.patch(f"/api/v1/decks/{SLUG}/", {"description": "Two"}, format="json", HTTP_IF_MATCH=bad_tag)
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid", bad_tag

    unconditional = api.patch(f"/api/v1/decks/{SLUG}/", {"description": "Three"}, format="json")
    assert unconditional.status_code == 200 and unconditional.json()["revision"] == 3


# --- history ------------------------------------------------------------------------------------------------


def test_the_history_lists_revisions_newest_first(deck, ann):
    services.deck_update(slug=SLUG, author=ann, changes={"description": "x"}, summary="Second thoughts")
    page = browser().get(f"/decks/{SLUG}/history/").content.decode()
    assert "Second thoughts" in page and ">ann<" in page
    assert page.index(f"/decks/{SLUG}/history/2/") < page.index(f"/decks/{SLUG}/history/1/")
    compare = browser().get(f"/decks/{SLUG}/history/", {"against": "1", "number": "2"})
    assert compare.status_code == 302 and compare["Location"] == f"/decks/{SLUG}/history/2/?against=1"


def test_the_diff_marks_changed_words_and_escapes_text(deck, ann):
    first = deck.cards.first()
    services.card_update(slug=SLUG, card_id=first.pk, author=ann,
                         changes={"text": "Steal the old crown <script>alert(1)</script>"}, summary="s")
    services.card_update(slug=SLUG, card_id=first.pk, author=ann,
                         changes={"text": "Steal the new crown <script>alert(1)</script>"}, summary="t")

    page = browser().get(f"/decks/{SLUG}/history/3/").content.decode()

    assert "<del>old</del>" in page and "<ins>new</ins>" in page
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f"Card: {first.title}" in page

    against_first = browser().get(f"/decks/{SLUG}/history/3/?against=1").content.decode()
    assert "<ins>Steal" in against_first
    assert browser().get(f"/decks/{SLUG}/history/1/").status_code == 200
    assert browser().get(f"/decks/{SLUG}/history/9/").status_code == 404


def test_the_admin_shows_a_hidden_post_to_curators_only(deck, ann, cora, make_user):
    services.talk_post(slug=SLUG, author=ann, body="Buy cheap watches at spam.example")
    post = TalkPost.objects.get()
    services.talk_hide(slug=SLUG, post_id=post.pk, actor=cora, reason="Spam")
    editor = make_user("editor")
    editor.is_staff = True
    editor.save()
    staff = browser(editor)
    for url in ("/admin/decks/talkpost/", f"/admin/decks/talkpost/{post.pk}/change/",
                f"/admin/decks/deck/{deck.pk}/talk/", "/admin/decks/talkpost/?q=watches"):
        page = staff.get(url)
        assert page.status_code == 200 and "spam.example" not in page.content.decode(), url
    assert "spam.example" in browser(cora).get(f"/admin/decks/deck/{deck.pk}/talk/").content.decode()
    assert "spam.example" in browser(cora).get("/admin/decks/talkpost/").content.decode()


def test_a_wiki_edit_of_the_special_rules_keeps_their_confirmed_effects(deck, ann):
    first = deck.special_rules.first()
    services.deck_effects_confirm(slug=SLUG, author=ann, special_rules=[first.pk])
    effect = deck.special_rules.get(pk=first.pk).effect
    client = browser(ann)
    data = edit_form_data(client)
    data["rules-0-title"] = "Renamed on the wiki"
    data["summary"] = "Rule title"

    assert client.post(f"/decks/{SLUG}/edit/", data).status_code == 302

    renamed = deck.special_rules.get(position=0)
    assert renamed.title == "Renamed on the wiki" and renamed.effect == effect
