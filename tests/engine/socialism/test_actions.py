"""Every Action card of the Socialism deck does what its text says; each test is named after the card's words."""

from __future__ import annotations

from dvorak_engine.rulesets.socialism.board import INVITE, PLAY, Player, ViralPost, unconnected_sets
from tests.engine.socialism.table import Table, card_text, rule


def playing(players: int = 2) -> Table:
    """A game with an empty grid, seat 0 about to play, and no Sherman Act to wait for."""
    return Table(players).clear().without_sherman_act().turn(0, PLAY)


def test_to_play_an_action_follow_the_instructions_on_the_card_and_then_discard_it():
    assert (
        "To play an Action, merely lay it down, follow the instructions on the card, and then discard it."
        in rule("Playing Cards")
    )
    game = playing()
    game.put("John Smith", 0, 0, 0)
    friend = game.put("John Smith", 1, 0, nth=1)
    card = game.give(0, "Stellar Status")
    game.send(0, {"type": "play", "card": card, "user": game.user("John Smith")})
    assert [e.type for e in game.last] == [
        "social.played",
        "social.joined",
        "social.discarded",
        "social.stage",
    ]
    assert game.table.discard_pile[-1] == card and game.on(friend) == [0]


def test_stellar_status_everyone_adjacent_will_join_your_network():
    assert "everyone adjacent will join your network, as well" in card_text("Stellar Status")
    game = playing()
    center = game.put("John Smith", 0, 0, 0)
    game.put("Hater McFriendless", 1, 0, 1)
    game.put("Alan Sudo/Gerald Sock", -1, 1)
    game.put("John Smith", 2, 0, nth=1)  # not adjacent
    card = game.give(0, "Stellar Status")
    assert {"type": "play", "card": card, "user": center} in game.moves(0)
    game.send(0, {"type": "play", "card": card, "user": center}, dice=[])  # no die
    assert game.members("Hater McFriendless") == [1, 0]
    assert game.members("Alan Sudo/Gerald Sock", 0) == game.members("Alan Sudo/Gerald Sock", 1) == [0]
    assert game.members("John Smith", 0) == [0] and game.tokens(0) == 15 - 4


def test_stellar_status_needs_a_user_on_your_network_and_without_one_does_nothing():
    game = playing()
    stranger = game.put("John Smith", 0, 0, 1)
    card = game.give(0, "Stellar Status")
    assert [m for m in game.moves(0) if m["card"] == card] == [{"type": "play", "card": card}]
    game.refuse(0, {"type": "play", "card": card, "user": stranger}, "invalid")
    game.send(0, {"type": "play", "card": card})
    assert game.of_type("social.joined") == [] and game.table.discard_pile[-1] == card


def test_viral_post_at_the_beginning_of_each_turn_moves_to_a_new_user_who_joins_your_network():
    assert (
        "At the beginning of each turn, Viral Post moves to a new user, who joins your network."
        in card_text("Viral Post")
    )
    game = playing()
    center = game.put("John Smith", 0, 0, 0)
    friend = game.put("Debbie Webceleb", 1, 0)
    post = game.give(0, "Viral Post")
    game.send(0, {"type": "play", "card": post, "user": center})
    assert [(v.card, v.owner, v.on) for v in game.table.viral_posts] == [(post, 0, center)]
    assert game.table.player(0).in_front == (post,)  # in play while its token is on the grid
    game.send(0, {"type": "end_turn"})
    [moved] = game.of_type("social.viral_moved")
    assert moved == {"card": post, "owner": 0, "from": center, "to": friend, "user": friend}
    assert game.members("Debbie Webceleb") == [0] and game.table.turn.seat == 1
    game.turn(1, INVITE)
    game.send(1, {"type": "end_turn"})  # nobody new beside Debbie but the center, already on the network
    assert game.of_type("social.viral_moved") == [] and game.table.viral_posts[0].on == friend


def test_lost_password_remove_a_user_from_the_board():
    assert "Remove a user from the board." in card_text("Lost Password")
    game = playing()
    card = game.put("John Smith", 0, 0, 0, 1)
    lost = game.give(0, "Lost Password")
    game.send(0, {"type": "play", "card": lost, "user": card})
    assert not game.on_grid("John Smith") and card in game.table.discard_pile
    assert game.tokens(0) == game.tokens(1) == 15


