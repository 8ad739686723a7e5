"""The admin shows each card's and Special Rule's confirmed effect, editable as JSON, beside the reader's
suggestion, and confirms suggestions with an action on decks: all through the archive's services."""

from __future__ import annotations

import json

import pytest

from decks import services
from decks.models import Deck
from tests.archive.test_admin import change_form_data, change_url, refusal_text, staff, staff_client  # noqa: F401

pytestmark = pytest.mark.django_db

DRAW_TWO = [{"kind": "draw", "who": "you", "count": 2, "optional": False}]


def test_the_change_form_shows_the_suggestion_and_saves_an_effect_as_a_revision(staff_client, new_deck):  # noqa: F811
    new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards."}])
    deck = Deck.objects.get()
    page = staff_client.get(change_url(deck)).content.decode()
    assert "Suggested effect (the reader" in page and "&quot;kind&quot;: &quot;draw&quot;" in page

    data = change_form_data(staff_client, deck)
    data["cards-0-effect"] = json.dumps([{"kind": "draw", "count": 2}])
    data["special_rules-0-effect"] = json.dumps([{"kind": "set_rule", "param": "hand_limit", "value": 7}])
    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 302, response.context and refusal_text(response)
    deck.refresh_from_db()
    assert deck.cards.get().effect == DRAW_TWO
    rule = deck.special_rules.get()
    assert (rule.effect[0]["value"], rule.params) == (7, {"hand_limit": 7})
    assert deck.revision == 2 and deck.revisions.get(number=2).content["cards"][0]["effect"] == DRAW_TWO


def test_a_malformed_effect_in_the_admin_is_refused_in_the_form(staff_client, new_deck):  # noqa: F811
    new_deck()
    deck = Deck.objects.get()
    data = change_form_data(staff_client, deck)
    data["cards-1-effect"] = json.dumps([{"kind": "draw", "count": 500}])

    response = staff_client.post(change_url(deck), data)

    assert response.status_code == 200
    assert "effect[0].count" in refusal_text(response)
    deck.refresh_from_db()
    assert deck.revision == 1 and all(card.effect is None for card in deck.cards.all())


def test_the_confirm_action_confirms_understood_suggestions_and_skips_a_locked_deck(staff_client, curator,  # noqa: F811
                                                                                    new_deck):
    new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards."},
                    {"title": "Dance", "type": "Action", "text": "Dance a jig."}])
    new_deck(title="Locked One", cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards."}])
    services.deck_lock(slug="locked-one", actor=curator)
    decks = list(Deck.objects.values_list("pk", flat=True))

    response = staff_client.post("/admin/decks/deck/", {"action": "confirm_suggested_effects",
                                                        "_selected_action": decks}, follow=True)

    shown = sorted(str(message) for message in response.context["messages"])
    assert shown[0] == "kitchen-sink: confirmed 1 card(s) and 1 Special Rule(s)."
    assert shown[1].startswith("locked-one: The deck 'locked-one' is locked")
    sink = Deck.objects.get(slug="kitchen-sink")
    assert sink.cards.get(title="Greed").effect == DRAW_TWO and sink.cards.get(title="Dance").effect is None
    assert sink.special_rules.get().params == {"hand_limit": 7}
    assert sink.revision == 2
    assert Deck.objects.get(slug="locked-one").cards.get().effect is None
