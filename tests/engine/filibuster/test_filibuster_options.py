"""A Filibuster game's variant and options: what the set says, and the readings where it is silent, each an option
players might settle otherwise, checked when the game is created and written into it so that it keeps them."""

from __future__ import annotations

import pytest

from dvorak_engine import Actor, DomainError, Event, SeededRng, create_game, default_variant, replay
from dvorak_engine.rulesets.filibuster import RULESET
from tests.engine.filibuster.table import Table, sample_set


def player_deck(deck_id: int) -> dict:
    """A player deck as the service gives it to the engine: every card of the sample set once."""
    card_set = sample_set()
    return {"id": deck_id, "name": f"Deck {deck_id}", "card_set": card_set["slug"], "version": 1,
            "cards": [dict(card, copies=1) for card in card_set["cards"]]}


def created(variant: str = "standard", **options) -> list[Event]:
    return create_game(ruleset="filibuster", deck=sample_set(), variant=variant, creative=False, max_players=3,
                       options=options, creator=Actor(1, "ann"), rng=SeededRng(1))


def refusal(variant: str = "standard", **options) -> DomainError:
    with pytest.raises(DomainError) as refused:
        created(variant, **options)
    return refused.value


# --- decks: "This is a CCG set" ------------------------------------------------------------------------------


def test_this_is_a_ccg_set_so_by_default_each_player_brings_a_player_deck():
    """"This is a CCG set, a set of cards which can be used to construct personalised decks, in the style of a
    collectable card game": a game created naming no variant is a ``ccg`` one."""
    assert RULESET.default_variant == default_variant("filibuster") == "ccg"
    assert set(RULESET.variants) == {"ccg", "standard"}
    t = Table(2, variant="ccg", joins=[{"player_deck": player_deck(7)}, {"player_deck": player_deck(8)}])
    assert t.view(None)["variant"] == "ccg"
    assert [p["deck"]["id"] for p in t.view(None)["players"]] == [7, 8]
    size = len(sample_set()["cards"])
    assert all(len(p.hand) + len(p.draw_pile) == size for p in t.table.players)
    assert {t.table.owners[card] for card in t.table.player(1).hand} == {1}  # each draws from their own deck


def test_a_ccg_game_without_the_creators_player_deck_is_refused_saying_what_to_send():
    refused = refusal("ccg")
    assert refused.code == "invalid" and refused.details["field"] == "options.player_deck"
    assert "options.player_deck" in refused.message and '"variant": "standard"' in refused.message


def test_a_ccg_game_is_joined_with_a_player_deck():
    with pytest.raises(DomainError) as refused:
        Table(2, variant="ccg", joins=[{"player_deck": player_deck(7)}, {}])
    assert refused.value.code == "invalid" and refused.value.details == {"field": "player_deck"}
    assert "player deck" in refused.value.message and "filibuster-sample-set" in refused.value.message


def test_the_standard_option_gives_every_player_a_copy_of_the_whole_set():
    t = Table(3)
    size = sum(card.get("copies", 1) for card in sample_set()["cards"])
    assert t.view(None)["variant"] == "standard"
    assert [len(p.hand) + len(p.draw_pile) for p in t.table.players] == [size] * 3
    assert all(p.deck is None for p in t.table.players)


# --- the options, written into the game ----------------------------------------------------------------------


def test_a_new_game_writes_its_options_in_full_and_shows_them():
    [game_created, _] = created()
    assert game_created.data["options"] == {"filibusters": "each", "dice": 2}
    [game_created, _] = created(filibusters="one", dice=3, spectators="players")
    assert game_created.data["options"] == {"spectators": "players", "filibusters": "one", "dice": 3}
    t = Table(2, options={"dice": 1}, start=False)
    assert t.view(0)["rules"] == {"filibusters": "each", "dice": 1} and t.view(0)["board"] is None


@pytest.mark.parametrize(("options", "field"), [
    ({"filibusters": "many"}, "options.filibusters"), ({"filibusters": None}, "options.filibusters"),
    ({"dice": 0}, "options.dice"), ({"dice": 7}, "options.dice"), ({"dice": True}, "options.dice"),
    ({"dice": "2"}, "options.dice"), ({"dice": 2.0}, "options.dice"),
])
def test_a_bad_option_is_refused_naming_it(options, field):
    refused = refusal(**options)
    assert refused.code == "invalid" and refused.details["field"] == field


@pytest.mark.parametrize("dice", [1, 3, 6])
def test_all_players_roll_their_dice_as_many_as_the_game_says(dice):
    """"Roll Step: All players roll their dice." How many the set does not say: two each unless ``options.dice``
    says otherwise (reading 2), tie-breaking rolls too."""
    for seed in range(12):
        t = Table(4, seed=seed, options={"dice": dice})
        rolled = next(e for e in t.events if e.type == "filibuster.rolled")
        rolls = [*rolled.data["rolls"], *(roll for again in rolled.data["tiebreaks"] for roll in again)]
        assert all(len(r["dice"]) == dice and all(1 <= d <= 6 for d in r["dice"]) and r["total"] == sum(r["dice"])
                   for r in rolls)
        assert t.view(None)["board"]["rolls"] == rolled.data["rolls"]


def test_a_game_created_before_its_options_were_written_rolls_two_dice_and_shows_no_rules():
    """A stored game's ``game.created`` has no ``dice`` in its options: it is played with two, as it was."""
    t = Table(3, options={"dice": 5}, start=False)
    t.events[0] = Event(t.events[0].type, {**t.events[0].data, "options": {}}, t.events[0].schema)
    t.state = replay(t.events)
    t.send(0, {"type": "start"})
    rolled = next(e for e in t.events if e.type == "filibuster.rolled")
    assert all(len(r["dice"]) == 2 for r in rolled.data["rolls"])
    assert "rules" not in t.view(None)
