"""The Creative Rules of the ``dvorak`` ruleset, one test per rule, played with the rulebook's example cards."""

from __future__ import annotations

import json

from dvorak_engine import legal_moves, replay, view_event, view_state
from dvorak_engine.rulesets.dvorak.aftermath import deck_after_game
from dvorak_engine.rulesets.dvorak.creative import voting_seats
from dvorak_engine.rulesets.dvorak.state import locate

from .conftest import Table, rulebook_deck

ARMAGEDDON = {"title": "Armageddon", "type": "Action", "text": "Destroy all Things."}


def creative_table(players: int = 3, *, deck: dict | None = None, options: dict | None = None) -> Table:
    return Table(players=players, deck=deck, options=options, creative=True).start()


def propose(table: Table, seat: int, **proposal) -> int:
    table.send(seat, {"type": "propose", **proposal})
    return len(table.state.table.proposals)


def everyone_votes(table: Table, number: int, approve: bool = True) -> None:
    """Every player who votes on it: by default, everyone but its author."""
    for seat in voting_seats(table.state, table.state.table.proposals[number - 1]):
        if table.state.table.proposals[number - 1].status != "open":
            return
        table.send(seat, {"type": "vote", "proposal": number, "approve": approve})


def proposal(table: Table, number: int, viewer: int | None = None) -> dict:
    return view_state(table.state, viewer)["proposals"][number - 1]


# --- Blank Cards -------------------------------------------------------------------------------------------------


def test_blank_cards_a_new_card_uses_one_from_the_blank_card_pile():
    table = creative_table(options={"blank_cards": 3})
    assert view_state(table.state, 0)["blank_cards"] == 3
    propose(table, 0, kind="card", card=ARMAGEDDON)
    assert view_state(table.state, 1)["blank_cards"] == 2


def test_blank_cards_when_the_pile_runs_out_no_new_cards_may_be_created():
    table = creative_table(options={"blank_cards": 1})
    table.refuse(0, {"type": "propose", "kind": "bundle", "cards": [ARMAGEDDON, ARMAGEDDON]}, "limit_reached")
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    everyone_votes(table, number)
    table.refuse(1, {"type": "propose", "kind": "card", "card": ARMAGEDDON}, "limit_reached")


# --- Starting the Creative Game ------------------------------------------------------------------------------


def test_starting_the_creative_game_needs_five_cards_per_player_in_the_draw_pile():
    table = Table(players=2, deck={"slug": "new", "title": "New", "cards": []}, creative=True,
                  options={"min_cards_per_player": 2})
    table.refuse(0, {"type": "start"}, "not_enough_cards")
    titles = ["Lightning Strike", "Head", "Body"]
    for title in titles:
        everyone_votes(table, propose(table, 1, kind="card", card={"title": title, "type": "Thing", "text": ""}))
    number = propose(table, 0, kind="card", card={"title": "Rejected", "type": "Thing", "text": ""})
    everyone_votes(table, number, approve=False)
    table.refuse(0, {"type": "start"}, "not_enough_cards")  # a rejected card is not in the deck
    everyone_votes(table, propose(table, 0, kind="card", card={"title": "Arm", "type": "Thing", "text": ""}))
    table.start()
    dealt = [title for seat in (0, 1) for title in table.hand(seat)]
    assert sorted(dealt + table.titles(table.state.table.draw_pile)) == sorted([*titles, "Arm"])
    assert table.state.status == "active"


def test_starting_the_creative_game_the_default_is_five_per_player():
    table = Table(players=2, deck=rulebook_deck(), creative=True)
    assert len(table.state.table.cards) >= 10
    table.start()
    small = Table(players=3, deck={"slug": "s", "title": "S", "cards": [ARMAGEDDON] * 14}, creative=True)
    small.refuse(0, {"type": "start"}, "not_enough_cards")


def test_only_a_creative_game_takes_proposals():
    table = Table(players=2).start()
    table.refuse(0, {"type": "propose", "kind": "card", "card": ARMAGEDDON}, "denied")


# --- Creating a Card ---------------------------------------------------------------------------------------------


def test_creating_a_card_any_player_may_propose_at_any_time_even_out_of_turn():
    table = creative_table()
    outsider = next(seat for seat in range(3) if seat != table.state.table.turn.seat)
    number = propose(table, outsider, kind="card", card=ARMAGEDDON)
    shown = proposal(table, number, viewer=None)
    assert shown["kind"] == "card" and shown["author"] == outsider and shown["status"] == "open"
    assert shown["card"]["title"] == "Armageddon" and shown["card"]["creator"] == f"player{outsider}"


