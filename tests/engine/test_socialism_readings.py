"""Socialism's readings of OMG CAT PIC, Viral Post and "a few basic options", each in the deck's words: what a new
game does by default, what its options change, and that a game created before the readings were written into its
``game.created`` (a stored game, its options without them) keeps playing as it was played."""

from __future__ import annotations

import dataclasses

import pytest

from dvorak_engine import Actor, DomainError, SeededRng, create_game, decide, legal_moves, replay, view_state
from dvorak_engine.rulesets.socialism.board import DRAW, INVITE, PLAY, ViralPost
from dvorak_engine.rulesets.socialism.options import BEFORE_STAMPED, CHOICES
from tests.engine.recorded_streams import STREAMS, as_stored, load
from tests.engine.socialism.table import Table, card_text, deck, rule
from tests.engine.socialism.test_random_games import random_game

DEFAULTS = {"cat_pic": "all", "viral_post": "chosen", "invitations": "each"}


def created_before_the_readings(game: Table) -> Table:
    """The game as a stored one created before the readings were written: its options without them."""
    options = {key: value for key, value in game.state.options.items() if key not in CHOICES}
    game.state = dataclasses.replace(game.state, options=options)
    return game


def playing(players: int = 2, **options: str) -> Table:
    """A game with an empty grid, seat 0 about to play, and no Sherman Act to wait for."""
    return Table(players, options=options).clear().without_sherman_act().turn(0, PLAY)


# --- the options, written into every new game -----------------------------------------------------------------------


def test_a_new_game_is_created_with_every_reading_written_into_its_options():
    game = Table(2)
    created = game.events[0]
    assert created.type == "game.created"
    assert {key: created.data["options"][key] for key in CHOICES} == DEFAULTS
    assert game.state.options == DEFAULTS
    view = view_state(game.state, 0)
    assert view["options"] == DEFAULTS and view["board"]["viral_choice"] is None


def test_the_readings_chosen_at_creation_are_kept_beside_the_other_options():
    chosen = {"cat_pic": "up_to_two", "viral_post": "random", "invitations": "one", "tokens": 20}
    game = Table(2, options=chosen)
    assert game.events[0].data["options"] == chosen and game.state.options == chosen
    assert view_state(game.state, None)["options"] == {k: v for k, v in chosen.items() if k != "tokens"}


@pytest.mark.parametrize(
    "name, value",
    [
        ("cat_pic", "some"),
        ("cat_pic", 2),
        ("viral_post", "server"),
        ("viral_post", None),
        ("invitations", "two"),
        ("invitations", ["one"]),
    ],
)
def test_an_option_of_a_reading_with_another_value_is_refused_naming_it(name, value):
    with pytest.raises(DomainError) as refused:
        create_game(
            ruleset="socialism",
            deck=deck(),
            variant="standard",
            creative=False,
            max_players=2,
            options={name: value},
            creator=Actor(1, "ann"),
            rng=SeededRng(1),
        )
    assert refused.value.code == "invalid"
    assert refused.value.details == {"field": f"options.{name}", "choices": list(CHOICES[name])}


def test_a_stored_game_created_before_the_readings_shows_neither_them_nor_a_viral_choice():
    """The recorded streams hold games created before the readings were written: their views show no
    ``options`` and no ``board.viral_choice`` (``test_recorded_streams`` replays them byte for byte)."""
    for name in ("socialism-3", "socialism-4"):
        events = [as_stored(step["event"]) for step in load(STREAMS / f"{name}.json.gz")["steps"]]
        assert not set(CHOICES) & set(events[0].data["options"])
        state = replay(events)
        view = view_state(state, 0)
        assert "options" not in view and "viral_choice" not in view["board"]
    assert BEFORE_STAMPED == {"cat_pic": "up_to_two", "viral_post": "random", "invitations": "each"}


# --- OMG CAT PIC ------------------------------------------------------------------------------------------------


def cat_pic_table(sender: str, **options: str) -> tuple[Table, str, str, list[str]]:
    """Seat 0's poster at the centre; the sender beside it, on seat 0's network, with four Friends not on it."""
    game = playing(**options)
    poster = game.put("John Smith", 0, 0, 0)
    sent_by = game.put(sender, 1, 0, 0)
    friends = [
        game.put("Sloan Jenkins", 2, -1),
        game.put("Becca Singleton", 2, 0),
        game.put("Alan Dale", 2, 1),
        game.put("John Smith", 1, 1, nth=1),
    ]
    return game, poster, sent_by, friends


