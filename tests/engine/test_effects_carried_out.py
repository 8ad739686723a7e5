"""The rulebook's example cards carried out and enforced by the server when it understands them (game option
``unread_effects`` ``claim``); under ``trust`` nothing changes."""

from __future__ import annotations

from dvorak_engine import legal_moves, replay, view_event

from .conftest import Table, rulebook_deck

# Cards the rulebook's examples speak of but the deck lacks: Locations, and the Body Parts of Lightning Strike.
EXTRA = [{"title": "Paris", "type": "Location", "text": ""}, {"title": "Rome", "type": "Location", "text": ""},
         {"title": "Jabberwock", "type": "Monster", "text": ""}, {"title": "Bandersnatch", "type": "Monster", "text": ""},
         *({"title": title, "type": "Body Part", "text": ""} for title in (
             "Robot Head", "Robot Body", "Left Arm", "Right Arm", "Left Leg", "Right Leg"))]


def deck() -> dict:
    found = rulebook_deck()
    found["cards"] += [{**found["cards"][0], **card} for card in EXTRA]
    return found


def table(mode: str = "claim", players: int = 3) -> Table:
    game = Table(players=players, deck=deck(), options={"unread_effects": mode}).start()
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "draw"})
    return game


def test_frenzy_in_play_lets_any_number_of_actions_be_played_until_it_leaves_play():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Frenzy", "Secret Identity", "Take Off Every Zig", "Would You Like A Jelly-Baby?",
                                 "Vorpal Blade"]}, in_play={seat: []}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Frenzy")})
    assert [e.type for e in events] == ["card.played", "rule.set"]
    game.send(seat, {"type": "play", "card": game.card("Secret Identity")})
    game.send(seat, {"type": "play", "card": game.card("Take Off Every Zig")})
    assert game.state.table.turn.actions_played == 2
    # Frenzy destroyed: one Action a turn again.
    game.send(seat, {"type": "destroy", "card": game.card("Frenzy"), "cause": game.card("Vorpal Blade")})
    game.arrange(turn=seat)
    game.arrange(hands={seat: ["Secret Identity", "Take Off Every Zig"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Secret Identity")})
    game.refuse(seat, {"type": "play", "card": game.card("Take Off Every Zig")}, "limit_reached")


def test_without_frenzy_a_second_action_is_refused():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Secret Identity", "Take Off Every Zig"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Secret Identity")})
    game.refuse(seat, {"type": "play", "card": game.card("Take Off Every Zig")}, "limit_reached")


def test_under_trust_frenzy_changes_nothing_by_itself():
    game = table("trust")
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Frenzy"]}, in_play={seat: []}, turn=seat)
    assert [e.type for e in game.send(seat, {"type": "play", "card": game.card("Frenzy")})] == ["card.played"]


def test_short_circuit_forbids_its_thing_to_use_its_action_until_it_leaves():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Short Circuit"]}, in_play={seat: ["Vorpal Blade", "Jabberwock"]}, turn=seat)
    blade = game.card("Vorpal Blade")
    events = game.send(seat, {"type": "play", "card": game.card("Short Circuit"), "onto": blade})
    assert [e.type for e in events] == ["card.played", "rule.set"]
    game.arrange(turn=seat)
    game.refuse(seat, {"type": "use", "card": blade, "target": game.card("Jabberwock")}, "denied")
    assert not [m for m in legal_moves(game.state, seat) if m["type"] == "use"]
    short = game.card("Short Circuit")
    game.send(seat, {"type": "destroy", "card": short, "cause": blade})
    events = game.send(seat, {"type": "use", "card": blade, "target": game.card("Jabberwock")})
    assert [e.type for e in events] == ["thing.used", "thing.destroyed"]


def test_doomsday_device_destroys_every_location_when_one_is_destroyed():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Vorpal Blade"]}, in_play={seat: ["Doomsday Device", "Paris", "Reykjavik"],
                 other: ["Rome"]}, turn=seat)
    events = game.send(seat, {"type": "destroy", "card": game.card("Paris"), "cause": game.card("Vorpal Blade")})
    assert [e.type for e in events] == ["thing.destroyed", "thing.destroyed"]
    assert events[1].data == {"card": game.card("Rome"), "by": seat, "cause": game.card("Doomsday Device")}
    assert game.in_play(other) == [] and game.in_play(seat) == ["Doomsday Device", "Reykjavik"]


def test_without_doomsday_device_one_location_destroyed_is_one():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(hands={seat: ["Vorpal Blade"]}, in_play={seat: ["Paris"], other: ["Rome"]}, turn=seat)
    events = game.send(seat, {"type": "destroy", "card": game.card("Paris"), "cause": game.card("Vorpal Blade")})
    assert [e.type for e in events] == ["thing.destroyed"] and game.in_play(other) == ["Rome"]


def test_lightning_strike_wins_only_with_a_head_a_body_two_arms_and_two_legs():
    game = table()
    seat = game.state.table.turn.seat
    strike = game.card("Lightning Strike")
    game.arrange(hands={seat: ["Lightning Strike"]}, turn=seat)
    game.arrange(in_play={seat: ["Robot Head", "Robot Body", "Left Arm", "Right Arm", "Left Leg"]}, turn=seat)
    game.refuse(seat, {"type": "win", "cause": strike}, "win_condition_not_met")
    game.arrange(in_play={seat: ["Robot Head", "Robot Body", "Left Arm", "Right Arm", "Left Leg", "Right Leg"]},
                 turn=seat)
    events = game.send(seat, {"type": "win", "cause": strike})
    assert events[-1].type == "game.won" and events[-1].data["winners"] == [seat]


