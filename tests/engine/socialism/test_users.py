"""Every User card of the Socialism deck does what its text says; each test is named after the card's words."""

from __future__ import annotations

import pytest

from dvorak_engine.rulesets.socialism.board import INVITE, PLAY
from tests.engine.socialism.table import Table, card_text


def personal(member: str, friends: list[str]) -> dict:
    return {"type": "invite", "how": "personal", "member": member, "friends": friends}


def ring(game: Table, center: str, *, members=(0,), friends: int = 4) -> tuple[str, list[str]]:
    """``center`` at (0, 0) on seat 0's network, and ``friends`` John Smiths (and more) around it."""
    member = game.put(center, 0, 0, *members)
    cells = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1)]
    fillers = [
        ("John Smith", 1),
        ("John Smith", 2),
        ("John Smith", 3),
        ("Debbie Webceleb", 0),
        ("Fa3ryAlly", 0),
    ]
    placed = [
        game.put(title, *cell, nth=nth) for (title, nth), cell in zip(fillers[:friends], cells, strict=False)
    ]
    return member, placed


def sizes(game: Table, member: str) -> list[int]:
    return [
        m["friends"]["choose"] for m in game.moves(0) if m.get("how") == "personal" and m["member"] == member
    ]


def test_sheila_will_personally_invite_an_additional_friend_for_up_to_three_invitations():
    assert "up to three invitations" in card_text("Sheila Callingworth")
    game = Table(2).clear().turn(0, INVITE)
    sheila, friends = ring(game, "Sheila Callingworth")
    assert sizes(game, sheila) == [1, 2, 3]
    game.refuse(0, personal(sheila, friends), "denied")
    game.send(0, personal(sheila, friends[:3]), dice=[4, 4, 4])
    assert game.tokens(0) == 15 - 4


def test_billy_will_only_personally_invite_one_friend():
    assert "will only personally invite one Friend" in card_text("Billy Luddite")
    game = Table(2).clear().turn(0, INVITE)
    billy, friends = ring(game, "Billy Luddite")
    assert sizes(game, billy) == [1]
    game.refuse(0, personal(billy, friends[:2]), "denied")
    game.send(0, personal(billy, friends[:1]), dice=[5])


def test_agnse_will_personally_invite_all_of_her_friends_accepted_only_on_a_5_or_6():
    assert "will personally invite all of her Friends whenever asked to" in card_text("Agnse Smtih")
    assert "only accepted on a roll of a 5 or 6" in card_text("Agnse Smtih")
    game = Table(2).clear().turn(0, INVITE)
    agnse, friends = ring(game, "Agnse Smtih", friends=3)
    assert sizes(game, agnse) == [3]
    game.refuse(0, personal(agnse, friends[:2]), "denied")
    game.send(0, personal(agnse, friends), dice=[4, 5, 6])
    rolled = game.of_type("social.die_rolled")
    assert [r["needs"] for r in rolled] == [[5, 6]] * 3 and [r["success"] for r in rolled] == [
        False,
        True,
        True,
    ]


def test_the_avengator_never_personally_invites_anyone_and_never_accepts_personal_invitations():
    assert "He never personally invites anyone, and never accepts personal invitations." in card_text(
        "THE AVENGATOR"
    )
    game = Table(2).clear().turn(0, INVITE)
    avengator, friends = ring(game, "THE AVENGATOR", friends=1)
    assert sizes(game, avengator) == []
    game.refuse(0, personal(avengator, friends), "denied")
    member = game.put("John Smith", 2, 0, 0, nth=1)  # beside the Friend: not the AVENGATOR's
    game.put("THE AVENGATOR", 3, 0)
    game.send(0, personal(member, [game.user("THE AVENGATOR")]), dice=[6])
    [rolled] = game.of_type("social.die_rolled")
    assert rolled["needs"] == [] and not rolled["success"] and game.members("THE AVENGATOR") == []


def test_debbie_always_accepts_personal_invitations():
    assert card_text("Debbie Webceleb") == "Debbie always accepts personal invitations."
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    debbie = game.put("Debbie Webceleb", 1, 0)
    game.send(0, personal(member, [debbie]), dice=[1])
    assert game.of_type("social.die_rolled")[0]["needs"] == [1, 2, 3, 4, 5, 6]
    assert game.members("Debbie Webceleb") == [0]


@pytest.mark.parametrize("roll, joins", [(4, False), (5, True)])
def test_connoisseur_only_accepts_personal_invitations_on_a_5_or_6(roll, joins):
    assert "Connoisseur only accepts personal invitations on a 5 or 6" in card_text("Phillip Connoisseur")
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    phillip = game.put("Phillip Connoisseur", 1, 0)
    game.send(0, personal(member, [phillip]), dice=[roll])
    assert game.members("Phillip Connoisseur") == ([0] if joins else [])


def test_connoisseur_never_accepts_spam_invitations():
    assert "and never accepts spam invitations" in card_text("Phillip Connoisseur")
    game = Table(2).clear().turn(0, INVITE)
    phillip = game.put("Phillip Connoisseur", 0, 0)
    game.send(0, {"type": "invite", "how": "spam", "user": phillip}, dice=[6])
    assert game.of_type("social.die_rolled")[0]["needs"] == [] and game.members("Phillip Connoisseur") == []