def test_creating_a_card_the_game_stops_while_players_decide():
    table = creative_table()
    seat = table.state.table.turn.seat
    propose(table, seat, kind="card", card=ARMAGEDDON)
    assert view_state(table.state, seat)["status"] == "voting"
    table.refuse(seat, {"type": "draw"}, "vote_in_progress")
    table.refuse(seat, {"type": "concede"}, "vote_in_progress")
    table.refuse(seat, {"type": "propose", "kind": "card", "card": ARMAGEDDON}, "vote_in_progress")
    other = (seat + 1) % 3
    table.send(other, {"type": "vote", "proposal": 1, "approve": True})
    table.refuse(other, {"type": "vote", "proposal": 1, "approve": True}, "denied")  # one vote each


def test_creating_a_card_if_every_player_is_in_favour_it_is_shuffled_into_the_draw_pile():
    table = creative_table()
    before = len(table.state.table.draw_pile)
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    everyone_votes(table, number)
    assert proposal(table, number)["status"] == "accepted"
    assert table.where("Armageddon") == "draw_pile" and len(table.state.table.draw_pile) == before + 1
    assert table.state.status == "active"
    # Its position is secret: nobody's view of the vote shows the new order of the draw pile.
    resolved = table.events[-1]
    assert resolved.type == "proposal.resolved"
    for viewer in (None, 0, 1, 2):
        assert view_event(resolved, viewer, table.state, table.state)["draw_pile"] == {"count": before + 1}
        assert table.card("Armageddon") not in json.dumps(view_state(table.state, viewer))


def test_creating_a_card_the_position_in_the_draw_pile_is_random():
    positions = set()
    for seed in range(12):
        table = Table(players=2, seed=seed, creative=True).start()
        everyone_votes(table, propose(table, 0, kind="card", card=ARMAGEDDON))
        positions.add(table.state.table.draw_pile.index(table.card("Armageddon")))
    assert len(positions) > 3


def test_creating_a_card_if_any_player_is_against_it_it_is_rejected_and_set_aside():
    table = creative_table()
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    table.send(1, {"type": "vote", "proposal": number, "approve": False})
    assert proposal(table, number)["status"] == "rejected"
    assert locate(table.state, table.card("Armageddon")) is None  # in no zone of the game
    for viewer in (None, 2):
        assert [c["title"] for c in view_state(table.state, viewer)["rejected"]] == ["Armageddon"]
    assert table.state.status == "active"


def test_creating_a_card_a_rejected_card_can_be_reproposed_verbatim():
    table = creative_table(options={"blank_cards": 1})
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    table.send(2, {"type": "vote", "proposal": number, "approve": False})
    card_id = table.card("Armageddon")
    again = propose(table, 2, kind="card", from_rejected=card_id)  # no blank card is needed for it
    assert view_state(table.state, 1)["rejected"] == []
    everyone_votes(table, again)
    assert table.where("Armageddon") == "draw_pile" and table.state.table.blank_cards == 0


def test_creating_a_card_the_proposer_may_withdraw_it():
    table = creative_table()
    number = propose(table, 1, kind="card", card=ARMAGEDDON)
    table.refuse(0, {"type": "withdraw", "proposal": number}, "forbidden")
    table.send(1, {"type": "withdraw", "proposal": number})
    assert proposal(table, number)["status"] == "withdrawn"
    assert table.state.status == "active"
    assert table.titles(table.state.table.rejected) == ["Armageddon"]


def test_creating_a_card_several_cards_can_be_proposed_together_under_one_vote():
    table = creative_table()
    egg = {"title": "Xenomorph Egg", "type": "Thing", "text": ""}
    flamethrower = {"title": "Flamethrower", "type": "Action", "text": "Four damage."}
    number = propose(table, 0, kind="bundle", cards=[egg, egg, flamethrower])
    assert [c["title"] for c in proposal(table, number)["cards"]] == ["Xenomorph Egg", "Xenomorph Egg",
                                                                     "Flamethrower"]
    everyone_votes(table, number)
    in_draw_pile = table.titles(table.state.table.draw_pile)
    assert in_draw_pile.count("Xenomorph Egg") == 2 and in_draw_pile.count("Flamethrower") == 1


