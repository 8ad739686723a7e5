"""Socialism's Special Rules, each test named after the rule it holds, in the deck's own words."""

from __future__ import annotations

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, create_game, view_state
from dvorak_engine.rulesets.socialism.board import DRAW, INVITE, PLAY
from tests.engine.socialism.table import Table, deck, rule


def test_determine_the_first_player_randomly_have_everyone_draw_a_three_card_hand():
    assert "Determine the first player randomly, have everyone draw a three-card hand" in rule("To play")
    firsts = set()
    for seed in range(12):
        game = Table(4, seed=seed)
        started = next(e for e in game.events if e.type == "social.started")
        firsts.add(started.data["first"])
        assert game.table.turn.seat == started.data["first"] and game.table.turn.stage == DRAW
        assert [len(p.hand) for p in game.table.players] == [3, 3, 3, 3]
        assert len(game.table.draw_pile) == len(game.table.cards) - 12
    assert firsts == {0, 1, 2, 3}  # the first player is drawn by the server, not seat 0


def test_and_then_proceed_clockwise():
    game = Table(3).without_sherman_act()
    seats = []
    for _ in range(6):
        seat = game.table.turn.seat
        seats.append(seat)
        game.send(seat, {"type": "draw"})
        game.send(seat, game.moves(seat)[0])
        game.send(seat, {"type": "end_turn"})
    assert all(b == (a + 1) % 3 for a, b in zip(seats, seats[1:], strict=False))


def test_during_a_turn_draw_a_card_play_a_card_invite_members_this_step_is_optional():
    assert (
        "1. Draw a card\n\n2. Play a card\n\n3. Invite members to join their network (this step is optional)"
        in rule("To play")
    )
    game = Table(2).without_sherman_act()
    seat = game.table.turn.seat
    assert game.moves(seat) == [{"type": "draw"}]
    assert game.moves(1 - seat) == []
    game.refuse(seat, {"type": "end_turn"}, "wrong_stage")
    game.send(seat, {"type": "draw"})
    assert len(game.table.player(seat).hand) == 4 and game.table.turn.stage == PLAY
    game.refuse(seat, {"type": "end_turn"}, "wrong_stage")  # a card must be played
    game.refuse(1 - seat, {"type": "draw"}, "not_your_turn")
    game.send(seat, game.moves(seat)[0])
    assert game.table.turn.stage == INVITE
    game.send(seat, {"type": "end_turn"})  # inviting is optional
    assert game.table.turn.seat == 1 - seat


def test_drawing_cards_remove_the_top_card_from_the_deck():
    assert "Remove the top card from the deck." in rule("Drawing Cards")
    game = Table(2)
    seat = game.table.turn.seat
    top, rest = game.table.draw_pile[0], game.table.draw_pile[1:]
    game.send(seat, {"type": "draw"})
    assert game.table.player(seat).hand[-1] == top and game.table.draw_pile == rest
    assert game.of_type("social.drew") == [{"seat": seat, "card": top}]


def test_when_the_deck_is_empty_shuffle_the_discards_back_in():
    assert "When the deck is empty, shuffle the discards back in" in rule("Drawing Cards")
    game = Table(2).clear().turn(0, DRAW)
    pile = game.table.draw_pile
    game._set(draw_pile=(), discard_pile=pile)
    game.send(0, {"type": "draw"})
    reshuffled = game.of_type("social.reshuffled")
    assert reshuffled and sorted(reshuffled[0]["draw_pile"]) == sorted(pile)
    assert game.table.discard_pile == () and len(game.table.draw_pile) == len(pile) - 1
    assert game.table.player(0).hand[0] in pile


def test_the_first_user_played_simply_goes_in_the_center_of_the_table():
    assert "The first User played simply goes in the center of the table." in rule("Playing Cards")
    game = Table(2).clear().without_sherman_act().turn(0, PLAY)
    sheila = game.give(0, "Sheila Callingworth")
    assert game.moves(0) == [{"type": "play", "card": sheila, "x": 0, "y": 0}]
    game.refuse(0, {"type": "play", "card": sheila, "x": 1, "y": 0}, "invalid")
    game.send(0, {"type": "play", "card": sheila, "x": 0, "y": 0})
    assert game.of_type("social.placed") == [{"card": sheila, "x": 0, "y": 0}]


