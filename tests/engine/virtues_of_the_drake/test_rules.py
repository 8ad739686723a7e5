"""The Virtues of the Drake's procedure, each rule tested under the seed's own words ("The Virtues of the Drake,
update II" and its "Updated Rules")."""

from __future__ import annotations

from collections import Counter

import pytest

from dvorak_core.errors import DomainError
from dvorak_engine.rulesets.virtues_of_the_drake.cards import (
    GLUTTONY,
    GREED,
    PLAY_ORDER,
    PRIDE,
    SANGRIA_ALL_TEXT,
    VIRTUES,
    WRATH,
)
from tests.engine.virtues_of_the_drake.table import Table, card, drake_deck


def types(events) -> list[str]:
    return [event.type for event in events]


# --- To start the game ------------------------------------------------------------------------------------------


def test_shuffle_all_the_decks_then_place_them_in_a_triangle():
    """The three decks form by type from the archive's one deck; each is shuffled with the server's randomness."""
    game = Table(4)
    table = game.table
    for deck, kind in (("maidens", "Maiden"), ("knights", "Knight"), ("treasures", "Treasure")):
        assert {table.cards[c].type for c in table.decks[deck]} == {kind}
        assert len(table.decks[deck]) == 9 - 1  # one started the Gullet, the Lair or the Bed
    orders = set()
    for seed in range(5):
        other = Table(4, seed=seed)
        orders.add(tuple(other.titles(other.table.decks["maidens"])))
    assert len(orders) > 1
    # The orders drawn are written into the event, so replay repeats them.
    shuffled = next(e for e in game.events if e.type == "drake.decks_shuffled")
    assert shuffled.data["decks"]["maidens"][1:] == list(table.decks["maidens"])


@pytest.mark.parametrize("players", [3, 4])
def test_shuffle_the_virtue_cards_and_hand_one_to_each_player(players):
    dealt = Counter()
    for seed in range(12):
        table = Table(players, seed=seed).table
        assert sorted(table.virtues.values()) == list(range(players))
        assert set(table.virtues) | set(table.set_aside) == set(VIRTUES)
        assert len(table.set_aside) == 4 - players  # "remaining cards should be set, face up, to the side"
        dealt.update((seat, virtue) for virtue, seat in table.virtues.items())
    assert len({virtue for _, virtue in dealt}) == 4  # every Virtue is dealt in some game: a shuffle, not a rule


def test_in_a_two_player_game_set_pride_aside_first():
    for seed in range(12):
        table = Table(2, seed=seed).table
        assert PRIDE in table.set_aside and PRIDE not in table.virtues
        assert len(table.virtues) == 2


def test_the_top_cards_form_the_gullet_the_lair_and_the_bed():
    """"Place the top card from the Maidens deck to the right of Gluttony; this forms the Gullet. Likewise, place
    the top Knight next to Wrath to start the Lair and the top Treasure next to Greed to start the Bed." """
    game = Table(4)
    shuffled = next(e for e in game.events if e.type == "drake.decks_shuffled").data["decks"]
    table = game.table
    assert table.gullet == (shuffled["maidens"][0],)
    assert table.lair == (shuffled["knights"][0],)
    assert table.bed == (shuffled["treasures"][0],)
    assert game.state.status == "active"


def test_the_play_order_is_strictly_pride_greed_wrath_gluttony():
    game = Table(4)
    game.arrange(maidens=[f"Maiden {n}" for n in range(1, 9)], knights=[f"Knight {n}" for n in range(1, 9)],
                 treasures=[f"Treasure {n}" for n in range(1, 9)], gullet=["Maiden 9"], lair=["Knight 9"],
                 bed=["Treasure 9"], turn=PRIDE)
    seen = []
    for _ in range(4):
        seen.append(game.turn.virtue)
        game.act({"type": "play_top", "deck": "maidens"})
        game.act({"type": "swallow"})
    for _ in range(4):
        seen.append(game.turn.virtue)
        game.act({"type": "play_top", "deck": "treasures"})  # nothing in play: no action, the turn ends
    assert seen == [*PLAY_ORDER, *PLAY_ORDER]


def test_the_play_order_skips_the_virtues_nobody_plays_and_pride_goes_first():
    for seed in range(8):
        game = Table(3, seed=seed)
        order = [virtue for virtue in PLAY_ORDER if virtue in game.table.virtues]
        assert game.turn.virtue == order[0]
        seen = []
        for _ in range(6):
            seen.append(game.turn.virtue)
            game.act({"type": "play_top", "deck": "treasures"})
            if game.state.status != "active":
                break
            if game.turn.stage == "action":
                game.act(game.moves()[0])
        assert seen == (order * 2)[:len(seen)]


