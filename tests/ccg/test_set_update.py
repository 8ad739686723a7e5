"""An update of the Filibuster set that changes, adds and removes cards, followed through at once to every
player's deck (one in a game too), their notices, and the games their decks may enter."""

from __future__ import annotations

import pytest

from ccg.models import CardSetVersion, PlayerDeck, PlayerDeckEntry
from ccg.selectors import player_deck_for_game
from ccg.services import player_deck_mark_in_game, player_deck_release
from ccg.tasks import build_card_set_version
from dvorak_core.errors import Conflict, NotFound
from tests.ccg.conftest import FILIBUSTER, accept, propose, set_cards
from tests.ccg.test_player_decks import build

pytestmark = pytest.mark.django_db


def version_3(ann, bob, cards: dict[str, dict], capture) -> None:
    """Ann proposes, Bob accepts: Pork Barrel's text changes, Filibuster Kit is added, Party Whip removed."""
    with capture(execute=True):
        for body in (
            {"kind": "change", "card": cards["Pork Barrel"]["id"], "content": {"text": "Gain 5 points."}},
            {"kind": "add", "content": {"title": "Filibuster Kit", "type": "Constant", "corner_value": "6",
                                        "text": "Your filibusters succeed on equal values."}},
            {"kind": "remove", "card": cards["Party Whip"]["id"]},
        ):
            accept(bob, propose(ann, body)["id"])


def test_a_new_version_follows_through_to_every_players_deck(
    filibuster_with_cards, players, mailoutbox, django_capture_on_commit_callbacks
):
    (ann_user, ann), (bob_user, bob) = players
    cards = filibuster_with_cards
    ann_deck = build(ann, cards, {"Pork Barrel": 10, "Party Whip": 6, "Stump Speech": 6}, name="Whipped")
    bob_deck = build(bob, cards, {"Pork Barrel": 20}, name="All Pork")
    mailoutbox.clear()

    version_3(ann, bob, cards, django_capture_on_commit_callbacks)

    versions = ann.get(f"/api/v1/decks/{FILIBUSTER}/versions/").json()
    assert [version["number"] for version in versions] == [1, 2, 3]
    assert versions[2]["changelog"] == ["Changed card 'Pork Barrel': text", "Added card 'Filibuster Kit'",
                                        "Removed card 'Party Whip'"]
    now = set_cards(ann)
    assert now["Pork Barrel"]["text"] == "Gain 5 points." and "Filibuster Kit" in now and "Party Whip" not in now
    assert now["Pork Barrel"]["id"] == cards["Pork Barrel"]["id"]
    assert set_cards(ann, version=2)["Pork Barrel"]["text"] == "Gain 10 points."

    # Ann's deck lost its Party Whips (and so became too small); Bob's kept its cards, with the new text.
    ann_now = ann.get(f"/api/v1/player-decks/{ann_deck['id']}/").json()
    assert ann_now["version"] == 3 and ann_now["size"] == 16 and ann_now["valid"] is False
    assert {entry["title"] for entry in ann_now["entries"]} == {"Pork Barrel", "Stump Speech"}
    bob_cards = player_deck_for_game(user=bob_user, player_deck_id=bob_deck["id"], formal=True)["cards"]
    assert bob_cards == [{**{k: now["Pork Barrel"][k] for k in ("title", "type", "text", "flavor", "corner_value",
                                                                 "creator", "stats")}, "copies": 20}]

    # One grouped notice each, in the app and by email.
    [ann_notice] = ann.get("/api/v1/notifications/").json()
    assert ann_notice["subject"] == "Filibuster CCG set is now at version 3"
    assert "Taken out (no longer in the set): Party Whip (6 copies)" in ann_notice["body"]
    assert "Changed text: Pork Barrel" in ann_notice["body"] and "Whipped" in ann_notice["body"]
    [bob_notice] = bob.get("/api/v1/notifications/").json()
    assert "All Pork" in bob_notice["body"] and "Taken out" not in bob_notice["body"]
    assert sorted(mail.to[0] for mail in mailoutbox) == [ann_user.email, bob_user.email]
    assert all(mail.subject == "Filibuster CCG set is now at version 3" for mail in mailoutbox)
    ann_mail = next(mail for mail in mailoutbox if mail.to == [ann_user.email])
    assert ann_mail.body == ann_notice["body"]

    marked = ann.post("/api/v1/notifications/read/", {}, format="json").json()
    assert marked == {"marked": 1}
    assert ann.get("/api/v1/notifications/?unread=1").json() == []


