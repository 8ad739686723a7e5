"""Cards the server understands: a card's and a Special Rule's confirmed effect in the archive, the reader's
suggestion beside it, confirming suggestions in one call, and what a confirmed Special Rule does to a game."""

from __future__ import annotations

import json

import pytest

from decks import services
from decks.models import Deck
from tests.archive.conftest import error_code

pytestmark = pytest.mark.django_db

DRAW_TWO = [{"kind": "draw", "who": "you", "count": 2, "optional": False}]
HAND_OF_THREE = [{"kind": "set_rule", "param": "hand_limit", "value": 3}]


def cards_by_title(body):
    return {card["title"]: card for card in body["cards"]}


def test_a_card_shows_no_effect_and_the_readers_suggestion(api_client, new_deck):
    slug = new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards."},
                           {"title": "Dance", "type": "Action", "text": "Draw a card and dance a jig."}])["slug"]

    body = api_client.get(f"/api/v1/decks/{slug}/").json()

    greed, dance = cards_by_title(body)["Greed"], cards_by_title(body)["Dance"]
    assert greed["effect"] is None
    assert greed["suggested_effect"] == {"effects": DRAW_TWO, "unread": [], "understood": True}
    assert dance["suggested_effect"]["understood"] is False
    assert dance["suggested_effect"]["unread"] == ["Draw a card and dance a jig."]
    rule = body["special_rules"][0]
    assert rule["effect"] is None and rule["suggested_effect"]["effects"] == [
        {"kind": "set_rule", "param": "hand_limit", "value": 7}]