# --- 1. Playing the top card of a deck of that player's choice ----------------------------------------------------


def test_you_may_always_play_a_maiden_or_a_knight_provided_there_is_no_corresponding_card_in_play():
    game = Table(4).arrange(maiden=["Maiden 5"], knight=[], turn=PRIDE)
    decks = [move["deck"] for move in game.moves()]
    assert decks == ["knights", "treasures"]
    with pytest.raises(DomainError) as refused:
        game.act({"type": "play_top", "deck": "maidens"})
    assert refused.value.code == "denied"
    game.act({"type": "play_top", "deck": "knights"})
    assert game.table.knight_in_play() is not None


def test_play_the_top_card_of_the_chosen_deck():
    game = Table(4).arrange(knights=["Knight 4", "Knight 2"], turn=GREED)
    [played] = [e for e in game.act({"type": "play_top", "deck": "knights"}) if e.type == "drake.card_played"]
    assert game.title_of(played.data["card"]) == "Knight 4"
    assert game.title_of(game.table.knight_in_play()) == "Knight 4"
    assert game.titles(game.table.decks["knights"]) == ["Knight 2"]


@pytest.mark.parametrize(("treasure", "knight_discarded"), [("Treasure 6", True), ("Treasure 5", False),
                                                            ("Treasure 2", False)])
def test_to_play_a_treasure_compare_its_value_to_the_rightmost_knights_wealth(treasure, knight_discarded):
    """"If the Wealth is equal or higher, the Knight's pockets are not yet exhausted and nothing happens in the Lair.
    If the Value is higher than the Wealth ... discard the rightmost Knight from the Lair. Either way, the Treasure
    goes onto your Bed." """
    game = Table(4).arrange(treasures=[treasure, "Treasure 1"], lair=["Knight 8", "Knight 5"], bed=["Treasure 9"],
                            turn=WRATH)
    game.act({"type": "play_top", "deck": "treasures"})
    assert game.titles(game.table.bed) == ["Treasure 9", treasure]
    assert game.titles(game.table.lair) == (["Knight 8"] if knight_discarded else ["Knight 8", "Knight 5"])
    assert game.titles(game.table.discards["knights"]) == (["Knight 5"] if knight_discarded else [])


def test_a_treasure_with_no_knight_in_the_lair_goes_onto_the_bed():
    game = Table(4).arrange(treasures=["Treasure 9", "Treasure 1"], lair=[], turn=PRIDE)
    [played] = [e for e in game.act({"type": "play_top", "deck": "treasures"}) if e.type == "drake.card_played"]
    assert played.data["compared"] is None
    assert game.titles(game.table.bed)[-1] == "Treasure 9"


# --- 2. Performing an action ------------------------------------------------------------------------------------


def test_swallowing_a_maiden_only_if_there_is_no_knight_in_play_to_protect_the_maiden():
    game = Table(4).arrange(maidens=["Maiden 4", "Maiden 1"], knight=["Knight 3"], gullet=["Maiden 9"], turn=PRIDE)
    game.act({"type": "play_top", "deck": "maidens"})
    assert {"type": "swallow"} not in game.moves()
    with pytest.raises(DomainError) as refused:
        game.act({"type": "swallow"})
    assert refused.value.code == "denied"

    game = Table(4).arrange(maidens=["Maiden 4", "Maiden 1"], knight=[], gullet=["Maiden 9"], turn=PRIDE)
    game.act({"type": "play_top", "deck": "maidens"})
    assert game.moves() == [{"type": "swallow"}]
    game.act({"type": "swallow"})
    assert game.titles(game.table.gullet) == ["Maiden 9", "Maiden 4"]
    assert game.table.maiden_in_play() is None
    assert game.turn.virtue == GREED


