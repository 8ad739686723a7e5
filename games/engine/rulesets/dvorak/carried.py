"""What the server carries out itself of the cards it understands, when checking is on (game option
``unread_effects`` ``claim`` or ``vote``; under ``trust`` the players carry out every effect, as before).

- A Thing coming into play whose effect sets a rule parameter ("Any number of Actions may be played each turn.")
  sets it while the Thing stays in play (a ``rule.set`` lasting ``leaves_play``); for everyone, or for its
  controller when its text speaks of "your".
- A Thing played onto a Thing whose effect forbids that Thing to use its Actions ("that Thing may not use its
  Actions") denies its host ``use_actions`` while it stays in play.
- An Action that takes a random card from an opponent's hand (Espionage) is played with a ``target``: the
  opponent, one of those with cards in hand (each offered as a legal move); the server takes the card.
- A Thing's "Action:" ability that destroys a Thing of a kind (Vorpal Blade) or takes a card of a kind from the
  discard pile (Graverobber) is used with a ``target``: a card that fits (each offered as a legal move); the
  server carries it out.
- A Thing played onto a kind of Thing ("Play onto a Thing - that Thing gets +2 to defence rolls": Flak Armour,
  Short Circuit) is played onto one in play (``onto``), or not at all.
- A Thing whose controller may draw when it comes into play (Cardboard Box) is played with ``"draw": true`` to
  take that draw (both plays are offered as legal moves); it is offered with the play only, so once.
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
from games.engine.rulesets.dvorak.state import LEAVES_PLAY, all_discard_piles, locate
from games.engine.state import GameState, opponents

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


def required_host(state: GameState, card_id: str) -> tuple[bool, str | None]:
    """Whether a Thing the server understands must be played onto another ("Play onto a Thing - ..."), and onto
    what kind (None: any card in play)."""
    if not checking(state):
        return False, None
    for effect in effect_of(state, card_id) or ():
        if isinstance(effect, L.PlayOnto):
            return True, effect.cards.what
    return False, None


def require_host(state: GameState, card_id: str, onto: str | None) -> None:
    """Refuse (400 ``invalid``, field ``onto``) the play of such a Thing not onto a card of its kind in play."""
    needed, what = required_host(state, card_id)
    if needed and (onto is None or not is_a(state, onto, what)):
        title = state.table.cards[card_id].title
        raise DomainError(f"{title} is played onto a {what or 'card'} in play: name it in \"onto\".",
                          code="invalid", details={"field": "onto"})


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


# --- targets chosen with the command ------------------------------------------------------------------------------


def _takes_from_an_opponent(state: GameState, card_id: str) -> bool:
    return any(isinstance(e, L.Take) and e.cards.zone == "hand" and e.cards.random
               and e.cards.owner in ("opponent", "chosen_player") for e in effect_of(state, card_id) or ())


def play_targets(state: GameState, seat: int, card_id: str) -> list[int] | None:
    """The opponents an understood Action that takes a random card from an opponent's hand may be played at
    (those with cards in hand), or None when the server does not carry out such an effect of the card."""
    if not checking(state) or not _takes_from_an_opponent(state, card_id):
        return None
    return [s for s in opponents(state, seat) if state.table.player(s).hand]


def require_play_target(state: GameState, seat: int, card_id: str, target: int | None) -> None:
    targets = play_targets(state, seat, card_id)
    if targets is None or (target is None and not targets):
        return
    if target not in targets:
        raise DomainError("Play this card at an opponent with cards in hand (\"target\": their seat).",
                          code="invalid", details={"field": "target", "targets": targets})


def play_events(state: GameState, seat: int, card_id: str, target: int | None, rng) -> list[Event]:
    """What the server carries out of the Action just played at ``target`` (``state``: after it was played)."""
    if target is None or not checking(state) or not _takes_from_an_opponent(state, card_id):
        return []
    hand = state.table.player(target).hand
    if not hand:
        return []
    taken = hand[rng.randbelow(len(hand))]
    return [Event("card.taken", {"from": target, "to": seat, "card": taken, "cause": card_id})]


def _ability_effects(state: GameState, card_id: str) -> list[Any]:
    found = []
    for effect in effect_of(state, card_id) or ():
        if isinstance(effect, L.Ability) and not effect.once and effect.condition is None:
            found += [e for e in effect.effects if _targeted(e)]
    return found


def _targeted(effect: Any) -> bool:
    if isinstance(effect, L.Destroy):
        return effect.cards.zone == "play" and effect.cards.count == 1
    if isinstance(effect, L.Take):
        return effect.cards.zone == "discard_pile" and effect.cards.count == 1 and not effect.cards.random
    return False


def ability_targets(state: GameState, card_id: str) -> list[str] | None:
    """The cards a Thing's understood "Action:" ability may be used on, or None when the server does not carry
    out such an ability of the Thing (then ``use`` is as before, with no target)."""
    if not checking(state):
        return None
    effects = _ability_effects(state, card_id)
    if not effects:
        return None
    effect = effects[0]
    if isinstance(effect, L.Destroy):
        pool = [c for p in state.table.players for c in p.in_play if c != card_id]
    else:
        pool = list(all_discard_piles(state))
    return [c for c in pool if is_a(state, c, effect.cards.what)]


def ability_events(state: GameState, seat: int, card_id: str, target: Any) -> list[Event]:
    """The events of a Thing's understood "Action:" ability used on ``target``, refused when it does not fit."""
    targets = ability_targets(state, card_id)
    if targets is None:
        return []
    if not isinstance(target, str) or target not in targets:
        what = _ability_effects(state, card_id)[0].cards.what or "card"
        raise DomainError(f"Use this Thing's Action on a {what} it can reach (\"target\": the card).",
                          code="invalid", details={"field": "target"})
    effect = _ability_effects(state, card_id)[0]
    if isinstance(effect, L.Destroy):
        return [Event("thing.destroyed", {"card": target, "by": seat, "cause": card_id})]
    origin = locate(state, target)
    return [Event("card.moved", {"card": target, "from": {"zone": origin.zone, "seat": origin.seat},
                                 "to": {"zone": "hand", "seat": seat}, "by": seat, "cause": card_id})]


def optional_draws(state: GameState, card_id: str) -> int:
    """How many cards a Thing's controller may draw as it comes into play ("When Cardboard Box comes into play,
    its controller may draw a card"), when the server carries that out; else 0."""
    if not checking(state):
        return 0
    return sum(item.count for effect in effect_of(state, card_id) or ()
               if isinstance(effect, L.When) and effect.event == "comes_into_play"
               for item in effect.effects
               if isinstance(item, L.Draw) and item.optional and item.who in ("controller", "you"))