def test_a_deck_in_a_game_follows_the_set_too_and_the_game_goes_on_with_the_cards_it_dealt(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    """CCG Dvorak: "Any adjustments to the Card Set should be immediately reflected in every player's deck." A deck
    that a game is playing is one of them: following the set is not the owner's tuning."""
    (ann_user, ann), (_, bob) = players
    cards = filibuster_with_cards
    deck = build(ann, cards, {"Pork Barrel": 14, "Party Whip": 10}, name="Whipped")
    player_deck_mark_in_game(player_deck_id=deck["id"], game_id="casual-game")

    version_3(ann, bob, cards, django_capture_on_commit_callbacks)

    now = ann.get(f"/api/v1/player-decks/{deck['id']}/").json()
    assert now["version"] == now["latest_version"] == 3 and now["in_game"] is True
    assert [(entry["title"], entry["text"]) for entry in now["entries"]] == [("Pork Barrel", "Gain 5 points.")]
    [notice] = ann.get("/api/v1/notifications/").json()
    assert "Taken out (no longer in the set): Party Whip (10 copies)" in notice["body"]
    assert "The game it is being played in goes on with the cards it was dealt." in notice["body"]
    assert notice["data"]["player_decks"] == [{"id": deck["id"], "name": "Whipped", "in_game": True,
                                               "removed": ["Party Whip (10 copies)"], "changed": ["Pork Barrel"]}]

    # Nothing is left for the owner to update, in the game or after it.
    updated = ann.post(f"/api/v1/player-decks/{deck['id']}/update/")
    assert updated.status_code == 200 and (updated.json()["removed"], updated.json()["changed"]) == ([], [])
    # Tuning is still the owner's, between games only.
    refused = ann.patch(f"/api/v1/player-decks/{deck['id']}/", {"name": "Renamed"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "deck_in_game"
    player_deck_release(player_deck_id=deck["id"], game_id="casual-game")
    # Losing its Party Whips left it too small: no game takes it until it is tuned.
    with pytest.raises(Conflict) as invalid:
        player_deck_for_game(user=ann_user, player_deck_id=deck["id"], formal=True)
    assert invalid.value.code == "deck_invalid"
    ann.patch(f"/api/v1/player-decks/{deck['id']}/",
              {"entries": [{"card": cards["Pork Barrel"]["id"], "count": 20}]}, format="json")
    formal = player_deck_for_game(user=ann_user, player_deck_id=deck["id"], formal=True)
    assert formal["card_set"] == FILIBUSTER and formal["version"] == 3 and formal["name"] == "Whipped"


def leave_behind(player_deck_id: int, *, version: int, entries: dict[int, int]) -> None:
    """The deck as the service stored one that a game was playing when a version was built, before decks in a game
    followed the set: on its old version, with its old entries."""
    PlayerDeck.objects.filter(pk=player_deck_id).update(version=version)
    PlayerDeckEntry.objects.filter(player_deck_id=player_deck_id).delete()
    PlayerDeckEntry.objects.bulk_create(PlayerDeckEntry(player_deck_id=player_deck_id, card_id=card_id, count=count)
                                        for card_id, count in entries.items())


def test_a_deck_left_behind_is_refused_for_formal_games_until_it_follows_the_set(
    filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    """CCG Dvorak: "if a player's deck has been built with an earlier version of the Card Set, he or she should
    check and update it before playing any formal games with it"."""
    (ann_user, ann), (_, bob) = players
    cards = filibuster_with_cards
    deck = build(ann, cards, {"Pork Barrel": 14, "Talking Point": 10}, name="Old faithful")
    version_3(ann, bob, cards, django_capture_on_commit_callbacks)
    leave_behind(deck["id"], version=2, entries={cards["Pork Barrel"]["id"]: 14, cards["Party Whip"]["id"]: 10})

    left = ann.get(f"/api/v1/player-decks/{deck['id']}/").json()
    assert (left["version"], left["latest_version"]) == (2, 3)
    casual = player_deck_for_game(user=ann_user, player_deck_id=deck["id"], formal=False)
    assert casual["version"] == 2 and {card["title"] for card in casual["cards"]} == {"Pork Barrel", "Party Whip"}
    with pytest.raises(Conflict) as outdated:
        player_deck_for_game(user=ann_user, player_deck_id=deck["id"], formal=True)
    assert outdated.value.code == "deck_outdated" and outdated.value.status == 409

    updated = ann.post(f"/api/v1/player-decks/{deck['id']}/update/").json()
    assert updated["version"] == 3 and updated["removed"] == ["Party Whip (10 copies)"]
    assert updated["changed"] == ["Pork Barrel"] and updated["valid"] is False


def test_the_next_version_brings_a_deck_left_behind_along(
    filibuster, filibuster_with_cards, players, django_capture_on_commit_callbacks
):
    (_, ann), (_, bob) = players
    cards = filibuster_with_cards
    deck = build(ann, cards, {"Pork Barrel": 20}, name="Old faithful")
    version_3(ann, bob, cards, django_capture_on_commit_callbacks)
    leave_behind(deck["id"], version=2, entries={cards["Pork Barrel"]["id"]: 10, cards["Party Whip"]["id"]: 10})

    with django_capture_on_commit_callbacks(execute=True):
        accept(bob, propose(ann, {"kind": "remove", "card": cards["Talking Point"]["id"]})["id"])

    now = ann.get(f"/api/v1/player-decks/{deck['id']}/").json()
    assert now["version"] == 4 and [entry["text"] for entry in now["entries"]] == ["Gain 5 points."]
    latest = ann.get("/api/v1/notifications/").json()[0]
    assert latest["data"]["version"] == 4
    assert latest["data"]["player_decks"][0]["removed"] == ["Party Whip (10 copies)"]


def test_player_deck_for_game_is_the_owners_alone(filibuster_with_cards, players):
    (_, ann), (bob_user, _) = players
    deck = build(ann, filibuster_with_cards, {"Pork Barrel": 20})
    # Someone else's deck is refused exactly as a missing one, so the refusal confirms nothing.
    with pytest.raises(NotFound) as someone_elses:
        player_deck_for_game(user=bob_user, player_deck_id=deck["id"], formal=False)
    with pytest.raises(NotFound) as missing:
        player_deck_for_game(user=bob_user, player_deck_id=deck["id"] + 1000, formal=False)
    assert str(someone_elses.value) == f"There is no player deck {deck['id']}."
    assert str(missing.value) == f"There is no player deck {deck['id'] + 1000}."


def test_the_task_delivered_twice_builds_one_version(filibuster, filibuster_with_cards, players):
    (_, ann), (_, bob) = players
    # Accepted outside a captured commit: the changes wait for the task.
    accept(bob, propose(ann, {"kind": "remove", "card": filibuster_with_cards["Talking Point"]["id"]})["id"])
    first = build_card_set_version.apply(args=[filibuster.pk]).get()
    second = build_card_set_version.apply(args=[filibuster.pk]).get()
    assert (first, second) == (3, None)
    assert list(CardSetVersion.objects.filter(card_set__slug=FILIBUSTER).values_list("number", flat=True)) == [1, 2, 3]
    assert "Talking Point" not in set_cards(ann)



def test_the_card_search_finds_the_set_as_its_new_version_has_it(filibuster_with_cards, players, api_client,
                                                               django_capture_on_commit_callbacks):
    (_, ann), (_, bob) = players
    version_3(ann, bob, filibuster_with_cards, django_capture_on_commit_callbacks)

    def titles(query: str) -> list[str]:
        return [card["title"] for card in api_client.get(f"/api/v1/cards/?deck={FILIBUSTER}&{query}").json()["results"]]

    assert titles("q=filibuster+kit") == ["Filibuster Kit"]
    assert titles("q=whip") == []
    assert titles("q=pork+gain+5") == ["Pork Barrel"]  # its new text
    assert titles("q=gain+10") == []                   # its old one
