"""The deal of a booster draft: every pack of every round dealt at the start from the game's randomness, from the
set's pool (each card's copies, or one of each), as many cards a pack as asked or as the pool allows, by rarity
when the set's cards carry it; a pool too small for the table refuses the game or its start."""

from __future__ import annotations

from collections import Counter

import pytest

from dvorak_engine import DomainError, SeededRng, create_game
from dvorak_engine.rulesets.draft.packs import deal, pool_of
from tests.engine.draft.table import Draft, rarity_set, sample_set


def dealt(draft: Draft) -> list[list[list[str]]]:
    [event] = [event for event in draft.events if event.type == "draft.dealt"]
    return event.data["packs"]


def every_card(draft: Draft) -> Counter:
    return Counter(card for packs in dealt(draft) for pack in packs for card in pack)


def title(draft: Draft, card_id: str) -> str:
    return draft.table.cards[card_id].title


def test_the_same_seed_deals_the_same_packs_and_another_seed_others():
    assert dealt(Draft(3, seed=7)) == dealt(Draft(3, seed=7))
    assert dealt(Draft(3, seed=7)) != dealt(Draft(3, seed=8))


def test_packs_are_dealt_from_the_set_s_copies_and_never_more_often_than_the_pool_holds_a_card():
    draft = Draft(2)
    copies = {str(card["id"]): card.get("copies", 1) for card in sample_set()["cards"]}
    assert sum(copies.values()) == 29
    # 29 cards make two players three packs of four (29 // 6); every pack of every round is dealt at the start.
    assert draft.table.pack_size == 4
    assert [[len(pack) for pack in packs] for packs in dealt(draft)] == [[4, 4]] * 3
    assert all(count <= copies[card] for card, count in every_card(draft).items())
    assert [draft.pack(seat) for seat in (0, 1)] == [tuple(pack) for pack in dealt(draft)[0]]


def test_one_of_each_card_deals_no_card_twice():
    draft = Draft(2, options={"pool": "one_each", "pack_size": 3})
    assert max(every_card(draft).values()) == 1 and sum(every_card(draft).values()) == 18


def test_the_pack_size_follows_the_table_at_the_start():
    assert Draft(3).table.pack_size == 3  # 29 // 9
    assert Draft(2, options={"packs": 1}).table.pack_size == 14  # 29 // 2
    assert Draft(2, options={"pack_size": 2}).table.pack_size == 2
    big = Draft(2, deck=rarity_set(100, 40, 20))
    assert big.table.pack_size == 15  # never more than fifteen by default


def test_packs_follow_rarity_one_rare_three_uncommons_and_the_rest_commons_rarest_first():
    draft = Draft(2, deck=rarity_set(100, 40, 20))
    for packs in dealt(draft):
        for pack in packs:
            letters = [title(draft, card)[0] for card in pack]
            assert letters == ["R"] + ["U"] * 3 + ["C"] * 11
    view = draft.view(0)["players"][0]["pack"]
    assert [card["rarity"] for card in view[:2]] == ["rare", "uncommon"] and view[0]["stats"]["rarity"] == 3
    assert draft.view(0)["rules"]["rarity"] == {"rare": 1, "uncommon": 3}


def test_the_rarity_option_gives_the_slots_and_a_rarity_run_out_takes_any_card_left():
    draft = Draft(2, deck=rarity_set(60, 20, 20), options={"rarity": {"rare": 2}, "pack_size": 6})
    assert all([title(draft, card)[0] for card in pack] == ["R", "R", "C", "C", "C", "C"]
               for packs in dealt(draft) for pack in packs)
    # One rare only, for six packs with a rare slot each: five of them get another card in its place.
    scarce = Draft(2, deck=rarity_set(30, 0, 1), options={"pack_size": 5})
    rares = [card for card in every_card(scarce) if title(scarce, card).startswith("R")]
    assert len(rares) == 1 and sum(every_card(scarce).values()) == 30
    # A set without rarity deals from the whole pool: no rarity in its cards or its rules.
    plain = Draft(2)
    assert "rarity" not in plain.view(0)["players"][0]["pack"][0] and plain.view(0)["rules"]["rarity"] is None


def test_a_slot_of_a_run_out_rarity_is_drawn_at_random_from_what_is_left():
    cards = [{"id": str(n), "stats": {"rarity": 1}} for n in range(10)]
    pool = pool_of([{**card, "copies": 1} for card in cards], "copies")
    first = deal(cards, pool, seats=2, rounds=1, pack_size=5, slots={"rare": 1, "uncommon": 0}, rng=SeededRng(1))
    assert sorted(card for pack in first[0] for card in pack) == sorted(pool)


def test_a_pool_too_small_for_the_players_seated_refuses_the_start_and_is_not_offered():
    draft = Draft(3, options={"pack_size": 4}, start=False)  # 3 x 3 x 4 = 36 cards, the set has 29
    assert draft.moves(0) == [{"type": "cancel"}]
    refused = draft.refused(0, {"type": "start"})
    assert refused.code == "not_enough_cards" and refused.status == 409
    assert refused.details == {"cards": 29, "needed": 36, "players": 3, "packs": 3, "pack_size": 4}


def test_a_pool_too_small_for_two_players_refuses_the_game_and_bad_options_are_refused():
    def create(options: dict, deck: dict | None = None) -> DomainError:
        with pytest.raises(DomainError) as refused:
            create_game(ruleset="draft", deck=deck or sample_set(), variant="standard", creative=False,
                        max_players=2, options=options, creator=Draft(start=False).people[0], rng=SeededRng(1))
        return refused.value

    assert create({"pack_size": 5}).code == "not_enough_cards"  # 2 x 3 x 5 = 30
    for options, field in (({"packs": 7}, "options.packs"), ({"packs": True}, "options.packs"),
                           ({"pack_size": 0}, "options.pack_size"), ({"pool": "all"}, "options.pool"),
                           ({"rarity": {"mythic": 1}}, "options.rarity"), ({"rarity": {"rare": -1}}, "options.rarity"),
                           ({"rarity": {"rare": 2, "uncommon": 2}, "pack_size": 3}, "options.rarity")):
        refused = create(options)
        assert (refused.code, refused.details["field"]) == ("invalid", field), options
    assert create({}, {**sample_set(), "cards": []}).code == "card_data_missing"
    wrong = rarity_set()
    wrong["cards"][0]["stats"]["rarity"] = 4
    refused = create({}, wrong)
    assert refused.code == "card_data_missing"
    assert refused.details["cards"] == [{"card": 0, "title": "C1", "field": "stats.rarity", "problem": "invalid",
                                         "message": "A card's rarity is 1 (common), 2 (uncommon) or 3 (rare)."}]
    with pytest.raises(DomainError):
        create_game(ruleset="draft", deck=sample_set(), variant="standard", creative=True, max_players=2,
                    options={}, creator=Draft(start=False).people[0], rng=SeededRng(1))


def test_the_game_is_created_with_its_options_written_and_the_set_s_version_named():
    draft = Draft(2, start=False)
    assert draft.state.options == {"packs": 3, "pack_size": None, "pool": "copies", "rarity": None}
    view = draft.view(0)
    assert view["deck"] == {"slug": "filibuster-sample-set", "title": sample_set()["title"], "version": 1}
    assert view["board"] is None and view["rules"] == {"packs": 3, "pack_size": None, "pool": "copies",
                                                       "rarity": None}
    assert set(draft.table.cards) == {str(card["id"]) for card in sample_set()["cards"]}
