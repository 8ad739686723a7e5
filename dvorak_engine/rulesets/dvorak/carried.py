"""What the server carries out itself of the cards it understands, when checking is on (game option
``unread_effects`` ``claim`` or ``vote``; under ``trust`` the players carry out every effect, as before).

- A Thing coming into play whose effect sets a rule parameter ("Any number of Actions may be played each turn.")
  sets it while the Thing stays in play (a ``rule.set`` lasting ``leaves_play``); for everyone, or for its
  controller when its text speaks of "your".
- A Thing played onto a Thing whose effect forbids that Thing to use its Actions ("that Thing may not use its
  Actions") denies its host ``use_actions`` while it stays in play.
- An Action whose whole understood effect is made of items the server can carry out (draws, discards, destroys,
  takes, gives, counter changes, rolls, shuffles: ``carried_action``) is carried out whole as it is played, in
  order; its choices come with the ``play``: ``target``, the chosen player (an opponent with cards in hand for
  Espionage's random card), and ``targets``, the chosen cards (each offered in the legal moves). Effect moves
  citing such a card are refused (``effect_not_allowed``): the server has done it.
- A Thing's "When it comes into play" trigger of draws, random discards and counter changes for its controller
  is carried out as it comes into play (``arrival_events``).
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
from collections.abc import Callable
from typing import Any

from dvorak_core.effects import language as L  # noqa: N812
from dvorak_core.errors import DomainError
from dvorak_core.rule_params import PARAM_NAME, checked_rule_value
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.rulesets.dvorak.effects import TRUST, effect_of, effects_fixed
from dvorak_engine.rulesets.dvorak.piles import discard_pile_of, draw_pile_of, pile_seat
from dvorak_engine.rulesets.dvorak.state import (
    ENDED,
    LEAVES_PLAY,
    Location,
    all_discard_piles,
    is_action,
    locate,
    located,
)
from dvorak_engine.state import GameState, opponents, seats_standing

# How the ruleset hands its own steps to what it carries out: a card off the top of a seat's draw pile
# (``DvorakRuleset._draw_one``), and the state after some events (``Ruleset.fold``).
DrawOne = Callable[[GameState, int, Rng], list[Event]]
Fold = Callable[[GameState, list[Event]], GameState]

YOUR = re.compile(r"\byour\b", re.IGNORECASE)
# The most a counter may hold either way (as the ``counter`` move keeps it): every JSON reader keeps it exactly.
COUNTER_BOUND_EXACT = 2**53 - 1
# An extra turn to come: a rule change of its own (``rule.set``, ``seat`` the player, until it is taken), which
# the end of that player's turn uses up (``rule.ended``) to begin their next turn at once.
EXTRA_TURN = "extra_turns"


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
              deny: bool = False, until: str = LEAVES_PLAY) -> Event:
    return Event("rule.set", {"source": source, "param": param, "value": value, "seat": seat, "card": card,
                              "deny": deny, "by": None, "until": until})


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
    origin = located(state, target)
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


# --- an Action's whole effect, carried out when it is played ------------------------------------------------------
#
# An understood Action every item of whose effect is one below is carried out whole by the server in the ``play``
# command, item after item, as events. It needs at most one chosen player (``target``: a seat) and at most one
# choice of cards (``targets``: card ids); both are offered with the play in the legal moves. An item whose choice
# has no option left (no Thing to destroy, no opponent with cards in hand) is skipped, and the rest is done.

PLAYER_WORDS = ("opponent", "chosen_player", "that_player")


def _who_needs_target(who: str | None) -> bool:
    return who in PLAYER_WORDS


def _card_choice(item: Any) -> bool:
    """Whether the item asks the acting player to choose cards (``targets``)."""
    if isinstance(item, L.Discard):
        return item.who in ("you", "controller") and not item.random and item.count is not None
    if isinstance(item, L.Destroy):
        return item.cards.count is not None
    if isinstance(item, L.Take):
        return item.cards.zone in ("discard_pile", "play")
    return isinstance(item, L.Give)


def _carriable(item: Any) -> bool:
    """Whether the server can carry out this item of an Action's effect by itself."""
    if isinstance(item, L.Draw):
        return not item.optional and item.who in ("you", "controller", "each_player", "each_opponent", *PLAYER_WORDS)
    if isinstance(item, L.Discard):
        if item.cards is not None:
            return False
        if item.who in ("you", "controller"):
            return True
        # Others discard only at random or their whole hand: a choice of theirs is theirs to make.
        return item.who in ("each_player", "each_opponent", *PLAYER_WORDS) and (item.random or item.count is None)
    if isinstance(item, L.Destroy):
        cards = item.cards
        return (cards.zone == "play" and not cards.host and not cards.random and not cards.other
                and cards.owner in (None, "you", "opponent", "each_opponent", "any_player"))
    if isinstance(item, L.Take):
        cards = item.cards
        if cards.zone == "hand":
            return cards.random and cards.count == 1 and cards.owner in ("opponent", "chosen_player")
        if cards.zone == "discard_pile":
            return not cards.random and cards.count is not None
        if cards.zone == "play":
            return (not cards.random and not cards.host and cards.count is not None
                    and cards.owner in (None, "opponent", "each_opponent", "any_player"))
        return False
    if isinstance(item, L.Give):
        cards = item.cards
        return (cards.zone == "hand" and cards.owner in (None, "you") and not cards.random
                and cards.count is not None and item.to in ("opponent", "chosen_player"))
    if isinstance(item, L.Counter):
        return item.instead_of is None and item.who in ("you", "controller", "each_player", "each_opponent",
                                                        *PLAYER_WORDS) and _counter_name(item.name) is not None
    if isinstance(item, L.SetCounter):
        return item.who in ("you", "controller", "each_player", "each_opponent", *PLAYER_WORDS) \
            and _counter_name(item.name) is not None
    if isinstance(item, L.Roll):
        return True
    if isinstance(item, L.ExtraTurn):
        return item.who in ("you", "controller")
    if isinstance(item, L.Shuffle):
        return (item.source, item.into) in (("discard_pile", "draw_pile"), ("draw_pile", "draw_pile"),
                                            ("discard_pile", "discard_pile"))
    return False


