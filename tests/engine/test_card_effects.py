"""Cards the server understands: effects fixed into the game at creation, effect moves checked against them, and
claims for the cards it does not understand (game option ``unread_effects``)."""

from __future__ import annotations

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    legal_moves,
    replay,
    state_from_json,
    state_to_json,
    view_event,
    view_state,
)
from dvorak_engine.rulesets.dvorak.creative import voting_seats
from dvorak_engine.state import ACTIVE, FINISHED, VOTING
from tests.engine.dvorak_games import unique_title_deck

from .conftest import Table

VICTORY = {"id": "1", "title": "Victory", "text": "If a player controls three or more Ministries, they win the game."}
PROPHECY = {"id": "2", "title": "Prophecy", "text": "The stars decide who triumphs."}
CARDS = [
    {"title": "Ministry of Magic", "type": "Thing", "text": ""},
    {"title": "Ministry of Truth", "type": "Thing", "text": ""},
    {"title": "Ministry of Silly Walks", "type": "Thing", "text": ""},
    {"title": "Pickpocket", "type": "Action", "text": "Take a random card from an opponent's hand."},
    {"title": "Butterfingers", "type": "Action", "text": "Discard a card from your hand."},
    {"title": "Greedy Goblin", "type": "Thing", "text": "Your hand limit is 7."},
    {"title": "Moonbeam", "type": "Thing", "text": "Glows faintly under a harvest sky, mysteriously."},
    {"title": "Windfall", "type": "Action", "text": "Draw two cards."},
    {"title": "Tax Refund", "type": "Action", "text": "Gain 2 gold."},
    {"title": "Sure Thing", "type": "Action", "text": "Draw a card.", "effect": [{"kind": "win", "who": "you"}]},
    # Understood, but not carried out whole by the server (it does not skip turns): players carry them out.
    {"title": "Sleight", "type": "Action", "text": "Take a random card from an opponent's hand. Skip your next turn."},
    {"title": "Fumble", "type": "Action", "text": "Discard a card from your hand. Skip your next turn."},
]


def effects_deck() -> dict:
    deck = unique_title_deck(20, special_rules=[VICTORY, PROPHECY])
    deck["cards"] = [{**deck["cards"][0], **card} for card in CARDS] + deck["cards"]
    return deck


def table(mode: str | None = "claim", players: int = 3) -> Table:
    options = {} if mode is None else {"unread_effects": mode}
    return Table(players=players, deck=effects_deck(), options=options).start()


# --- fixed at creation ---------------------------------------------------------------------------------------


def test_the_first_event_fixes_each_cards_and_special_rules_effect():
    events = create_game(ruleset="dvorak", deck=effects_deck(), variant="standard", creative=False, max_players=3,
                         options={}, creator=Actor(1, "ann"), rng=SeededRng(1))
    effects = events[0].data["effects"]
    by_title = {entry["title"]: entry["effect"] for entry in effects["cards"]}
    assert by_title["Greedy Goblin"] == [{"kind": "set_rule", "param": "hand_limit", "value": 7}]
    assert by_title["Moonbeam"] is None  # not understood
    assert by_title["Sure Thing"] == [{"kind": "win", "who": "you"}]  # the confirmed effect wins over the reading
    assert effects["special_rules"]["1"][0]["kind"] == "if"
    assert effects["special_rules"]["2"] is None
    # Everyone sees the Special Rules' effects; of the cards, only how many are understood.
    shown = view_event(events[0], None, None, replay(events[:1]))["effects"]
    assert shown == {"special_rules": effects["special_rules"],
                     "cards": {"count": len(effects["cards"]), "understood": len(effects["cards"]) - 1}}


def test_the_state_shows_each_special_rules_understood_effect_to_everyone():
    game = table()
    for viewer in (None, 0, 1):
        rules = {rule["id"]: rule for rule in view_state(game.state, viewer)["special_rules"]}
        assert rules["1"]["title"] == "Victory" and rules["1"]["text"] == VICTORY["text"]
        assert rules["1"]["effect"] == [{
            "kind": "if", "condition": {"kind": "controls", "who": "any_player", "items": [
                {"kind": "counted", "count": 3, "what": "Ministry"}]},
            "effects": [{"kind": "win", "who": "that_player"}]}]
        assert rules["2"]["effect"] is None  # not understood


def test_a_game_created_before_the_server_read_cards_shows_no_rule_effect():
    game = table(mode=None)
    old = game.state.with_table(effects=None)
    assert [rule["effect"] for rule in view_state(old, 0)["special_rules"]] == [None, None]