def play_cat_pic(game: Table, poster: str, dice: list[int]) -> list[dict]:
    cat = game.give(0, "OMG CAT PIC")
    game.send(0, {"type": "play", "card": cat, "user": poster}, dice=dice)
    return game.of_type("social.die_rolled")


@pytest.mark.parametrize("sender", ["Debbie Webceleb", "Sheila Callingworth"])  # a sender of "up to two", and of three
def test_omg_cat_pic_friends_send_personal_invitations_to_all_of_their_friends(sender):
    assert (
        "immediately send personal invitations to all of their friends so that they can see the adorable cat "
        "picture" in card_text("OMG CAT PIC")
    )
    game, poster, sent_by, friends = cat_pic_table(sender)
    rolled = play_cat_pic(game, poster, [4, 5, 6, 4])
    # Every one of the four, not "up to two" (nor Sheila's three), and none drawn by the server.
    assert [(r["what"], r["by"], r["user"]) for r in rolled] == [("personal", sent_by, f) for f in friends]
    assert game.of_type("social.picked") == []
    assert all(game.on(friend) == [0] for friend in friends) and game.tokens(0) == 15 - 2 - 4


def test_omg_cat_pic_billy_still_invites_only_one_friend():
    """Billy "will only personally invite one Friend before getting frustrated": his own text limits him even
    where the card says "all of their friends" (a reading)."""
    assert "will only personally invite one Friend" in card_text("Billy Luddite")
    game, poster, billy, friends = cat_pic_table("Billy Luddite")
    [rolled] = play_cat_pic(game, poster, [6])
    [picked] = game.of_type("social.picked")
    assert picked["by"] == billy and picked["picked"] == [rolled["user"]] and rolled["user"] in friends
    assert sorted(picked["from"]) == sorted(friends)


@pytest.mark.parametrize("sender, invited", [("Debbie Webceleb", 2), ("Sheila Callingworth", 3)])
def test_omg_cat_pic_up_to_two_sends_as_many_as_a_personal_invitation_drawn_by_the_server(sender, invited):
    """``options.cat_pic: up_to_two``: a personal invitation is "up to two of their Friends" (Sheila "up to
    three"), the Friends drawn by the server."""
    assert "One of your current Members may personally invite up to two of their Friends." in rule(
        "Inviting Members"
    )
    game, poster, sent_by, friends = cat_pic_table(sender, cat_pic="up_to_two")
    rolled = play_cat_pic(game, poster, [6] * invited)
    [picked] = game.of_type("social.picked")
    assert len(picked["picked"]) == invited and sorted(picked["from"]) == sorted(friends)
    assert [r["user"] for r in rolled] == picked["picked"]


def test_omg_cat_pic_in_a_game_created_before_the_reading_sends_up_to_two_as_it_did():
    game, poster, sent_by, friends = cat_pic_table("Debbie Webceleb")
    created_before_the_readings(game)
    rolled = play_cat_pic(game, poster, [6, 6])
    [picked] = game.of_type("social.picked")
    assert len(picked["picked"]) == 2 and [r["user"] for r in rolled] == picked["picked"]


# --- Viral Post -------------------------------------------------------------------------------------------------


def viral_table(**options: str) -> tuple[Table, str, str, list[str]]:
    """Seat 0's Viral Post on its Member at the centre, two Users beside it not on its network; seat 0 ends its
    turn next."""
    game = Table(2, options=options).clear().without_sherman_act()
    center = game.put("John Smith", 0, 0, 0)
    new = [game.put("Debbie Webceleb", 1, 0), game.put("Fa3ryAlly", -1, 0, 1)]
    post = game.in_front(0, "Viral Post")
    game._set(viral_posts=(ViralPost(card=post, owner=0, on=center),))
    game.turn(0, INVITE)
    return game, post, center, new


