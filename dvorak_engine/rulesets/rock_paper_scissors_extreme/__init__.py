"""Rock Paper Scissors Extreme (Tweed Cap, 5 December 2008): the game as its deck's Special Rules and Notes say.

``RULESET`` plugs the game into the ruleset contract (``ruleset``: ``dvorak_engine.ruleset``). The rules
themselves are pure functions with no Django and no engine state: ``setup`` → events, ``decide(board, seat,
command, rng)`` → events or ``DomainError``, ``evolve(board, event)`` → board, ``legal_moves(board, seat)``,
``view(board, viewer)``, ``view_event(event, viewer)``, ``winners(board)``, ``active_seats(board)``, and
``board_to_json``/``board_from_json``. Events are ``{"type": "rpsx.…", "data": {…}}`` dicts (``evolve`` also
takes any object with ``type`` and ``data``).

The game in short: two players; three face-up cards in the center; each player holds at most three. Each
challenge, both throw Rock, Paper or Scissors at once, in secret; a tie is thrown again. Potions may be drunk
after a throw; totems, scrolls and athames work by themselves. The winner takes an item from the center or
scores; the other then draws from what remains; anyone above three discards one (not the card just drawn); the
center is refilled from the supply. The first to 21 points wins.

Readings (where the rules are silent, the choice made here)
-----------------------------------------------------------
1. A throw is a sign only: ``rock``, ``paper`` or ``scissors``. Items need no choosing ("Totems, scrolls, and
   athames automatically have their effect") and potions are drunk *after* the throw ("After a throw, a player
   may discard a potion"), so no card is named with a throw.
2. Potions are drunk in up to two windows after a throw, each simultaneous and secret like the throw itself:
   the *tie* window when both threw the same sign, before the throw is settled (Sparkly, Black, Rainbow), and
   the *win* window once a throw is won (the winner's Purple/Green/Blue/Red of the winning sign, and either
   player's Black or Rainbow). Only a seat holding a potion it may drink then is asked; it answers ``drink`` or
   ``pass``, and nobody sees an answer before both are in. A window with nobody to ask is skipped. This matches
   the Note on a same-sign throw where "both try to claim a win": both claims are made together.
3. One potion per player per throw ("a player may discard a potion"): a player who drank in the tie window is
   not asked again in the win window of that throw.
4. Potions are items (the Rainbow card speaks of a "non-potion item"): they count toward the three, and may be
   broken, stolen or discarded like any other.
5. Everything on the table is face up: the center, the discard pile and each player's items (the Notes let a
   rainbow potion simulate what is "in your opponent's inventory"). Only the supply's order is hidden.
6. A same-sign throw is won by the one player who claims it (a working Diamond of that sign, a Sparkly potion,
   or a rainbow potion simulating that Diamond); two claims or none make a tie. That is settled when the tie
   window closes; a black potion drunk afterwards, in the win window, cannot undo the win, and negates the
   throw's remaining item effects (Golden, Onyx, Silver, Ruby).
7. A black potion negates every totem, scroll and athame, both players', and any rainbow simulation, from the
   window it is drunk in to the end of the challenge. Other potions still work: the Note names the rainbow as
   the potion it nullifies, and the card says "non-potion items".
8. A rainbow potion's simulated item works for the drinker for the rest of that throw ("a one-time effect"),
   including the effects of winning it. It may simulate a totem, scroll or athame (never a potion) among the
   opponent's items or in the center whose title the drinker does not hold.
9. Silver scores each throw as it ends: a tie when the tie is settled, a win before the claim. Black on a later
   throw does not take back a tie's silver points ("It does not retroactively prevent scoring ...").
10. The winner's ``claim``: ``take`` draws first, the loser second; ``score`` scores 1 (2 with a working Golden
    of the winning sign), the loser draws first and the winner draws from the two remaining ("The other player
    then draws a card from the two remaining"; the Ruby card's "you draw first even when you choose to score"
    shows the scorer still draws). A working Ruby of the winning sign lets the scorer draw first.
11. Purple: the winner scores 2 (a Golden adds nothing: both say 2) and draws first; the claim is ``score``.
12. Green: the winner picks one of the loser's items and takes it "instead of drawing normally"; since the draw
    is replaced whichever way the winner chooses, the winner also scores (1, or 2 with a Golden) and the claim
    is ``score``; the loser alone draws from the center. Green preempts Onyx (no break) and Ruby. If the loser
    has nothing left to steal (it drank its last item in the same window), the winner claims as usual, still
    without Onyx or Ruby.
13. Onyx: the winner picks which of the loser's items breaks (the claim's ``break``); potions may be broken.
    Blue breaks all the loser's items, and Red takes a point, as soon as the win window closes.
14. Two copies of one item (a deck with ``copies`` > 1) do not double its effect, as a rainbow may not.
15. Drawing is not optional. After both draws, a player above three items discards one, never the card just
    drawn, nor the card just stolen with a green potion. Both may have to discard; either may go first.
16. "At any moment": whenever the supply is empty and the discard pile is not, the discard pile is shuffled into
    a new supply (checked after every command). If both are empty the center stays short: a drawer finding it
    empty draws nothing, and a winner facing an empty center can only score.
17. The end is checked after each scoring step (a tie's silver, a win's silver, the claim), so the game may end
    mid-challenge. The player with the most points wins; two players reaching 21 with equal points on the same
    tie share the win.
18. Exactly two seats. A deck card naming no known family (or a signed card whose text names no single sign)
    cannot be played: the game is refused when it is created (409 ``denied``, ``details.cards`` lists the
    titles); fewer than three cards is ``not_enough_cards``. No creative play, and the standard variant only.

Commands (bodies sent by a seat; ``legal_moves`` lists them with ``{"choose", "from", "list"}`` fields)
------------------------------------------------------------------------------------------------------
Each body is declared once in ``bodies`` (its fields, their help, examples): the engine, and ``decide`` here,
check it by that declaration before the board is read.

- ``{"type": "throw", "sign": "rock"}`` — while throwing; each seat once a throw.
- ``{"type": "drink", "potion": "<card id>"}`` — in a potion window the seat is asked in; a rainbow potion adds
  ``"simulate": "<card id>"`` (a totem, scroll or athame of the opponent's or in the center).
- ``{"type": "pass"}`` — in a potion window: drink nothing.
- ``{"type": "claim", "choice": "take"|"score", "break": "<card id>", "steal": "<card id>"}`` — the throw's
  winner; ``break`` only with a working Onyx of the winning sign and something to break, ``steal`` only after
  a green potion (then ``choice`` is ``"score"``, as after a purple potion).
- ``{"type": "draw", "card": "<card id>"}`` — a card from the center, by the seat whose draw it is.
- ``{"type": "discard", "cards": ["<card id>"]}`` — one item, down to three items, not the card just drawn (a
  list, as every ruleset's ``discard`` takes).

Refusals: ``invalid`` (a field of the wrong shape, whatever the stage; or a card or choice the rules do not offer
now), ``wrong_stage`` (not this phase), ``not_your_turn`` (not this seat's to do now, or already done),
``card_not_in_hand`` (a potion or item the seat does not hold), ``denied`` (the rules forbid it: a potion whose
condition is not met, discarding the card just drawn), ``unknown_command``, ``forbidden`` (not a player),
``game_not_active`` (the game is over).

Events (``data`` fields; seats are ints, cards are ids)
-------------------------------------------------------
- ``rpsx.setup`` {seats, cards: [{id, title, text, family, sign}], supply: [ids, top first]} — others see only
  the number of cards and the supply's size.
- ``rpsx.dealt`` {cards} — from the top of the supply, face up into the center.
- ``rpsx.reshuffled`` {supply} — the discard pile, shuffled into a new supply; others see only its size.
- ``rpsx.challenge_started`` {challenge}
- ``rpsx.thrown`` {seat, sign} — others see only {seat} (the reveal follows once both are in).
- ``rpsx.revealed`` {throws: [{seat, sign}]}
- ``rpsx.window_opened`` {window: "tie"|"win", seats}
- ``rpsx.potion_chosen`` {seat, potion|null, simulate|null} — others see only {seat}.
- ``rpsx.potions_revealed`` {window, drunk: [{seat, potion, simulate}]} — the potions go to the discard pile.
- ``rpsx.tied`` {sign} — throw again.
- ``rpsx.won`` {seat, sign}
- ``rpsx.scored`` {seat, points (negative for a red potion), cause: card id or null}
- ``rpsx.broken`` {seat (the owner), cards, cause}
- ``rpsx.stolen`` {seat (the thief), from, card, cause}
- ``rpsx.claimed`` {seat, choice, draw_order: [seats]}
- ``rpsx.drew`` {seat, card}
- ``rpsx.discarded`` {seat, card}
- ``rpsx.finished`` {winners}
"""

from dvorak_engine.rulesets.rock_paper_scissors_extreme.board import (
    EVENT_TYPES,
    Board,
    board_from_json,
    board_to_json,
    evolve,
)
from dvorak_engine.rulesets.rock_paper_scissors_extreme.rules import (
    active_seats,
    decide,
    legal_moves,
    setup,
    winners,
)
from dvorak_engine.rulesets.rock_paper_scissors_extreme.ruleset import NAME, RockPaperScissorsExtremeRuleset
from dvorak_engine.rulesets.rock_paper_scissors_extreme.views import view, view_event

RULESET = RockPaperScissorsExtremeRuleset()

__all__ = [
    "EVENT_TYPES",
    "NAME",
    "RULESET",
    "Board",
    "active_seats",
    "board_from_json",
    "board_to_json",
    "decide",
    "evolve",
    "legal_moves",
    "setup",
    "view",
    "view_event",
    "winners",
]