def test_creating_a_card_a_malformed_card_is_refused():
    table = creative_table()
    for card in ({"title": "", "type": "Thing"}, {"title": "X", "type": "Spell"}, {"title": "X"}, "Armageddon",
                 {"title": "X", "type": "Thing", "power": 9}, {"title": "X" * 300, "type": "Thing"}):
        table.refuse(0, {"type": "propose", "kind": "card", "card": card}, "invalid")
    table.refuse(0, {"type": "propose", "kind": "nonsense"}, "invalid")
    table.refuse(0, {"type": "propose", "kind": "bundle", "cards": []}, "invalid")


# --- Amending and Repealing Cards ------------------------------------------------------------------------------


def test_amending_an_accepted_amendment_returns_the_card_to_its_previous_position():
    table = creative_table()
    table.arrange(in_play={1: ["Reykjavik", "Frenzy"]}, discard_pile=["Espionage", "Secret Identity"],
                  hands={2: ["Cardboard Box", "Doomsday Device"]})
    for seat, title in ((0, "Frenzy"), (0, "Espionage"), (2, "Cardboard Box")):
        card_id = table.card(title)
        number = propose(table, seat, kind="amend", card=card_id, changes={"text": f"{title}, amended."})
        everyone_votes(table, number)
        assert table.state.table.cards[card_id].text == f"{title}, amended." and table.title(card_id) == title
    assert table.in_play(1) == ["Reykjavik", "Frenzy"]
    assert table.discard_pile() == ["Espionage", "Secret Identity"]
    assert table.hand(2) == ["Cardboard Box", "Doomsday Device"]


def test_amending_a_rejected_amendment_changes_nothing():
    table = creative_table()
    table.arrange(in_play={1: ["Reykjavik"]})
    number = propose(table, 0, kind="amend", card=table.card("Reykjavik"), changes={"title": "Oslo"})
    table.send(1, {"type": "vote", "proposal": number, "approve": False})
    assert table.in_play(1) == ["Reykjavik"] and view_state(table.state, 0)["rejected"] == []


def test_amending_or_repealing_only_cards_in_play_in_the_discard_pile_or_in_your_own_hand():
    table = creative_table()
    table.arrange(hands={1: ["Espionage"]}, draw_pile=["Reykjavik"])
    for hidden in ("Espionage", "Reykjavik"):
        for kind in ("amend", "repeal"):
            refused = table.refuse(0, {"type": "propose", "kind": kind, "card": table.card(hidden),
                                       "changes": {"text": "x"}}, "not_found")
            # The same answer as for a card that does not exist: it does not say where the card is.
            assert refused.message == table.refuse(0, {"type": "propose", "kind": kind, "card": "nope",
                                                       "changes": {"text": "x"}}, "not_found").message


def test_amending_any_card_is_allowed_by_the_amend_any_card_option():
    table = creative_table(options={"amend_any_card": True})
    table.arrange(hands={1: ["Espionage"]}, draw_pile=["Reykjavik"])
    number = propose(table, 0, kind="amend", card=table.card("Reykjavik"), changes={"text": "Cold."})
    everyone_votes(table, number)
    assert table.state.table.cards[table.card("Reykjavik")].text == "Cold."
    assert table.where("Reykjavik") == "draw_pile"


def test_with_amend_any_card_a_hidden_card_is_named_by_its_title_and_its_id_stays_hidden():
    table = creative_table(options={"amend_any_card": True})
    table.arrange(hands={1: ["Espionage"]}, draw_pile=["Reykjavik"])
    number = propose(table, 0, kind="repeal", title="Reykjavik")
    hidden = table.card("Reykjavik")
    assert hidden not in json.dumps(view_state(table.state, 0))
    everyone_votes(table, number)
    assert hidden not in table.state.table.cards
    table.refuse(0, {"type": "propose", "kind": "repeal", "title": "No Such Card"}, "not_found")


def test_naming_a_card_by_title_needs_the_amend_any_card_option():
    table = creative_table()
    table.arrange(draw_pile=["Reykjavik"])
    table.refuse(0, {"type": "propose", "kind": "repeal", "title": "Reykjavik"}, "not_found")