@pytest.mark.parametrize(("rightmost", "stays"), [("Maiden 6", True), ("Maiden 5", True), ("Maiden 4", False)])
def test_breathing_fire_on_a_knight_compares_his_strength_to_the_chastity_of_the_rightmost_maiden(rightmost, stays):
    """"If the Maiden's Chastity is equal or higher, she stays in the Gullet, but if it's less than the Knight's
    Strength, discard the Maiden. Either way, you still defeat the Knight ... Move the Knight to the Lair." """
    game = Table(4).arrange(knights=["Knight 5", "Knight 1"], gullet=["Maiden 9", rightmost], lair=["Knight 7"],
                            turn=GLUTTONY)
    game.act({"type": "play_top", "deck": "knights"})
    assert {"type": "breathe_fire"} in game.moves()
    game.act({"type": "breathe_fire"})
    assert game.titles(game.table.lair) == ["Knight 7", "Knight 5"]
    assert game.titles(game.table.gullet) == (["Maiden 9", rightmost] if stays else ["Maiden 9"])
    assert game.titles(game.table.discards["maidens"]) == ([] if stays else [rightmost])
    assert game.table.knight_in_play() is None


def test_breathing_fire_with_an_empty_gullet_still_defeats_the_knight():
    game = Table(4).arrange(knight=["Knight 9"], gullet=[], lair=[], turn=PRIDE, stage="action")
    [fire] = game.act({"type": "breathe_fire"})[:1]
    assert fire.data["maiden"] is None and not fire.data["maiden_discarded"]
    assert game.titles(game.table.lair) == ["Knight 9"]


def test_a_turn_comprises_two_phases_first_the_card_then_the_action():
    game = Table(4).arrange(maiden=["Maiden 3"], turn=PRIDE)
    with pytest.raises(DomainError) as refused:
        game.act({"type": "swallow"})
    assert refused.value.code == "wrong_stage"
    game.act({"type": "play_top", "deck": "treasures"})
    with pytest.raises(DomainError) as refused:
        game.act({"type": "play_top", "deck": "treasures"})
    assert refused.value.code == "wrong_stage"
    with pytest.raises(DomainError) as refused:
        game.send((game.turn.seat + 1) % 4, {"type": "swallow"})
    assert refused.value.code == "not_your_turn"


def test_a_turn_with_no_action_to_perform_ends_with_its_card():
    game = Table(4).arrange(maiden=[], knight=[], turn=PRIDE)
    events = game.act({"type": "play_top", "deck": "treasures"})
    assert types(events)[-1] == "drake.turn_began" and game.turn.virtue == GREED


# --- Performing an action that is listed on a card ----------------------------------------------------------------

HARP = card("Enchanted Harp", "Treasure", "As an action, swallow the Maiden in play, even if a Knight guards her.",
            value=3)
MIRROR = card("Mirror", "Treasure", "As an action, discard this card to discard the rightmost Knight from the Lair.",
              value=2)
ODD = card("Odd Knight", "Knight", "As an action, sing a ballad of your deeds.", strength=2, wealth=2)


def test_performing_an_action_that_is_listed_on_a_card():
    game = Table(4, deck=drake_deck(HARP)).arrange(maiden=["Maiden 2"], knight=["Knight 9"], bed=["Enchanted Harp"],
                                                   gullet=["Maiden 1"], turn=WRATH, stage="action")
    harp = game.id_of("Enchanted Harp")
    assert {"type": "card_action", "card": {"choose": 1, "from": [harp], "list": False}} in game.moves()
    events = game.act({"type": "card_action", "card": harp})
    assert types(events) == ["drake.card_action", "drake.maiden_swallowed", "drake.turn_began"]
    assert game.titles(game.table.gullet) == ["Maiden 1", "Maiden 2"]
    assert game.title_of(game.table.knight_in_play()) == "Knight 9"  # the harp lulled him


def test_a_card_whose_action_discards_it_leaves_the_table():
    game = Table(4, deck=drake_deck(MIRROR)).arrange(bed=["Treasure 1", "Mirror"], lair=["Knight 2", "Knight 8"],
                                                     turn=GREED, stage="action")
    game.act({"type": "card_action", "card": game.id_of("Mirror")})
    assert game.titles(game.table.bed) == ["Treasure 1"]
    assert game.titles(game.table.lair) == ["Knight 2"]
    assert game.titles(game.table.discards["treasures"]) == ["Mirror"]
    assert game.titles(game.table.discards["knights"]) == ["Knight 8"]


def test_a_card_action_is_offered_only_where_it_has_something_to_act_on():
    game = Table(4, deck=drake_deck(HARP)).arrange(maiden=[], bed=["Enchanted Harp"], turn=WRATH, stage="action",
                                                   knight=["Knight 2"])
    assert [move["type"] for move in game.moves()] == ["breathe_fire"]
    with pytest.raises(DomainError) as refused:
        game.act({"type": "card_action", "card": game.id_of("Enchanted Harp")})
    assert refused.value.code == "denied"


