"""Filibustering, in the set's own words: "At the beginning of any step during a campaign except the roll step, if
you are not the pitcher, you can filibuster the pitcher." """

from __future__ import annotations

from dvorak_engine import Event, replay
from tests.engine.filibuster.table import Table


def filibuster(mine: tuple[str, ...], theirs: tuple[str, ...], players: int = 2, options: dict | None = None) -> Table:
    """Seat 1 filibusters seat 0, the pitcher, at the beginning of the first Beginning Step."""
    t = Table(players, options=options)
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


# --- more than one filibuster a step -------------------------------------------------------------------------
# "At the beginning of any step during a campaign except the roll step, if you are not the pitcher, you can
# filibuster the pitcher": every "you" who is not the pitcher, and no limit of one a step. Reading 8: each player
# may filibuster once a step (``options.filibusters``: "each", the default); "one" keeps the first filibuster
# closing the window.


def reveal(t: Table, seat: int, title: str) -> list:
    return t.send(seat, {"type": "reveal_card", "card": t.card(seat, title)})


def test_a_filibuster_settled_the_others_not_the_pitcher_may_still_filibuster_in_the_same_step():
    t = filibuster(("Endorsement",), ("Endorsement", "Grassroots Tour"), players=3)
    assert t.table.window == (2,) and t.moves(2) == []  # seat 2 waits while the filibuster is settled
    events = reveal(t, 1, "Endorsement") + reveal(t, 0, "Endorsement")
    assert next(e for e in events if e.type == "filibuster.decided").data["outcome"] == "failed"
    assert events[-1].type == "filibuster.window_reopened" and events[-1].data == {"step": "beginning",
                                                                                   "window": [2]}
    assert t.table.step == "beginning" and t.table.phase == "filibuster_window"
    assert t.moves(2) == [{"type": "filibuster"}, {"type": "pass"}]
    assert t.moves(1) == [] and t.refused(1, {"type": "filibuster"}).code == "not_your_turn"
    t.send(2, {"type": "filibuster"})
    assert t.table.filibuster.seat == 2 and t.state.choosing == (0, 2)
    assert t.view(None)["board"]["filibustered"] == [1, 2]


def test_a_pass_declines_to_filibuster_this_pitcher_and_a_new_pitcher_is_asked_about_again():
    t = Table(3)
    t.pitch(0)
    t.hand(0, "Poll Surge", "Attack Ad")
    t.hand(1, "Endorsement", "Grassroots Tour")
    t.hand(2, "Photo Op", "Stump Speech")
    t.reopen_window()
    t.send(2, {"type": "pass"})
    t.send(1, {"type": "filibuster"})
    reveal(t, 1, "Endorsement")
    reveal(t, 0, "Poll Surge")  # 6 over 2: seat 1 pitches, unless seat 0 counters
    assert t.moves(0) == [{"type": "pass"}]  # its Attack Ad, 4, is not above 6
    events = t.send(0, {"type": "pass"})
    # Seat 2 passed on seat 0, not on seat 1; seat 0 is not the pitcher any more, and has not filibustered.
    assert t.table.pitcher == 1 and events[-1].data == {"step": "beginning", "window": [0, 2]}
    assert t.moves(0) == t.moves(2) == [{"type": "filibuster"}, {"type": "pass"}]


def test_a_pass_stands_while_the_pitch_stays_where_it_was():
    t = Table(3)
    t.pitch(0)
    t.hand(0, "Endorsement", "Grassroots Tour")
    t.hand(1, "Poll Surge", "Photo Op")
    t.hand(2, "Photo Op", "Stump Speech")
    t.reopen_window()
    t.send(2, {"type": "pass"})
    t.send(1, {"type": "filibuster"})
    reveal(t, 1, "Poll Surge")
    events = reveal(t, 0, "Endorsement")  # 2 is not above 6: the filibuster fails
    assert not any(e.type == "filibuster.window_reopened" for e in events)
    assert t.table.phase == "campaign" and t.table.acting == 0 and t.moves(2) == []


def test_each_player_filibusters_at_most_once_a_step_and_again_in_the_next():
    t = Table(2)
    t.pitch(0)
    t.hand(0, "Poll Surge", "Attack Ad", "Stump Speech")
    t.hand(1, "Endorsement", "Grassroots Tour", "Photo Op")
    t.reopen_window()
    t.send(1, {"type": "filibuster"})
    reveal(t, 1, "Endorsement")
    reveal(t, 0, "Poll Surge")
    t.send(0, {"type": "pass"})  # no counter: seat 1 pitches, and seat 0, not the pitcher now, may filibuster
    assert t.table.pitcher == 1 and t.moves(0) == [{"type": "filibuster"}, {"type": "pass"}]
    t.send(0, {"type": "filibuster"})
    reveal(t, 0, "Attack Ad")
    reveal(t, 1, "Photo Op")  # 4 over 1: seat 0 pitches again
    assert t.moves(1) == [{"type": "pass"}]  # its Grassroots Tour, 3, is not above 4
    t.send(1, {"type": "pass"})
    # Seat 1 is not the pitcher and holds a card, but has filibustered in this step: the step goes on.
    assert t.table.filibustered == (1, 0)
    assert t.table.pitcher == 0 and t.table.phase == "campaign" and t.moves(1) == []
    declared = [e.data["seat"] for e in t.events if e.type == "filibuster.declared"]
    assert declared == [1, 0]
    t.send(0, {"type": "play", "card": t.card(0, "Stump Speech")})
    t.send(0, {"type": "pass"})  # no Constant
    assert t.table.step == "main" and t.table.filibustered == ()
    assert t.moves(1) == [{"type": "filibuster"}, {"type": "pass"}]


def test_one_filibuster_a_step_remains_an_option_the_first_closes_the_window():
    t = filibuster(("Endorsement",), ("Endorsement", "Grassroots Tour"), players=3, options={"filibusters": "one"})
    assert t.table.window == ()
    reveal(t, 1, "Endorsement")
    events = reveal(t, 0, "Endorsement")
    assert not any(e.type == "filibuster.window_reopened" for e in events)
    assert t.table.phase == "campaign" and t.moves(2) == []
    assert "filibustered" not in t.view(None)["board"]
    assert t.view(None)["rules"] == {"filibusters": "one", "dice": 2}


def test_a_game_created_before_the_option_keeps_one_filibuster_a_step():
    """A stored game's ``game.created`` has no ``filibusters`` in its options: it is played as it was."""
    t = Table(3, start=False)
    created = t.events[0]
    assert created.data["options"]["filibusters"] == "each"
    t.events[0] = Event(created.type, {**created.data, "options": {}}, created.schema)
    t.state = replay(t.events)
    t.send(0, {"type": "start"})
    t.pitch(0)
    t.hand(0, "Endorsement", "Grassroots Tour")
    t.hand(1, "Endorsement")
    t.reopen_window()
    t.send(1, {"type": "filibuster"})
    declared = t.events[-2]
    assert declared.type == "filibuster.declared" and declared.data == {"seat": 1, "pitcher": 0}
    assert t.table.window == ()
    reveal(t, 1, "Endorsement")
    reveal(t, 0, "Endorsement")
    assert t.table.phase == "campaign" and t.moves(2) == []
    assert "rules" not in t.view(None) and "filibustered" not in t.view(None)["board"]