def test_subsequent_users_must_be_played_adjacent_to_cards_already_in_play_sides_and_corners():
    assert "Second and subsequent Users must be played adjacent to one or more cards already in play" in rule(
        "Playing Cards"
    )
    game = Table(2).clear().without_sherman_act().turn(0, PLAY)
    game.put("John Smith", 0, 0)
    debbie = game.give(0, "Debbie Webceleb")
    cells = {(m["x"], m["y"]) for m in game.moves(0) if m["card"] == debbie}
    assert cells == {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0)}
    game.refuse(0, {"type": "play", "card": debbie, "x": 2, "y": 0}, "invalid")
    game.refuse(0, {"type": "play", "card": debbie, "x": 0, "y": 0}, "invalid")  # taken
    game.send(0, {"type": "play", "card": debbie, "x": 1, "y": 1})  # a corner
    assert game.on_grid("Debbie Webceleb")


def test_users_are_friends_of_adjacent_user_cards_one_user_can_have_up_to_eight_friends():
    assert "Thus, one User can have up to eight Friends in play." in rule("Playing Cards")
    game = Table(2).clear()
    center = game.put("John Smith", 0, 0)
    around = [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)]
    titles = [
        "Sheila Callingworth",
        "Billy Luddite",
        "Debbie Webceleb",
        "Fa3ryAlly",
        "Hater McFriendless",
        "Becca Singleton",
        "Rachel Lurk",
        "Mary Su",
    ]
    for title, (x, y) in zip(titles, around, strict=True):
        game.put(title, x, y)
    game.put("Lola Lowinfo", 2, 0)  # not adjacent to the center
    board = view_state(game.state, 0)["board"]
    center_view = next(c for c in board["grid"] if c["card"]["id"] == center)
    assert sorted(center_view["friends"]) == sorted(game.user(title) for title in titles)


def test_you_may_automatically_invite_a_user_that_you_just_played():
    assert "Provided that User was played this turn, this is an automatic invitation" in rule(
        "Inviting Members"
    )
    game = Table(2).clear().without_sherman_act().turn(0, PLAY)
    card = game.give(0, "Hater McFriendless")
    game.send(0, {"type": "play", "card": card, "x": 0, "y": 0})
    assert {"type": "invite", "how": "auto", "user": card} in game.moves(0)
    game.send(0, {"type": "invite", "how": "auto", "user": card}, dice=[])  # no die: it is automatic
    assert game.members("Hater McFriendless") == [0] and game.tokens(0) == 14
    game.refuse(0, {"type": "invite", "how": "auto", "user": card}, "denied")  # once


def test_the_automatic_invitation_is_only_for_a_user_played_this_turn():
    game = Table(2).clear().without_sherman_act().turn(0, INVITE)
    old = game.put("John Smith", 0, 0)
    game.refuse(0, {"type": "invite", "how": "auto", "user": old}, "denied")
    assert not any(m.get("how") == "auto" for m in game.moves(0))


@pytest.mark.parametrize("roll, joins", [(6, True), (5, False), (1, False)])
def test_you_may_spam_invite_any_user_in_play_on_a_6(roll, joins):
    assert "On a 6, place one of your colored tokens on the card" in rule("Inviting Members")
    game = Table(2).clear().turn(0, INVITE)
    card = game.put("John Smith", 0, 0, 1)
    game.send(0, {"type": "invite", "how": "spam", "user": card}, dice=[roll])
    [rolled] = game.of_type("social.die_rolled")
    assert rolled == {
        "seat": 0,
        "what": "spam",
        "user": card,
        "by": None,
        "cause": None,
        "roll": roll,
        "needs": [6],
        "success": joins,
    }
    assert game.members("John Smith") == ([1, 0] if joins else [1])
    game.refuse(0, {"type": "invite", "how": "spam", "user": card}, "denied")  # one spam invitation a turn