def test_lost_password_splits_the_board_invitations_can_no_longer_cross_until_a_new_user_reconnects_them():
    assert (
        "invitations can no longer cross from one set to another until a new user reconnects them"
        in card_text("Lost Password")
    )
    game = playing()
    game.put("John Smith", -1, 0, 0)
    bridge = game.put("John Smith", 0, 0, nth=1)
    far = game.put("John Smith", 1, 0, 1, nth=2)
    lost = game.give(0, "Lost Password")
    game.send(0, {"type": "play", "card": lost, "user": bridge})
    assert len(game.table.grid) == 2 and len(unconnected_sets(game.table)) == 2
    game.refuse(0, {"type": "invite", "how": "spam", "user": far}, "denied")
    assert not any(m.get("how") == "spam" for m in game.moves(0))
    # A new User played between them reconnects the sets.
    game.turn(0, PLAY)
    reconnect = game.give(0, "Debbie Webceleb")
    game.send(0, {"type": "play", "card": reconnect, "x": 0, "y": 1})
    game.send(0, {"type": "invite", "how": "spam", "user": far}, dice=[6])
    assert game.on(far) == [1, 0]


def test_lost_password_on_sloan_puts_her_in_your_hand():
    game = playing()
    sloan = game.put("Sloan Jenkins", 0, 0, 1)
    lost = game.give(0, "Lost Password")
    game.send(0, {"type": "play", "card": lost, "user": sloan})
    assert "Sloan Jenkins" in game.hand(0) and game.tokens(1) == 15


def test_omg_cat_pic_friends_also_on_your_network_send_personal_invitations_to_all_of_their_friends():
    assert (
        "All of that user's Friends who are also on your network immediately send personal invitations to "
        "all of their friends" in card_text("OMG CAT PIC")
    )
    game = playing()
    poster = game.put("John Smith", 0, 0, 0)
    sender = game.put("John Smith", 1, 0, 0, nth=1)
    game.put("Rachel Lurk", -1, 0, 0)  # on the network, but never personally invites
    far = [game.put("John Smith", 2, 0, nth=2), game.put("John Smith", 2, 1, nth=3)]
    cat = game.give(0, "OMG CAT PIC")
    game.send(0, {"type": "play", "card": cat, "user": poster}, dice=[4, 1])
    rolled = game.of_type("social.die_rolled")
    assert [(r["by"], r["user"], r["what"]) for r in rolled] == [
        (sender, far[0], "personal"),
        (sender, far[1], "personal"),
    ]
    assert [r["success"] for r in rolled] == [True, False]


def test_omg_cat_pic_billy_still_invites_one_friend_drawn_at_random():
    game = playing()
    poster = game.put("John Smith", 0, 0, 0)
    game.put("Billy Luddite", 1, 0, 0)
    game.put("John Smith", 2, 0, nth=1)
    game.put("John Smith", 2, 1, nth=2)
    cat = game.give(0, "OMG CAT PIC")
    game.send(0, {"type": "play", "card": cat, "user": poster}, dice=[6])
    [picked] = game.of_type("social.picked")
    assert len(picked["picked"]) == 1 and len(game.of_type("social.die_rolled")) == 1


def test_asl_an_adjacent_user_leaves_all_of_that_users_networks():
    assert "Select a user.  An adjacent user leaves all of that user's networks." in card_text("A/S/L?")
    game = playing(3)
    user = game.put("John Smith", 0, 0, 1, 2)
    friend = game.put("Debbie Webceleb", 1, 0, 0, 1, 2)
    game.put("Fa3ryAlly", 5, 5)  # not adjacent: not selectable as the friend
    asl = game.give(0, "A/S/L?")
    game.refuse(0, {"type": "play", "card": asl, "user": user, "friend": game.user("Fa3ryAlly")}, "invalid")
    game.send(0, {"type": "play", "card": asl, "user": user, "friend": friend})
    assert game.members("Debbie Webceleb") == [0]
    assert game.tokens(1) == 15 - 1 and game.tokens(2) == 15 - 1


def test_ipo_roll_once_for_each_user_in_play_each_of_whom_joins_on_a_6_and_leave_it_in_front_of_you():
    assert (
        "Roll once for each User in play, each of whom joins your network on a 6. Leave this card in front "
        "of you." in card_text("IPO")
    )
    game = playing()
    game.put("John Smith", 0, 0, 0)  # already yours: no die
    john = game.put("John Smith", 1, 0, nth=1)
    game.put("Alan Sudo/Gerald Sock", 0, 1)
    ipo = game.give(0, "IPO")
    game.send(0, {"type": "play", "card": ipo}, dice=[6, 5, 6])
    assert [r["needs"] for r in game.of_type("social.die_rolled")] == [[6]] * 3
    assert game.on(john) == [0] and game.members("Alan Sudo/Gerald Sock", 0) == []
    assert game.members("Alan Sudo/Gerald Sock", 1) == [0]
    assert game.table.player(0).in_front == (ipo,)


