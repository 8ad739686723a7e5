"""The old Dvorak Engine's MUSH commands: a whole short creative game typed line by line."""

from __future__ import annotations

import pytest

from dvorak_engine import (
    Actor,
    DomainError,
    SeededRng,
    create_game,
    decide,
    evolve,
    replay,
    view_event,
    view_state,
)
from games import mush
from tests.engine.test_article_ii_rules import article_ii_deck

from .conftest import Table


class Mush:
    """Players typing lines: a query is answered, a command goes through the engine and is described."""

    def __init__(self, table: Table):
        self.table = table

    def type(self, seat: int | None, line: str) -> list[str]:
        result = mush.run_line(self.table.state, line, seat=seat)
        if isinstance(result, mush.Query):
            return result.lines
        events = decide(self.table.state, result.command, actor=self.table.people[seat], rng=self.table.rng)
        views = []
        for event in events:
            before = self.table.state
            self.table.state = evolve(before, event)
            self.table.events.append(event)
            views.append({"type": event.type, "data": view_event(event, seat, before, self.table.state)})
        return result.describe(views)


@pytest.fixture
def typed() -> Mush:
    table = Table(players=2, creative=True).start()
    table.arrange(hands={0: ["Espionage", "Reykjavik"], 1: ["Frenzy", "Cardboard Box"]}, discard_pile=[],
                  turn=0, stage="draw")
    return Mush(table)


def test_a_short_game_played_with_mush_lines(typed):
    table = typed.table
    assert typed.type(0, "viewhand") == ["1. Espionage (Action): Take a random card from an opponent's hand.",
                                        "2. Reykjavik (Thing)"]
    drawn = typed.type(0, "drawcard")
    assert drawn == [f"You drew {table.hand(0)[-1]}."] and len(table.hand(0)) == 3
    assert typed.type(1, "count player0") == ["player0 holds 3 cards."]
    assert typed.type(1, "count 0") == ["player0 holds 3 cards."]
    assert typed.type(0, "playcard 2") == ["You played Reykjavik."]
    assert typed.type(1, "viewplay") == ["1. Reykjavik (Thing) [player0]"]
    assert typed.type(0, "readcard play 1") == ["Reykjavik (Thing)"]
    assert typed.type(0, "newcard Armageddon/A/Destroy all Things.") == [
        "Proposal 1 is open for the vote: Armageddon (Action): Destroy all Things."]
    assert typed.type(1, "viewvote") == ["1. [open] card by player0: Armageddon (Action): Destroy all Things."]
    # The card "is presented to the other players for their immediate judgment": its author has no vote on it.
    with pytest.raises(DomainError, match="presented to the other players"):
        typed.type(0, "approve 1")
    assert typed.type(1, "approve 1") == ["You voted for proposal 1.", "Proposal 1 was accepted."]
    typed.type(1, "newcard Dud/T/")
    assert typed.type(0, "repeal 2") == ["You voted against proposal 2.", "Proposal 2 was rejected."]
    assert typed.type(None, "viewrep") == ["1. Dud (Thing)"]
    assert typed.type(0, "playcard 1") == ["You played Espionage."]
    assert typed.type(1, "viewdisc") == ["1. Espionage (Action): Take a random card from an opponent's hand."]
    assert typed.type(0, "destroy 1") == ["Reykjavik was destroyed."]
    lines = typed.type(0, "endturn")
    assert lines == ["It is player1's turn."]
    assert typed.type(1, "countdraw") == [f"The draw pile holds {len(table.state.table.draw_pile)} cards."]
    overview = typed.type(1, "viewall")
    assert overview[0] == "Game: active, player1's turn (draw)" and "vote_rule unanimity" in overview[-1]


def test_another_players_draw_is_described_without_the_card(typed):
    typed.type(0, "drawcard")
    typed.type(0, "endturn")
    result = mush.run_line(typed.table.state, "drawcard", seat=1)
    events = decide(typed.table.state, result.command, actor=typed.table.people[1], rng=typed.table.rng)
    after = evolve(typed.table.state, events[0])
    drawn_title = after.table.cards[events[0].data["card"]].title
    describe_for_0 = mush.run_line(typed.table.state, "drawcard", seat=0).describe
    lines = describe_for_0([{"type": "card.drawn", "data": view_event(events[0], 0, typed.table.state, after)}])
    assert lines == ["player1 drew a card."] and drawn_title not in " ".join(lines)


