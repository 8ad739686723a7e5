"""Campaigns, in the Filibuster CCG set's own words: "Campaigns are made up of 4 steps, which go in this order"."""

from __future__ import annotations

from tests.engine.filibuster.table import Table, points_of


def at_beginning(pitcher: int = 0, hands: dict[int, tuple[str, ...]] | None = None, players: int = 2) -> Table:
    """A game at the beginning of the first campaign's Beginning Step, ``pitcher`` pitching, hands arranged, and
    the filibuster window passed by everyone."""
    t = Table(players)
    t.pitch(pitcher)
    for seat, titles in (hands or {}).items():
        t.hand(seat, *titles)
    t.reopen_window()
    t.pass_window()
    return t


def test_roll_step_all_players_roll_their_dice_whoever_has_the_highest_total_is_the_pitcher():
    t = Table(4, seed=11)
    rolled = next(e for e in t.events if e.type == "filibuster.rolled")
    totals = {r["seat"]: r["total"] for r in rolled.data["rolls"]}
    assert all(len(r["dice"]) == 2 and all(1 <= d <= 6 for d in r["dice"]) and r["total"] == sum(r["dice"])
               for r in rolled.data["rolls"])
    order = rolled.data["order"]
    assert sorted(order) == [0, 1, 2, 3]
    assert [totals[s] for s in order] == sorted(totals.values(), reverse=True)
    assert t.table.pitcher == order[0] == t.view(None)["board"]["pitcher"]


def test_roll_step_players_tied_on_the_highest_total_roll_again_to_decide():
    for seed in range(40):
        t = Table(4, seed=seed)
        rolled = next(e for e in t.events if e.type == "filibuster.rolled")
        totals = [r["total"] for r in rolled.data["rolls"]]
        if totals.count(max(totals)) > 1:
            assert rolled.data["tiebreaks"]
            tied = {r["seat"] for r in rolled.data["rolls"] if r["total"] == max(totals)}
            assert {r["seat"] for r in rolled.data["tiebreaks"][0]} == tied
            assert rolled.data["order"][0] in tied
            return
    raise AssertionError("no tie in 40 games")


def test_roll_step_all_players_draw_5_cards():
    t = Table(3)
    assert [len(p.hand) for p in t.table.players] == [5, 5, 5]
    assert [p["hand_count"] for p in t.view(None)["players"]] == [5, 5, 5]


def test_beginning_step_the_pitcher_must_play_a_campaign_card_if_able():
    t = at_beginning(0, {0: ("Grassroots Tour", "Photo Op"), 1: ("Stump Speech", "Poll Surge")})
    assert t.table.phase == "campaign" and t.table.acting == 0
    campaign = t.card(0, "Grassroots Tour")
    assert t.moves(0) == [{"type": "play", "card": campaign}]  # no pass: "must"
    assert t.moves(1) == []
    assert t.refused(0, {"type": "pass"}).code == "wrong_stage"
    assert t.refused(0, {"type": "play", "card": t.card(0, "Photo Op")}).code == "denied"
    assert t.refused(1, {"type": "play", "card": t.card(1, "Stump Speech")}).code == "not_your_turn"
    t.send(0, {"type": "play", "card": campaign})
    assert t.table.campaign_card == campaign and t.table.pitcher == 0


def test_beginning_step_if_he_or_she_cant_the_next_highest_must_play_a_campaign_card_and_become_the_new_pitcher():
    t = Table(3)
    t.pitch(0)
    t.state = t.state.with_table(order=(0, 2, 1))
    t.hand(0, "Photo Op")
    t.hand(1, "Stump Speech")
    t.hand(2, "Grassroots Tour")
    t.reopen_window()
    t.pass_window()
    assert t.table.acting == 2  # the next-highest roller holding a Campaign, not seat 1
    t.send(2, {"type": "play", "card": t.card(2, "Grassroots Tour")})
    assert t.table.pitcher == 2


def test_beginning_step_if_no_players_can_play_a_campaign_card_the_campaign_dies_and_hands_are_shuffled_in():
    t = at_beginning(0, {0: ("Photo Op",), 1: ("Poll Surge", "Bodyguard")})
    died = next(e for e in t.events if e.type == "filibuster.campaign_died")
    assert died.data["campaign"] == 1
    assert all(not p.hand for p in t.table.players)
    assert t.table.phase == "died"
    # "... and start a new campaign": any player rolls.
    assert t.moves(1) == [{"type": "roll_dice"}]
    events = t.send(1, {"type": "roll_dice"})
    assert t.types(events)[:2] == ["filibuster.campaign_began", "filibuster.rolled"]
    assert t.table.campaign == 2 and all(len(p.hand) == 5 for p in t.table.players)
    # Bob sees that the cards went back, never which: the draw piles are counts.
    assert t.view(1)["players"][0]["draw_pile"] == {"count": len(t.table.player(0).draw_pile)}


def test_once_a_campaign_card_is_played_the_pitcher_can_play_one_constant():
    t = at_beginning(0, {0: ("Grassroots Tour", "Think Tank", "Campaign Office"), 1: ("Poll Surge",)})
    t.send(0, {"type": "play", "card": t.card(0, "Grassroots Tour")})
    assert t.table.phase == "constant"
    assert {m["card"] for m in t.moves(0) if m["type"] == "play"} == {t.card(0, "Think Tank"),
                                                                      t.card(0, "Campaign Office")}
    assert {"type": "pass"} in t.moves(0)
    t.send(0, {"type": "play", "card": t.card(0, "Think Tank")})
    assert t.table.player(0).constants == (t.card(0, "Think Tank"),)
    # Only one: the next thing is the others' answer to it, then the Main Step.
    assert t.refused(0, {"type": "play", "card": t.card(0, "Campaign Office")}).code in {"not_your_turn",
                                                                                        "wrong_stage"}