def test_viral_post_moves_to_a_new_user_of_its_players_choosing():
    assert "At the beginning of each turn, Viral Post moves to a new user, who joins your network." in card_text(
        "Viral Post"
    )
    game, post, center, new = viral_table()
    game.send(0, {"type": "end_turn"})
    # Seat 1's turn has begun, and waits for seat 0 to choose where its Viral Post goes.
    assert game.of_type("social.viral_choosing") == [{"card": post, "owner": 0, "choices": new, "then": []}]
    assert game.of_type("social.viral_moved") == [] and game.table.turn.seat == 1
    board = view_state(game.state, 1)["board"]
    assert board["viral_choice"] == {"card": post, "owner": 0, "choices": new}
    assert board["waiting_for"] == [0] and board["turn"]["stage"] == DRAW
    assert game.moves(0) == [{"type": "move_viral_post", "user": {"choose": 1, "from": new, "list": False}}]
    assert game.moves(1) == []
    refused = game.refuse(1, {"type": "draw"}, "wrong_stage")
    assert refused.details == {"stage": "viral_post", "waiting": [0]}
    game.refuse(1, {"type": "move_viral_post", "user": new[0]}, "not_your_turn")
    refused = game.refuse(0, {"type": "move_viral_post", "user": center}, "invalid")
    assert refused.details == {"field": "user", "from": new}
    game.send(0, {"type": "move_viral_post", "user": new[1]}, dice=[])  # Fa3ryAlly, the second: no die
    assert game.of_type("social.viral_moved") == [
        {"card": post, "owner": 0, "from": center, "to": new[1], "user": new[1]}
    ]
    assert game.on(new[1]) == [1, 0] and game.on(new[0]) == []
    assert [(v.card, v.owner, v.on) for v in game.table.viral_posts] == [(post, 0, new[1])]
    assert view_state(game.state, 0)["board"]["viral_choice"] is None
    assert game.moves(1) == [{"type": "draw"}] and game.moves(0) == []


def test_viral_post_with_one_new_user_moves_there_without_asking():
    game, post, center, new = viral_table()
    game.put("Fa3ryAlly", -1, 0, 1, 0)  # already on seat 0's network: not new
    game.send(0, {"type": "end_turn"})
    assert game.of_type("social.viral_choosing") == []
    [moved] = game.of_type("social.viral_moved")
    assert moved["user"] == new[0] and game.on(new[0]) == [0] and game.moves(1) == [{"type": "draw"}]


def test_viral_post_with_no_new_user_stays_where_it_is():
    game, post, center, new = viral_table()
    game.put("Debbie Webceleb", 1, 0, 0)
    game.put("Fa3ryAlly", -1, 0, 1, 0)
    game.send(0, {"type": "end_turn"})
    assert game.of_type("social.viral_choosing") == [] and game.of_type("social.viral_moved") == []
    assert game.table.viral_posts[0].on == center and game.moves(1) == [{"type": "draw"}]


def test_each_viral_post_waits_for_its_own_player_in_turn():
    game, post, center, new = viral_table()
    second = game.put("Mary Su", 0, 3, 1)
    beside = [game.put("Hater McFriendless", 1, 3), game.put("Lola Lowinfo", 0, 4)]
    copy = game.in_front(1, "The greatest form of flattery", acts_as="Viral Post")
    game._set(viral_posts=(*game.table.viral_posts, ViralPost(card=copy, owner=1, on=second)))
    game.send(0, {"type": "end_turn"})
    [first] = game.of_type("social.viral_choosing")
    assert first["owner"] == 0 and first["then"] == [copy]
    game.send(0, {"type": "move_viral_post", "user": new[0]})
    # Seat 0's post has moved; seat 1's waits for seat 1, whose turn it is.
    assert game.of_type("social.viral_choosing") == [{"card": copy, "owner": 1, "choices": beside, "then": []}]
    assert game.moves(0) == [] and game.moves(1)[0]["type"] == "move_viral_post"
    game.send(1, {"type": "move_viral_post", "user": beside[1]})
    assert game.on(beside[1]) == [1] and game.on(new[0]) == [0]
    assert game.moves(1) == [{"type": "draw"}]


@pytest.mark.parametrize("stored", [False, True])
def test_viral_post_moved_by_the_server_at_random_with_the_option_and_in_games_created_before(stored):
    game, post, center, new = viral_table(**({} if stored else {"viral_post": "random"}))
    if stored:
        created_before_the_readings(game)
    game.send(0, {"type": "end_turn"})
    assert game.of_type("social.viral_choosing") == [] and game.table.viral_choice is None
    [moved] = game.of_type("social.viral_moved")
    assert moved["user"] in new and game.on(moved["user"])[-1] == 0
    assert game.moves(1) == [{"type": "draw"}] and game.moves(0) == []
    game.refuse(0, {"type": "move_viral_post", "user": new[0]}, "not_your_turn")


# --- "a few basic options" ----------------------------------------------------------------------------------------


