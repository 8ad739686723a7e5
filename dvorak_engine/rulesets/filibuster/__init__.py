"""Filibuster (Drock, 1 June 2012), a CCG set with its own procedure: campaigns, filibusters, points to 200.

``RULESET`` plugs the game into the ruleset contract (``dvorak_engine.ruleset``); the rules are in ``ruleset``,
what a card must carry in ``cards``, the table in ``state``.

The game in short: every campaign, all players roll their dice and the highest is the pitcher; everyone draws five.
The pitcher must play a Campaign Card if able (else the next-highest roller who can, who becomes the pitcher; if
nobody can, the campaign dies), then may play one Constant. In the Main Step Gambits are stacked on the Campaign, a
Gambit only on one of equal or lesser value (else it fizzles), and resolve from the top down. In the End Step the
pitcher gains 10 points. At the beginning of every step but the Roll Step, a non-pitcher may filibuster the pitcher:
both reveal a card at once; the higher value takes or keeps the pitch, with a counter and a second reveal after a
success. The first player to 200 points wins; points never go below 0.

Readings (where the rules are silent, the choice made here)
-----------------------------------------------------------
1. Decks. "This is a CCG set": in a ``ccg`` game each player brings a player deck built from the set (as in CCG
   Dvorak: ``options.player_deck`` when creating, ``player_deck`` when joining). In a ``standard`` game (the
   default) every player plays a copy of the whole set as their own deck. Each player draws from, discards to and
   shuffles only their own piles; an empty draw pile is refilled by shuffling its owner's discard pile.
2. Dice: two six-sided dice each, rolled by the server. Players tied on a total roll again among themselves, as
   often as needed, to order them; the order (highest first) gives the pitcher and "the next-highest dice value".
3. Hands are kept from one campaign to the next ("All players draw 5 cards" each Roll Step); there is no hand
   limit.
4. "The pitcher must play a Campaign Card if able": the pitcher if they hold one, else the first in the dice's
   order who does; that player must play one (they are offered no pass) and becomes the pitcher. When nobody holds
   one, "the campaign dies": each player's hand, draw pile and discard pile ("their decks") are shuffled together
   into their draw pile, and any player's ``roll_dice`` starts the next campaign. (Shuffling hands only into the draw
   piles could leave every Campaign in the discard piles for ever.)
5. After the Campaign, the pitcher may play one Constant or pass. "Gambits can be played in response to
   Constants": a Constant opens a stacking round in the Beginning Step, as a Gambit does in the Main Step.
6. Stacking: in the Main Step the pitcher stacks the first Gambit or passes (then nobody stacks, and the Main
   Step ends). After each Gambit played, the turn to stack goes round the table from the next seat; the round ends
   when every player but the last to play one has passed since (a player with no cards passes by themselves).
   The first Gambit on the Campaign always stacks; a later one of lower value than the top Gambit fizzles, which
   also counts as playing one. Then the stack resolves from the top down, and the step ends.
7. Card effects: a card's simple effect may be given in its ``stats`` (points, points to a player, draw, destroy
   a Constant: ``cards``), and the engine applies it when a Campaign or Constant is played and when a Gambit
   resolves. A card with no effect in ``stats`` has its text carried out by its player with the effect moves
   ``score``, ``draw`` and ``destroy``, naming it in ``cause`` (their Campaign or Constants in play, their Gambits
   on the stack); such a Gambit, reaching the top of the stack as it resolves, waits there until its player sends
   ``resolve``.
8. A filibuster is offered, at the beginning of the Beginning, Main and End Steps, to each non-pitcher holding a
   card while the pitcher holds one too; each answers ``filibuster`` or ``pass``, and the first ``filibuster``
   closes the window: one filibuster a step. Both then ``reveal_card`` a card in secret (the contract's simultaneous
   moves); a card revealed and not discarded goes back to its holder's hand.
9. After a successful filibuster, the former pitcher (if holding a card) may ``counter_filibuster`` with a card of a higher
   value than the filibusterer's, or pass; the filibusterer (if holding a card) may ``respond`` with a second
   card, or pass, which leaves the former pitcher the pitcher again. When the counter wins, the counter's card goes
   back to the former pitcher's hand (the rules discard only the filibusterer's cards then); when it loses, both
   cards are discarded and the former pitcher loses 20 points. No other points change.
10. "The first player to get 200 points wins": checked at every change of points, so the game may end in the
    middle of a step.
"""

from dvorak_engine.rulesets.filibuster.ruleset import NAME, FilibusterRuleset

RULESET = FilibusterRuleset()

__all__ = ["NAME", "RULESET", "FilibusterRuleset"]