def test_replay_reads_the_effects_from_the_first_event_not_from_the_reader(monkeypatch):
    game = table()
    import dvorak_engine.rulesets.dvorak.effects as effects

    def no_reader(*args, **kwargs):
        raise AssertionError("the reader is called during replay")

    monkeypatch.setattr(effects, "read_card", no_reader)
    monkeypatch.setattr(effects, "read_special_rule", no_reader)
    assert replay(game.events) == game.state


def test_an_unknown_unread_effects_option_is_refused():
    with pytest.raises(DomainError) as refused:
        Table(players=2, deck=effects_deck(), options={"unread_effects": "sometimes"})
    assert refused.value.code == "invalid" and refused.value.details["field"] == "options.unread_effects"


# --- wins --------------------------------------------------------------------------------------------------


def test_a_win_citing_victory_is_refused_until_its_condition_holds():
    game = table()
    game.arrange(in_play={0: ["Ministry of Magic", "Ministry of Truth"]})
    refused = game.refuse(0, {"type": "win", "cause": "1"}, "win_condition_not_met")
    assert refused.status == 409
    game.arrange(in_play={0: ["Ministry of Magic", "Ministry of Truth", "Ministry of Silly Walks"]})
    game.send(0, {"type": "win", "cause": "1"})
    assert game.state.status == FINISHED and game.state.winners == (0,)


def test_a_win_for_another_player_needs_the_condition_to_hold_for_them():
    game = table()
    game.arrange(in_play={0: ["Ministry of Magic", "Ministry of Truth", "Ministry of Silly Walks"]})
    game.refuse(1, {"type": "win", "cause": "1"}, "win_condition_not_met")
    game.send(1, {"type": "win", "cause": "1", "seats": [0]})
    assert game.state.winners == (0,)


def test_a_win_citing_a_card_that_wins_nothing_is_refused():
    game = table()
    game.arrange(hands={0: ["Pickpocket"]})
    game.refuse(0, {"type": "win", "cause": game.card("Pickpocket")}, "effect_not_allowed")


def test_the_confirmed_effect_is_what_counts():
    game = table()
    game.arrange(hands={0: ["Sure Thing"]})
    # "You win": not another player.
    game.refuse(0, {"type": "win", "cause": game.card("Sure Thing"), "seats": [1]}, "effect_not_allowed")
    game.send(0, {"type": "win", "cause": game.card("Sure Thing")})
    assert game.state.winners == (0,)


# --- effect moves ------------------------------------------------------------------------------------------


def test_an_effect_move_must_be_one_the_cited_card_allows():
    game = table()
    game.arrange(hands={0: ["Sleight", "Fumble", "Moonbeam"], 1: ["Ministry of Magic"]})
    pickpocket, butterfingers = game.card("Sleight"), game.card("Fumble")
    game.refuse(0, {"type": "discard", "cards": [game.card("Moonbeam")], "cause": pickpocket}, "effect_not_allowed")
    game.send(0, {"type": "discard", "cards": [game.card("Moonbeam")], "cause": butterfingers})
    assert "Moonbeam" in game.discard_pile()
    game.refuse(0, {"type": "take_random", "cause": butterfingers, "from": 1}, "effect_not_allowed")
    game.send(0, {"type": "take_random", "cause": pickpocket, "from": 1})
    assert "Ministry of Magic" in game.hand(0)


def test_set_rule_citing_a_card_with_no_rule_effect_is_refused():
    game = table()
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "draw"})
    game.arrange(hands={seat: ["Butterfingers"]}, in_play={seat: ["Greedy Goblin"]}, turn=seat)
    game.send(seat, {"type": "play", "card": game.card("Butterfingers")})
    # Its text speaks of the hand, but what it does is discard.
    game.refuse(seat, {"type": "set_rule", "cause": game.card("Butterfingers"), "param": "hand_limit", "value": 9},
                "effect_not_allowed")
    game.send(seat, {"type": "set_rule", "cause": game.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                     "seat": seat})
    assert game.state.table.modifiers[-1].value == 7


# --- claims ------------------------------------------------------------------------------------------------


