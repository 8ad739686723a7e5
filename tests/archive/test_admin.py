"""The admin as the archive: locked decks refuse changes through the admin's own views, edits leave history."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from decks.models import Deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    user = make_user("editor")
    user.is_staff = True
    user.save()
    return user


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def curator_browser(curator) -> Client:
    client = Client()
    client.force_login(curator)
    return client


def change_url(deck: Deck) -> str:
    return f"/admin/decks/deck/{deck.pk}/change/"


def field_value(value) -> str | None:
    if isinstance(value, list | dict):
        return json.dumps(value)
    if value is None or value is False:
        return None
    return "on" if value is True else str(value)


def change_form_data(client: Client, deck: Deck) -> dict[str, str]:
    """What the browser would send back from the change form, unchanged."""
    context = client.get(change_url(deck)).context
    data: dict[str, str] = {}

    def add(form) -> None:
        for name, field in form.fields.items():
            value = field_value(form[name].value())
            if value is not None:
                data[form.add_prefix(name)] = value
                # A field with a callable default (a JSON list or object) sends its initial value too.
                if field.show_hidden_initial:
                    data[form[name].html_initial_name] = value

    add(context["adminform"].form)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        for name, value in formset.management_form.initial.items():
            data[formset.add_prefix(name)] = str(value)
        for form in formset.forms:
            add(form)
    return data


def lock(deck: Deck, curator_client) -> None:
    assert curator_client.post(f"/api/v1/decks/{deck.slug}/lock/").status_code == 200


def snapshot(deck: Deck) -> tuple:
    deck.refresh_from_db()
    cards = list(deck.cards.values_list("title", "copies", "text"))
    rules = list(deck.special_rules.values_list("title", "text"))
    return deck.title, deck.locked, deck.revision, cards, rules


def test_staff_edit_an_unlocked_deck_in_the_admin_and_it_leaves_a_revision(staff_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    data = change_form_data(staff_client, deck)
    data["title"] = "Renamed in the admin"
    data["cards-0-copies"] = "5"

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    deck.refresh_from_db()
    assert deck.title == "Renamed in the admin"
    assert deck.cards.get(title="Frying Pan").copies == 5
    assert deck.revision == 2
    assert deck.revisions.get(number=2).content["title"] == "Renamed in the admin"


def test_a_locked_deck_refuses_the_admin_change_form_and_its_inlines(staff_client, curator_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    data = change_form_data(staff_client, deck)
    lock(deck, curator_client)
    before = snapshot(deck)
    data["title"] = "Changed while locked"
    data["cards-0-copies"] = "9"
    data["cards-1-DELETE"] = "on"
    data["special_rules-0-text"] = "No hand limit."

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 403
    assert snapshot(deck) == before


def test_a_locked_deck_refuses_new_inline_rows(staff_client, curator_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    data = change_form_data(staff_client, deck)
    lock(deck, curator_client)
    before = snapshot(deck)
    data["cards-TOTAL_FORMS"] = "3"
    data.update({"cards-2-title": "Smuggled", "cards-2-type": "Thing", "cards-2-copies": "1",
                 "cards-2-position": "2", "cards-2-stats": "{}", "cards-2-deck": str(deck.pk)})

    assert staff_client.post(change_url(deck), data).status_code == 403
    assert snapshot(deck) == before


def test_the_locked_change_view_is_read_only(staff_client, curator_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    lock(deck, curator_client)

    context = staff_client.get(change_url(deck)).context

    assert context["has_change_permission"] is False
    assert all(not inline.has_add_permission and not inline.has_delete_permission
               for inline in context["inline_admin_formsets"])


def test_even_a_curator_cannot_delete_a_locked_deck_in_the_admin(curator_browser, curator_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    lock(deck, curator_client)

    single = curator_browser.post(f"/admin/decks/deck/{deck.pk}/delete/", {"post": "yes"})
    bulk = curator_browser.post(
        "/admin/decks/deck/", {"action": "delete_selected", "_selected_action": [deck.pk], "post": "yes"}
    )

    assert single.status_code == 403
    assert bulk.status_code == 403
    assert Deck.objects.filter(pk=deck.pk).exists()


def test_non_curators_cannot_delete_or_lock_in_the_admin(staff_client, new_deck):
    new_deck()
    deck = Deck.objects.get()

    delete = staff_client.post(f"/admin/decks/deck/{deck.pk}/delete/", {"post": "yes"})
    lock_action = staff_client.post("/admin/decks/deck/", {"action": "lock_decks", "_selected_action": [deck.pk]})

    assert delete.status_code == 403
    assert Deck.objects.get().locked is False
    assert lock_action.status_code in (200, 302)
    action_form = staff_client.get("/admin/decks/deck/").context["action_form"]
    actions = dict(action_form.fields["action"].choices) if action_form else {}
    assert "lock_decks" not in actions and "delete_selected" not in actions


def test_curators_lock_and_unlock_with_the_admin_actions(curator_browser, new_deck):
    new_deck()
    deck = Deck.objects.get()

    curator_browser.post("/admin/decks/deck/", {"action": "lock_decks", "_selected_action": [deck.pk]})
    assert Deck.objects.get().locked is True
    curator_browser.post("/admin/decks/deck/", {"action": "unlock_decks", "_selected_action": [deck.pk]})
    assert Deck.objects.get().locked is False
    assert [r.summary for r in Deck.objects.get().revisions.all()][-2:] == ["Locked", "Unlocked"]


def test_a_curator_deletes_an_unlocked_deck_in_the_admin(curator_browser, new_deck):
    new_deck()
    deck = Deck.objects.get()
    assert curator_browser.post(f"/admin/decks/deck/{deck.pk}/delete/", {"post": "yes"}).status_code == 302
    assert not Deck.objects.exists()


def test_the_deck_list_searches_and_filters(staff_client, new_deck):
    new_deck()
    new_deck(title="Garden Shed", status="nomic")

    found = staff_client.get("/admin/decks/deck/?q=shed")
    filtered = staff_client.get("/admin/decks/deck/?status__exact=playable")

    assert [d.slug for d in found.context["cl"].result_list] == ["garden-shed"]
    assert [d.slug for d in filtered.context["cl"].result_list] == ["kitchen-sink"]


def test_the_admin_imports_a_pasted_listing_and_shows_a_bad_line(staff_client, staff):
    from tests.seeds import listing_text

    good = staff_client.post("/admin/decks/deck/import/",
                             {"format": "wiki", "text": listing_text("serm-wargame.txt")})
    bad = staff_client.post("/admin/decks/deck/import/",
                            {"format": "mushcode", "text": "cleardeck\nnot a command\n"})

    assert good.status_code == 302
    deck = Deck.objects.get()
    assert deck.revisions.get(number=1).author == staff
    assert bad.status_code == 200
    assert "Line 2" in bad.content.decode()
    assert Deck.objects.count() == 1


def test_the_change_page_links_history_talk_and_every_export(staff_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    page = staff_client.get(change_url(deck)).content.decode()
    assert f"/admin/decks/deck/{deck.pk}/revisions/" in page
    assert f"/admin/decks/deck/{deck.pk}/talk/" in page
    for format in ("json", "mushcode", "lackey", "apprentice", "print", "pdf", "cod"):
        assert f"/api/v1/decks/kitchen-sink/export/{format}/" in page


def test_staff_add_a_deck_with_cards_in_the_admin_as_its_first_revision(staff_client, staff):
    page = staff_client.get("/admin/decks/deck/add/")
    assert page.status_code == 200
    data = {
        "slug": "tea-party", "title": "Tea Party", "kind": "deck", "designers": '["Tweed Cap"]', "date": "",
        "players": "2", "status": "untested", "ruleset": "dvorak", "description": "",
        "special_rules-TOTAL_FORMS": "0", "special_rules-INITIAL_FORMS": "0",
        "cards-TOTAL_FORMS": "1", "cards-INITIAL_FORMS": "0",
        "cards-0-position": "0", "cards-0-title": "Teapot", "cards-0-type": "Thing", "cards-0-text": "Endure 2",
        "cards-0-copies": "3", "cards-0-stats": '{"Endure": 2}',
    }

    response = staff_client.post("/admin/decks/deck/add/", data)

    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    deck = Deck.objects.get(slug="tea-party")
    assert [(card.title, card.copies, card.stats) for card in deck.cards.all()] == [("Teapot", 3, {"Endure": 2})]
    first = deck.revisions.get()
    assert (first.number, first.author, first.content["cards"][0]["title"]) == (1, staff, "Teapot")
    assert deck.locked is False


# --- every admin write goes through the API's services and checks ---------------------------------------------


def refusal_text(response) -> str:
    """The errors the change form carries when it is shown again."""
    form = response.context["adminform"].form
    return " ".join(str(message) for field_errors in form.errors.values() for message in field_errors)


def test_an_admin_edit_of_35_million_copies_is_refused_in_the_form(staff_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    before = snapshot(deck)
    data = change_form_data(staff_client, deck)
    data["title"] = "Renamed alongside"
    data["cards-0-copies"] = "35000000"

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 200
    assert "A card has 1 to 100 copies; 'Frying Pan' has 35000000." in refusal_text(response)
    # The form comes back as it was sent, so the curator can correct it.
    assert response.context["adminform"].form["title"].value() == "Renamed alongside"
    assert snapshot(deck) == before


def test_an_admin_edit_past_the_deck_size_or_a_text_bound_is_refused_like_the_api(staff_client, new_deck):
    new_deck()
    deck = Deck.objects.get()
    before = snapshot(deck)
    data = change_form_data(staff_client, deck)
    data["cards-TOTAL_FORMS"] = str(2 + 21)
    for row in range(2, 23):
        data.update({f"cards-{row}-title": f"Spoon {row}", f"cards-{row}-type": "Thing",
                     f"cards-{row}-copies": "100", f"cards-{row}-stats": "{}", f"cards-{row}-deck": str(deck.pk)})
    too_many = staff_client.post(change_url(deck), data)

    data = change_form_data(staff_client, deck)
    data["cards-1-text"] = "x" * 5001
    too_long = staff_client.post(change_url(deck), data)

    assert too_many.status_code == 200
    assert "A deck holds at most 2000 cards (copies counted); this one 2103." in refusal_text(too_many)
    assert too_long.status_code == 200
    assert "text is longer than 5000 characters" in refusal_text(too_long)
    assert snapshot(deck) == before


def test_an_admin_edit_is_one_revision_summarised_as_the_api_would(staff_client, staff, new_deck):
    new_deck()
    deck = Deck.objects.get()
    frying_pan = deck.cards.get(title="Frying Pan")
    data = change_form_data(staff_client, deck)
    data["players"] = "3-5"
    data["cards-0-text"] = "Play this at any time."
    data["cards-1-DELETE"] = "on"
    data["cards-TOTAL_FORMS"] = "3"
    data.update({"cards-2-title": "Tea Towel", "cards-2-type": "Thing", "cards-2-copies": "2",
                 "cards-2-stats": "{}", "cards-2-deck": str(deck.pk)})

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 302, refusal_text(response)
    deck.refresh_from_db()
    latest = deck.revisions.get(number=2)
    assert (deck.revision, latest.author) == (2, staff)
    assert latest.summary == "Changed players; Added card 'Tea Towel'; Changed card 'Frying Pan'; Removed card 'Wash Up'"
    assert [(card["title"], card["copies"]) for card in latest.content["cards"]] == [("Frying Pan", 2),
                                                                                     ("Tea Towel", 2)]
    # A card keeps its id through an edit (player decks and games name cards by it), and a changed text decides
    # again whether the card plays out of turn, as the API's card update does.
    assert deck.cards.get(title="Frying Pan").pk == frying_pan.pk
    assert deck.cards.get(title="Frying Pan").out_of_turn is True


def add_form_data(**fields: str) -> dict[str, str]:
    return {
        "slug": "tea-party", "title": "Tea Party", "kind": "deck", "designers": '["Tweed Cap"]', "date": "",
        "players": "2", "status": "untested", "ruleset": "dvorak", "description": "",
        "special_rules-TOTAL_FORMS": "1", "special_rules-INITIAL_FORMS": "0",
        "special_rules-0-title": "Hand limit", "special_rules-0-text": "The hand limit is 7.",
        "special_rules-0-params": '{"hand_limit": 7}',
        "cards-TOTAL_FORMS": "2", "cards-INITIAL_FORMS": "0",
        "cards-0-title": "Teapot", "cards-0-type": "Thing", "cards-0-text": "Endure 2", "cards-0-copies": "3",
        "cards-0-stats": '{"Endure": 2}',
        "cards-1-title": "Spill", "cards-1-type": "Action", "cards-1-text": "Play this at any time.",
        "cards-1-copies": "1", "cards-1-stats": "{}",
        **fields,
    }


def test_an_admin_create_records_what_the_api_create_records(staff_client, staff, client_for):
    admin_made = staff_client.post("/admin/decks/deck/add/", add_form_data())
    api_made = client_for(staff).post("/api/v1/decks/", {
        "slug": "tea-party-by-api", "title": "Tea Party", "designers": ["Tweed Cap"], "players": "2",
        "status": "untested",
        "special_rules": [{"title": "Hand limit", "text": "The hand limit is 7.", "params": {"hand_limit": 7}}],
        "cards": [{"title": "Teapot", "type": "Thing", "text": "Endure 2", "copies": 3, "stats": {"Endure": 2}},
                  {"title": "Spill", "type": "Action", "text": "Play this at any time."}],
    }, format="json")

    assert admin_made.status_code == 302, refusal_text(admin_made)
    assert api_made.status_code == 201, api_made.content
    by_admin, by_api = (Deck.objects.get(slug=slug).revisions.get() for slug in ("tea-party", "tea-party-by-api"))
    assert (by_admin.number, by_admin.author, by_admin.summary) == (by_api.number, by_api.author, by_api.summary)
    assert {**by_admin.content, "slug": "tea-party-by-api"} == by_api.content
    # The box left unticked says nothing: the card's text decides, as it does for the API.
    assert Deck.objects.get(slug="tea-party").cards.get(title="Spill").out_of_turn is True


@pytest.mark.parametrize("fields, reason", [
    ({"cards-0-copies": "35000000"}, "A card has 1 to 100 copies; 'Teapot' has 35000000."),
    ({"slug": "import"}, "'import' cannot be a deck's slug."),
    ({"special_rules-0-text": "x" * 20001}, "A Special Rule: text is longer than 20000 characters."),
    ({"cards-0-stats": '{"Endure": "two"}'}, "stats map names to whole numbers"),
])
def test_an_admin_create_is_refused_in_the_form_as_the_api_refuses_it(staff_client, fields, reason):
    response = staff_client.post("/admin/decks/deck/add/", add_form_data(**fields))

    assert response.status_code == 200
    assert reason in refusal_text(response)
    assert not Deck.objects.exists()


@pytest.mark.parametrize("field, value", [("cards-0-stats", '{"Shoot\\u0000": 1}'), ("cards-0-stats", '{"\\ud800": 1}'),
                                          ("designers", '["Ann\\u0000"]')])
def test_json_the_database_cannot_store_is_refused_on_the_form_and_changes_nothing(staff_client, new_deck, field,
                                                                                  value):
    """A card's stats and a deck's designers are typed as JSON, where \\u0000 and a lone surrogate can be written."""
    new_deck()
    deck = Deck.objects.get()
    before = snapshot(deck)
    data = change_form_data(staff_client, deck)
    data[field] = value

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 200  # the form again, with the error on the field
    assert "cannot be stored" in response.content.decode()
    assert snapshot(deck) == before