def test_amending_a_card_from_your_hand_shows_its_text_to_all_but_never_where_another_card_is():
    table = creative_table()
    table.arrange(hands={0: ["Espionage", "Frenzy"]})
    card_id, other = table.card("Espionage"), table.card("Frenzy")
    number = propose(table, 0, kind="amend", card=card_id, changes={"text": "Take two random cards."})
    event = table.events[-1]
    for viewer in (None, 1, 2):
        seen = proposal(table, number, viewer)
        assert seen["card"]["title"] == "Espionage" and seen["changes"] == {"text": "Take two random cards."}
        shown = json.dumps([view_state(table.state, viewer), view_event(event, viewer, table.state, table.state)])
        assert card_id not in shown and other not in shown and "Frenzy" not in shown
    assert proposal(table, number, 0)["card"]["id"] == card_id


def test_repealing_a_card_removes_it_from_the_game_entirely():
    for zone in ("in_play", "discard_pile", "hand"):
        table = creative_table()
        table.arrange(in_play={0: ["Reykjavik"]}, discard_pile=["Espionage"], hands={0: ["Frenzy"]})
        title = {"in_play": "Reykjavik", "discard_pile": "Espionage", "hand": "Frenzy"}[zone]
        card_id = table.card(title)
        everyone_votes(table, propose(table, 0, kind="repeal", card=card_id))
        assert locate(table.state, card_id) is None and card_id not in table.state.table.cards
        assert card_id not in table.state.table.rejected
        for viewer in (None, 0, 1):
            assert f'"{title}"' in json.dumps(proposal(table, 1, viewer))  # what was repealed stays on record
            assert card_id not in json.dumps(view_state(table.state, viewer))


def test_repealing_a_thing_takes_the_things_played_onto_it_to_the_discard_pile_and_ends_its_effects():
    table = creative_table()
    table.arrange(in_play={0: ["Greedy Goblin", "Flak Armour"]})
    table.state = table.state.with_table(attached_to={table.card("Flak Armour"): table.card("Greedy Goblin")})
    table.send(0, {"type": "set_rule", "cause": table.card("Greedy Goblin"), "param": "hand_limit", "value": 7,
                   "until": "ended"})
    everyone_votes(table, propose(table, 1, kind="repeal", card=table.card("Greedy Goblin")))
    assert table.discard_pile() == ["Flak Armour"] and table.in_play(0) == []
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 5


# --- Creative Special Rules --------------------------------------------------------------------------------------


def gold_rule() -> dict:
    return {"title": "Gold", "text": "Each player has an amount of Gold, which starts at zero.",
            "params": {"counters": {"gold": 0}}}


def test_creative_special_rules_take_effect_immediately_if_accepted():
    table = creative_table()
    number = propose(table, 2, kind="special_rule",
                     rule={"title": "Small hands", "text": "Hand size is three instead of five.",
                           "params": {"hand_limit": 3}})
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 5
    everyone_votes(table, number)
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 3
    assert [r["title"] for r in view_state(table.state, 1)["special_rules"]] == ["Small hands"]
    everyone_votes(table, propose(table, 0, kind="special_rule", rule=gold_rule()))
    assert all(p.counters["gold"] == 0 for p in table.state.table.players)


def test_creative_special_rules_can_be_amended_and_repealed_like_a_card_in_play():
    table = creative_table()
    everyone_votes(table, propose(table, 2, kind="special_rule",
                                  rule={"title": "Small hands", "text": "Hand size is three.",
                                        "params": {"hand_limit": 3}}))
    rule_id = table.state.table.special_rules[0].id
    everyone_votes(table, propose(table, 0, kind="amend_rule", rule=rule_id,
                                  changes={"text": "Hand size is four.", "params": {"hand_limit": 4}}))
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 4
    assert view_state(table.state, 0)["special_rules"][0]["text"] == "Hand size is four."
    everyone_votes(table, propose(table, 1, kind="repeal_rule", rule=rule_id))
    assert view_state(table.state, 0)["rules"]["hand_limit"] == 5 and table.state.table.special_rules == ()
    table.refuse(1, {"type": "propose", "kind": "repeal_rule", "rule": rule_id}, "not_found")


def test_creative_special_rules_accepted_before_the_start_take_effect_once():
    table = Table(players=2, creative=True)
    everyone_votes(table, propose(table, 0, kind="special_rule",
                                  rule={"title": "Big hands", "text": "Start with six.",
                                        "params": {"starting_hand": 6}}))
    table.start()
    assert len(table.hand(0)) == 6 and len(table.state.table.modifiers) == 1


# --- Voting about voting ----------------------------------------------------------------------------------------