def test_ipo_from_now_on_your_personal_invitations_are_only_accepted_on_a_6_unless_affected_by_other_card_text():
    assert (
        "your network's personal invitations are only accepted on a 6 unless affected by other card text"
        in card_text("IPO")
    )
    game = Table(2).clear().turn(0, INVITE)
    game.in_front(0, "IPO")
    member = game.put("John Smith", 0, 0, 0)
    john, debbie = game.put("John Smith", 1, 0, nth=1), game.put("Debbie Webceleb", -1, 0)
    game.send(
        0, {"type": "invite", "how": "personal", "member": member, "friends": [john, debbie]}, dice=[5, 1]
    )
    assert [r["needs"] for r in game.of_type("social.die_rolled")] == [[6], [1, 2, 3, 4, 5, 6]]
    assert game.members("Debbie Webceleb") == [0] and game.on(john) == []


def test_new_feature_while_there_your_invitations_are_accepted_on_a_1_in_addition():
    assert "While there, your invitations are accepted on a 1 in addition to any other numbers." in card_text(
        "New feature"
    )
    game = playing()
    feature = game.give(0, "New feature")
    game.send(0, {"type": "play", "card": feature})
    assert game.table.player(0).in_front == (feature,)
    member = game.put("John Smith", 0, 0, 0)
    john, hater = game.put("John Smith", 1, 0, nth=1), game.put("Hater McFriendless", -1, 0)
    game.send(
        0, {"type": "invite", "how": "personal", "member": member, "friends": [john, hater]}, dice=[1, 1]
    )
    assert [r["needs"] for r in game.of_type("social.die_rolled")] == [[1, 4, 5, 6], []]  # a denial stays one
    assert game.on(john) == [0]
    game.send(0, {"type": "invite", "how": "spam", "user": hater}, dice=[1])
    assert game.members("Hater McFriendless") == [0]


def test_change_of_management_remove_an_action_card_from_play():
    assert "Remove an action card from play." in card_text("Change of Management")
    game = playing()
    ipo = game.in_front(1, "IPO")
    change = game.give(0, "Change of Management")
    assert {"type": "play", "card": change, "remove": ipo} in game.moves(0)
    game.send(0, {"type": "play", "card": change, "remove": ipo})
    assert game.table.player(1).in_front == () and game.table.discard_pile[-2:] == (ipo, change)


def test_change_of_management_takes_a_viral_post_and_its_token_off_the_grid():
    game = playing()
    center = game.put("John Smith", 0, 0, 1)
    post = game.in_front(1, "Viral Post")
    game._set(viral_posts=(ViralPost(card=post, owner=1, on=center),))
    change = game.give(0, "Change of Management")
    game.send(0, {"type": "play", "card": change, "remove": post})
    assert game.table.viral_posts == ()


def test_smtp_block_list_that_player_may_not_spam_invite_users():
    assert "As long as it's there, that player may not spam invite users." in card_text("SMTP Block List")
    game = playing()
    john = game.put("John Smith", 0, 0)
    smtp = game.give(0, "SMTP Block List")
    game.send(0, {"type": "play", "card": smtp, "target": 1})
    assert game.table.player(1).in_front == (smtp,)
    game.turn(1, INVITE)
    game.refuse(1, {"type": "invite", "how": "spam", "user": john}, "denied")
    assert not any(m.get("how") == "spam" for m in game.moves(1))


def test_the_greatest_form_of_flattery_copies_an_action_in_play_and_acts_as_the_original():
    assert (
        "Pick an action card in play.  The greatest form of flattery copies its text and acts as the "
        "original card." in card_text("The greatest form of flattery")
    )
    game = playing(3)
    john = game.put("John Smith", 0, 0)
    smtp = game.in_front(2, "SMTP Block List")
    flattery = game.give(0, "The greatest form of flattery")
    listed = [m for m in game.moves(0) if m["card"] == flattery]
    assert listed == [
        {
            "type": "play",
            "card": flattery,
            "copy": smtp,
            "target": {"choose": 1, "from": [0, 1, 2], "list": False},
        }
    ]
    game.send(0, {"type": "play", "card": flattery, "copy": smtp, "target": 1})
    assert game.table.player(1).in_front == (flattery,) and game.table.acting_as == {
        flattery: "SMTP Block List"
    }
    game.turn(1, INVITE)
    game.refuse(1, {"type": "invite", "how": "spam", "user": john}, "denied")


def test_the_greatest_form_of_flattery_copying_an_ipo_rolls_and_stays():
    game = playing()
    game.put("John Smith", 0, 0)
    ipo = game.in_front(1, "IPO")
    flattery = game.give(0, "The greatest form of flattery")
    game.send(0, {"type": "play", "card": flattery, "copy": ipo}, dice=[6])
    assert game.members("John Smith") == [0] and game.table.player(0).in_front == (flattery,)


