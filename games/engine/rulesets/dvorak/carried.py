"""What the server carries out itself of the cards it understands, when checking is on (game option
``unread_effects`` ``claim`` or ``vote``; under ``trust`` the players carry out every effect, as before).

- A Thing coming into play whose effect sets a rule parameter ("Any number of Actions may be played each turn.")
  sets it while the Thing stays in play (a ``rule.set`` lasting ``leaves_play``); for everyone, or for its
  controller when its text speaks of "your".
- A Thing played onto a Thing whose effect forbids that Thing to use its Actions ("that Thing may not use its
  Actions") denies its host ``use_actions`` while it stays in play.
- A Thing in play with a "destroyed" trigger ("If a Location is destroyed, destroy all Locations") carries out
  its destruction in the same command when a matching Thing is destroyed.
"""

from __future__ import annotations

import re
from typing import Any

from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.errors import DomainError
from dvorak_core.rule_params import checked_rule_value
from games.engine.events import Event
from games.engine.rulesets.dvorak.effects import TRUST, effect_of, effects_fixed
from games.engine.rulesets.dvorak.state import LEAVES_PLAY
from games.engine.state import GameState

YOUR = re.compile(r"\byour\b", re.IGNORECASE)


def checking(state: GameState) -> bool:
    return state.options.get("unread_effects", TRUST) != TRUST and effects_fixed(state)


def is_a(state: GameState, card_id: str, what: str | None) -> bool:
    """Whether a card is ``what``: of that card type, or with that word in its title (None: any card)."""
    if what is None:
        return True
    card = state.table.cards[card_id]
    word = what.strip().lower()
    stem = word[:-1] if word.endswith("y") else word
    title_word = re.compile(rf"\b(?:{re.escape(word)}s?|{re.escape(stem)}ies)\b", re.IGNORECASE)
    return word == "thing" or card.type.strip().lower() == word or bool(title_word.search(card.title))


def _rule_set(source: str, param: str, value: Any, *, seat: int | None = None, card: str | None = None,
              deny: bool = False) -> Event:
    return Event("rule.set", {"source": source, "param": param, "value": value, "seat": seat, "card": card,
                              "deny": deny, "by": None, "until": LEAVES_PLAY})


def into_play_events(state: GameState, card_id: str, seat: int) -> list[Event]:
    """The lasting changes of a Thing that has just come into play (``state``: with it in play)."""
    if not checking(state):
        return []
    events: list[Event] = []
    host = state.table.attached_to.get(card_id)
    for effect in effect_of(state, card_id) or ():
        items = effect.effects if isinstance(effect, L.Lasting) and effect.duration == "while_in_play" else (effect,)
        for item in items:
            if isinstance(item, L.SetRule) and item.param in state.table.base_rules and item.param != "counters":
                try:
                    value = checked_rule_value(item.param, item.value, field="value")
                except DomainError:
                    continue
                mine = bool(YOUR.search(state.table.cards[card_id].text))
                events.append(_rule_set(card_id, item.param, value, seat=seat if mine else None))
            elif isinstance(item, L.Forbid) and item.what == "use_actions" and item.cards.host and host:
                events.append(_rule_set(card_id, "use_actions", False, card=host, deny=True))
    return events


def cascade_events(state: GameState, destroyed: list[str], by: int) -> list[Event]:
    """What the Things in play whose trigger is a matching Thing destroyed carry out (``state``: before the
    destruction; the triggering Things stay in play only if they are not destroyed themselves)."""
    if not checking(state):
        return []
    gone = set(destroyed)
    events: list[Event] = []
    in_play = [c for p in state.table.players for c in p.in_play]
    for source in in_play:
        if source in gone:
            continue
        for effect in effect_of(state, source) or ():
            if not (isinstance(effect, L.When) and effect.event == "destroyed"):
                continue
            what = effect.cards.what if effect.cards is not None else None
            if not any(is_a(state, c, what) for c in destroyed):
                continue
            for item in effect.effects:
                if isinstance(item, L.Destroy) and item.cards.count is None and item.cards.zone == "play":
                    for target in in_play:
                        if target not in gone and is_a(state, target, item.cards.what):
                            gone.add(target)
                            events.append(Event("thing.destroyed", {"card": target, "by": by, "cause": source}))
    return events