def test_voting_about_voting_a_special_rule_changes_the_vote_rule():
    table = creative_table(players=4)
    assert view_state(table.state, 0)["rules"]["vote_rule"] == "unanimity"
    everyone_votes(table, propose(table, 0, kind="special_rule",
                                  rule={"title": "Democracy", "text": "A majority passes a proposal.",
                                        "params": {"vote_rule": "majority"}}))
    assert view_state(table.state, 1)["rules"]["vote_rule"] == "majority"
    number = propose(table, 3, kind="card", card=ARMAGEDDON)  # its author does not vote: three voters
    table.send(1, {"type": "vote", "proposal": number, "approve": False})
    assert proposal(table, number)["status"] == "open"  # one against no longer rejects
    table.send(0, {"type": "vote", "proposal": number, "approve": True})
    table.send(2, {"type": "vote", "proposal": number, "approve": True})
    assert proposal(table, number)["status"] == "accepted"
    assert proposal(table, number)["votes"] == {"0": True, "1": False, "2": True}


def test_voting_about_voting_a_veto_can_cost_gold():
    table = creative_table()
    everyone_votes(table, propose(table, 0, kind="special_rule", rule=gold_rule()))
    everyone_votes(table, propose(table, 0, kind="special_rule",
                                  rule={"title": "Costly veto", "text": "A vote against costs one Gold.",
                                        "params": {"vote_rule": {"pass": "unanimity",
                                                                 "veto_cost": {"counter": "gold", "amount": 1}}}}))
    gold = table.state.table.special_rules[0].id
    table.send(0, {"type": "counter", "cause": gold, "seat": 1, "name": "gold", "delta": 1})
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    table.refuse(2, {"type": "vote", "proposal": number, "approve": False}, "limit_reached")  # no Gold, no veto
    table.send(1, {"type": "vote", "proposal": number, "approve": False})
    assert table.state.table.player(1).counters["gold"] == 0
    assert proposal(table, number)["status"] == "rejected"


def test_voting_about_voting_a_dictator_alone_decides():
    table = creative_table()
    everyone_votes(table, propose(table, 2, kind="special_rule",
                                  rule={"title": "Dictator", "text": "Only player two votes.",
                                        "params": {"vote_rule": {"pass": "unanimity", "voters": [2]}}}))
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    table.refuse(0, {"type": "vote", "proposal": number, "approve": True}, "denied")
    table.send(2, {"type": "vote", "proposal": number, "approve": True})
    assert proposal(table, number)["status"] == "accepted"


def test_voting_about_voting_a_bad_vote_rule_is_refused():
    table = creative_table()
    table.refuse(0, {"type": "propose", "kind": "special_rule",
                     "rule": {"title": "Chaos", "text": "", "params": {"vote_rule": "whoever shouts"}}}, "invalid")


# --- The Aftermath -------------------------------------------------------------------------------------------


def finished_table() -> Table:
    table = creative_table()
    number = propose(table, 1, kind="card", card=ARMAGEDDON)
    table.send(0, {"type": "vote", "proposal": number, "approve": False})
    table.arrange(discard_pile=["Lightning Strike"])
    table.send(0, {"type": "win", "cause": table.card("Lightning Strike")})
    assert table.state.status == "finished"
    return table


def test_the_aftermath_rejected_cards_can_be_reviewed_and_voted_on_again():
    table = finished_table()
    table.refuse(0, {"type": "draw"}, "game_not_active")
    number = propose(table, 2, kind="card", from_rejected=table.card("Armageddon"))
    assert table.state.status == "voting"
    everyone_votes(table, number)
    assert table.state.status == "finished" and table.where("Armageddon") == "draw_pile"


def test_the_aftermath_further_amendments_can_be_made_and_the_deck_is_ready_for_the_archive():
    table = finished_table()
    everyone_votes(table, propose(table, 0, kind="amend", card=table.card("Lightning Strike"),
                                  changes={"text": "If you control a Head and a Body, you win the game."}))
    everyone_votes(table, propose(table, 2, kind="card", card={"title": "Head", "type": "Thing", "text": ""}))
    everyone_votes(table, propose(table, 2, kind="card", card={"title": "Head", "type": "Thing", "text": ""}))
    deck = deck_after_game(table.state)
    by_title = {card["title"]: card for card in deck["cards"]}
    assert by_title["Head"]["copies"] == 2 and by_title["Head"]["creator"] == "player2"
    assert by_title["Lightning Strike"]["text"] == "If you control a Head and a Body, you win the game."
    assert "Armageddon" not in by_title  # still rejected
    assert by_title["Espionage"]["creator"] == ""  # the original deck's cards keep theirs
    assert sum(card["copies"] for card in deck["cards"]) == len(table.state.table.cards) - 1
    assert deck["slug"] == rulebook_deck()["slug"] and deck["kind"] == "deck"


