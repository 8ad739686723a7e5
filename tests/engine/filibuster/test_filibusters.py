"""Filibustering, in the set's own words: "At the beginning of any step during a campaign except the roll step, if
you are not the pitcher, you can filibuster the pitcher." """

from __future__ import annotations

from tests.engine.filibuster.table import Table


def filibuster(mine: tuple[str, ...], theirs: tuple[str, ...], players: int = 2) -> Table:
    """Seat 1 filibusters seat 0, the pitcher, at the beginning of the first Beginning Step."""
    t = Table(players)
    t.pitch(0)
    t.hand(0, *theirs)
    t.hand(1, *mine)
    t.reopen_window()
    t.send(1, {"type": "filibuster"})
    return t


def test_at_the_beginning_of_any_step_except_the_roll_step_if_you_are_not_the_pitcher_you_can_filibuster():
    t = Table(3)
    pitcher = t.table.pitcher
    steps = [e.data for e in t.events if e.type == "filibuster.step_began"]
    assert steps == [{"step": "beginning", "window": [s for s in range(3) if s != pitcher]}]
    assert t.moves(pitcher) == []
    other = next(s for s in range(3) if s != pitcher)
    assert t.moves(other) == [{"type": "filibuster"}, {"type": "pass"}]
    assert t.refused(pitcher, {"type": "filibuster"}).code == "not_your_turn"
    # The windows of the Main and End Steps open too, and there is none in the Roll Step.
    seen: set[str] = set()
    while t.table.campaign == 1:
        seat, move = next((s, m) for s in range(3) for m in t.moves(s))
        if move["type"] == "filibuster":
            move = {"type": "pass"}
        body = {k: (v["from"][0] if isinstance(v, dict) else v) for k, v in move.items()}
        events = t.send(seat, body)
        seen |= {e.data["step"] for e in events if e.type == "filibuster.step_began" and e.data["window"]}
    assert {"main", "end"} <= seen and "roll" not in seen


def test_you_and_the_pitcher_simultaneously_reveal_a_card_from_your_respective_hands():
    t = filibuster(("Scandal", "Poll Surge"), ("Endorsement",))
    assert t.table.phase == "reveal" and t.state.choosing == (0, 1)
    scandal = t.card(1, "Scandal")
    made = t.send(1, {"type": "reveal_card", "card": scandal})
    assert t.types(made) == ["choice.made"]
    # Until both are in, the pitcher sees only that a card was chosen: not which.
    from dvorak_engine import view_event
    assert view_event(made[0], 0, None, t.state) == {"seat": 1}
    assert t.view(0)["choices"] == {"waiting_for": [0], "made": [{"seat": 1}]}
    assert scandal not in str(t.view(0))
    assert t.refused(1, {"type": "reveal_card", "card": t.card(1, "Poll Surge")}).code == "denied"
    events = t.send(0, {"type": "reveal_card", "card": t.card(0, "Endorsement")})
    assert t.types(events)[:3] == ["choice.made", "choices.revealed", "filibuster.revealed"]
    shown = view_event(events[1], 0, None, t.state)
    assert {card["title"] for card in shown["choices"].values()} == {"Scandal", "Endorsement"}


def test_if_your_cards_value_is_equal_to_or_lesser_the_filibuster_fails_you_lose_10_points_and_discard():
    t = filibuster(("Endorsement",), ("Endorsement", "Grassroots Tour"))
    t.points(1, 25)
    mine, theirs = t.card(1, "Endorsement"), t.card(0, "Endorsement")
    t.send(1, {"type": "reveal_card", "card": mine})
    events = t.send(0, {"type": "reveal_card", "card": theirs})
    decided = next(e for e in events if e.type == "filibuster.decided")
    assert decided.data["outcome"] == "failed"
    assert t.table.player(1).points == 15
    assert mine in t.table.player(1).discard_pile
    assert theirs in t.table.player(0).hand  # the pitcher keeps the card
    assert t.table.pitcher == 0 and t.table.filibuster is None