def invitation_table(**options: str) -> tuple[Table, str, str, str]:
    """Seat 0 has just played Hater at the centre; its Member Debbie beside him, a John Smith beside her."""
    game = Table(2, options=options).clear().without_sherman_act().turn(0, PLAY)
    hater = game.give(0, "Hater McFriendless")
    debbie = game.put("Debbie Webceleb", 1, 0, 0)
    john = game.put("John Smith", 2, 0, 1)
    game.send(0, {"type": "play", "card": hater, "x": 0, "y": 0})
    return game, hater, debbie, john


def test_a_few_basic_options_each_once_a_turn_all_three_in_one_turn_by_default():
    """The seed: "During the Invitation phase, you have a few basic options"; the reading (``each``): each of the
    three at most once a turn, in any order."""
    assert "During the Invitation phase, you have a few basic options" in rule("Inviting Members")
    game, hater, debbie, john = invitation_table()
    game.send(0, {"type": "invite", "how": "auto", "user": hater})
    assert {m.get("how") for m in game.moves(0) if m["type"] == "invite"} == {"spam", "personal"}
    game.send(0, {"type": "invite", "how": "spam", "user": john}, dice=[1])
    game.send(0, {"type": "invite", "how": "personal", "member": debbie, "friends": [john]}, dice=[4])
    assert game.table.turn.invited == ("auto", "spam", "personal") and game.on(john) == [1, 0]
    assert game.moves(0) == [{"type": "end_turn"}]


def test_a_few_basic_options_read_as_one_of_them_a_turn():
    game, hater, debbie, john = invitation_table(invitations="one")
    assert {m.get("how") for m in game.moves(0) if m["type"] == "invite"} == {"auto", "spam", "personal"}
    game.send(0, {"type": "invite", "how": "spam", "user": john}, dice=[1])
    assert game.moves(0) == [{"type": "end_turn"}]
    refused = game.refuse(0, {"type": "invite", "how": "auto", "user": hater}, "denied")
    assert refused.details == {"field": "how"}
    game.refuse(0, {"type": "invite", "how": "personal", "member": debbie, "friends": [john]}, "denied")
    game.send(0, {"type": "end_turn"})
    assert game.table.turn.seat == 1


def test_a_few_basic_options_one_a_turn_counts_jimmy_blocks_removal():
    game = Table(2, options={"invitations": "one"}).clear().without_sherman_act().turn(0, INVITE)
    jimmy = game.put("Jimmy Block", 0, 0, 0)
    friend = game.put("John Smith", 1, 0, 1)
    game.send(0, {"type": "invite", "how": "spam", "user": friend}, dice=[1])
    game.refuse(0, {"type": "block", "member": jimmy, "friend": friend, "color": 1}, "denied")


def test_a_few_basic_options_in_a_game_created_before_the_reading_each_once_a_turn():
    game, hater, debbie, john = invitation_table()
    created_before_the_readings(game)
    game.send(0, {"type": "invite", "how": "spam", "user": john}, dice=[1])
    assert {m.get("how") for m in game.moves(0) if m["type"] == "invite"} == {"auto", "personal"}


# --- whole games ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed, players", [(3, 2), (8, 3), (21, 4)])
def test_games_of_random_legal_moves_under_the_other_readings_end_with_a_winner(seed, players):
    options = {"cat_pic": "up_to_two", "viral_post": "random", "invitations": "one"}
    game = random_game(seed, players, options=options)
    assert game.state.status == "finished" and len(game.state.winners) == 1
    assert not any(e.type == "social.viral_choosing" for e in game.events)


def test_in_random_games_viral_posts_wait_for_their_players_and_every_listed_choice_is_accepted():
    waiting = []
    for seed in range(40):
        game = random_game(seed, 2 + seed % 4)
        assert game.state.status == "finished"
        waiting += [(game, state) for state in game.states if state.table and state.table.viral_choice]
        if len(waiting) >= 3:
            break
    assert len(waiting) >= 3, "no random game had a Viral Post waiting for its player"
    for game, state in waiting:
        owner = state.table.viral_choice.owner
        [move] = legal_moves(state, owner)
        assert move["type"] == "move_viral_post" and move["user"]["from"] == list(state.table.viral_choice.choices)
        assert all(legal_moves(state, seat) == [] for seat in range(len(state.seats)) if seat != owner)
        for user in move["user"]["from"]:
            events = decide(state, {"type": "move_viral_post", "user": user}, actor=game.people[owner],
                            rng=SeededRng(0))
            assert [e.data["user"] for e in events if e.type == "social.viral_moved"][0] == user