def _counter_name(name: str) -> str | None:
    found = name.strip().lower().replace(" ", "_")
    return found if PARAM_NAME.match(found) else None


def _player_word(item: Any) -> str | None:
    """The word of the chosen player the item speaks of, if any."""
    # A Thing "an opponent controls" is chosen among all of theirs: only a hand is a chosen player's.
    owner = item.cards.owner if isinstance(item, L.Take) and item.cards.zone == "hand" else None
    for who in (getattr(item, "who", None), getattr(item, "to", None), owner):
        if _who_needs_target(who):
            return who
    return None


def carried_action(state: GameState, card_id: str) -> tuple[Any, ...] | None:
    """The items of an Action's understood effect when the server carries out the whole of it (checking on), in
    order; else None (the players carry it out with effect moves, as before)."""
    if not checking(state) or card_id not in state.table.cards or not is_action(state, card_id):
        return None
    items = effect_of(state, card_id)
    if not items or not all(_carriable(item) for item in items):
        return None
    if sum(_card_choice(item) for item in items) > 1:
        return None
    words = {_player_word(item) for item in items} - {None}
    if "that_player" in words and words == {"that_player"}:
        return None  # "they" with no player chosen before
    if len(words - {"that_player"}) > 1:
        return None
    # Cards chosen from one's own hand after the hand changed are not known when the card is played.
    hand_changed = False
    for item in items:
        chooses_from_hand = isinstance(item, L.Give) or (isinstance(item, L.Discard) and _card_choice(item))
        if chooses_from_hand and hand_changed:
            return None
        if isinstance(item, L.Draw | L.Take) or (isinstance(item, L.Discard) and item.who != "you"):
            hand_changed = True
    return items