def test_a_claim_shows_the_cited_card_to_all_but_not_the_id_of_a_card_in_a_hand():
    game = table()
    game.arrange(hands={0: ["Moonbeam"]})
    events = game.send(0, {"type": "win", "cause": game.card("Moonbeam")})
    assert [e.type for e in events] == ["claim.opened"]
    seen = view_event(events[0], 1, None, game.state)
    assert seen["card"]["title"] == "Moonbeam" and "cause" not in seen
    assert game.card("Moonbeam") not in str(seen) and game.card("Moonbeam") not in str(view_state(game.state, 2))
    claim = view_state(game.state, 2)["claims"][0]
    assert claim["card"]["title"] == "Moonbeam" and "cause" not in claim and claim["stage"] == "claim"
    assert view_state(game.state, 0)["claims"][0]["cause"] == game.card("Moonbeam")


def test_a_claim_waits_for_the_others_to_accept_then_its_move_takes_effect():
    game = table()
    events = game.send(0, {"type": "win", "cause": "2"})
    assert [e.type for e in events] == ["claim.opened"]
    assert events[0].data["card"] == {"title": "Prophecy", "text": PROPHECY["text"]}
    assert game.state.status == VOTING and game.state.winners == ()
    assert legal_moves(game.state, 1) == [{"type": "accept", "claim": 1}, {"type": "dispute", "claim": 1}]
    assert legal_moves(game.state, 0) == []
    game.refuse(0, {"type": "accept", "claim": 1}, "denied")  # not the claimant's to answer
    game.refuse(1, {"type": "accept", "claim": 2}, "not_found")
    game.refuse(1, {"type": "draw"}, "vote_in_progress")
    # A snapshot of the state keeps the open claim and the fixed effects.
    assert state_from_json(state_to_json(game.state)) == game.state
    game.send(1, {"type": "accept", "claim": 1})
    assert game.state.status == VOTING and legal_moves(game.state, 1) == []
    events = game.send(2, {"type": "accept", "claim": 1})
    assert [e.type for e in events] == ["claim.answered", "claim.resolved", "game.won"]
    assert game.state.status == FINISHED and game.state.winners == (0,)
    assert replay(game.events) == game.state


def test_a_disputed_claim_voted_down_leaves_the_game_going():
    game = table()
    turn = game.state.table.turn
    game.send(0, {"type": "win", "cause": "2"})
    events = game.send(1, {"type": "dispute", "claim": 1})
    # Under unanimity, the disputer's vote against ends it at once.
    assert [e.type for e in events][-1] == "claim.resolved" and events[-1].data["status"] == "rejected"
    assert game.state.status == ACTIVE and game.state.winners == () and game.state.table.turn == turn
    assert view_state(game.state, 1)["claims"][0]["status"] == "rejected"
    game.send(turn.seat, {"type": "draw"})
    assert replay(game.events) == game.state


def test_a_disputed_claim_goes_to_a_majority_vote():
    game = Table(players=3, deck=effects_deck(), options={"unread_effects": "claim", "vote_rule": "majority"}).start()
    game.send(0, {"type": "win", "cause": "2"})
    game.send(1, {"type": "dispute", "claim": 1})
    assert legal_moves(game.state, 2) == [{"type": "vote", "claim": 1, "approve": True},
                                          {"type": "vote", "claim": 1, "approve": False}]
    game.refuse(2, {"type": "accept", "claim": 1}, "denied")
    events = game.send(2, {"type": "vote", "claim": 1, "approve": True})
    assert [e.type for e in events] == ["claim.voted", "claim.resolved", "game.won"]
    assert game.state.winners == (0,)
    assert replay(game.events) == game.state


def test_vote_mode_puts_the_claim_to_the_vote_at_once_and_its_move_takes_effect_if_passed():
    game = table("vote")
    card = game.state.table.player(0).hand[0]
    events = game.send(0, {"type": "discard", "cards": [card], "cause": "2"})
    assert [e.type for e in events] == ["claim.opened", "claim.voted"]
    assert card in game.state.table.player(0).hand
    game.send(1, {"type": "vote", "claim": 1, "approve": True})
    events = game.send(2, {"type": "vote", "claim": 1, "approve": True})
    assert [e.type for e in events] == ["claim.voted", "claim.resolved", "cards.discarded"]
    assert card in game.state.table.discard_pile and game.state.status == ACTIVE
    assert replay(game.events) == game.state


# --- carried out by the server ----------------------------------------------------------------------------