def test_replay_of_a_game_with_frenzy_gives_the_live_state():
    game = table()
    seat = game.state.table.turn.seat
    frenzy = game.card("Frenzy")
    if frenzy in game.state.table.player(seat).hand:
        game.send(seat, {"type": "play", "card": frenzy})
    assert replay(game.events) == game.state


def test_espionage_is_played_at_an_opponent_and_the_server_takes_a_random_card_hidden_from_the_third():
    game = table()
    seat = game.state.table.turn.seat
    victim, third = (seat + 1) % 3, (seat + 2) % 3
    game.arrange(hands={seat: ["Espionage"], victim: ["Paris", "Rome"], third: []}, turn=seat)
    espionage = game.card("Espionage")
    moves = [m for m in legal_moves(game.state, seat) if m.get("card") == espionage]
    assert moves == [{"type": "play", "card": espionage, "target": victim}]  # the third has no cards
    game.refuse(seat, {"type": "play", "card": espionage}, "invalid")
    game.refuse(seat, {"type": "play", "card": espionage, "target": third}, "invalid")
    game.refuse(seat, {"type": "play", "card": espionage, "target": seat}, "invalid")
    events = game.send(seat, {"type": "play", "card": espionage, "target": victim})
    assert [e.type for e in events] == ["card.played", "card.taken"]
    taken = events[1].data["card"]
    assert game.titles([taken]) == game.hand(seat) and len(game.hand(victim)) == 1
    assert taken not in str(view_event(events[1], third, game.state, game.state))
    assert taken in str(view_event(events[1], seat, game.state, game.state))


def test_vorpal_blade_destroys_a_monster_offered_as_a_move_and_refuses_anything_else():
    game = table()
    seat = game.state.table.turn.seat
    other = (seat + 1) % 3
    game.arrange(in_play={seat: ["Vorpal Blade"], other: ["Jabberwock", "Reykjavik"]}, turn=seat)
    blade, monster = game.card("Vorpal Blade"), game.card("Jabberwock")
    assert [m for m in legal_moves(game.state, seat) if m["type"] == "use"] == [
        {"type": "use", "card": blade, "target": monster}]
    game.refuse(seat, {"type": "use", "card": blade, "target": game.card("Reykjavik")}, "invalid")
    game.refuse(seat, {"type": "use", "card": blade}, "invalid")
    events = game.send(seat, {"type": "use", "card": blade, "target": monster})
    assert [e.type for e in events] == ["thing.used", "thing.destroyed"]
    assert game.in_play(other) == ["Reykjavik"] and "Jabberwock" in game.discard_pile()


def test_graverobber_takes_a_body_part_from_the_discard_pile():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(in_play={seat: ["Graverobber"]}, discard_pile=["Robot Head", "Paris"], turn=seat)
    robber, head = game.card("Graverobber"), game.card("Robot Head")
    assert [m for m in legal_moves(game.state, seat) if m["type"] == "use"] == [
        {"type": "use", "card": robber, "target": head}]
    game.refuse(seat, {"type": "use", "card": robber, "target": game.card("Paris")}, "invalid")
    events = game.send(seat, {"type": "use", "card": robber, "target": head})
    assert [e.type for e in events] == ["thing.used", "card.moved"]
    assert "Robot Head" in game.hand(seat) and game.discard_pile() == ["Paris"]


def test_under_trust_vorpal_blade_is_used_as_before():
    game = table("trust")
    seat = game.state.table.turn.seat
    game.arrange(in_play={seat: ["Vorpal Blade"]}, turn=seat)
    blade = game.card("Vorpal Blade")
    assert {"type": "use", "card": blade} in legal_moves(game.state, seat)
    assert [e.type for e in game.send(seat, {"type": "use", "card": blade})] == ["thing.used"]


def test_cardboard_box_offers_its_controller_one_draw_as_it_comes_into_play():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Cardboard Box", "Frenzy"]}, in_play={seat: []}, turn=seat)
    box = game.card("Cardboard Box")
    assert {"type": "play", "card": box, "draw": True} in legal_moves(game.state, seat)
    assert {"type": "play", "card": box} in legal_moves(game.state, seat)
    assert {"type": "play", "card": game.card("Frenzy"), "draw": True} not in legal_moves(game.state, seat)
    game.refuse(seat, {"type": "play", "card": game.card("Frenzy"), "draw": True}, "invalid")
    events = game.send(seat, {"type": "play", "card": box, "draw": True})
    assert [e.type for e in events] == ["card.played", "card.drawn"] and len(game.hand(seat)) == 2
    assert not [m for m in legal_moves(game.state, seat) if m.get("draw")]


def test_cardboard_box_played_without_the_draw_draws_nothing():
    game = table()
    seat = game.state.table.turn.seat
    game.arrange(hands={seat: ["Cardboard Box"]}, in_play={seat: []}, turn=seat)
    assert [e.type for e in game.send(seat, {"type": "play", "card": game.card("Cardboard Box")})] == ["card.played"]
    assert game.hand(seat) == []