def test_an_action_the_engine_cannot_read_is_offered_and_recorded_for_the_players_to_carry_out():
    game = Table(4, deck=drake_deck(ODD)).arrange(lair=["Odd Knight"], turn=GREED, stage="action")
    odd = game.id_of("Odd Knight")
    events = game.act({"type": "card_action", "card": odd})
    assert events[0].data == {"seat": game.seat_of(GREED), "card": odd,
                              "text": "As an action, sing a ballad of your deeds.", "effect": None,
                              "discarded": False}
    assert game.titles(game.table.lair) == ["Odd Knight"]


def test_a_card_in_a_deck_or_the_discards_offers_no_action():
    game = Table(4, deck=drake_deck(ODD)).arrange(knights=["Odd Knight", "Knight 1"], turn=GREED, stage="action")
    with pytest.raises(DomainError) as refused:
        game.act({"type": "card_action", "card": game.id_of("Odd Knight")})
    assert refused.value.code == "denied"
    assert "deck" not in refused.value.message


def test_the_sangria_all_now_has_the_text_discard_it_to_shuffle_all_discards_back_into_their_decks():
    sangria = card("Sangria All", "Treasure", "Drink deep.", value=6)
    game = Table(4, deck=drake_deck(sangria))
    sangria_id = game.id_of("Sangria All")
    assert game.table.cards[sangria_id].text == SANGRIA_ALL_TEXT
    game.arrange(bed=["Treasure 1", "Sangria All"], maidens=["Maiden 1", "Maiden 2"], maidens_discards=["Maiden 3"],
                 knights=["Knight 1"], knights_discards=["Knight 2", "Knight 3"], turn=PRIDE, stage="action")
    events = game.act({"type": "card_action", "card": sangria_id})
    assert types(events) == ["drake.card_action", "drake.discards_shuffled", "drake.turn_began"]
    table = game.table
    assert sorted(game.titles(table.decks["maidens"])) == ["Maiden 1", "Maiden 2", "Maiden 3"]
    assert sorted(game.titles(table.decks["knights"])) == ["Knight 1", "Knight 2", "Knight 3"]
    assert sangria_id in table.decks["treasures"]  # discarded, then shuffled back with the other discards
    assert game.titles(table.bed) == ["Treasure 1"]
    assert all(not pile for pile in table.discards.values())
    assert table.reshuffled_for == ()  # the Sangria All's reshuffle is not a Virtue's


# --- Winning ---------------------------------------------------------------------------------------------------


def test_gluttony_will_win_if_the_dragons_gullet_ever_contains_seven_maidens():
    game = Table(4).arrange(gullet=[f"Maiden {n}" for n in range(1, 7)], maidens=["Maiden 7", "Maiden 8"],
                            knight=[], turn=WRATH)
    game.act({"type": "play_top", "deck": "maidens"})
    events = game.act({"type": "swallow"})
    assert events[-1].type == "drake.game_over"
    assert game.state.status == "finished" and list(game.state.winners) == [game.seat_of(GLUTTONY)]
    assert game.table.outcome["virtue"] == GLUTTONY
    assert game.table.outcome["rule"].startswith("Gluttony will win if the Dragon's Gullet ever contains seven")


def test_wrath_will_win_if_the_dragons_lair_ever_contains_seven_knights():
    game = Table(4).arrange(lair=[f"Knight {n}" for n in range(3, 9)], knights=["Knight 1", "Knight 2"],
                            gullet=["Maiden 9"], turn=PRIDE)
    game.act({"type": "play_top", "deck": "knights"})
    game.act({"type": "breathe_fire"})
    assert list(game.state.winners) == [game.seat_of(WRATH)] and game.table.outcome["virtue"] == WRATH
    assert game.moves(0) == game.moves(1) == game.moves(2) == game.moves(3) == []


def test_greed_will_win_if_the_dragons_bed_ever_contains_seven_treasures():
    game = Table(4).arrange(bed=[f"Treasure {n}" for n in range(1, 7)], treasures=["Treasure 7", "Treasure 8"],
                            lair=[], turn=GLUTTONY)
    game.act({"type": "play_top", "deck": "treasures"})
    assert list(game.state.winners) == [game.seat_of(GREED)] and game.table.outcome["virtue"] == GREED


