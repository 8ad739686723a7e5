"""Cards the server understands: each card's and Special Rule's effect, fixed into the game when it is created,
and what an effect move citing one may do.

At creation (``fixed_effects``, called by ``created``) every card of the deck and every Special Rule gets its
effect in the effect language (``dvorak_core.effects``): the curator-confirmed ``effect`` when the deck has one,
else the reader's reading when it understands the whole text, else None (not understood). The result goes into
``game.created`` (``effects``), so a later reader never changes a game already begun; the engine only reads it
back from the state (``DvorakState.effects``). A game created before this has no ``effects``: every citation is
taken on trust, as it was.

``verdict`` says what the effects allow of a move citing a card: ``ALLOWED``, ``REFUSED`` (with why) or
``UNSURE`` (the card is not understood, or its effect hangs on something the engine cannot check), which the
game's ``unread_effects`` option settles: ``trust`` (carried out), ``claim`` (an open claim the others accept
or dispute) or ``vote`` (straight to a vote).
"""

from __future__ import annotations

import re
from typing import Any

from dvorak_core import rule_params
from dvorak_core.effects import InvalidEffect, effects_from_json, read_card, read_special_rule, to_json
from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.errors import DomainError
from dvorak_engine.state import GameState

TRUST, CLAIM, VOTE = "trust", "claim", "vote"
UNREAD_EFFECTS = (TRUST, CLAIM, VOTE)
# Existing tables and clients keep today's behaviour unless the creator asks for checking (docs/api.md).
DEFAULT_UNREAD_EFFECTS = TRUST

ALLOWED, REFUSED, UNSURE = "allowed", "refused", "unsure"
NOT_NOW = "That card's win condition does not hold now."

# The effect kinds that allow each effect move (a ``move`` carries out any effect that moves cards).
MOVE_KINDS: dict[str, frozenset[str]] = {
    "discard": frozenset({"discard"}),
    "destroy": frozenset({"destroy"}),
    "take_random": frozenset({"take"}),
    "give": frozenset({"give"}),
    "move": frozenset({"move", "take", "give", "discard", "destroy", "draw", "play_onto"}),
    "counter": frozenset({"counter", "set_counter"}),
    "roll": frozenset({"roll"}),
    "reveal": frozenset({"reveal"}),
    "shuffle": frozenset({"shuffle"}),
    "set_rule": frozenset({"set_rule", "forbid"}),
    "end_rule_effect": frozenset({"set_rule", "forbid"}),
    "eliminate": frozenset({"lose"}),
    "win": frozenset({"win"}),
}


def unread_effects_option(options: dict[str, Any]) -> str:
    value: str = options.get("unread_effects", DEFAULT_UNREAD_EFFECTS)
    if value not in UNREAD_EFFECTS:
        raise DomainError(f"\"options.unread_effects\" is one of: {', '.join(UNREAD_EFFECTS)}.", code="invalid",
                          details={"field": "options.unread_effects"})
    return value


# --- fixed at creation -------------------------------------------------------------------------------------------


def _confirmed(effect: Any) -> list[dict[str, Any]] | None:
    if effect is None:
        return None
    try:
        result: list[dict[str, Any]] = to_json(effects_from_json(effect))
        return result
    except InvalidEffect:
        return None


def card_effect(card: dict[str, Any]) -> list[dict[str, Any]] | None:
    confirmed = _confirmed(card.get("effect"))
    if confirmed is not None:
        return confirmed
    reading = read_card(str(card.get("title", "")), str(card.get("type") or "Thing"), str(card.get("text") or ""))
    return to_json(reading.effects) if reading.understood else None


def rule_effect(rule: dict[str, Any]) -> list[dict[str, Any]] | None:
    confirmed = _confirmed(rule.get("effect"))
    if confirmed is not None:
        return confirmed
    reading = read_special_rule(str(rule.get("title", "")), str(rule.get("text") or ""))
    return to_json(reading.effects) if reading.understood else None


