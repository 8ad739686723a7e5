"""Socialism on the ruleset contract (``dvorak_engine.ruleset``): each player a social networking site, each card a
member of the digerati (a User) or an Action, the first to place all their tokens the winner.

Read it beside the deck's Special Rules. "Determine the first player randomly, have everyone draw a three-card
hand, and then proceed clockwise" (``setup``); a turn is "1. Draw a card 2. Play a card 3. Invite members to join
their network (this step is optional)": the commands ``draw``, ``play`` and then, in the Invitation phase,
``invite`` (``auto``, ``spam``, ``personal``), ``block`` (Jimmy Block) and ``end_turn``. At the beginning of a
turn, a Viral Post with several new users to move to waits for its player's ``move_viral_post``. Every card
played opens the Sherman Act window while a Sherman Act may be in someone's hand: the other players each
``pass``, or one plays the Sherman Act (``play``, out of turn) to cancel the card. Every die is rolled by the
server and written into a ``social.die_rolled`` event. Each card's effect is in ``actions`` and ``cards``, by
title; each command's body is declared in ``bodies`` (checked by the engine before its handler runs); the
readings a game is played by are in ``options``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from dvorak_core.errors import DomainError
from dvorak_engine import clock
from dvorak_engine.cards import Card, cards_from_json, copy_deck_cards
from dvorak_engine.events import Event
from dvorak_engine.rng import Rng
from dvorak_engine.ruleset import COUNT, OWNER, PUBLIC, CommandContext, Ruleset, applies, command
from dvorak_engine.rulesets.socialism import bodies as declared
from dvorak_engine.rulesets.socialism.actions import (
    resolve_action,
    selection_of,
    selections,
    wrong_field,
)
from dvorak_engine.rulesets.socialism.board import (
    DRAW,
    HAND,
    INVITE,
    PLAY,
    Identity,
    Pending,
    Player,
    SocialismState,
    Turn,
    ViralChoice,
    ViralPost,
    friends,
    identity_on_grid,
    is_user,
    new_placed,
    new_users,
    on_grid,
    unconnected_sets,
    with_player,
)
from dvorak_engine.rulesets.socialism.cards import (
    ACTIONS,
    AUTO,
    PERSONAL,
    SHERMAN_ACT,
    SPAM,
    USER,
    unreadable_cards,
)
from dvorak_engine.rulesets.socialism.invitations import (
    auto_choices,
    block_choices,
    personal_pool,
    personal_sizes,
    spam_choices,
)
from dvorak_engine.rulesets.socialism.moves import socialism_moves, waiting_for
from dvorak_engine.rulesets.socialism.options import (
    CHOSEN,
    ONE,
    invitations,
    read_options,
    stamped,
    viral_post,
)
from dvorak_engine.rulesets.socialism.rules import Unfolding
from dvorak_engine.state import ACTIVE, ELIMINATED, FINISHED, VOTING, GameState, seats_standing
from dvorak_engine.values import replace
from dvorak_engine.visibility import Seen

NAME = "socialism"
# A card as every view shows it: the fields of ``dvorak_engine.cards.Card``.
CARD_FIELDS = tuple(field.name for field in fields(Card) if field.name != "effect")
MIN_PLAYERS, MAX_PLAYERS = 2, 5






def sherman_act_may_be_held(table: SocialismState) -> bool:
    """Whether a Sherman Act may be in a hand: one is in a hand or the draw pile. Only public facts decide (which
    cards are on the discard pile, in play, on the grid), so whether a window opens tells nobody who holds one."""
    hidden = set(table.draw_pile).union(*(p.hand for p in table.players))
    return any(table.cards[card].title == SHERMAN_ACT for card in hidden)


def next_seat(state: GameState, seat: int) -> int:
    """The seat after ``seat`` clockwise still in the game (a player whose clock ran out is skipped)."""
    count = len(state.seats)
    for step in range(1, count + 1):
        following = (seat + step) % count
        if state.seat(following).status != ELIMINATED:
            return following
    return (seat + 1) % count


class SocialismRuleset(Ruleset):
    """Socialism's procedure replaces the Basic Rules: its commands are ``draw``, ``play``, ``pass``, ``invite``,
    ``block``, ``end_turn`` and ``move_viral_post``."""

    name = NAME
    deck_title_phrases = ("socialism",)
    board_title = "The grid"
    # The deck's Special Rules this module carries out (by their opening words): see Ruleset.
    special_rules_carried = (
        'In this game, each of the players takes on the role of a social networking site.',
        "The cards listed below - if you're making your own,",
        'Determine the first player randomly, have everyone draw a three-card hand,',
        'Surely, this is obvious? Remove the top card from the deck.',
        'Each card represents either an Action or a User.',
        'During the Invitation phase, you have a few basic options,',
        'Play continues until one player has exhausted all twenty tokens,',
    )
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    State = SocialismState

    # --- setup --------------------------------------------------------------------------------------------------

    def created(self, *, deck: dict[str, Any], variant: str, creative: bool, options: dict[str, Any], rng: Rng) -> dict[str, Any]:
        """The deck copied in, once every card is one the engine can carry out (else 409 ``denied``, the titles
        in ``details.cards``), the tokens each player has (15, or 20 with ``options.tokens``), and the game's
        options with every reading it is played by written in (``options.read_options``)."""
        if creative:
            raise DomainError(
                "Socialism has no creative play.", code="invalid", details={"field": "creative"}
            )
        tokens, kept = read_options(options)
        cards = [card for card in deck.get("cards", []) if isinstance(card, dict)]
        unreadable = unreadable_cards(cards)
        if unreadable:
            raise DomainError(
                "Socialism cannot play these cards: only the Users and Actions of the Socialism deck "
                "(and Users with no text).",
                code="denied",
                details={"cards": unreadable},
            )
        copies = copy_deck_cards({"cards": cards}, rng)
        needed = HAND * MIN_PLAYERS
        if len(copies) < needed or not any(card["type"] == USER for card in copies):
            raise DomainError(
                f"Socialism needs Users and at least {needed} cards, a three-card hand for each of two players.",
                code="not_enough_cards",
                details={"cards": len(copies), "needed": needed},
            )
        return {
            "deck": {"slug": deck.get("slug", ""), "title": deck.get("title", "")},
            "cards": copies,
            "tokens": tokens,
            "options": kept,
        }

    def setup(self, state: GameState, rng: Rng) -> list[Event]:
        """ "Determine the first player randomly, have everyone draw a three-card hand, and then proceed
        clockwise." """
        table = state.table
        if len(table.cards) < HAND * len(state.seats):
            raise DomainError(
                "The deck has too few cards to deal a three-card hand to everyone.",
                code="not_enough_cards",
                details={"cards": len(table.cards), "needed": HAND * len(state.seats)},
            )
        draw_pile = list(table.cards)
        rng.shuffle(draw_pile)
        first = rng.randbelow(len(state.seats))
        unfolding = Unfolding(self, state, rng)
        unfolding.add("social.started", {"first": first, "draw_pile": draw_pile, "tokens": table.tokens})
        for seat in state.seats:
            hand = list(unfolding.table.draw_pile[:HAND])
            unfolding.add("social.dealt", {"seat": seat.seat, "cards": hand, "count": len(hand)})
        self._begin_turn(unfolding, first)
        return unfolding.events

    # --- the turn -----------------------------------------------------------------------------------------------

    def _begin_turn(self, u: Unfolding, seat: int) -> None:
        """A turn begins; then each Viral Post "moves to a new user, who joins your network"."""
        u.add("social.turn_began", {"seat": seat})
        self._move_viral_posts(u, [post.card for post in u.table.viral_posts])

    def _move_viral_posts(self, u: Unfolding, cards: list[str]) -> None:
        """ "At the beginning of each turn, Viral Post moves to a new user, who joins your network": each of these
        Viral Posts in turn, to a User on an adjacent card not yet on its player's network. With none, it stays
        where it is; with one, it moves there; with several, its player chooses (``options.viral_post``
        ``chosen``: the game waits for its ``move_viral_post``, the Viral Posts after it waiting with it) or the
        server draws one (``random``)."""
        chosen_by_player = viral_post(u.state) == CHOSEN
        for index, card in enumerate(cards):
            if u.over:
                return
            post = next((p for p in u.table.viral_posts if p.card == card), None)
            if post is None or u.state.seat(post.owner).status == ELIMINATED:  # its player is out of the game
                continue
            new = new_users(u.table, post)
            if not new:
                continue
            if not chosen_by_player:
                self._move_viral_post(u, post, new[u.rng.randbelow(len(new))])
            elif len(new) == 1:
                self._move_viral_post(u, post, new[0])
            else:
                u.add(
                    "social.viral_choosing",
                    {"card": card, "owner": post.owner, "choices": new, "then": cards[index + 1 :]},
                )
                return

    def _move_viral_post(self, u: Unfolding, post: ViralPost, user: str) -> None:
        to = identity_on_grid(u.table, user)[0].card
        u.add(
            "social.viral_moved",
            {"card": post.card, "owner": post.owner, "from": post.on, "to": to, "user": user},
        )
        u.join(post.owner, user, "effect", post.card)

    @command("move_viral_post", body=declared.MOVE_VIRAL_POST)
    def move_viral_post(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """The new user a Viral Post moves to, chosen by its player at the beginning of a turn; then the Viral
        Posts after it move, and the turn goes on."""
        choice = state.table.viral_choice
        if choice is None or choice.owner != ctx.seat:
            raise DomainError("No Viral Post of yours waits for its new user.", code="not_your_turn")
        user = command_body["user"]
        if user not in choice.choices:
            raise DomainError(
                '"user" must be a new user the Viral Post may move to: one of those listed.',
                code="invalid",
                details={"field": "user", "from": list(choice.choices)},
            )
        u = Unfolding(self, state, ctx.rng)
        post = next(p for p in u.table.viral_posts if p.card == choice.card)
        self._move_viral_post(u, post, user)
        self._move_viral_posts(u, list(choice.then))
        return u.events

    def _require_turn(self, state: GameState, seat: int, stage: str) -> Turn:
        table = state.table
        if table.viral_choice is not None:
            raise DomainError(
                "A Viral Post waits for its player to choose its new user.",
                code="wrong_stage",
                details={"stage": "viral_post", "waiting": [table.viral_choice.owner]},
            )
        if table.pending is not None:
            raise DomainError(
                "A card is being played: every other player passes or cancels it first.",
                code="wrong_stage",
                details={"stage": "sherman_act", "waiting": list(table.pending.waiting)},
            )
        turn: Turn | None = table.turn
        if turn is None or turn.seat != seat:
            raise DomainError("It is not your turn.", code="not_your_turn")
        if turn.stage != stage:
            raise DomainError(
                f"Your turn is at its {turn.stage} stage.", code="wrong_stage", details={"stage": turn.stage}
            )
        return turn

    @command("draw", body=declared.DRAW)
    def draw(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """ "Remove the top card from the deck. When the deck is empty, shuffle the discards back in." """
        self._require_turn(state, ctx.player_seat, DRAW)
        u = Unfolding(self, state, ctx.rng)
        if not u.table.draw_pile and u.table.discard_pile:
            pile = list(u.table.discard_pile)
            ctx.rng.shuffle(pile)
            u.add("social.reshuffled", {"draw_pile": pile})
        card = u.table.draw_pile[0] if u.table.draw_pile else None
        u.add("social.drew", {"seat": ctx.player_seat, "card": card})
        if not u.table.player(ctx.player_seat).hand:
            u.add("social.stage", {"seat": ctx.player_seat, "stage": INVITE})
        return u.events

    @command("play", body=declared.PLAY)
    def play(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """A card from your hand: in your turn's play stage, or a Sherman Act out of turn while another player's
        card is being played."""
        table, seat = state.table, ctx.player_seat
        card = command_body["card"]
        pending = table.pending
        if pending is not None and seat in pending.waiting:
            return self._sherman_act(state, ctx, card)
        self._require_turn(state, seat, PLAY)
        if card not in table.player(seat).hand:
            raise DomainError(
                "That card is not in your hand.", code="card_not_in_hand", details={"field": "card"}
            )
        selection = selection_of(command_body)
        title = table.cards[card].title
        if not is_user(table, card) and ACTIONS[title].out_of_turn:
            others = [c for c in table.player(seat).hand if table.cards[c].title != SHERMAN_ACT]
            if others:
                raise DomainError(
                    "The Sherman Act is played out of turn, to cancel another player's card as it is played.",
                    code="denied",
                    details={"field": "card"},
                )
            if selection:
                raise DomainError(
                    "A Sherman Act played in your own turn does nothing: it selects nothing.",
                    code="invalid",
                    details={"field": next(iter(selection))},
                )
            u = Unfolding(self, state, ctx.rng)
            u.add("social.played", {"seat": seat, "card": card, "selection": {}, "waiting": []})
            u.add("social.discarded", {"card": card})
            u.add("social.stage", {"seat": seat, "stage": INVITE})
            return u.events
        allowed = selections(table, seat, card, seats_standing(state))
        if selection not in allowed:
            name, values = wrong_field(selection, allowed)
            raise DomainError(
                f'This play cannot select that: "{name}" must be one of those listed.',
                code="invalid",
                details={"field": name, "from": values[:100]},
            )
        u = Unfolding(self, state, ctx.rng)
        waiting = [s for s in seats_standing(state) if s != seat] if sherman_act_may_be_held(table) else []
        u.add("social.played", {"seat": seat, "card": card, "selection": selection, "waiting": waiting})
        if not waiting:
            self._resolve(u)
        return u.events

    def _sherman_act(self, state: GameState, ctx: CommandContext, card: str) -> list[Event]:
        """ "Play this card out of turn to cancel another card as it is played. Both this card and the canceled
        card go to the discard pile." """
        table = state.table
        if card not in table.player(ctx.seat).hand:
            raise DomainError(
                "That card is not in your hand.", code="card_not_in_hand", details={"field": "card"}
            )
        if table.cards[card].title != SHERMAN_ACT:
            raise DomainError(
                "Out of turn, only a Sherman Act may be played.",
                code="not_your_turn",
                details={"field": "card"},
            )
        pending = table.pending
        u = Unfolding(self, state, ctx.rng)
        u.add(
            "social.canceled", {"card": pending.card, "seat": pending.seat, "by": ctx.seat, "sherman": card}
        )
        u.add("social.stage", {"seat": pending.seat, "stage": INVITE})
        return u.events

    @command("pass", body=declared.PASS)
    def pass_(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Let the card being played take effect (the Sherman Act window): once every other player has passed,
        it does."""
        pending = state.table.pending
        if pending is None or ctx.seat not in pending.waiting:
            raise DomainError("No card being played waits for you.", code="not_your_turn")
        u = Unfolding(self, state, ctx.rng)
        u.add("social.passed", {"seat": ctx.seat})
        if not u.table.card_being_played().waiting:
            self._resolve(u)
        return u.events

    def _resolve(self, u: Unfolding) -> None:
        """The card played takes effect: a User goes on the grid, an Action's instructions are followed. Then the
        Invitation phase."""
        pending = u.table.card_being_played()
        if is_user(u.table, pending.card):
            u.add(
                "social.placed",
                {"card": pending.card, "x": pending.selection["x"], "y": pending.selection["y"]},
            )
        else:
            resolve_action(u, pending.seat, pending.card, dict(pending.selection))
        if not u.over:
            u.add("social.stage", {"seat": pending.seat, "stage": INVITE})

    # --- the Invitation phase -----------------------------------------------------------------------------------

    @command("invite", body=declared.INVITE)
    def invite(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """One of the three invitations, each once a turn: ``auto`` (the User you played this turn), ``spam``
        (any User in play, joining on a 6), ``personal`` (one of your Members invites Friends, each joining on a
        4, 5 or 6)."""
        turn = self._require_turn(state, ctx.player_seat, INVITE)
        how = command_body["how"]
        if how in turn.invited:
            raise DomainError(
                f"You have already sent your {how} invitation this turn.",
                code="denied",
                details={"field": "how"},
            )
        self._require_no_invitation_yet(state, turn, "how")
        table, seat = state.table, ctx.player_seat
        u = Unfolding(self, state, ctx.rng)
        u.add("social.invitation", {"seat": seat, "how": how})
        if how == PERSONAL:
            member, chosen = self._personal_fields(table, seat, command_body)
            u.personal_invitation(seat, member, chosen)
            return u.events
        user = command_body["user"]
        if how == AUTO:
            if user not in auto_choices(table, seat):
                raise DomainError(
                    "The automatic invitation is for a User you played this turn and who is not yet "
                    "on your network.",
                    code="denied",
                    details={"field": "user"},
                )
            u.join(seat, user, AUTO, None)
        else:
            if user not in spam_choices(table, seat):
                raise DomainError(
                    "You may not spam invite that User (already yours, blocked, or across a gap).",
                    code="denied",
                    details={"field": "user"},
                )
            u.invite(seat, SPAM, user)
        return u.events

    def _require_no_invitation_yet(self, state: GameState, turn: Turn, field: str) -> None:
        """``options.invitations`` ``one``: "a few basic options" read as one of them a turn."""
        if turn.invited and invitations(state) == ONE:
            raise DomainError(
                "This game allows one invitation a turn (options.invitations: one), and you have sent yours.",
                code="denied",
                details={"field": field},
            )

    def _personal_fields(self, table: SocialismState, seat: int, body: dict[str, Any]) -> tuple[str, list[str]]:
        member = body["member"]
        pool = personal_pool(table, seat, member)
        if pool is None:
            raise DomainError(
                '"member" must be a User on your network who personally invites.',
                code="denied",
                details={"field": "member"},
            )
        chosen = body["friends"]
        if not set(chosen) <= set(pool):
            raise DomainError(
                '"friends" must be Friends of the Member not yet on your network.',
                code="denied",
                details={"field": "friends", "from": pool},
            )
        if len(chosen) not in personal_sizes(table, member, pool):
            raise DomainError(
                "That Member may not invite that many Friends.",
                code="denied",
                details={"field": "friends", "sizes": personal_sizes(table, member, pool)},
            )
        return member, chosen

    @command("block", body=declared.BLOCK)
    def block(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """Jimmy Block: "instead of having him personally invite Friends, you may try to remove a token color that
        isn't also on Jimmy's card from one Friend. This is successful on a 4, 5, or 6." """
        turn = self._require_turn(state, ctx.player_seat, INVITE)
        if PERSONAL in turn.invited:
            raise DomainError(
                "You have already sent your personal invitation this turn.",
                code="denied",
                details={"field": "member"},
            )
        self._require_no_invitation_yet(state, turn, "member")
        member, friend, color = command_body["member"], command_body["friend"], command_body["color"]
        if (member, friend, color) not in block_choices(state.table, ctx.player_seat):
            raise DomainError(
                "Jimmy Block, on your network, removes from one of his Friends a colour that is not "
                "on his own card.",
                code="denied",
                details={"field": "friend"},
            )
        u = Unfolding(self, state, ctx.rng)
        u.add("social.invitation", {"seat": ctx.player_seat, "how": PERSONAL})
        u.block(ctx.player_seat, member, friend, color)
        return u.events

    @command("end_turn", body=declared.END_TURN)
    def end_turn(self, state: GameState, command_body: dict[str, Any], ctx: CommandContext) -> list[Event]:
        """The end of the Invitation phase, and of the turn: play proceeds clockwise."""
        self._require_turn(state, ctx.player_seat, INVITE)
        u = Unfolding(self, state, ctx.rng)
        u.add("social.turn_ended", {"seat": ctx.player_seat})
        self._begin_turn(u, next_seat(state, ctx.player_seat))
        return u.events

    # --- how the events change the state ------------------------------------------------------------------------

    @applies("game.created", shows={"deck": PUBLIC, "cards": COUNT, "tokens": PUBLIC})
    def apply_game_created(self, state: GameState, event: Event) -> GameState:
        data = event.data
        return replace(
            state,
            table=SocialismState(
                deck=dict(data["deck"]), cards=cards_from_json(data["cards"]), tokens=data["tokens"]
            ),
        )

    @applies("player.joined")
    def apply_player_joined(self, state: GameState, event: Event) -> GameState:
        player = Player(seat=event.data["seat"], tokens=state.table.tokens)
        return state.with_table(players=(*state.table.players, player))

    @applies("social.started", shows={"first": PUBLIC, "draw_pile": COUNT, "tokens": PUBLIC})
    def apply_started(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=ACTIVE).with_table(
            draw_pile=tuple(event.data["draw_pile"]), first_player=event.data["first"], started=True
        )

    @applies("social.dealt", shows={"seat": PUBLIC, "cards": OWNER, "count": PUBLIC})
    def apply_dealt(self, state: GameState, event: Event) -> GameState:
        table, cards = state.table, event.data["cards"]
        player = table.player(event.data["seat"])
        table = with_player(table, replace(player, hand=(*player.hand, *cards)))
        return replace(
            state, table=replace(table, draw_pile=tuple(c for c in table.draw_pile if c not in cards))
        )

    @applies("social.turn_began", shows={"seat": PUBLIC})
    def apply_turn_began(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=Turn(seat=event.data["seat"]))

    @applies("social.reshuffled", shows={"draw_pile": COUNT})
    def apply_reshuffled(self, state: GameState, event: Event) -> GameState:
        return state.with_table(draw_pile=tuple(event.data["draw_pile"]), discard_pile=())

    @applies("social.drew", shows={"seat": PUBLIC, "card": OWNER})
    def apply_drew(self, state: GameState, event: Event) -> GameState:
        table, card = state.table, event.data["card"]
        if card is not None:
            player = table.player(event.data["seat"])
            table = replace(
                with_player(table, replace(player, hand=(*player.hand, card))), draw_pile=table.draw_pile[1:]
            )
        return replace(state, table=replace(table, turn=replace(table.turn, stage=PLAY)))

    @applies("social.played", shows=dict.fromkeys(("seat", "card", "selection", "waiting"), PUBLIC))
    def apply_played(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.table.player(data["seat"])
        table = with_player(
            state.table, replace(player, hand=tuple(c for c in player.hand if c != data["card"]))
        )
        pending = Pending(
            seat=data["seat"],
            card=data["card"],
            selection=dict(data["selection"]),
            waiting=tuple(data["waiting"]),
        )
        return replace(state, table=replace(table, pending=pending))

    @applies("social.passed", shows={"seat": PUBLIC})
    def apply_passed(self, state: GameState, event: Event) -> GameState:
        pending = state.table.pending
        return state.with_table(
            pending=replace(pending, waiting=tuple(s for s in pending.waiting if s != event.data["seat"]))
        )

    @applies("social.canceled", shows=dict.fromkeys(("card", "seat", "by", "sherman"), PUBLIC))
    def apply_canceled(self, state: GameState, event: Event) -> GameState:
        data = event.data
        player = state.table.player(data["by"])
        table = with_player(
            state.table, replace(player, hand=tuple(c for c in player.hand if c != data["sherman"]))
        )
        return replace(
            state,
            table=replace(
                table, pending=None, discard_pile=(*table.discard_pile, data["card"], data["sherman"])
            ),
        )

    @applies("social.placed", shows=dict.fromkeys(("card", "x", "y"), PUBLIC))
    def apply_placed(self, state: GameState, event: Event) -> GameState:
        table, data = state.table, event.data
        card = new_placed(table.cards[data["card"]], data["x"], data["y"])
        return state.with_table(
            grid=(*table.grid, card), pending=None, turn=replace(table.turn, played_user=data["card"])
        )

    @applies("social.copied", shows=dict.fromkeys(("card", "copy", "acts_as"), PUBLIC))
    def apply_copied(self, state: GameState, event: Event) -> GameState:
        return state.with_table(
            acting_as={**state.table.acting_as, event.data["card"]: event.data["acts_as"]}
        )

    @applies("social.kept", shows=dict.fromkeys(("card", "seat"), PUBLIC))
    def apply_kept(self, state: GameState, event: Event) -> GameState:
        player = state.table.player(event.data["seat"])
        table = with_player(state.table, replace(player, in_front=(*player.in_front, event.data["card"])))
        return replace(state, table=replace(table, pending=None))

    @applies("social.discarded", shows={"card": PUBLIC})
    def apply_discarded(self, state: GameState, event: Event) -> GameState:
        table = state.table
        return state.with_table(
            pending=None,
            discard_pile=(*table.discard_pile, event.data["card"]),
            acting_as={k: v for k, v in table.acting_as.items() if k != event.data["card"]},
        )

    @applies("social.stage", shows={"seat": PUBLIC, "stage": PUBLIC})
    def apply_stage(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=replace(state.table.turn, stage=event.data["stage"]))

    @applies("social.invitation", shows={"seat": PUBLIC, "how": PUBLIC})
    def apply_invitation(self, state: GameState, event: Event) -> GameState:
        turn = state.table.turn
        return state.with_table(turn=replace(turn, invited=(*turn.invited, event.data["how"])))

    @applies(
        "social.die_rolled",
        shows=dict.fromkeys(
            ("seat", "what", "user", "by", "cause", "roll", "needs", "success", "color"), PUBLIC
        ),
    )
    def apply_die_rolled(self, state: GameState, event: Event) -> GameState:
        return state

    @applies("social.picked", shows=dict.fromkeys(("by", "from", "picked", "cause"), PUBLIC))
    def apply_picked(self, state: GameState, event: Event) -> GameState:
        return state

    @applies("social.joined", shows=dict.fromkeys(("seat", "user", "how", "cause"), PUBLIC))
    def apply_joined(self, state: GameState, event: Event) -> GameState:
        seat = event.data["seat"]
        state = _change_members(state, event.data["user"], lambda members: (*members, seat))
        player = state.table.player(seat)
        return state.with_table(**_players(state.table, replace(player, tokens=player.tokens - 1)))

    @applies("social.left", shows=dict.fromkeys(("seat", "user", "cause"), PUBLIC))
    def apply_left(self, state: GameState, event: Event) -> GameState:
        seat = event.data["seat"]
        state = _change_members(
            state, event.data["user"], lambda members: tuple(m for m in members if m != seat)
        )
        player = state.table.player(seat)
        return state.with_table(**_players(state.table, replace(player, tokens=player.tokens + 1)))

    @applies("social.removed", shows=dict.fromkeys(("card", "cause", "to", "seat"), PUBLIC))
    def apply_removed(self, state: GameState, event: Event) -> GameState:
        """A User leaves the grid: its tokens back to their owners, the Viral Posts on it to the discard pile."""
        data, table = event.data, state.table
        card = on_grid(table, data["card"])
        players = list(table.players)
        for identity in card.identities:
            for seat in identity.members:
                players[seat] = replace(players[seat], tokens=players[seat].tokens + 1)
        gone = [post.card for post in table.viral_posts if post.on == card.card]
        players = [replace(p, in_front=tuple(c for c in p.in_front if c not in gone)) for p in players]
        discard = (*table.discard_pile, *gone)
        if data["to"] == "hand":
            players[data["seat"]] = replace(
                players[data["seat"]], hand=(*players[data["seat"]].hand, card.card)
            )
        else:
            discard = (*discard, card.card)
        return state.with_table(
            grid=tuple(p for p in table.grid if p.card != card.card),
            players=tuple(players),
            discard_pile=discard,
            viral_posts=tuple(post for post in table.viral_posts if post.card not in gone),
            acting_as={k: v for k, v in table.acting_as.items() if k not in gone},
        )

    @applies("social.action_removed", shows=dict.fromkeys(("card", "cause"), PUBLIC))
    def apply_action_removed(self, state: GameState, event: Event) -> GameState:
        table, card = state.table, event.data["card"]
        players = tuple(replace(p, in_front=tuple(c for c in p.in_front if c != card)) for p in table.players)
        return state.with_table(
            players=players,
            discard_pile=(*table.discard_pile, card),
            viral_posts=tuple(post for post in table.viral_posts if post.card != card),
            acting_as={k: v for k, v in table.acting_as.items() if k != card},
        )

    @applies("social.viral_moved", shows=dict.fromkeys(("card", "owner", "from", "to", "user"), PUBLIC))
    def apply_viral_moved(self, state: GameState, event: Event) -> GameState:
        data, table = event.data, state.table
        posts = tuple(post for post in table.viral_posts if post.card != data["card"])
        moved: dict[str, Any] = {"viral_posts": (*posts, ViralPost(card=data["card"], owner=data["owner"], on=data["to"]))}
        if table.viral_choice is not None and table.viral_choice.card == data["card"]:
            moved["viral_choice"] = None
        return state.with_table(**moved)

    @applies("social.viral_choosing", shows=dict.fromkeys(("card", "owner", "choices", "then"), PUBLIC))
    def apply_viral_choosing(self, state: GameState, event: Event) -> GameState:
        data = event.data
        choice = ViralChoice(
            card=data["card"], owner=data["owner"], choices=tuple(data["choices"]), then=tuple(data["then"])
        )
        return state.with_table(viral_choice=choice)

    @applies("social.turn_ended", shows={"seat": PUBLIC})
    def apply_turn_ended(self, state: GameState, event: Event) -> GameState:
        return state.with_table(turn=None)

    @applies("social.finished", shows={"winners": PUBLIC, "reason": PUBLIC})
    def apply_finished(self, state: GameState, event: Event) -> GameState:
        return replace(state, status=FINISHED, winners=tuple(event.data["winners"]))

    @applies("social.viral_lapsed", shows=dict.fromkeys(("card", "owner"), PUBLIC))
    def apply_viral_lapsed(self, state: GameState, event: Event) -> GameState:
        """A Viral Post's player ran out of time choosing its new user: it stays where it is."""
        return state.with_table(viral_choice=None)

    # --- live tables: clocks, undo, computer players ------------------------------------------------------------

    # What shows a seat something it could not see: the three-card hands dealt, a card drawn, every die rolled,
    # and the server's random pick of the Friends an invitation goes to.
    reveals = frozenset({"social.dealt", "social.drew", "social.die_rolled", "social.picked"})

    def awaited(self, state: GameState) -> tuple[int, ...]:
        """The seats the game waits for (``waiting_for``): a Viral Post's player choosing its new user, the
        players of the Sherman Act window who have not answered, else the player whose turn it is."""
        if state.status not in (ACTIVE, VOTING):
            return ()
        return tuple(seat for seat in waiting_for(state) if state.seat(seat).status != ELIMINATED)

    def timed_out(self, state: GameState, seats: list[int], ctx: CommandContext) -> list[Event]:
        """The game goes on without the seats whose time ran out: a Viral Post waiting for its player's choice
        stays where it is (``social.viral_lapsed``) and the Viral Posts after it move; in the Sherman Act window
        they pass (the card takes effect once nobody else is waited for); a turn of theirs ends, and the next
        player still in the game begins theirs. Their tokens stay on the grid, their Viral Posts move no more.
        With one side left the core ends the game."""
        if len(clock.sides_standing(state)) <= 1:
            return []
        out = set(seats)
        u = Unfolding(self, state, ctx.rng)
        choice = u.table.viral_choice
        pending = u.table.pending
        if choice is not None and choice.owner in out:
            u.add("social.viral_lapsed", {"card": choice.card, "owner": choice.owner})
            self._move_viral_posts(u, list(choice.then))
        elif choice is None and pending is not None and out & set(pending.waiting):
            for seat in pending.waiting:
                if seat in out:
                    u.add("social.passed", {"seat": seat})
            if not u.table.card_being_played().waiting:
                self._resolve(u)
        turn = u.table.turn
        if (not u.over and turn is not None and u.state.seat(turn.seat).status == ELIMINATED
                and u.table.viral_choice is None and u.table.pending is None):
            u.add("social.turn_ended", {"seat": turn.seat})
            self._begin_turn(u, next_seat(u.state, turn.seat))
        return u.events

    def evaluate(self, view: dict[str, Any], seat: int) -> float:
        """How far ``seat`` is ahead of its nearest rival in the race to place every token: the tokens its best
        placed opponent still holds less its own (each Member on its network is one), and a tenth of a point for
        each card in its hand (a card it may play)."""
        players = [p for p in view.get("players", ()) if p.get("status") != ELIMINATED and "counters" in p]
        me = next((p for p in players if p.get("seat") == seat), None)
        others = [p["counters"]["tokens"] for p in players if p.get("seat") != seat]
        if me is None or not others:
            return 0.0
        result: float = min(others) - me["counters"]["tokens"] + 0.1 * me.get("hand_count", 0)
        return result

    # --- what each viewer sees ----------------------------------------------------------------------------------

    def shown(self, state: Seen, viewer: int | None) -> dict[str, Any]:
        """The envelope's players, each with its tokens left (the counter ``tokens``), hand size and the Actions
        in front of it, your own hand; and the ``board`` (null until the game starts): the grid with every
        token, the Viral Posts, the piles (the draw pile counted), the turn and the card being played."""
        table = state.table
        players = []
        for seat in state.seats:
            shown: dict[str, Any] = {
                "seat": seat.seat,
                "username": seat.username,
                "team": seat.team,
                "status": seat.status,
            }
            if table.started:
                player = table.players[seat.seat]
                shown.update(
                    {
                        "counters": {"tokens": player.tokens},
                        "tokens_placed": table.tokens - player.tokens,
                        "hand_count": player.hand_count(),
                        "in_front": [self._card(table, c) for c in player.in_front],
                    }
                )
                if seat.seat == viewer:
                    shown["hand"] = [self._card(table, c) for c in player.hand]
            players.append(shown)
        readings = stamped(state)
        return {
            "deck": dict(table.deck),
            "tokens": table.tokens,
            # The readings the game is played by; a game created before they were written shows none.
            **({"options": readings} if readings is not None else {}),
            "players": players,
            "board": self._board(state, viewer, readings is not None) if table.started else None,
        }

    def _card(self, table: Seen, card_id: str) -> dict[str, Any]:
        """A card whose id the viewer was shown, looked up in the table's cards (read by id only)."""
        card = table.cards[card_id]
        shown = {name: getattr(card, name) for name in CARD_FIELDS}
        shown["stats"] = dict(card.stats)
        if card_id in table.acting_as:
            shown["acts_as"] = table.acting_as[card_id]
        return shown

    def _board(self, state: Seen, viewer: int | None, readings_written: bool) -> dict[str, Any]:
        """The board; it shows ``viral_choice`` when the game's readings were written when it was created (a game
        created before has none)."""
        table = state.table
        turn, pending = table.turn, table.pending
        choice = table.viral_choice
        return {
            "first_player": table.first_player,
            "turn": None
            if turn is None
            else {
                "seat": turn.seat,
                "stage": turn.stage,
                "played_user": turn.played_user,
                "invited": list(turn.invited),
            },
            "grid": [
                {
                    "card": self._card(table, p.card),
                    "x": p.x,
                    "y": p.y,
                    "identities": [_identity_view(i) for i in p.identities],
                    "friends": sorted({f for i in p.identities for f in friends(table, i.id)}),
                }
                for p in table.grid
            ],
            "sets": unconnected_sets(table),
            "viral_posts": [
                {"card": post.card, "owner": post.owner, "on": post.on} for post in table.viral_posts
            ],
            **(
                {
                    "viral_choice": None
                    if choice is None
                    else {"card": choice.card, "owner": choice.owner, "choices": list(choice.choices)}
                }
                if readings_written
                else {}
            ),
            "draw_pile": {"count": len(table.draw_pile)},
            "discard_pile": [self._card(table, c) for c in table.discard_pile],
            "pending": None
            if pending is None
            else {
                "seat": pending.seat,
                "card": self._card(table, pending.card),
                "selection": dict(pending.selection),
                "waiting": list(pending.waiting),
            },
            "waiting_for": waiting_for(state),
        }

    # --- legal moves --------------------------------------------------------------------------------------------

    def legal_moves(self, state: GameState, seat: int) -> list[dict[str, Any]]:
        return socialism_moves(state, seat)


def _identity_view(identity: Identity) -> dict[str, Any]:
    return {"id": identity.id, "name": identity.name, "members": list(identity.members)}


def _players(table: SocialismState, player: Player) -> dict[str, Any]:
    return {"players": with_player(table, player).players}


def _change_members(state: GameState, identity_id: str,
                    change: Callable[[tuple[int, ...]], tuple[int, ...]]) -> GameState:
    table = state.table
    grid = tuple(
        replace(
            p,
            identities=tuple(
                replace(i, members=change(i.members)) if i.id == identity_id else i for i in p.identities
            ),
        )
        for p in table.grid
    )
    return state.with_table(grid=grid)


__all__ = ["NAME", "SocialismRuleset"]