def _player_pool(state: GameState, seat: int, items: tuple[Any, ...]) -> list[int] | None:
    """The seats that may be the chosen player (``target``), or None when the effect chooses none."""
    pool: set[int] | None = None
    for item in items:
        word = _player_word(item)
        if word is None or word == "that_player":
            continue
        if word == "opponent":
            seats = set(opponents(state, seat))
        else:
            seats = set(seats_standing(state))
            if isinstance(item, L.Take | L.Give):
                seats.discard(seat)
        if isinstance(item, L.Take) and item.cards.zone == "hand":
            seats = {s for s in seats if state.table.player(s).hand}
        pool = seats if pool is None else pool & seats
    return None if pool is None else sorted(pool)


def _things(state: GameState, seat: int, cards: L.Cards) -> list[str]:
    """The Things in play ``cards`` speaks of (whose owner: anyone's, yours, an opponent's)."""
    if cards.owner == "you":
        seats = [seat]
    elif cards.owner in ("opponent", "each_opponent"):
        seats = opponents(state, seat)
    else:
        seats = [p.seat for p in state.table.players]
    return [c for s in seats for c in state.table.player(s).in_play if is_a(state, c, cards.what)]


def _card_pool(state: GameState, seat: int, card_id: str, item: Any) -> list[str]:
    """The cards the acting player may choose for the item (``state``: before the Action is played)."""
    if isinstance(item, L.Discard | L.Give):
        return [c for c in state.table.player(seat).hand if c != card_id]
    if isinstance(item, L.Destroy):
        return _things(state, seat, item.cards)
    if item.cards.zone == "discard_pile":
        return [c for c in all_discard_piles(state) if c != card_id and is_a(state, c, item.cards.what)]
    return [c for c in _things(state, seat, item.cards) if c not in state.table.player(seat).in_play]


def _count(item: Any) -> int | None:
    """How many cards the item names (None: all of them)."""
    count: int | None = item.count if isinstance(item, L.Discard) else item.cards.count
    return count


def action_choices(state: GameState, seat: int, card_id: str) -> tuple[list[int] | None, int, list[str]] | None:
    """What playing an Action the server carries out asks for: the seats ``target`` may name (None: none
    asked), and how many cards ``targets`` names and from which; None when the server does not carry it out."""
    items = carried_action(state, card_id)
    if items is None:
        return None
    players = _player_pool(state, seat, items)
    chooser = next((item for item in items if _card_choice(item)), None)
    if chooser is None:
        return players, 0, []
    pool = _card_pool(state, seat, card_id, chooser)
    count = _count(chooser)
    return players, len(pool) if count is None else min(count, len(pool)), pool


def check_action_choices(state: GameState, seat: int, card_id: str, body: dict[str, Any]) -> None:
    """Refuse (400 ``invalid``, ``details.field`` ``target`` or ``targets``) a play of an Action whose choices do
    not fit; a ``targets`` for a card the server does not carry out with chosen cards is refused too."""
    choices = action_choices(state, seat, card_id)
    if choices is None:
        if "targets" in body:
            raise DomainError("\"targets\" is only for a card whose effect the server carries out with chosen "
                              "cards.", code="invalid", details={"field": "targets"})
        return
    players, count, pool = choices
    target = body.get("target")
    if players is not None and (players or "target" in body) and target not in players:
        raise DomainError("Name the player this card is played at (\"target\": their seat).", code="invalid",
                          details={"field": "target", "targets": players})
    if players is None and "target" in body:
        raise DomainError("This card is played at no player.", code="invalid", details={"field": "target"})
    targets = body.get("targets", [])
    if (not isinstance(targets, list) or len(targets) != count or not all(isinstance(c, str) for c in targets)
            or len(set(targets)) != len(targets) or not set(targets) <= set(pool)):
        raise DomainError(f"\"targets\" must name {count} different card(s) this card's effect may choose.",
                          code="invalid", details={"field": "targets", "count": count})