def fixed_effects(cards: list[dict[str, Any]], special_rules: list[dict[str, Any]],
                  rule_ids: list[str]) -> dict[str, Any]:
    """``{"cards": [{"title", "type", "text", "effect"}], "special_rules": {id: effect}}``: a card's effect is
    found by its content, so every copy shares it and an amended card (new text) is no longer understood."""
    entries: dict[tuple[str, str, str], dict[str, Any]] = {}
    for card in cards:
        key = (str(card.get("title", "")), str(card.get("type") or "Thing"), str(card.get("text") or ""))
        if key not in entries:
            entries[key] = {"title": key[0], "type": key[1], "text": key[2], "effect": card_effect(card)}
    return {"cards": list(entries.values()),
            "special_rules": {rule_id: rule_effect(rule) for rule_id, rule in zip(rule_ids, special_rules,
                                                                                  strict=True)}}


def effects_summary(effects: dict[str, Any]) -> dict[str, Any]:
    """What everyone sees of them in ``game.created``: the Special Rules' effects (the rules are public), and of
    the cards only how many different ones there are and how many are understood (a card's title would tell
    what a hidden deck holds)."""
    cards = effects.get("cards", [])
    return {"special_rules": dict(effects.get("special_rules", {})),
            "cards": {"count": len(cards), "understood": sum(entry["effect"] is not None for entry in cards)}}


def rule_params_of(effect: list[dict[str, Any]] | None, known: set[str]) -> dict[str, Any]:
    """The rule parameters a Special Rule's effect sets outright (its ``set_rule`` effects, not those under a
    condition or a trigger), among the ``known`` ones, each value within its bounds."""
    params: dict[str, Any] = {}
    for item in effects_from_json(effect) if effect is not None else ():
        if isinstance(item, L.SetRule) and item.param in known and item.param != "counters":
            try:
                params[item.param] = rule_params.checked_rule_value(item.param, item.value, field="params")
            except DomainError:
                continue
    return params


# --- read back from the state ------------------------------------------------------------------------------------


def effects_fixed(state: GameState) -> bool:
    return state.table.effects is not None


def effect_of(state: GameState, cause: str) -> tuple[L.Effect, ...] | None:
    """The understood effect of a card (by id) or a Special Rule, or None when the game does not understand it."""
    effects = state.table.effects
    if effects is None:
        return None
    # A card's or rule's own effect (confirmed in the archive, or voted in with a proposal) first; else what the
    # game fixed at creation for that content (an amended text is no longer the content it fixed).
    rule = next((r for r in state.table.special_rules if r.id == cause), None)
    if rule is not None:
        found = rule.effect if rule.effect is not None else effects.get("special_rules", {}).get(cause)
    else:
        card = state.table.cards.get(cause)
        if card is None:
            return None
        found = card.effect if card.effect is not None else next(
            (e["effect"] for e in effects.get("cards", [])
             if (e["title"], e["type"], e["text"]) == (card.title, card.type, card.text)), None)
    return None if found is None else read_effect(found)


# The effects read from the JSON a game keeps, by the id of that JSON (kept with its reading, so that no other
# object can take its id while it is here): the game's states share the lists of their ``effects``, so a card's is
# read once, not at every look at it (a computer player looks at dozens of moves, each reading the cards again).
_READINGS: dict[int, tuple[Any, tuple[L.Effect, ...]]] = {}
_MOST_READINGS = 4096


def read_effect(found: list[dict[str, Any]]) -> tuple[L.Effect, ...]:
    """``effects_from_json`` of an effect a game's state keeps (a list its states never change)."""
    entry = _READINGS.get(id(found))
    if entry is not None and entry[0] is found:
        return entry[1]
    reading = effects_from_json(found)
    if len(_READINGS) >= _MOST_READINGS:
        _READINGS.clear()
    _READINGS[id(found)] = (found, reading)
    return reading


def _kinds(effects: tuple[Any, ...]) -> set[str]:
    kinds: set[str] = set()
    for effect in effects:
        kinds.add(type(effect).kind)
        inner = getattr(effect, "effects", None)
        if inner:
            kinds |= _kinds(inner)
    return kinds