def test_pride_will_win_if_any_of_the_decks_is_ever_exhausted_before_one_of_the_other_virtues_wins():
    game = Table(4).arrange(knights=["Knight 1"], knight=[], turn=GREED)
    game.act({"type": "play_top", "deck": "knights"})
    assert list(game.state.winners) == [game.seat_of(PRIDE)] and game.table.outcome["virtue"] == PRIDE


def test_the_other_virtues_win_before_pride_when_one_card_does_both():
    """The last Treasure is the Bed's seventh: Greed wins, not Pride ("before one of the other Virtues wins")."""
    game = Table(4).arrange(bed=[f"Treasure {n}" for n in range(1, 7)], treasures=["Treasure 7"], lair=[],
                            turn=PRIDE)
    game.act({"type": "play_top", "deck": "treasures"})
    assert game.table.outcome["virtue"] == GREED


def unplayed(virtue: str) -> Table:
    """A three-player game in which nobody plays ``virtue``."""
    for seed in range(40):
        game = Table(3, seed=seed)
        if virtue in game.table.set_aside:
            return game
    raise AssertionError(f"no seed sets {virtue} aside")


def test_if_a_virtue_that_is_not_in_play_wins_shuffle_the_discards_back_into_the_deck():
    game = unplayed(GLUTTONY).arrange(gullet=[f"Maiden {n}" for n in range(1, 7)], maidens=[],
                                      maidens_discards=["Maiden 8", "Maiden 9"], knights_discards=["Knight 9"],
                                      knight=[], turn=next(v for v in PLAY_ORDER if v != GLUTTONY), stage="action",
                                      maiden=["Maiden 7"])
    events = game.act({"type": "swallow"})
    assert types(events) == ["drake.maiden_swallowed", "drake.discards_shuffled", "drake.turn_began"]
    assert events[1].data["virtue"] == GLUTTONY
    assert events[1].data["rule"].startswith("If a Virtue that is not in play wins, shuffle the discards back")
    assert game.state.status == "active"
    assert sorted(game.titles(game.table.decks["maidens"])) == ["Maiden 8", "Maiden 9"]
    assert "Knight 9" in game.titles(game.table.decks["knights"])
    assert game.table.reshuffled_for == (GLUTTONY,)


def test_this_only_happens_once_per_virtue_then_it_can_still_accidentally_win_the_game():
    game = unplayed(GLUTTONY)
    other = next(v for v in PLAY_ORDER if v != GLUTTONY)
    game.arrange(gullet=[f"Maiden {n}" for n in range(1, 7)], maiden=["Maiden 7"], knight=[], turn=other,
                 stage="action")
    game.act({"type": "swallow"})  # the seventh: the discards are shuffled back, once
    game.arrange(maiden=["Maiden 8"], knight=[], turn=other, stage="action")
    events = game.act({"type": "swallow"})  # the eighth: Gluttony wins again, and nobody plays it
    assert events[-1].type == "drake.game_over"
    assert game.state.status == "finished" and list(game.state.winners) == []
    assert game.table.outcome == {"virtue": GLUTTONY, "winners": [], "rule": (
        "Keep in mind, a Virtue that is not represented by a player can still accidentally win the game.")}


def test_an_exhausted_deck_in_a_two_player_game_reshuffles_for_pride_once():
    """Pride is set aside with two players, so an exhausted deck is a Virtue not in play winning."""
    game = Table(2)
    first = game.table.play_order()[0]
    game.arrange(knights=["Knight 1"], knights_discards=["Knight 2", "Knight 3"], knight=[], turn=first)
    events = game.act({"type": "play_top", "deck": "knights"})
    assert "drake.discards_shuffled" in types(events) and game.state.status == "active"
    assert sorted(game.titles(game.table.decks["knights"])) == ["Knight 2", "Knight 3"]
    # Exhausted again, with no discards left to refill it: Pride, whom nobody plays, wins.
    game.arrange(knights=["Knight 2"], knights_discards=[], knight=[], turn=first)
    game.act({"type": "play_top", "deck": "knights"})
    assert game.state.status == "finished" and list(game.state.winners) == []
    assert game.table.outcome["virtue"] == PRIDE


def test_a_deck_still_exhausted_after_the_reshuffle_is_prides_win_at_once():
    game = Table(2)
    first = game.table.play_order()[0]
    game.arrange(knights=["Knight 1"], knights_discards=[], knight=[], turn=first)
    events = game.act({"type": "play_top", "deck": "knights"})
    assert types(events)[-2:] == ["drake.discards_shuffled", "drake.game_over"]
    assert game.table.outcome["virtue"] == PRIDE and list(game.state.winners) == []