@pytest.mark.parametrize("rolls, joined", [([4, 3], [0]), ([6, 5], [0, 1]), ([1, 2], [])])
def test_one_of_your_members_may_personally_invite_up_to_two_friends_on_a_4_5_or_6(rolls, joined):
    assert "One of your current Members may personally invite up to two of their Friends." in rule(
        "Inviting Members"
    )
    assert "On a 4, 5 or a 6, place one of your colored tokens on the card" in rule("Inviting Members")
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    friends = [
        game.put("John Smith", 1, 0, nth=1),
        game.put("John Smith", 0, 1, nth=2),
        game.put("John Smith", -1, 0, nth=3),
    ]
    listed = [m for m in game.moves(0) if m["type"] == "invite" and m["how"] == "personal"]
    assert [m["friends"]["choose"] for m in listed] == [1, 2]
    game.refuse(0, {"type": "invite", "how": "personal", "member": member, "friends": friends}, "denied")
    game.send(0, {"type": "invite", "how": "personal", "member": member, "friends": friends[:2]}, dice=rolls)
    assert [r["needs"] for r in game.of_type("social.die_rolled")] == [[4, 5, 6], [4, 5, 6]]
    won = [
        i
        for i, friend in enumerate(friends[:2])
        if 0 in next(p for p in game.table.grid if p.card == friend).identities[0].members
    ]
    assert won == joined


def test_a_personal_invitation_names_friends_of_a_member_of_your_network_only():
    game = Table(2).clear().turn(0, INVITE)
    stranger = game.put("John Smith", 0, 0, 1)
    far = game.put("John Smith", 3, 0, 0, nth=1)
    game.put("John Smith", 2, 0, nth=2)
    game.refuse(0, {"type": "invite", "how": "personal", "member": stranger, "friends": [far]}, "denied")
    game.refuse(0, {"type": "invite", "how": "personal", "member": far, "friends": [stranger]}, "denied")


def test_the_first_player_to_place_all_fifteen_tokens_wins():
    assert "adding fifteen new members to your site" in rule("")
    game = Table(2).clear().turn(0, INVITE)
    assert game.table.tokens == 15 and game.tokens(1) == 15
    card = game.put("John Smith", 0, 0)
    game.tokens_left(0, 1)
    game.send(0, {"type": "invite", "how": "spam", "user": card}, dice=[6])
    [finished] = game.of_type("social.finished")
    assert finished["winners"] == [0]
    assert game.state.status == "finished" and game.state.winners == (0,)
    assert game.moves(0) == [] and game.moves(1) == []
    game.refuse(0, {"type": "end_turn"}, "game_not_active")


def test_until_one_player_has_exhausted_all_twenty_tokens_is_the_option():
    assert "exhausted all twenty tokens" in rule("Winning")
    game = Table(2, options={"tokens": 20})
    assert game.table.tokens == 20 and game.tokens(0) == game.tokens(1) == 20
    assert view_state(game.state, 1)["players"][0]["counters"] == {"tokens": 20}


@pytest.mark.parametrize("tokens", [0, 16, "20", True, 30, 15.0, None])
def test_tokens_are_fifteen_or_twenty(tokens):
    with pytest.raises(DomainError) as refused:
        create_game(
            ruleset="socialism",
            deck=deck(),
            variant="standard",
            creative=False,
            max_players=2,
            options={"tokens": tokens},
            creator=Actor(1, "ann"),
            rng=SeededRng(1),
        )
    assert refused.value.code == "invalid" and refused.value.details["field"] == "options.tokens"


def test_two_to_five_players():
    assert "2-5 players" in rule("You'll need")
    with pytest.raises(DomainError):
        create_game(
            ruleset="socialism",
            deck=deck(),
            variant="standard",
            creative=False,
            max_players=6,
            options={},
            creator=Actor(1, "ann"),
            rng=SeededRng(1),
        )
    Table(5)  # five sit down and start


def test_the_grid_and_every_token_are_public_hands_are_not():
    game = Table(3).clear()
    card = game.put("Alan Sudo/Gerald Sock", 0, 0, (0, 1), (2,))
    mine = game.give(0, "IPO")
    for viewer in (None, 0, 1, 2):
        view = view_state(game.state, viewer)
        [cell] = view["board"]["grid"]
        assert cell["card"]["id"] == card
        assert [i["members"] for i in cell["identities"]] == [[0, 1], [2]]
        assert view["board"]["draw_pile"] == {"count": len(game.table.draw_pile)}
        others = [p for p in view["players"] if p["seat"] != viewer]
        assert all("hand" not in p for p in others) and all("hand_count" in p for p in others)
        assert (mine in str(view)) == (viewer == 0)