def test_givecard_is_team_dvoraks_give_to_a_team_mate_and_spends_the_action():
    table = Table(players=3, variant="team", joins=[{"team": "Red"}, {"team": "Blue"}, {"team": "Red"}]).start()
    table.arrange(hands={0: ["Espionage", "Reykjavik"]}, turn=0, stage="play")
    typed = Mush(table)

    assert typed.type(0, "givecard 2 to player2") == ["You gave Reykjavik to player2."]
    assert table.hand(2)[-1] == "Reykjavik" and table.hand(0) == ["Espionage"]
    # The gift was the turn's Action: no Action may follow it.
    with pytest.raises(DomainError) as refused:
        typed.type(0, "playcard 1")
    assert refused.value.code == "limit_reached"
    with pytest.raises(DomainError) as refused:
        typed.type(0, "givecard 1 to player1")  # player1 plays for Blue
    assert refused.value.code == "denied"


def test_givecard_outside_a_team_says_why_it_is_refused(typed):
    typed.type(0, "drawcard")
    with pytest.raises(DomainError) as refused:
        mush.run_line(typed.table.state, "givecard 1 to player1", seat=0)
    assert refused.value.code == "denied" and "team" in refused.value.message


def test_a_game_takes_the_mush_commands_its_ruleset_declares(typed):
    article_ii = create_game(ruleset="article_ii", deck=article_ii_deck(), variant="standard", creative=False,
                             max_players=2, options={}, creator=Actor(1, "ann"), rng=SeededRng(3))
    state = replay(article_ii)
    view = view_state(state, None)

    assert "drawcard" in mush.available_commands(typed.table.state, view_state(typed.table.state, 0))
    available = mush.available_commands(state, view)
    # Article II plays and ends turns, but has no draw, discard, destroy, give, proposals or votes.
    assert {"playcard", "endturn", "viewhand", "help"} <= set(available)
    assert not {"drawcard", "discard", "destroy", "givecard", "newcard", "approve"} & set(available)
    with pytest.raises(DomainError) as refused:
        mush.run_line(state, "drawcard", seat=0)
    assert refused.value.code == "mush_command_unavailable"
    assert refused.value.message.startswith("'drawcard' is not available for this ruleset")
    assert refused.value.details == {"command": "drawcard", "ruleset": "article_ii", "available": available}
    assert "drawcard" not in " ".join(mush.run_line(state, "help", seat=0).lines)


@pytest.mark.parametrize("line, code", [
    ("fly away", "unknown_command"), ("", "invalid"), ("playcard 9", "invalid"), ("playcard x", "invalid"),
    ("newcard Nameless", "invalid"), ("newcard X/Q/text", "invalid"), ("count nobody", "invalid"),
    ("givecard 1 player1", "invalid"), ("approve first", "invalid"), ("destroy 1", "invalid"),
    ("viewhand player1", "invalid"), ("viewdraw", "unknown_command"),
])
def test_a_bad_line_is_refused_with_a_helpful_message(typed, line, code):
    with pytest.raises(DomainError) as refused:
        mush.run_line(typed.table.state, line, seat=0)
    assert refused.value.code == code and refused.value.message


def test_a_spectator_may_ask_but_holds_no_hand(typed):
    assert mush.run_line(typed.table.state, "countdraw", seat=None).lines
    with pytest.raises(DomainError) as refused:
        mush.run_line(typed.table.state, "viewhand", seat=None)
    assert refused.value.code == "forbidden"


def test_help_lists_every_command(typed):
    text = " ".join(typed.type(0, "help"))
    for word in ("drawcard", "playcard", "discard", "destroy", "viewhand", "viewplay", "count", "countdraw",
                 "viewdisc", "viewvote", "viewall", "viewrep", "readcard", "givecard", "newcard", "approve",
                 "repeal", "reject", "endturn"):
        assert word in text
