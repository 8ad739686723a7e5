"""The interface every ruleset plugs into.

A ruleset is one module ``games/engine/rulesets/<name>.py`` defining ``RULESET``, an instance of a ``Ruleset``
subclass whose ``name`` is ``<name>``; ``games.engine.rulesets.get_ruleset(name)`` finds it. It says:

- setup: ``create`` writes the ``game.created`` event (the deck copied into the game, every card copy with an
  opaque random id) and seats the creator; ``setup`` gives the events of the ``start`` command (piles shuffled,
  hands dealt, the first player chosen) once the common checks passed;
- the commands it accepts: methods marked ``@command("draw")``, each ``(self, state, command, ctx) ->
  list[Event]`` (``ctx``: a ``CommandContext`` with the actor, their seat and the rng), which raise ``DomainError`` to refuse (and then nothing is appended);
- how its events change state: methods marked ``@applies("card.drawn")``, each ``(self, state, event) ->
  GameState``, pure, returning a new state (``dataclasses.replace``) and never changing the one given;
- when the game ends: the events it emits set ``status`` to ``finished`` and ``winners``; ``game_status``
  reads it;
- what each viewer sees: ``view_state`` and ``view_event`` (by default ``games.engine.views``, which shows a
  card only to a viewer who can see it, and replaces any ``draw_pile`` order in an event by its count);
  a ruleset adds to the state's view with ``extra_view`` or redacts one event type itself with
  ``@redacts("type")``, ``(self, event, viewer, before, after) -> dict``.

Subclasses inherit their parent's commands, appliers and redactors and may override any of them by name, so a
ruleset that changes only the procedure (Article II) can subclass ``DvorakRuleset`` and replace a few.
Randomness is drawn only while deciding, from the ``rng`` passed in, and its outcome is written into events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from dvorak_core.errors import DomainError
from games.engine.events import Actor, Event
from games.engine.rng import Rng
from games.engine.state import (
    ACTIVE,
    BASIC_RULES,
    CCG,
    ELIMINATED,
    FINISHED,
    MULTI_DECK,
    OPEN,
    OWN_DECK_VARIANTS,
    STANDARD,
    VOTING,
    Card,
    GameState,
    Player,
    SpecialRule,
    seat_of,
)
from games.engine.variants import player_deck_summary, read_player_deck, read_team, require_ready_to_start

# The only commands accepted while a proposal is open.
VOTE_COMMANDS = ("vote", "withdraw")
# A creative game's Blank Card Pile unless its options say otherwise: a pack of record cards.
DEFAULT_BLANK_CARDS = 100


@dataclass(frozen=True)
class CommandContext:
    """Who sent a command (``seat`` is None for someone not playing) and the randomness to decide it with."""

    actor: Actor
    seat: int | None
    rng: Rng


CommandHandler = Callable[..., list[Event]]
EventApplier = Callable[..., GameState]
EventRedactor = Callable[..., dict]


def command(command_type: str, *, seated: bool = True, active: bool = True) -> Callable:
    """Mark a method as the handler of a command type.

    ``seated``: only a player of this game may send it (else 403 ``forbidden``); ``active``: only while the
    game is being played (else 409 ``game_not_active``).
    """

    def mark(handler: Callable) -> Callable:
        handler._command = (command_type, seated, active)
        return handler

    return mark


def applies(event_type: str) -> Callable:
    """Mark a method as the way an event type changes the state."""

    def mark(applier: Callable) -> Callable:
        applier._applies = event_type
        return applier

    return mark


def redacts(event_type: str) -> Callable:
    """Mark a method as the view of an event type for one viewer."""

    def mark(redactor: Callable) -> Callable:
        redactor._redacts = event_type
        return redactor

    return mark


class Ruleset:
    name: ClassVar[str] = ""
    default_rules: ClassVar[Mapping[str, Any]] = BASIC_RULES
    min_players: ClassVar[int] = 2
    # The Variants of Dvorak a ruleset can be played in; one whose procedure replaces the Basic Rules keeps to
    # the standard game.
    variants: ClassVar[tuple[str, ...]] = (STANDARD,)
    commands: ClassVar[dict[str, tuple[str, bool, bool]]] = {}
    appliers: ClassVar[dict[str, str]] = {}
    redactors: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.commands, cls.appliers, cls.redactors = {}, {}, {}
        # From the most general class to this one, so a subclass's methods replace its parents'.
        for klass in reversed(cls.__mro__):
            for attribute, member in vars(klass).items():
                if hasattr(member, "_command"):
                    command_type, seated, active = member._command
                    cls.commands[command_type] = (attribute, seated, active)
                if hasattr(member, "_applies"):
                    cls.appliers[member._applies] = attribute
                if hasattr(member, "_redacts"):
                    cls.redactors[member._redacts] = attribute

    # --- setup ------------------------------------------------------------------------------------------

    def create(
        self,
        *,
        deck: dict,
        variant: str,
        creative: bool,
        max_players: int,
        options: dict,
        creator: Actor,
        rng: Rng,
    ) -> list[Event]:
        if variant not in self.variants:
            raise DomainError(f"The {self.name} ruleset is played only as {', '.join(self.variants)}.",
                              code="invalid", details={"field": "variant"})
        own_decks = variant in OWN_DECK_VARIANTS
        # In a Multi-Deck game every player, the creator too, gets their copy of the deck when they join.
        deck_cards = [_card_content(card) for card in deck.get("cards", [])] if variant == MULTI_DECK else []
        created = Event(
            "game.created",
            {
                "ruleset": self.name,
                "variant": variant,
                "creative": creative,
                "max_players": max_players,
                "options": {key: value for key, value in options.items() if key != "player_deck"},
                "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
                "cards": [] if own_decks else copy_deck_cards(deck, rng),
                "deck_cards": deck_cards,
                "special_rules": [
                    {"id": str(rule["id"]), "title": rule.get("title", ""), "text": rule.get("text", ""),
                     "params": dict(rule.get("params") or {})}
                    for rule in deck.get("special_rules", [])
                ],
                "rules": self.initial_rules(options),
                "blank_cards": _count_option(options, "blank_cards", DEFAULT_BLANK_CARDS if creative else 0),
            },
        )
        joined = self.joined_event(
            seat=0, actor=creator, body={"team": options.get("team"), "player_deck": options.get("player_deck")},
            variant=variant, card_set=str(deck.get("slug", "")), deck_cards=deck_cards, taken=set(), rng=rng)
        return [created, joined]

    def joined_event(self, *, seat: int, actor: Actor, body: dict, variant: str, card_set: str,
                     deck_cards: list[dict], taken: set[str], rng: Rng) -> Event:
        """A player sits down: with their team, and in a Multi-Deck game their copy of the deck, in a CCG game
        the player deck they bring (``games.engine.variants``)."""
        data: dict[str, Any] = {"seat": seat, "user_id": actor.user_id, "username": actor.username,
                                "team": read_team(body, variant=variant)}
        if variant == CCG:
            player_deck = read_player_deck(body.get("player_deck"), card_set=card_set)
            data["player_deck"] = player_deck_summary(player_deck)
            data["cards"] = copy_deck_cards(player_deck, rng, taken)
        elif variant == MULTI_DECK:
            data["cards"] = copy_deck_cards({"cards": deck_cards}, rng, taken)
        return Event("player.joined", data)

    def initial_rules(self, options: dict) -> dict[str, Any]:
        """The rule parameters a game starts from: the ruleset's defaults, changed by the game's options."""
        rules = dict(self.default_rules)
        for param in rules:
            if param in options:
                rules[param] = options[param]
        return rules

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """The events of ``start``: how the cards are dealt and who goes first."""
        raise NotImplementedError

    # --- commands ---------------------------------------------------------------------------------------

    def decide(self, state: GameState | None, command_body: Any, *, actor: Actor, rng: Rng) -> list[Event]:
        if state is None:
            raise DomainError("There is no such game.", code="not_found")
        if not isinstance(command_body, dict) or not isinstance(command_body.get("type"), str):
            raise DomainError("A command is a JSON object with a \"type\".", code="invalid")
        entry = self.commands.get(command_body["type"])
        if entry is None:
            raise DomainError(f"This game has no command {command_body['type']!r}.",
                              code="unknown_command", details={"known": sorted(self.commands)})
        attribute, seated, active = entry
        seat = seat_of(state, actor.user_id)
        if seated and seat is None:
            raise DomainError("You are not playing in this game.", code="forbidden")
        if seated and state.player(seat).status == ELIMINATED:
            raise DomainError("You are out of this game.", code="eliminated")
        if state.status == VOTING and command_body["type"] not in VOTE_COMMANDS:
            # The Creative Rules: "the game stops while they decide".
            raise DomainError("A proposal is open; vote on it first.", code="vote_in_progress")
        if active and state.status != ACTIVE:
            raise DomainError("This game is not being played now.", code="game_not_active")
        return getattr(self, attribute)(state, command_body, CommandContext(actor, seat, rng))

    @command("join", seated=False, active=False)
    def join(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("This game has already started.", code="game_not_open")
        if ctx.seat is not None:
            raise DomainError("You already have a seat in this game.", code="already_seated")
        if len(state.players) >= state.max_players:
            raise DomainError("This game is full.", code="limit_reached", details={"max_players": state.max_players})
        return [self.joined_event(seat=len(state.players), actor=ctx.actor, body=command_body,
                                  variant=state.variant, card_set=str(state.deck.get("slug", "")),
                                  deck_cards=list(state.deck_cards), taken=set(state.cards), rng=ctx.rng)]

    @command("start", active=False)
    def start(self, state: GameState, command_body: dict, ctx: CommandContext) -> list[Event]:
        if state.status != OPEN:
            raise DomainError("This game has already started.", code="game_not_open")
        if ctx.seat != 0:
            raise DomainError("Only the player in seat 0 can start the game.", code="forbidden")
        if len(state.players) < self.min_players:
            raise DomainError(f"At least {self.min_players} players are needed.",
                              code="not_enough_players", details={"min_players": self.min_players})
        require_ready_to_start(state)
        return self.setup(state, ctx.rng)

    # --- events -----------------------------------------------------------------------------------------

    def evolve(self, state: GameState | None, event: Event) -> GameState:
        attribute = self.appliers.get(event.type)
        if attribute is None:
            raise ValueError(f"ruleset {self.name!r} cannot apply event type {event.type!r}")
        new_state = getattr(self, attribute)(state, event)
        return replace(new_state, version=(state.version if state is not None else 0) + 1)

    @applies("game.created")
    def apply_game_created(self, state: GameState | None, event: Event) -> GameState:
        data = event.data
        return GameState(
            ruleset=data["ruleset"],
            variant=data["variant"],
            creative=data["creative"],
            max_players=data["max_players"],
            options=data["options"],
            deck=data["deck"],
            cards={card["id"]: Card(**card) for card in data["cards"]},
            special_rules=tuple(SpecialRule(**rule) for rule in data["special_rules"]),
            base_rules=data["rules"],
            blank_cards=data.get("blank_cards", 0),
            deck_cards=tuple(data.get("deck_cards", [])),
        )

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        data = event.data
        counters = dict(state.base_rules.get("counters") or {})
        player = Player(seat=data["seat"], user_id=data["user_id"], username=data["username"],
                        team=data.get("team"), counters=counters, deck=data.get("player_deck"))
        cards = data.get("cards", [])
        return replace(state, players=(*state.players, player),
                       cards={**state.cards, **{card["id"]: Card(**card) for card in cards}},
                       owners={**state.owners, **{card["id"]: data["seat"] for card in cards}})

    def game_status(self, state: GameState) -> str:
        return state.status

    def is_finished(self, state: GameState) -> bool:
        return state.status == FINISHED

    def is_open(self, state: GameState) -> bool:
        return state.status == OPEN

    # --- views ------------------------------------------------------------------------------------------

    def view_state(self, state: GameState, viewer: int | None) -> dict:
        from games.engine import views

        return {**views.render_state(state, viewer), **self.extra_view(state, viewer)}

    def extra_view(self, state: GameState, viewer: int | None) -> dict:
        """What a ruleset adds to the state's view (shown to this viewer)."""
        return {}

    @redacts("player.joined")
    def view_player_joined(self, event: Event, viewer: int | None, before: GameState | None,
                           after: GameState) -> dict:
        # The ids of the cards a player brings must stay secret; how many they are is public.
        if "cards" not in event.data:
            return dict(event.data)
        return {**event.data, "cards": {"count": len(event.data["cards"])}}

    def view_event(self, event: Event, viewer: int | None, before: GameState | None, after: GameState) -> dict:
        from games.engine import views

        attribute = self.redactors.get(event.type)
        if attribute is not None:
            return getattr(self, attribute)(event, viewer, before, after)
        return views.redact_event_data(event.data, viewer, before, after)