def verdict(state: GameState, seat: int, move: str, body: dict[str, Any], cause: str) -> tuple[str, str]:
    """What the cited card's understood effect says of this move: (``ALLOWED`` | ``REFUSED`` | ``UNSURE``, why)."""
    effects = effect_of(state, cause)
    if effects is None:
        return UNSURE, "The server does not understand that card's text."
    if move == "win":
        return _win_verdict(state, seat, body, effects)
    kinds = _kinds(effects)
    if not kinds & MOVE_KINDS[move]:
        return REFUSED, f"That card's effect does not allow {move}."
    if move in ("set_rule", "end_rule_effect"):
        param = body.get("param")
        params = _rule_params(effects)
        if isinstance(param, str) and params and param not in params:
            return REFUSED, f"That card's effect does not change {param}."
    return ALLOWED, ""


def _rule_params(effects: tuple[Any, ...]) -> set[str]:
    """The rule parameters the effects change."""
    params: set[str] = set()
    for effect in effects:
        if isinstance(effect, L.SetRule):
            params.add(effect.param)
        elif isinstance(effect, L.Forbid):
            params.add(effect.what)
        inner = getattr(effect, "effects", None)
        if inner:
            params |= _rule_params(inner)
    return params


def _win_verdict(state: GameState, seat: int, body: dict[str, Any], effects: tuple[Any, ...]) -> tuple[str, str]:
    """A win the card's effect gives now: a ``win`` reached without a condition, or under conditions that hold
    now for the winners (``controls``, ``reaches``); one that hangs on something else (a trigger, a deck's own
    event) is ``UNSURE``."""
    winners = body.get("seats") or [seat]
    wins = _wins(effects, ())
    if not wins:
        return REFUSED, "That card's effect wins no one the game."
    # "You win": the player who cites it, not others.
    wins = [(conditions, win) for conditions, win in wins if win.who != "you" or winners == [seat]]
    if not wins:
        return REFUSED, "That card's effect wins only you the game."
    found = [_path_holds(state, seat, winners, conditions) for conditions, _ in wins]
    if True in found:
        return ALLOWED, ""
    if None in found:
        return UNSURE, "That card's win hangs on something the server cannot check."
    return REFUSED, NOT_NOW


def _wins(effects: tuple[Any, ...], conditions: tuple[Any, ...]) -> list[tuple[tuple[Any, ...], L.Win]]:
    """Each ``win`` with the conditions above it (a trigger or an ability counts as a condition not checkable)."""
    found = []
    for effect in effects:
        if isinstance(effect, L.Win):
            found.append((conditions, effect))
        elif isinstance(effect, L.If):
            found += _wins(effect.effects, (*conditions, effect.condition))
        elif isinstance(effect, L.When | L.Ability):
            found += _wins(effect.effects, (*conditions, None))
        elif isinstance(effect, L.Lasting):
            found += _wins(effect.effects, conditions)
    return found


def _path_holds(state: GameState, seat: int, winners: list[int], conditions: tuple[Any, ...]) -> bool | None:
    result: bool | None = True
    for condition in conditions:
        held = [_holds(state, seat, winner, condition) for winner in winners]
        if False in held:
            return False
        if None in held:
            result = None
    return result


def _holds(state: GameState, seat: int, winner: int, condition: Any) -> bool | None:
    """Whether a condition holds now for a winner (True/False), or None when the engine cannot tell."""
    subject = seat if getattr(condition, "who", None) == "you" else winner
    if isinstance(condition, L.Controls):
        return all(controlled(state, subject, item.what) >= item.count for item in condition.items)
    if isinstance(condition, L.Reaches):
        counters = state.table.player(subject).counters
        name = condition.name.strip().lower().replace(" ", "_")
        value = next((v for k, v in counters.items() if k.lower() == name), 0)
        return value >= condition.value
    return None


def controlled(state: GameState, seat: int, what: str) -> int:
    """How many Things in play ``seat`` controls that are ``what``: of that type, or with that word in the title
    ("Ministry" counts the Ministry of Magic and the Ministries of Truth)."""
    word = what.strip().lower()
    stem = word[:-1] if word.endswith("y") else word
    title_word = re.compile(rf"\b(?:{re.escape(word)}s?|{re.escape(stem)}ies)\b", re.IGNORECASE)
    count = 0
    for card_id in state.table.player(seat).in_play:
        card = state.table.cards[card_id]
        if word == "thing" or card.type.strip().lower() == word or title_word.search(card.title):
            count += 1
    return count