def test_sherman_act_play_this_card_out_of_turn_to_cancel_another_card_as_it_is_played():
    assert (
        "Play this card out of turn to cancel another card as it is played.  Both this card and the canceled "
        "card go to the discard pile." in card_text("Sherman Act")
    )
    game = Table(3).clear().turn(0, PLAY)
    sherman = game.give(2, "Sherman Act")
    game.put("John Smith", 0, 0, 0)
    stellar = game.give(0, "Stellar Status")
    game.send(0, {"type": "play", "card": stellar, "user": game.user("John Smith")})
    assert game.table.pending.waiting == (1, 2)
    # The window: moves of several players at once, out of turn; the player whose card it is waits.
    assert game.moves(0) == []
    assert game.moves(1) == [{"type": "pass"}]
    assert game.moves(2) == [{"type": "pass"}, {"type": "play", "card": sherman}]
    game.send(1, {"type": "pass"})
    game.send(2, {"type": "play", "card": sherman})
    assert game.of_type("social.canceled") == [{"card": stellar, "seat": 0, "by": 2, "sherman": sherman}]
    assert game.table.discard_pile[-2:] == (stellar, sherman) and game.table.turn.stage == INVITE
    assert game.of_type("social.joined") == []


def test_sherman_act_a_card_let_through_by_everyone_takes_effect():
    game = Table(3).clear().turn(0, PLAY)
    game.give(2, "Sherman Act")
    card = game.give(0, "John Smith")
    game.send(0, {"type": "play", "card": card, "x": 0, "y": 0})
    assert not game.on_grid("John Smith") and game.table.pending.card == card
    game.refuse(0, {"type": "end_turn"}, "wrong_stage")
    game.send(2, {"type": "pass"})
    game.refuse(2, {"type": "pass"}, "not_your_turn")
    game.send(1, {"type": "pass"})
    assert game.on_grid("John Smith") and game.table.turn.stage == INVITE


def test_sherman_act_window_opens_whoever_holds_it_and_not_once_it_is_on_the_discard_pile():
    game = Table(2).clear().turn(0, PLAY)
    game.give(0, "Sherman Act")  # the player's own: the others still cannot know it
    card = game.give(0, "John Smith")
    game.send(0, {"type": "play", "card": card, "x": 0, "y": 0})
    assert game.table.pending.waiting == (1,)
    game.send(1, {"type": "pass"})
    game.without_sherman_act().turn(0, PLAY)
    other = game.give(0, "John Smith", nth=1)
    game.send(0, {"type": "play", "card": other, "x": 1, "y": 0})
    assert game.table.pending is None and game.on_grid("John Smith")


def test_sherman_act_is_not_played_in_your_own_turn_unless_it_is_all_you_hold():
    game = Table(2).clear().turn(0, PLAY)
    sherman = game.give(0, "Sherman Act")
    other = game.give(0, "IPO")
    game.refuse(0, {"type": "play", "card": sherman}, "denied")
    assert all(m["card"] != sherman for m in game.moves(0))
    game._set(
        players=(Player(seat=0, hand=(sherman,), tokens=15), game.table.player(1)),
        draw_pile=(*game.table.draw_pile, other),
    )
    assert game.moves(0) == [{"type": "play", "card": sherman}]
    game.send(0, {"type": "play", "card": sherman})
    assert game.table.discard_pile[-1] == sherman and game.table.turn.stage == INVITE


def test_industrial_espionage_choose_another_network_and_spam_invite_all_of_its_users():
    assert "Choose another network and spam invite all of its users." in card_text("Industrial Espionage")
    game = playing(3)
    game.put("John Smith", 0, 0, 1)
    game.put("Lola Lowinfo", 1, 0, 1)
    game.put("Debbie Webceleb", 2, 0, 2)
    spy = game.give(0, "Industrial Espionage")
    targets = [m["target"] for m in game.moves(0) if m["card"] == spy]
    assert targets == [{"choose": 1, "from": [1, 2], "list": False}]
    game.send(0, {"type": "play", "card": spy, "target": 1}, dice=[6, 1])
    assert [(r["what"], r["needs"]) for r in game.of_type("social.die_rolled")] == [
        ("spam", [6]),
        ("spam", [1, 2, 3, 4, 5, 6]),
    ]
    assert game.members("John Smith") == [1, 0] and game.members("Lola Lowinfo") == [1, 0]


def test_industrial_espionage_sends_nothing_from_behind_an_smtp_block_list():
    game = playing()
    game.put("John Smith", 0, 0, 1)
    game.in_front(0, "SMTP Block List")
    spy = game.give(0, "Industrial Espionage")
    game.send(0, {"type": "play", "card": spy, "target": 1}, dice=[])
    assert game.members("John Smith") == [1]