def test_the_aftermath_knocked_out_players_review_the_deck_and_vote_too():
    table = creative_table()
    table.arrange(turn=0, discard_pile=["Espionage", "Lightning Strike"])
    table.send(0, {"type": "eliminate", "cause": table.card("Espionage"), "seat": 2})
    # While the game is played, a player knocked out is out: the vote is the two players still in it.
    number = propose(table, 1, kind="card", card=ARMAGEDDON)
    table.refuse(2, {"type": "vote", "proposal": number, "approve": True}, "eliminated")
    assert legal_moves(table.state, 2) == []
    table.send(0, {"type": "vote", "proposal": number, "approve": False})
    table.send(0, {"type": "win", "cause": table.card("Lightning Strike")})
    assert table.state.status == "finished" and table.state.seat(2).status == "eliminated"
    # The Aftermath: the whole table reviews the deck, so the vote waits for the player knocked out.
    number = propose(table, 1, kind="card", from_rejected=table.card("Armageddon"))
    table.refuse(1, {"type": "vote", "proposal": number, "approve": True}, "denied")  # presented to the others
    table.send(0, {"type": "vote", "proposal": number, "approve": True})
    assert table.state.status == "voting"
    assert {"type": "vote", "proposal": number, "approve": False} in legal_moves(table.state, 2)
    table.send(2, {"type": "vote", "proposal": number, "approve": False})
    assert table.state.table.proposals[number - 1].status == "rejected" and table.state.status == "finished"
    table.refuse(2, {"type": "draw"}, "game_not_active")  # back at the table for the deck, not for the game


def test_replaying_a_creative_game_votes_included_gives_the_same_state():
    table = creative_table()
    everyone_votes(table, propose(table, 0, kind="special_rule", rule=gold_rule()))
    everyone_votes(table, propose(table, 1, kind="bundle", cards=[ARMAGEDDON, ARMAGEDDON]))
    number = propose(table, 2, kind="card", card={"title": "Dud", "type": "Thing", "text": ""})
    table.send(0, {"type": "vote", "proposal": number, "approve": False})
    everyone_votes(table, propose(table, 1, kind="repeal", card=table.state.table.player(1).hand[0]))
    everyone_votes(table, propose(table, 2, kind="amend", card=table.state.table.player(2).hand[0],
                                  changes={"title": "Renamed"}))
    table.send(1, {"type": "propose", "kind": "card", "card": ARMAGEDDON})
    table.send(1, {"type": "withdraw", "proposal": len(table.state.table.proposals)})
    assert [p.status for p in table.state.table.proposals] == ["accepted", "accepted", "rejected", "accepted",
                                                         "accepted", "withdrawn"]
    assert replay(table.events) == table.state


def test_a_vote_needs_an_open_proposal():
    table = creative_table()
    table.refuse(0, {"type": "vote", "proposal": 1, "approve": True}, "not_found")
    number = propose(table, 0, kind="card", card=ARMAGEDDON)
    table.refuse(0, {"type": "vote", "proposal": number, "approve": "yes"}, "invalid")
    everyone_votes(table, number)
    table.refuse(0, {"type": "vote", "proposal": number, "approve": True}, "denied")


def test_the_rng_decides_new_card_ids_and_positions_so_the_same_seed_replays_the_same_game():
    first, second = creative_table(), creative_table()
    for table in (first, second):
        everyone_votes(table, propose(table, 0, kind="card", card=ARMAGEDDON))
    assert first.state == second.state


def test_the_aftermath_of_a_multi_deck_game_is_one_deck_with_the_new_cards_not_one_per_player():
    table = Table(players=3, creative=True, variant="multi_deck").start()
    everyone_votes(table, propose(table, 1, kind="card", card={"title": "Head", "type": "Thing", "text": ""}))
    for seat in range(3):
        if table.state.seat(seat).status == "playing" and seat != 0:
            table.send(seat, {"type": "concede"})
    deck = deck_after_game(table.state)
    by_title = {card["title"]: card for card in deck["cards"]}
    original = rulebook_deck()
    assert sum(card["copies"] for card in deck["cards"]) == sum(c["copies"] for c in original["cards"]) + 1
    assert by_title["Head"]["copies"] == 1 and by_title["Head"]["creator"] == "player1"