def action_events(state: GameState, seat: int, card_id: str, body: dict[str, Any], rng: Rng, draw_one: DrawOne,
                  fold: Fold) -> list[Event]:
    """The whole effect of an Action the server carries out, played with ``body``'s choices (already checked;
    ``state``: after the Action was played). ``draw_one(state, seat, rng)`` draws one card; ``fold`` applies
    events."""
    items = carried_action(state, card_id)
    if items is None:
        return []
    target = body.get("target")
    chosen = list(body.get("targets", []))
    events: list[Event] = []

    def seats_of(who: str | None) -> list[int]:
        if who in ("you", "controller"):
            return [seat]
        if who == "each_player":
            return list(seats_standing(state))
        if who == "each_opponent":
            return opponents(state, seat)
        return [target] if isinstance(target, int) else []

    for item in items:
        now = fold(state, events)
        where = {c: loc for c in chosen if (loc := locate(now, c)) is not None}
        if isinstance(item, L.Draw):
            for who in seats_of(item.who):
                for _ in range(item.count):
                    drawn = draw_one(fold(state, events), who, rng)
                    events += drawn
        elif isinstance(item, L.Discard):
            for who in seats_of(item.who):
                hand = list(now.table.player(who).hand)
                if item.count is None:
                    cards = hand
                elif item.random:
                    cards = []
                    for _ in range(min(item.count, len(hand))):
                        cards.append(hand.pop(rng.randbelow(len(hand))))
                else:
                    cards = [c for c in chosen if where.get(c) == Location("hand", who)]
                if cards:
                    events.append(Event("cards.discarded", {"seat": who, "cards": cards, "cause": card_id}))
        elif isinstance(item, L.Destroy):
            if item.cards.count is None:
                gone = _things(now, seat, item.cards)
            else:
                gone = [c for c in chosen if where.get(c) is not None and where[c].zone == "in_play"]
            destroyed = [Event("thing.destroyed", {"card": c, "by": seat, "cause": card_id}) for c in gone]
            events += destroyed
            if gone:
                events += cascade_events(now, gone, seat)
        elif isinstance(item, L.Take) and item.cards.zone == "hand":
            held: tuple[str, ...] = now.table.player(target).hand if isinstance(target, int) else ()
            if held:
                taken = held[rng.randbelow(len(held))]
                events.append(Event("card.taken", {"from": target, "to": seat, "card": taken, "cause": card_id}))
        elif isinstance(item, L.Take):
            for c in chosen:
                origin = where.get(c)
                if origin is not None and origin.zone in ("discard_pile", "in_play"):
                    events.append(Event("card.moved", {
                        "card": c, "from": {"zone": origin.zone, "seat": origin.seat},
                        "to": {"zone": "hand", "seat": seat}, "by": seat, "cause": card_id}))
        elif isinstance(item, L.Give):
            if isinstance(target, int):
                events += [Event("card.given", {"from": seat, "to": target, "card": c, "cause": card_id})
                           for c in chosen if where.get(c) == Location("hand", seat)]
        elif isinstance(item, L.Counter | L.SetCounter):
            name = _counter_name(item.name)
            for who in seats_of(item.who):
                old = fold(state, events).table.player(who).counters.get(name, 0)
                value = old + item.amount if isinstance(item, L.Counter) else item.value
                if abs(value) <= COUNTER_BOUND_EXACT:
                    events.append(Event("counter.changed", {"seat": who, "name": name, "delta": value - old,
                                                            "value": value, "by": seat, "cause": card_id}))
        elif isinstance(item, L.Roll):
            rolls = [rng.randbelow(item.sides) + 1 for _ in range(item.dice)]
            events.append(Event("dice.rolled", {"dice": f"{item.dice}d{item.sides}", "rolls": rolls,
                                                "total": sum(rolls), "by": seat, "cause": card_id}))
        elif isinstance(item, L.Shuffle):
            events.append(_shuffled(now, seat, card_id, item, rng))
        elif isinstance(item, L.ExtraTurn):
            events.append(_rule_set(card_id, EXTRA_TURN, 1, seat=seat, until=ENDED))
    return events