def test_if_your_cards_value_is_higher_the_filibuster_succeeds_you_become_the_pitcher_and_both_discard():
    t = filibuster(("Scandal", "Grassroots Tour"), ("Endorsement",))
    mine, theirs = t.card(1, "Scandal"), t.card(0, "Endorsement")
    t.send(1, {"type": "reveal_card", "card": mine})
    events = t.send(0, {"type": "reveal_card", "card": theirs})
    decided = next(e for e in events if e.type == "filibuster.decided")
    assert decided.data["outcome"] == "succeeded" and decided.data["pitcher"] == 1
    assert mine in t.table.player(1).discard_pile and theirs in t.table.player(0).discard_pile
    # The former pitcher has no card left to counter with: the new pitcher plays the Campaign.
    assert t.table.pitcher == 1 and t.table.phase == "campaign" and t.table.acting == 1


def countered(mine: tuple[str, ...], theirs: tuple[str, ...]) -> Table:
    """A successful filibuster (seat 1's Endorsement, 6, over seat 0's Poll Surge, 2), before the counter."""
    t = filibuster(("Endorsement", *mine), ("Poll Surge", *theirs))
    t.send(1, {"type": "reveal_card", "card": t.card(1, "Endorsement")})
    t.send(0, {"type": "reveal_card", "card": t.card(0, "Poll Surge")})
    assert t.table.phase == "counter" and t.table.acting == 0 and t.table.pitcher == 1
    return t


def test_the_former_pitcher_can_counter_by_revealing_another_card_with_a_higher_value():
    t = countered(("Grassroots Tour",), ("Talking Points", "Attack Ad"))
    assert t.moves(0) == [{"type": "counter_filibuster", "card": {"choose": 1, "from": [t.card(0, "Talking Points")],
                                                       "list": False}}, {"type": "pass"}]
    refusal = t.refused(0, {"type": "counter_filibuster", "card": t.card(0, "Attack Ad")})  # 4 is not above 6
    assert refusal.code == "denied"
    t.send(0, {"type": "counter_filibuster", "card": t.card(0, "Talking Points")})
    assert t.table.phase == "response" and t.table.acting == 1


def test_a_filibuster_not_countered_stands():
    t = countered(("Grassroots Tour",), ("Attack Ad",))
    t.send(0, {"type": "pass"})
    assert t.table.pitcher == 1 and t.table.filibuster is None


def test_if_your_second_card_is_equal_or_lesser_the_former_pitcher_becomes_the_pitcher_again_and_you_discard():
    t = countered(("Poll Surge", "Grassroots Tour"), ("Talking Points", "Stump Speech"))
    counter, second = t.card(0, "Talking Points"), t.card(1, "Poll Surge")
    t.send(0, {"type": "counter_filibuster", "card": counter})
    events = t.send(1, {"type": "respond", "card": second})
    decided = [e for e in events if e.type == "filibuster.decided"][-1]
    assert decided.data["outcome"] == "counter_won"
    assert t.table.pitcher == 0
    assert {t.card(1, "Endorsement"), second} <= set(t.table.player(1).discard_pile)  # "both cards"
    assert counter in t.table.player(0).hand
    assert t.table.player(0).points == 0 and t.table.player(1).points == 0


def test_if_your_second_card_is_higher_you_remain_the_pitcher_and_the_former_pitcher_loses_20_points():
    t = countered(("Scandal", "Grassroots Tour"), ("Talking Points",))
    t.points(0, 50)
    counter, second = t.card(0, "Talking Points"), t.card(1, "Scandal")
    t.send(0, {"type": "counter_filibuster", "card": counter})
    events = t.send(1, {"type": "respond", "card": second})
    decided = [e for e in events if e.type == "filibuster.decided"][-1]
    assert decided.data["outcome"] == "counter_lost"
    assert t.table.pitcher == 1
    assert t.table.player(0).points == 30
    # "Both of you must discard the cards you used to filibuster with."
    assert counter in t.table.player(0).discard_pile and second in t.table.player(1).discard_pile


def test_a_response_declined_leaves_the_former_pitcher_the_pitcher_again():
    t = countered(("Grassroots Tour",), ("Talking Points",))
    t.send(0, {"type": "counter_filibuster", "card": t.card(0, "Talking Points")})
    t.send(1, {"type": "pass"})
    assert t.table.pitcher == 0 and t.table.filibuster is None
    assert t.card(0, "Talking Points") in t.table.player(0).hand