def test_an_understood_action_draws_and_counts_for_its_player_when_played():
    game = table()
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "draw"})
    game.arrange(hands={seat: ["Windfall", "Tax Refund"]}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Windfall")})
    assert [e.type for e in events] == ["card.played", "card.drawn", "card.drawn"]
    assert len(game.hand(seat)) == 3
    # The others see that cards were drawn, not which.
    assert "card" not in view_event(events[1], (seat + 1) % 3, game.state, game.state)
    game.arrange(turn=seat)  # a new turn's play stage: its Action not yet played
    events = game.send(seat, {"type": "play", "card": game.card("Tax Refund")})
    assert [e.type for e in events] == ["card.played", "counter.changed"]
    assert game.state.table.player(seat).counters["gold"] == 2


def test_under_trust_the_players_carry_out_every_effect_as_before():
    game = table("trust")
    seat = game.state.table.turn.seat
    game.send(seat, {"type": "draw"})
    game.arrange(hands={seat: ["Windfall"]}, turn=seat)
    events = game.send(seat, {"type": "play", "card": game.card("Windfall")})
    assert [e.type for e in events] == ["card.played"]


@pytest.mark.parametrize("mode", [None, "trust", "claim", "vote"])
def test_a_special_rule_that_sets_a_rule_parameter_takes_effect_as_its_parameters_in_every_mode(mode):
    """Special Rules "are additions or alterations to the basic Dvorak rules, and are in effect throughout the
    game": the rulebook's own example, "Hand size is three instead of five.", here made seven."""
    deck = effects_deck()
    deck["special_rules"].append({"id": "3", "title": "Big Hands", "text": "Hand size is seven instead of five."})
    game = Table(players=2, deck=deck, options={} if mode is None else {"unread_effects": mode}).start()
    assert view_state(game.state, 0)["rules"]["hand_limit"] == 7
    assert game.events[0].data["special_rules"][-1]["params"] == {"hand_limit": 7}
    assert view_state(game.state, 0)["unenforced"] == []


# --- trust: as before ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", [None, "trust"])
def test_trust_takes_every_citation_as_before(mode):
    game = table(mode)
    game.arrange(hands={0: ["Moonbeam", "Pickpocket"]})
    game.send(0, {"type": "discard", "cards": [game.card("Moonbeam")], "cause": game.card("Pickpocket")})
    game.send(1, {"type": "win", "cause": "1"})
    assert game.state.winners == (1,)


def test_a_game_created_before_effects_were_fixed_takes_every_citation_on_trust():
    game = table()
    game.events[0].data.pop("effects")
    old = replay(game.events)
    assert old.table.effects is None
    game.state = old
    game.send(1, {"type": "win", "cause": "1"})
    assert game.state.winners == (1,)


def creative_claims(players: int = 2) -> Table:
    return Table(players=players, deck=effects_deck(), options={"unread_effects": "claim"}, creative=True).start()


def voted_in(game: Table, **proposal) -> None:
    game.send(game.state.table.turn.seat, {"type": "propose", **proposal})
    number = len(game.state.table.proposals)
    for seat in voting_seats(game.state, game.state.table.proposals[number - 1]):
        if game.state.table.proposals[number - 1].status == "open":
            game.send(seat, {"type": "vote", "proposal": number, "approve": True})
    assert game.state.table.proposals[number - 1].status == "accepted"


def test_a_card_voted_in_with_its_effect_is_understood_by_that_effect():
    game = creative_claims()
    voted_in(game, kind="card", card={"title": "Shed", "type": "Action", "text": "Lighten your load.",
                                      "effect": [{"kind": "discard", "who": "you", "count": 1},
                                                 {"kind": "skip", "step": "turn"}]})
    game.arrange(hands={0: ["Moonbeam", "Shed"], 1: ["Ministry of Magic"]})  # (arranged: no replay to compare)
    shed = game.card("Shed")
    events = game.send(0, {"type": "discard", "cards": [game.card("Moonbeam")], "cause": shed})
    assert "claim.opened" not in [e.type for e in events] and "Moonbeam" in game.discard_pile()
    game.refuse(0, {"type": "take_random", "cause": shed, "from": 1}, "effect_not_allowed")


def test_a_special_rule_amended_in_words_only_is_no_longer_understood_by_its_old_reading():
    game = creative_claims()
    game.refuse(0, {"type": "win", "cause": "1"}, "win_condition_not_met")  # Victory, read at creation
    voted_in(game, kind="amend_rule", rule="1",
             changes={"text": "If a player controls two or more Ministries, they win the game."})
    events = game.send(0, {"type": "win", "cause": "1"})
    assert [e.type for e in events] == ["claim.opened"]  # put to the table, not judged by the old words
    assert replay(game.events) == game.state
