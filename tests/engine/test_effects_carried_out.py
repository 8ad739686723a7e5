"""The rulebook's example cards carried out and enforced by the server when it understands them (game option
``unread_effects`` ``claim``); under ``trust`` nothing changes."""

from __future__ import annotations

from games.engine import legal_moves, replay

from .conftest import Table, rulebook_deck

# Cards the rulebook's examples speak of but the deck lacks: Locations, and the Body Parts of Lightning Strike.
EXTRA = [{"title": "Paris", "type": "Location", "text": ""}, {"title": "Rome", "type": "Location", "text": ""},
         *({"title": title, "type": "Thing", "text": ""} for title in (
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
    game.arrange(hands={seat: ["Secret Identity", "Would You Like A Jelly-Baby?"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Secret Identity")})
    game.refuse(seat, {"type": "play", "card": game.card("Would You Like A Jelly-Baby?")}, "limit_reached")


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
    game.arrange(hands={seat: ["Short Circuit"]}, in_play={seat: ["Vorpal Blade"]}, turn=seat)
    blade = game.card("Vorpal Blade")
    events = game.send(seat, {"type": "play", "card": game.card("Short Circuit"), "onto": blade})
    assert [e.type for e in events] == ["card.played", "rule.set"]
    game.arrange(turn=seat)
    game.refuse(seat, {"type": "use", "card": blade}, "denied")
    assert {"type": "use", "card": blade} not in legal_moves(game.state, seat)
    short = game.card("Short Circuit")
    game.send(seat, {"type": "destroy", "card": short, "cause": blade})
    assert [e.type for e in game.send(seat, {"type": "use", "card": blade})][0] == "thing.used"


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