def test_friends_that_connoisseur_personally_invites_accept_on_a_3_unless_contradicted_by_their_own_text():
    assert (
        "Friends that he personally invites accept on a 3, 4, 5, or 6, unless contradicted by their own "
        "text." in card_text("Phillip Connoisseur")
    )
    game = Table(2).clear().turn(0, INVITE)
    phillip = game.put("Phillip Connoisseur", 0, 0, 0)
    john = game.put("John Smith", 1, 0)
    hater = game.put("Hater McFriendless", -1, 0)
    game.send(0, personal(phillip, [john, hater]), dice=[3, 6])
    assert [r["needs"] for r in game.of_type("social.die_rolled")] == [[3, 4, 5, 6], []]
    assert game.members("John Smith") == [0] and game.members("Hater McFriendless") == []


@pytest.mark.parametrize("how", ["spam", "personal"])
def test_fa3ryally_accepts_all_invitations(how):
    assert card_text("Fa3ryAlly") == "Fa3ryAlly accepts all invitations."
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    fa3ry = game.put("Fa3ryAlly", 1, 0)
    command = (
        personal(member, [fa3ry]) if how == "personal" else {"type": "invite", "how": "spam", "user": fa3ry}
    )
    game.send(0, command, dice=[1])
    assert game.members("Fa3ryAlly") == [0]


def test_hater_never_accepts_personal_invitations():
    assert card_text("Hater McFriendless") == "Hater never accepts personal invitations."
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    hater = game.put("Hater McFriendless", 1, 0)
    game.send(0, personal(member, [hater]), dice=[6])
    assert game.members("Hater McFriendless") == []


def test_becca_will_only_be_a_member_of_one_site_at_a_time():
    assert "When she accepts any invitation, discard all other tokens from her card." in card_text(
        "Becca Singleton"
    )
    game = Table(3).clear().turn(0, INVITE)
    becca = game.put("Becca Singleton", 0, 0, 1, 2)
    assert game.tokens(1) == game.tokens(2) == 14
    game.send(0, {"type": "invite", "how": "spam", "user": becca}, dice=[6])
    assert game.members("Becca Singleton") == [0]
    assert [(e["seat"], e["cause"]) for e in game.of_type("social.left")] == [(1, becca), (2, becca)]
    assert game.tokens(1) == game.tokens(2) == 15  # the discarded tokens go back to their owners


def test_jimmy_can_convince_friends_to_leave_networks_he_is_not_part_of_on_a_4_5_or_6():
    assert (
        "you may try to remove a token color that isn't also on Jimmy's card from one Friend. This is "
        "successful on a 4, 5, or 6." in card_text("Jimmy Block")
    )
    game = Table(3).clear().turn(0, INVITE)
    jimmy = game.put("Jimmy Block", 0, 0, 0, 2)
    friend = game.put("John Smith", 1, 0, 1, 2)
    moves = [m for m in game.moves(0) if m["type"] == "block"]
    assert moves == [
        {
            "type": "block",
            "member": jimmy,
            "friend": friend,
            "color": 1,
        }
    ]  # seat 2's colour is on Jimmy too
    game.refuse(0, {"type": "block", "member": jimmy, "friend": friend, "color": 2}, "denied")
    game.send(0, {"type": "block", "member": jimmy, "friend": friend, "color": 1}, dice=[4])
    assert game.members("John Smith") == [2] and game.tokens(1) == 15
    # "instead of having him personally invite Friends": the turn's personal invitation is spent.
    assert not any(m.get("how") == "personal" or m["type"] == "block" for m in game.moves(0))


def test_jimmy_block_fails_on_a_1_2_or_3():
    game = Table(2).clear().turn(0, INVITE)
    jimmy = game.put("Jimmy Block", 0, 0, 0)
    friend = game.put("John Smith", 1, 0, 1)
    game.send(0, {"type": "block", "member": jimmy, "friend": friend, "color": 1}, dice=[3])
    assert game.members("John Smith") == [1]


def test_alan_gerald_maintains_two_separate_identities_two_tokens_of_each_color():
    text = card_text("Alan Sudo/Gerald Sock")
    assert "Each may be invited separately, and he may have two tokens of each color on his card." in text
    game = Table(2).clear().without_sherman_act().turn(0, PLAY)
    card = game.give(0, "Alan Sudo/Gerald Sock")
    game.send(0, {"type": "play", "card": card, "x": 0, "y": 0})
    alan, gerald = game.user("Alan Sudo/Gerald Sock", 0), game.user("Alan Sudo/Gerald Sock", 1)
    assert [game.identity("Alan Sudo/Gerald Sock", n).name for n in (0, 1)] == ["Alan Sudo", "Gerald Sock"]
    game.send(0, {"type": "invite", "how": "auto", "user": alan})
    game.send(0, {"type": "invite", "how": "spam", "user": gerald}, dice=[6])
    assert game.members("Alan Sudo/Gerald Sock", 0) == game.members("Alan Sudo/Gerald Sock", 1) == [0]
    assert game.tokens(0) == 13