def test_gambits_can_be_played_in_response_to_constants():
    t = at_beginning(0, {0: ("Grassroots Tour", "Think Tank"), 1: ("Poll Surge",)})
    t.send(0, {"type": "play", "card": t.card(0, "Grassroots Tour")})
    t.send(0, {"type": "play", "card": t.card(0, "Think Tank")})
    assert t.table.phase == "stack" and t.table.priority == 1 and t.table.step == "beginning"
    events = t.send(1, {"type": "play", "card": t.card(1, "Poll Surge")})
    # Nobody is left to answer (the pitcher holds no card): the Gambit resolves, then the Main Step begins.
    assert "filibuster.resolved" in t.types(events)
    assert t.table.player(1).points == points_of("Poll Surge")
    assert t.table.step == "main"


def main_step(hands: dict[int, tuple[str, ...]]) -> Table:
    """The Main Step of a campaign pitched by seat 0 with Grassroots Tour, hands then arranged."""
    t = at_beginning(0, {0: ("Grassroots Tour",), 1: ("Bodyguard",)})
    t.send(0, {"type": "play", "card": t.card(0, "Grassroots Tour")})
    assert t.table.step == "main" or t.table.phase == "filibuster_window"
    for seat, titles in hands.items():
        t.hand(seat, *titles)
    if t.table.phase == "filibuster_window":
        t.pass_window()
    t.state = t.state.with_table(phase="stack", priority=0, passed=(), last_stacker=None, step="main")
    return t


def test_main_step_the_pitcher_can_then_stack_a_gambit_and_other_players_may_respond():
    t = main_step({0: ("Poll Surge", "Endorsement"), 1: ("Endorsement",)})
    assert t.moves(1) == []
    assert {m["card"] for m in t.moves(0) if m["type"] == "play"} == {t.card(0, "Poll Surge"),
                                                                      t.card(0, "Endorsement")}
    t.send(0, {"type": "play", "card": t.card(0, "Poll Surge")})
    assert t.table.priority == 1
    t.send(1, {"type": "play", "card": t.card(1, "Endorsement")})
    assert [t.table.cards[c].title for c in t.table.stack] == ["Poll Surge", "Endorsement"]
    assert t.table.priority == 0  # the pitcher may respond in turn


def test_main_step_a_gambit_can_only_be_stacked_upon_a_gambit_of_equal_or_lesser_value_otherwise_it_fizzles():
    t = main_step({0: ("Poll Surge", "Endorsement"), 1: ("Photo Op", "Endorsement")})
    t.send(0, {"type": "play", "card": t.card(0, "Poll Surge")})  # value 2
    events = t.send(1, {"type": "play", "card": t.card(1, "Photo Op")})  # value 1: fizzles
    assert t.types(events)[0] == "filibuster.fizzled"
    assert t.card(1, "Photo Op") in t.table.player(1).discard_pile
    assert t.table.player(1).points == 0  # "destroyed immediately without taking effect"
    assert [t.table.cards[c].title for c in t.table.stack] == ["Poll Surge"]
    t.send(0, {"type": "play", "card": t.card(0, "Endorsement")})  # value 6 upon 2: stacks
    events = t.send(1, {"type": "play", "card": t.card(1, "Endorsement")})  # equal value: stacks
    assert "filibuster.fizzled" not in t.types(events)
    # Nobody holds a card any more: the three stacked Gambits resolve.
    assert [t.table.cards[e.data["card"]].title for e in events if e.type == "filibuster.resolved"] == [
        "Endorsement", "Endorsement", "Poll Surge"]


def test_main_step_the_gambits_resolve_from_the_top_of_the_stack_to_the_bottom_and_are_destroyed():
    t = main_step({0: ("Poll Surge",), 1: ("Endorsement",)})
    bottom, top = t.card(0, "Poll Surge"), t.card(1, "Endorsement")
    t.send(0, {"type": "play", "card": bottom})
    events = t.send(1, {"type": "play", "card": top})
    resolved = [e.data["card"] for e in events if e.type == "filibuster.resolved"]
    assert resolved == [top, bottom]
    assert not t.table.stack
    assert top in t.table.player(1).discard_pile and bottom in t.table.player(0).discard_pile
    assert t.table.player(0).points >= points_of("Poll Surge")
    assert t.table.player(1).points == points_of("Endorsement")


def test_end_step_the_pitcher_gains_10_points_a_new_campaign_begins():
    t = main_step({0: ("Poll Surge",), 1: ()})
    before = t.table.player(0).points
    events = t.send(0, {"type": "pass"})  # no Gambit: the Main Step ends
    scored = next(e for e in events if e.type == "filibuster.scored")
    assert scored.data == {"seat": 0, "delta": 10, "points": before + 10, "reason": "end_step", "cause": None}
    assert "filibuster.campaign_ended" in t.types(events) and t.table.campaign == 2
    assert t.card(0, "Grassroots Tour") in t.table.player(0).discard_pile
