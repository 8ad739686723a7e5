"""Booster draft on the ruleset contract: packs dealt from a card set, picks made at once and in secret, packs
passed left, then right, then left; each player's picks are theirs at the end.

The readings taken are listed in the package's docstring (``draft/__init__``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from dvorak_core.errors import DomainError
from dvorak_engine.bodies import Body, card_field
from dvorak_engine.cards import Card, card_from_json, card_json, deck_card_content
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, PUBLIC, CommandContext, Ruleset, applies, command, redacts
from dvorak_engine.rulesets.draft.options import (
    DEFAULT_PACK_SIZE,
    read_options,
    rules_shown,
    slots_of,
)
from dvorak_engine.rulesets.draft.packs import (
    RARITIES,
    card_problems,
    carries_rarity,
    deal,
    pool_of,
    rarity_of,
)
from dvorak_engine.rulesets.draft.state import LEFT, RIGHT, Drafter, DraftState
from dvorak_engine.state import ACTIVE, ELIMINATED, FINISHED, OVER, GameState
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen

NAME = "draft"
MAX_PLAYERS = 8


def direction_of(round_number: int) -> str:
    """Packs pass left in the first round, right in the second, left in the third, and so on."""
    return LEFT if round_number % 2 else RIGHT


def _public(*keys: str) -> dict[str, str]:
    return dict.fromkeys(keys, PUBLIC)


class DraftRuleset(Ruleset):
    """No turns: every round each player opens a pack, and pick by pick, all at once, takes a card of the pack they
    hold and passes the rest on."""

    name = NAME
    min_players = 2
    max_players = MAX_PLAYERS
    State = DraftState
    deck_title_phrases = ("booster draft",)
    # A pass shows each player a pack they could not see before; so does a round's opening.
    reveals = frozenset({"draft.dealt", "round.began", "packs.passed"})
    # The service deals a draft from the card set's latest version (its cards with their ids there), refusing a deck
    # that is not a card set, and makes each person's picks a player deck of theirs once the draft is over.
    plays_card_set_version: ClassVar[bool] = True

    # --- the cards it needs -----------------------------------------------------------------------------------

    def card_problems(self, deck: dict[str, Any]) -> list[dict[str, Any]]:
        return card_problems(deck)

    # --- setup ------------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any],
                rng: Rng) -> dict[str, Any]:
        """The set's cards copied in, each by its id in the set's version (its position when it has none), with its
        copies; the options checked and written in full. A set too small for two players is refused here."""
        if creative:
            raise DomainError("A draft has no creative play.", code="invalid", details={"field": "creative"})
        written = read_options(options)
        cards = []
        for position, card in enumerate(card for card in deck.get("cards", []) if isinstance(card, dict)):
            card_id = str(card["id"]) if card.get("id") is not None else str(position + 1)
            cards.append({"id": card_id, **deck_card_content(card)})
        _enough(len(pool_of(cards, written["pool"])), seats=2, packs=written["packs"],
                pack_size=written["pack_size"] or 1)
        version = deck.get("version")
        return {"deck": {"slug": str(deck.get("slug", "")), "title": str(deck.get("title", "")),
                         "version": version if isinstance(version, int) and not isinstance(version, bool) else None},
                "cards": cards, "options": written}

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        cards = event.data["cards"]
        return replace(state, table=DraftState(
            deck=event.data["deck"],
            cards={card["id"]: card_from_json({key: value for key, value in card.items() if key != "copies"})
                   for card in cards},
            copies={card["id"]: card.get("copies", 1) for card in cards},
            by_rarity=carries_rarity(cards)))

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        return state.with_table(players=(*state.table.players, Drafter(seat=event.data["seat"])))

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """Every pack of every round dealt at once, unseen; the first round opened; every seat asked to pick."""
        table: DraftState = state.table
        options = state.options
        cards = [{"id": card_id, "stats": card.stats, "copies": table.copies.get(card_id, 1)}
                 for card_id, card in table.cards.items()]
        pool = pool_of(cards, options.get("pool", "copies"))
        seats, rounds = len(state.seats), options.get("packs", 3)
        pack_size = options.get("pack_size") or min(DEFAULT_PACK_SIZE, len(pool) // (seats * rounds))
        _enough(len(pool), seats=seats, packs=rounds, pack_size=max(pack_size, 1))
        slots = slots_of(options, pack_size) if table.by_rarity else None
        packs = deal(cards, pool, seats=seats, rounds=rounds, pack_size=pack_size, slots=slots, rng=rng)
        return [Event("draft.dealt", {"packs": packs, "pack_size": pack_size, "slots": slots or {}}),
                Event("round.began", {"round": 1, "direction": direction_of(1)}),
                self.request_choices(range(seats))]

    @applies("draft.dealt", shows=_public("pack_size", "slots"))
    def apply_dealt(self, state: GameState, event: Event) -> GameState:
        packs = tuple(tuple(tuple(pack) for pack in packs) for packs in event.data["packs"])
        return state.with_table(unopened=packs, pack_size=event.data["pack_size"], slots=event.data["slots"])

    @applies("round.began", shows=_public("round", "direction"))
    def apply_round_began(self, state: GameState, event: Event) -> GameState:
        """Each player still drafting opens their pack of the round."""
        table: DraftState = state.table
        number = event.data["round"]
        opened = table.unopened[number - 1]
        players = tuple(replace(p, pack=opened[p.seat] if standing(state, p.seat) else ())
                        for p in table.players)
        return replace(state, status=ACTIVE).with_table(players=players, round=number, pick=1,
                                                        direction=event.data["direction"])

    # --- picks ------------------------------------------------------------------------------------------------

    @command("pick", body=Body(
        "Pick a card of the pack you hold, in secret: once every player has picked, the picks are taken and the "
        "packs passed on (left in the first round, right in the second, left in the third...).",
        {"card": card_field("A card of the pack you hold, by its id (the card's id in the set's version).")},
        ({"card": "412"},)))
    def pick(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        seat = ctx.player_seat
        if command_body["card"] not in state.table.player(seat).pack:
            raise DomainError("That card is not in the pack you hold.", code="card_not_in_hand",
                              details={"field": "card"})
        return self.choose(state, ctx, command_body["card"])

    @applies("choices.revealed")
    def apply_choices_revealed(self, state: GameState, event: Event) -> GameState:
        """Each pick taken out of its pack, into its picker's picks."""
        table: DraftState = state.table
        picked = {int(seat): card for seat, card in event.data["choices"].items()}
        players = []
        for player in table.players:
            card = picked.get(player.seat)
            if card is None:
                players.append(player)
                continue
            pack = list(player.pack)
            pack.remove(card)
            players.append(replace(player, pack=tuple(pack), picks=(*player.picks, card)))
        return state.with_table(players=tuple(players))

    @redacts("choices.revealed")
    def redact_choices_revealed(self, event: Event, shown: dict[str, Any], viewer: int | None,
                                before: GameState | None, after: GameState) -> dict[str, Any]:
        """A player's picks are their own: each viewer is shown only their own pick, a spectator none."""
        choices = event.data["choices"]
        return {"choices": {str(viewer): choices[str(viewer)]} if viewer is not None and str(viewer) in choices
                else {}}

    def revealed(self, state: GameState, choices: dict[int, Any], ctx: CommandContext) -> list[Event]:
        """The picks taken: the packs pass on while they hold cards; an empty round opens the next, and the last
        ends the draft."""
        table: DraftState = state.table
        drafting = drafting_seats(state)
        if any(table.player(seat).pack for seat in drafting):
            return [Event("packs.passed", {"direction": table.direction, "pick": table.pick + 1}),
                    self.request_choices(drafting)]
        if table.round < len(table.unopened):
            number = table.round + 1
            return [Event("round.began", {"round": number, "direction": direction_of(number)}),
                    self.request_choices(drafting)]
        return [Event("draft.finished", {"picks": {str(p.seat): len(p.picks) for p in table.players}})]

    @applies("packs.passed", shows=_public("direction", "pick"))
    def apply_packs_passed(self, state: GameState, event: Event) -> GameState:
        """Each player still drafting hands the pack they hold to the next one still drafting, on their left (the
        next seat) or on their right (the seat before)."""
        table: DraftState = state.table
        ring = [p.seat for p in table.players if standing(state, p.seat)]
        step = 1 if event.data["direction"] == LEFT else -1
        held = {p.seat: p.pack for p in table.players}
        # The seat that hands its pack to ``seat``: the one before it in the direction of passing.
        giver = {seat: ring[(index - step) % len(ring)] for index, seat in enumerate(ring)}
        players = tuple(replace(p, pack=held[giver[p.seat]]) if p.seat in giver else p for p in table.players)
        return state.with_table(players=players, pick=event.data["pick"])

    @applies("draft.finished", shows={"picks": PUBLIC})
    def apply_finished(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=())

    # --- live tables ------------------------------------------------------------------------------------------

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats asked for a pick that have not picked."""
        if state.status != ACTIVE:
            return ()
        return tuple(seat for seat in state.choosing if str(seat) not in state.choices and self.takes_part(state, seat))

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """A player out of time leaves the draft with the picks they made: the pack they hold and their packs of the
        rounds to come go out of the game, and the others pass among themselves. When every other player had
        picked already, their picks are taken now. With one player left, the core ends the game."""
        events = [Event("drafters.out", {"seats": sorted(seats)})]
        after = self.fold(state, events)
        drafting = drafting_seats(after)
        if len(drafting) < 2 or not after.choosing or any(str(seat) not in after.choices for seat in after.choosing):
            return events
        made = {seat: after.choices[str(seat)] for seat in after.choosing}
        reveal = Event("choices.revealed", {"choices": {str(seat): card for seat, card in made.items()}})
        return [*events, reveal, *self.revealed(self.evolve(after, reveal), made, ctx)]

    @applies("drafters.out", shows={"seats": PUBLIC})
    def apply_drafters_out(self, state: GameState, event: Event) -> GameState:
        out = set(event.data["seats"])
        table: DraftState = state.table
        players = tuple(replace(p, pack=()) if p.seat in out else p for p in table.players)
        unopened = tuple(tuple(() if seat in out else pack for seat, pack in enumerate(packs))
                         for packs in table.unopened)
        return replace(state, choosing=tuple(seat for seat in state.choosing if seat not in out),
                       choices={seat: card for seat, card in state.choices.items() if int(seat) not in out}
                       ).with_table(players=players, unopened=unopened)

    @applies("game.won_on_time")
    def apply_won_on_time(self, state: GameState, event: Event) -> GameState:
        """A game won on time asks nobody for a pick any more."""
        return replace(state, choosing=(), choices={})

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """The rarity of the cards the seat has picked (common 1, uncommon 2, rare 3), the pick it has made but not
        yet seen taken among them: a ``greedy`` computer player takes the rarest card of its pack."""
        me: dict[str, Any] = next((player for player in view.get("players", ()) if player.get("seat") == seat), {})
        pending = next((made.get("choice") for made in (view.get("choices") or {}).get("made", ())
                        if made.get("seat") == seat), None)
        picked = list(me.get("picks", ()))
        picked += [card for card in me.get("pack", ()) if card.get("id") == pending][:1]
        return float(sum(rarity_of(card) for card in picked))

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        """A ``pick`` of each card of the pack the seat holds (a card of several copies once), while its pick is
        awaited."""
        if state.status != ACTIVE or seat not in state.choosing or str(seat) in state.choices:
            return []
        if not self.takes_part(state, seat):
            return []
        return [{"type": "pick", "card": card} for card in dict.fromkeys(state.table.player(seat).pack)]

    # --- the view -----------------------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The players, each with the size of the pack they hold and how many cards they have picked, and for the
        viewer their pack and picks; the set (``deck``), the rules it is drafted by and, from the start, the
        ``board``: where the draft stands."""
        table = state.table

        def card(card_id: str) -> dict[str, Any]:
            return card_view(table.cards[card_id], table.by_rarity)

        players = []
        for seat in state.seats:
            player = table.player(seat.seat) if seat.seat < len(table.players) else Drafter(seat=seat.seat)
            shown = {"seat": seat.seat, "username": seat.username, "team": seat.team, "status": seat.status,
                     "pack_count": player.pack_count(), "picks_count": player.picks_count()}
            if seat.seat == viewer:
                shown["pack"] = [card(c) for c in player.pack]
                shown["picks"] = [card(c) for c in player.picks]
            players.append(shown)
        rules = rules_shown(state.options)
        board = None
        if table.round:
            rules = {**rules, "pack_size": table.pack_size, "rarity": dict(table.slots) if table.slots else None}
            board = {"round": table.round, "rounds": state.options.get("packs", 3), "pick": table.pick,
                     "direction": table.direction}
        return {"players": players, "deck": dict(table.deck), "rules": rules, "board": board}

    # --- after the draft ------------------------------------------------------------------------------------------

    def drafted(self, state: GameState) -> dict[int, dict[str, int]]:
        """Each seat's picks, as many copies of each card as it picked (by the card's id in the set's version), for
        the player deck the service makes of them; nothing before the draft is over."""
        if state.status not in OVER:
            return {}
        picks: dict[int, dict[str, int]] = {}
        for player in state.table.players:
            counted: dict[str, int] = {}
            for card in player.picks:
                counted[card] = counted.get(card, 0) + 1
            picks[player.seat] = counted
        return picks


def card_view(card: Card | Seen, by_rarity: bool) -> dict[str, Any]:
    """A card as the state shows it; in a set whose cards carry their rarity, with its name (``rarity``)."""
    shown = card_json(card._value if isinstance(card, Seen) else card)
    if by_rarity:
        shown["rarity"] = RARITIES[rarity_of(shown)]
    return shown


def standing(state: GameState | Seen, seat: int) -> bool:
    return state.seat(seat).status != ELIMINATED


def drafting_seats(state: GameState) -> list[int]:
    """The seats still drafting: not out of the game."""
    return [seat.seat for seat in state.seats if seat.status != ELIMINATED]


def _enough(cards: int, *, seats: int, packs: int, pack_size: int) -> None:
    """Refuse a draft whose pool cannot give every player their packs (409 ``not_enough_cards``)."""
    needed = seats * packs * pack_size
    if cards < needed:
        raise DomainError(f"{seats} players opening {packs} packs of {pack_size} cards need {needed} cards; the set "
                          f"gives {cards}.", code="not_enough_cards",
                          details={"cards": cards, "needed": needed, "players": seats, "packs": packs,
                                   "pack_size": pack_size})