def extra_turn(state: GameState, seat: int) -> Any:
    """The first extra turn ``seat`` has to come (a ``rule.set`` of ``extra_turns`` an Action made), or None."""
    return next((m for m in state.table.modifiers if m.param == EXTRA_TURN and m.seat == seat), None)


def _shuffled(state: GameState, seat: int, card_id: str, item: L.Shuffle, rng: Rng) -> Event:
    piles = pile_seat(state, seat)
    draw, discard = list(draw_pile_of(state, piles)), list(discard_pile_of(state, piles))
    if item.source == "discard_pile" and item.into == "draw_pile":
        # The discard pile shuffled into the draw pile: one new draw pile, the discard pile empty.
        order = draw + discard
        rng.shuffle(order)
        data: dict[str, Any] = {"draw_pile": order}
        if piles is not None:
            data["seat"] = piles
        return Event("draw_pile.refilled", data)
    pile = "draw" if item.into == "draw_pile" else "discard"
    order = draw if pile == "draw" else discard
    rng.shuffle(order)
    data = {"pile": pile, "by": seat, "cause": card_id, "draw_pile" if pile == "draw" else "discard_pile": order}
    if piles is not None:
        data["seat"] = piles
    return Event("pile.shuffled", data)


def arrival_events(state: GameState, seat: int, card_id: str, rng: Rng, draw_one: DrawOne,
                   fold: Fold) -> list[Event]:
    """A Thing's simple "When it comes into play" trigger for its controller, carried out as it comes into play
    (``state``: with it in play): draws (not optional), random discards, counter changes of the controller."""
    if not checking(state):
        return []
    events: list[Event] = []
    for effect in effect_of(state, card_id) or ():
        if not (isinstance(effect, L.When) and effect.event == "comes_into_play" and effect.cards is None):
            continue
        items = effect.effects
        if not all(_arrival_item(item) for item in items):
            continue
        body: dict[str, Any] = {}
        for item in items:
            scratch = fold(state, events)
            events += _one_arrival(scratch, seat, card_id, item, body, rng, draw_one, fold)
    return events


def _arrival_item(item: Any) -> bool:
    if isinstance(item, L.Draw):
        return not item.optional and item.who in ("you", "controller")
    if isinstance(item, L.Discard):
        return item.cards is None and item.who in ("you", "controller") and (item.random or item.count is None)
    if isinstance(item, L.Counter | L.SetCounter):
        return getattr(item, "instead_of", None) is None and item.who in ("you", "controller") \
            and _counter_name(item.name) is not None
    return False


def _one_arrival(state: GameState, seat: int, card_id: str, item: Any, body: dict[str, Any], rng: Rng,
                 draw_one: DrawOne, fold: Fold) -> list[Event]:
    events: list[Event] = []
    if isinstance(item, L.Draw):
        for _ in range(item.count):
            events += draw_one(fold(state, events), seat, rng)
        return events
    if isinstance(item, L.Discard):
        hand = list(state.table.player(seat).hand)
        cards = hand if item.count is None else [hand.pop(rng.randbelow(len(hand)))
                                                 for _ in range(min(item.count, len(hand)))]
        return [Event("cards.discarded", {"seat": seat, "cards": cards, "cause": card_id})] if cards else []
    name = _counter_name(item.name)
    old = state.table.player(seat).counters.get(name, 0)
    value = old + item.amount if isinstance(item, L.Counter) else item.value
    if abs(value) > COUNTER_BOUND_EXACT:
        return []
    return [Event("counter.changed", {"seat": seat, "name": name, "delta": value - old, "value": value,
                                      "by": seat, "cause": card_id})]