def _count_option(options: dict, name: str, default: int) -> int:
    value = options.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DomainError(f"\"options.{name}\" must be a whole number, 0 or more.",
                          code="invalid", details={"field": f"options.{name}"})
    return value


def _card_content(card: dict) -> dict[str, Any]:
    """A deck's card as the game copies it: every field a Card has but its id, and how many copies."""
    return {
        "title": str(card.get("title", "")),
        "type": str(card.get("type") or "Thing"),
        "text": str(card.get("text") or ""),
        "flavor": str(card.get("flavor") or ""),
        "corner_value": str(card.get("corner_value") or ""),
        "creator": str(card.get("creator") or ""),
        "stats": dict(card.get("stats") or {}),
        "out_of_turn": card.get("out_of_turn") is True,
        "copies": max(int(card.get("copies", 1) or 1), 1),
    }


def copy_deck_cards(deck: dict, rng: Rng, taken: set[str] | None = None) -> list[dict]:
    """One card per copy, each with a fresh opaque id (none of ``taken``), in a shuffled order so the order
    reveals nothing."""
    copies: list[dict] = []
    used: set[str] = set(taken or ())
    for card in deck.get("cards", []):
        content = _card_content(card)
        for _ in range(content.pop("copies")):
            card_id = rng.token_hex(8)
            while card_id in used:
                card_id = rng.token_hex(8)
            used.add(card_id)
            copies.append({"id": card_id, **content, "stats": dict(content["stats"])})
    rng.shuffle(copies)
    return copies