def test_a_cards_effect_is_set_kept_in_the_revision_and_cleared(user_client, new_deck):
    deck = new_deck()
    card = cards_by_title(deck)["Wash Up"]
    url = f"/api/v1/decks/{deck['slug']}/cards/{card['id']}/"

    set_ = user_client.patch(url, {"effect": [{"kind": "draw", "count": 2}], "summary": "Confirmed"}, format="json")

    assert set_.status_code == 200, set_.content
    assert set_.json()["effect"] == DRAW_TWO  # kept with every field written out
    assert user_client.get(url).json()["effect"] == DRAW_TWO
    revision = user_client.get(f"/api/v1/decks/{deck['slug']}/revisions/2/").json()
    assert cards_by_title(revision)["Wash Up"]["effect"] == DRAW_TWO
    assert "effect" not in cards_by_title(revision)["Frying Pan"]  # none confirmed: not in the stored deck

    changed_text = user_client.patch(url, {"text": "Discard two Things."}, format="json")
    assert changed_text.json()["effect"] == DRAW_TWO  # a text edit leaves the confirmed effect to the curator

    cleared = user_client.patch(url, {"effect": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["effect"] is None
    assert user_client.get(f"/api/v1/decks/{deck['slug']}/").json()["revision"] == 4


@pytest.mark.parametrize(("effect", "field"), [
    ([{"kind": "draw", "count": 500}], "effect[0].count"),
    ([{"kind": "teleport"}], "effect[0]"),
    ({"kind": "draw"}, "effect"),
    ("draw two", "effect"),
    ([{"kind": "set_rule", "param": "hand_limit", "value": 1000}], "effect[0].value"),
])
def test_a_malformed_card_effect_is_refused_naming_its_place(user_client, new_deck, effect, field):
    deck = new_deck()
    card = cards_by_title(deck)["Wash Up"]

    answer = user_client.patch(f"/api/v1/decks/{deck['slug']}/cards/{card['id']}/", {"effect": effect},
                               format="json")

    assert answer.status_code == 400, answer.content
    assert error_code(answer) == "invalid"
    assert answer.json()["error"]["details"]["field"] == field
    assert Deck.objects.get().revision == 1


def test_a_new_card_and_a_new_deck_carry_their_effect_and_refuse_a_bad_one(user_client, new_deck):
    deck = new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards.", "effect": DRAW_TWO}])
    assert deck["cards"][0]["effect"] == DRAW_TWO

    added = user_client.post(f"/api/v1/decks/{deck['slug']}/cards/",
                             {"title": "Skip", "type": "Action", "effect": [{"kind": "skip", "step": "turn"}]},
                             format="json")
    assert added.status_code == 201 and added.json()["effect"] == [{"kind": "skip", "step": "turn", "who": "you"}]

    refused = user_client.post("/api/v1/decks/", {"title": "Bad", "cards": [
        {"title": "Fine"}, {"title": "Broken", "effect": [{"kind": "draw", "who": "everyone"}]}]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["details"]["field"] == "cards[1].effect[0].who"
    assert not Deck.objects.filter(title="Bad").exists()


def test_a_special_rules_effect_is_set_through_the_deck_and_sets_its_params(user_client, new_deck):
    slug = new_deck()["slug"]

    patched = user_client.patch(f"/api/v1/decks/{slug}/", {"special_rules": [
        {"title": "Small hands", "text": "Hand size is three instead of five.", "effect": HAND_OF_THREE}]},
        format="json")

    assert patched.status_code == 200, patched.content
    rule = patched.json()["special_rules"][0]
    assert rule["effect"] == HAND_OF_THREE
    assert rule["params"] == {"hand_limit": 3}

    bad = user_client.patch(f"/api/v1/decks/{slug}/", {"special_rules": [
        {"title": "Small hands", "text": "Hand size is three.", "effect": [{"kind": "set_rule", "param": "x"}]}]},
        format="json")
    assert bad.status_code == 400 and error_code(bad) == "invalid"
    assert bad.json()["error"]["details"]["field"] == "special_rules[0].effect[0]"
    assert user_client.get(f"/api/v1/decks/{slug}/").json()["special_rules"][0]["effect"] == HAND_OF_THREE


def test_a_locked_deck_refuses_an_effect_and_a_confirmation(user_client, curator, new_deck):
    deck = new_deck()
    services.deck_lock(slug=deck["slug"], actor=curator)
    card = cards_by_title(deck)["Wash Up"]

    edit = user_client.patch(f"/api/v1/decks/{deck['slug']}/cards/{card['id']}/", {"effect": DRAW_TWO},
                             format="json")
    confirm = user_client.post(f"/api/v1/decks/{deck['slug']}/effects/confirm/", {}, format="json")

    assert (edit.status_code, error_code(edit)) == (423, "deck_locked")
    assert (confirm.status_code, error_code(confirm)) == (423, "deck_locked")
    assert all(card["effect"] is None for card in user_client.get(f"/api/v1/decks/{deck['slug']}/").json()["cards"])


def test_confirm_by_default_takes_every_understood_suggestion_without_an_effect(api_client, user_client, new_deck):
    deck = new_deck(cards=[
        {"title": "Greed", "type": "Action", "text": "Draw two cards."},
        {"title": "Dance", "type": "Action", "text": "Draw a card and dance a jig."},
        {"title": "Kept", "type": "Action", "text": "Draw two cards.", "effect": [{"kind": "extra_turn"}]},
    ], special_rules=[{"title": "Small hands", "text": "Hand size is three instead of five."}])
    url = f"/api/v1/decks/{deck['slug']}/effects/confirm/"
    assert api_client.post(url, {}, format="json").status_code == 401

    answer = user_client.post(url, {}, format="json", HTTP_IF_MATCH='"1"')

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert [card["title"] for card in body["cards"]] == ["Greed"]
    assert body["cards"][0]["effect"] == DRAW_TWO
    assert [(rule["title"], rule["effect"], rule["params"]) for rule in body["special_rules"]] == [
        ("Small hands", HAND_OF_THREE, {"hand_limit": 3})]
    assert body["revision"] == 2 and answer["ETag"] == '"2"'
    now = cards_by_title(user_client.get(f"/api/v1/decks/{deck['slug']}/").json())
    assert now["Dance"]["effect"] is None  # only partly understood: left to the curator
    assert now["Kept"]["effect"] == [{"kind": "extra_turn", "who": "you"}]  # a confirmed effect is not replaced
    revision = user_client.get(f"/api/v1/decks/{deck['slug']}/revisions/2/").json()
    assert revision["summary"] == "Confirmed the effect of card 'Greed', Special Rule 'Small hands'"

    again = user_client.post(url, {}, format="json")
    assert again.json() == {"cards": [], "special_rules": [], "revision": 2}  # nothing left: no new revision

    stale = user_client.post(url, {}, format="json", HTTP_IF_MATCH='"1"')
    assert (stale.status_code, error_code(stale)) == (412, "version_conflict")


def test_confirm_named_cards_takes_their_reading_even_in_part(user_client, new_deck):
    deck = new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards."},
                           {"title": "Dance", "type": "Action", "text": "Draw two cards. Dance a jig."}])
    cards = cards_by_title(deck)
    url = f"/api/v1/decks/{deck['slug']}/effects/confirm/"

    answer = user_client.post(url, {"cards": [cards["Dance"]["id"]]}, format="json")

    assert answer.status_code == 200
    assert [(card["title"], card["effect"]) for card in answer.json()["cards"]] == [("Dance", DRAW_TWO)]
    assert cards_by_title(user_client.get(f"/api/v1/decks/{deck['slug']}/").json())["Greed"]["effect"] is None

    missing = user_client.post(url, {"cards": [999999]}, format="json")
    assert (missing.status_code, error_code(missing)) == (404, "not_found")
    wrong = user_client.post(url, {"special_rules": "all"}, format="json")
    assert (wrong.status_code, error_code(wrong)) == (400, "invalid")


def test_export_and_import_keep_the_confirmed_effects(user_client, new_deck):
    deck = new_deck(cards=[{"title": "Greed", "type": "Action", "text": "Draw two cards.", "effect": DRAW_TWO}],
                    special_rules=[{"title": "Small hands", "text": "Hand size is three instead of five.",
                                    "effect": HAND_OF_THREE}])
    exported = user_client.get(f"/api/v1/decks/{deck['slug']}/export/json/")
    text = b"".join(exported.streaming_content) if exported.streaming else exported.content
    document = json.loads(text)
    assert document["cards"][0]["effect"] == DRAW_TWO

    imported = user_client.post("/api/v1/decks/import/", {"format": "json", "text": text.decode(),
                                                          "slug": "small-hands-again"}, format="json")

    assert imported.status_code == 201, imported.content
    body = imported.json()
    assert body["cards"][0]["effect"] == DRAW_TWO
    assert (body["special_rules"][0]["effect"], body["special_rules"][0]["params"]) == (HAND_OF_THREE,
                                                                                          {"hand_limit": 3})
    document["cards"][0]["effect"] = [{"kind": "draw", "count": -1}]
    refused = user_client.post("/api/v1/decks/import/", {"format": "json", "text": json.dumps(document),
                                                         "slug": "broken"}, format="json")
    assert refused.status_code == 400 and refused.json()["error"]["details"]["field"] == "cards[0].effect[0].count"


def test_a_restored_revision_brings_back_its_effects(user_client, new_deck):
    deck = new_deck()
    card = cards_by_title(deck)["Wash Up"]
    url = f"/api/v1/decks/{deck['slug']}/cards/{card['id']}/"
    user_client.patch(url, {"effect": DRAW_TWO}, format="json")
    user_client.patch(url, {"effect": None}, format="json")

    restored = user_client.post(f"/api/v1/decks/{deck['slug']}/revisions/2/restore/")

    assert restored.status_code == 201
    assert cards_by_title(restored.json())["Wash Up"]["effect"] == DRAW_TWO


def test_a_confirmed_hand_size_rule_sets_the_hand_limit_of_a_game_from_the_deck(archive_deck, make_user, client_for):
    deck = archive_deck(12)
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    ann.patch(f"/api/v1/decks/{deck.slug}/", {"special_rules": [
        {"title": "Small hands", "text": "Hand size is three instead of five."}]}, format="json")
    confirmed = ann.post(f"/api/v1/decks/{deck.slug}/effects/confirm/", {}, format="json")
    assert confirmed.json()["special_rules"][0]["params"] == {"hand_limit": 3}

    game_id = ann.post("/api/v1/games/", {"deck": deck.slug, "max_players": 2}, format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    started = ann.post(f"/api/v1/games/{game_id}/start/")

    assert started.status_code == 200, started.content
    assert started.json()["rules"]["hand_limit"] == 3


def test_a_card_voted_in_with_its_effect_is_published_to_the_archive_with_it(archive_deck, make_user, client_for):
    deck = archive_deck(12)
    ann, bob = client_for(make_user("ann")), client_for(make_user("bob"))
    game_id = ann.post("/api/v1/games/", {"deck": deck.slug, "creative": True, "max_players": 2},
                       format="json").json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join/", {}, format="json")
    bad = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "propose", "kind": "card", "card": {
        "title": "Greed", "type": "Action", "text": "Draw two cards.", "effect": [{"kind": "draw", "count": "two"}]}},
        format="json")
    assert (bad.status_code, error_code(bad)) == (400, "invalid"), bad.content
    assert bad.json()["error"]["details"]["field"] == "card.effect[0].count", bad.content

    opened = ann.post(f"/api/v1/games/{game_id}/commands/", {"type": "propose", "kind": "card", "card": {
        "title": "Greed", "type": "Action", "text": "Draw two cards.", "effect": [{"kind": "draw", "count": 2}]}},
        format="json")
    assert opened.status_code == 201, opened.content
    assert bob.get(f"/api/v1/games/{game_id}/").json()["proposals"][0]["card"]["effect"] == DRAW_TWO
    for client in (ann, bob):
        client.post(f"/api/v1/games/{game_id}/commands/", {"type": "vote", "proposal": 1, "approve": True},
                    format="json")
    assert ann.post(f"/api/v1/games/{game_id}/start/").status_code == 200
    bob.post(f"/api/v1/games/{game_id}/commands/", {"type": "concede"}, format="json")

    published = ann.post(f"/api/v1/games/{game_id}/publish/", {}, format="json")

    assert published.status_code == 201, published.content
    cards = cards_by_title(ann.get(f"/api/v1/decks/{deck.slug}/").json())
    assert cards["Greed"]["effect"] == DRAW_TWO and cards["Greed"]["creator"] == "ann"


def test_an_effect_nested_too_deep_or_too_long_is_refused_not_a_server_error(user_client, new_deck):
    deck = new_deck()
    url = f"/api/v1/decks/{deck['slug']}/cards/{cards_by_title(deck)['Wash Up']['id']}/"

    def lasting(levels: int) -> dict:
        nested: dict = {"kind": "draw"}
        for _ in range(levels):
            nested = {"kind": "lasting", "duration": "this_turn", "effects": [nested]}
        return nested

    long = [{"kind": "counter", "name": "x" * 100, "amount": 1}] * 200

    deep = user_client.patch(url, {"effect": [lasting(15)]}, format="json")  # past the effect's 24 levels
    too_long = user_client.patch(url, {"effect": long}, format="json")
    past_the_parser = user_client.patch(url, {"effect": [lasting(400)]}, format="json")  # past any body's 64

    assert (deep.status_code, deep.json()["error"]["details"]["field"]) == (400, "effect")
    assert (too_long.status_code, too_long.json()["error"]["details"]["field"]) == (400, "effect")
    assert past_the_parser.status_code == 400
    assert past_the_parser.json()["error"]["message"] == "JSON parse error - the body is nested too deeply."
