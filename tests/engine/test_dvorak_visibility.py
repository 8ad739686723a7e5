"""What the ``dvorak`` ruleset's state declares to each viewer (``dvorak_engine.visibility``): a hand only to its
holder, a draw pile only as a count, the cards by the ids a viewer is shown, the server's own bookkeeping to nobody.
A declaration that showed a secret fails here, through the view and through the state as a viewer sees it."""

from __future__ import annotations

import json
from dataclasses import fields, replace

import pytest

from dvorak_engine import view_state, visibility
from dvorak_engine.rulesets.dvorak.state import (
    Claim,
    DvorakState,
    Modifier,
    Player,
    Proposal,
    SpecialRule,
    Turn,
)
from dvorak_engine.visibility import Counted, Hidden, seen

from .conftest import Table
from .test_variants_multi_deck import multi_deck_table

PUBLIC, OWNER, COUNT, LOOKUP = visibility.PUBLIC, visibility.OWNER, visibility.COUNT, visibility.LOOKUP

# Every field of the ruleset's state and how it is declared: a field added, or a declaration changed, must be
# looked at here (a new field is hidden until declared; one that holds secrets must not become public).
DECLARED = {
    DvorakState: {
        "variant": PUBLIC, "creative": PUBLIC, "deck": PUBLIC, "cards": LOOKUP, "special_rules": PUBLIC,
        "base_rules": PUBLIC, "players": PUBLIC, "turn": PUBLIC, "turn_number": PUBLIC, "draw_pile": COUNT,
        "discard_pile": PUBLIC, "attached_to": PUBLIC, "modifiers": PUBLIC, "blank_cards": PUBLIC,
        "proposals": PUBLIC, "rejected": PUBLIC, "owners": None, "deck_cards": None, "effects": None,
        "claims": PUBLIC,
        "reading": PUBLIC,
        "agreed_to_abandon": PUBLIC,
    },
    Player: {"seat": PUBLIC, "hand": OWNER, "in_play": PUBLIC, "counters": PUBLIC, "draw_pile": COUNT,
             "discard_pile": PUBLIC, "deck": PUBLIC},
    Turn: {"seat": PUBLIC, "stage": PUBLIC, "things_played": PUBLIC, "actions_played": PUBLIC, "played": None},
    SpecialRule: {"id": PUBLIC, "title": PUBLIC, "text": PUBLIC, "params": PUBLIC, "effect": PUBLIC},
    Modifier: {name: PUBLIC for name in ("source", "param", "value", "seat", "card", "deny", "order", "by", "until",
                                         "ends_at_turn")},
    Proposal: {"number": PUBLIC, "kind": PUBLIC, "author": PUBLIC, "during": None, "status": PUBLIC,
               "votes": PUBLIC, "cards": PUBLIC, "target": PUBLIC, "original": PUBLIC, "changes": PUBLIC,
               "rule": PUBLIC},
    Claim: {"number": PUBLIC, "seat": PUBLIC, "move": PUBLIC, "cause": PUBLIC, "card": PUBLIC, "stage": PUBLIC,
            "during": None, "status": PUBLIC, "answers": PUBLIC, "votes": PUBLIC},
}


def declared(kind: type) -> dict[str, str | None]:
    return {field.name: visibility.visibility_of(field) for field in fields(kind)}


@pytest.mark.parametrize("kind", list(DECLARED), ids=lambda kind: kind.__name__)
def test_every_field_is_declared_as_listed_and_no_secret_is_public(kind):
    assert declared(kind) == DECLARED[kind]


def test_hands_draw_piles_the_cards_and_what_is_keyed_by_card_ids_are_never_public():
    player, table = declared(Player), declared(DvorakState)
    assert player["hand"] == OWNER and player["draw_pile"] == COUNT
    assert table["draw_pile"] == COUNT and table["cards"] == LOOKUP
    # Keyed by (or listing) card ids in hidden zones: the server's alone.
    assert table["owners"] is None and table["deck_cards"] is None and table["effects"] is None
    assert declared(Turn)["played"] is None


def secret_ids(state, viewer: int | None) -> set[str]:
    """The card ids ``viewer`` may not see: every other hand, and every draw pile."""
    table = state.table
    hidden = set(table.draw_pile)
    for player in table.players:
        hidden.update(player.draw_pile)
        if player.seat != viewer:
            hidden.update(player.hand)
    return hidden


@pytest.mark.parametrize("make", [lambda: Table(players=3).start(), lambda: multi_deck_table(players=3)],
                         ids=["standard", "multi_deck"])
def test_a_seat_sees_its_own_hand_and_no_other_hand_or_draw_pile_mid_game(make):
    table = make()
    table.send(table.state.table.turn.seat, {"type": "draw"})  # the game goes on: a card drawn
    state = table.state
    assert secret_ids(state, None)
    for viewer in (0, 1, 2, None):
        view = view_state(state, viewer)
        text = json.dumps(view)
        assert not [card for card in secret_ids(state, viewer) if card in text]
        assert view["draw_pile"] == {"count": len(state.table.draw_pile)
                                     + sum(len(p.draw_pile) for p in state.table.players)}
        for shown in view["players"]:
            player = state.table.player(shown["seat"])
            assert shown["hand_count"] == len(player.hand) > 0
            if state.table.has_own_decks:
                assert shown["draw_pile"] == {"count": len(player.draw_pile)}
            if shown["seat"] == viewer:
                assert [card["id"] for card in shown["hand"]] == list(player.hand)
            else:
                assert "hand" not in shown


def test_a_view_does_not_change_when_a_secret_it_may_not_see_does():
    """Swap a card of seat 0's hand with one of the draw pile: only seat 0 can tell."""
    table = Table(players=3).start()
    state = table.state
    zero, pile = state.table.player(0), state.table.draw_pile
    swapped = state.with_table(
        players=(replace(zero, hand=(pile[-1], *zero.hand[1:])), *state.table.players[1:]),
        draw_pile=(*pile[:-1], zero.hand[0]),
    )
    for viewer in (1, 2, None):
        assert view_state(swapped, viewer) == view_state(state, viewer)
    assert view_state(swapped, 0) != view_state(state, 0)


def test_the_state_as_a_seat_sees_it_refuses_another_hand_and_any_draw_pile_or_card_list():
    table = multi_deck_table(players=3)
    state = table.state
    mine = seen(state, 1).table
    assert mine.players[1].hand == state.table.player(1).hand
    for other in (0, 2):
        with pytest.raises(Hidden):
            mine.players[other].hand  # noqa: B018
        assert mine.players[other].hand_count() == len(state.table.player(other).hand)
        assert mine.players[other].draw_pile == Counted(len(state.table.player(other).draw_pile))
    assert mine.draw_pile == Counted(0)
    with pytest.raises(TypeError):
        list(mine.cards)
    for undeclared in ("owners", "deck_cards", "effects"):
        with pytest.raises(Hidden):
            getattr(mine, undeclared)
    with pytest.raises(Hidden):
        mine.turn.played  # noqa: B018
    for player in seen(state, None).table.players:
        with pytest.raises(Hidden):
            player.hand  # noqa: B018
    assert seen(state, 1).table.players[1].shows("hand") and not seen(state, 1).table.players[0].shows("hand")