def test_alan_and_gerald_do_not_count_as_friends_of_each_other_but_both_of_adjacent_cards():
    assert (
        "Alan and Gerald do not count as Friends of each other, but both count as Friends of all adjacent "
        "cards." in card_text("Alan Sudo/Gerald Sock")
    )
    game = Table(2).clear().turn(0, INVITE)
    game.put("Alan Sudo/Gerald Sock", 0, 0, (0,), ())
    alan, gerald = game.user("Alan Sudo/Gerald Sock", 0), game.user("Alan Sudo/Gerald Sock", 1)
    john = game.put("John Smith", 1, 0, 0)
    game.refuse(0, personal(alan, [gerald]), "denied")
    assert sizes(game, alan) == []
    game.send(0, personal(john, [gerald]), dice=[4])
    assert game.members("Alan Sudo/Gerald Sock", 1) == [0]


def test_rachel_never_announces_her_presence_by_personally_inviting_her_friends():
    assert (
        card_text("Rachel Lurk") == "Rachel never announces her presence by personally inviting her Friends."
    )
    game = Table(2).clear().turn(0, INVITE)
    rachel, friends = ring(game, "Rachel Lurk", friends=2)
    assert sizes(game, rachel) == []
    game.refuse(0, personal(rachel, friends[:1]), "denied")


def test_alan_dale_may_personally_invite_friends_of_his_friends():
    assert "He may personally invite Friends of his Friends." in card_text("Alan Dale")
    game = Table(2).clear().turn(0, INVITE)
    dale = game.put("Alan Dale", 0, 0, 0)
    friend = game.put("John Smith", 1, 0)
    far = game.put("John Smith", 2, 0, nth=1)
    farther = game.put("John Smith", 3, 0, nth=2)
    pools = [m["friends"]["from"] for m in game.moves(0) if m.get("member") == dale]
    assert pools and all(set(pool) == {friend, far} for pool in pools)
    game.refuse(0, personal(dale, [farther]), "denied")
    game.send(0, personal(dale, [far]), dice=[5])
    assert next(p for p in game.table.grid if p.card == friend).identities[0].members == ()
    assert 0 in next(p for p in game.table.grid if p.card == far).identities[0].members


def test_mary_su_may_personally_invite_all_of_her_friends_at_once():
    assert "personally invite all of her Friends at once" in card_text("Mary Su")
    game = Table(2).clear().turn(0, INVITE)
    mary, friends = ring(game, "Mary Su", friends=5)
    assert sizes(game, mary) == [1, 2, 3, 4, 5]
    game.send(0, personal(mary, friends), dice=[4, 4, 4, 4, 4])
    assert game.tokens(0) == 15 - 6


def test_sloan_uses_super_logout_if_you_cause_her_to_leave_all_of_her_networks_she_goes_in_your_hand():
    assert "if you cause her to leave all of her social networks, she goes in your hand." in card_text(
        "Sloan Jenkins"
    )
    game = Table(3).clear().turn(0, INVITE)
    jimmy = game.put("Jimmy Block", 0, 0, 0)
    sloan = game.put("Sloan Jenkins", 1, 0, 1)
    game.send(0, {"type": "block", "member": jimmy, "friend": sloan, "color": 1}, dice=[6])
    [removed] = game.of_type("social.removed")
    assert removed == {"card": sloan, "cause": jimmy, "to": "hand", "seat": 0}
    assert not game.on_grid("Sloan Jenkins") and "Sloan Jenkins" in game.hand(0)


def test_sloan_stays_while_another_network_keeps_her():
    game = Table(3).clear().turn(0, INVITE)
    jimmy = game.put("Jimmy Block", 0, 0, 0)
    sloan = game.put("Sloan Jenkins", 1, 0, 1, 2)
    game.send(0, {"type": "block", "member": jimmy, "friend": sloan, "color": 1}, dice=[6])
    assert game.on_grid("Sloan Jenkins") and game.members("Sloan Jenkins") == [2]


def test_lola_always_accepts_spam_invitations_but_never_accepts_personal_invitations():
    assert (
        card_text("Lola Lowinfo") == "Lola always accepts spam invitations, but never accepts personal "
        "invitations."
    )
    game = Table(2).clear().turn(0, INVITE)
    member = game.put("John Smith", 0, 0, 0)
    lola = game.put("Lola Lowinfo", 1, 0)
    game.send(0, personal(member, [lola]), dice=[6])
    assert game.members("Lola Lowinfo") == []
    game.send(0, {"type": "invite", "how": "spam", "user": lola}, dice=[2])
    assert game.members("Lola Lowinfo") == [0]


def test_john_smith_has_no_text_and_follows_the_basic_rules():
    assert card_text("John Smith") == ""
    game = Table(2).clear().turn(0, INVITE)
    john, friends = ring(game, "John Smith", friends=3)
    assert sizes(game, john) == [1, 2]
