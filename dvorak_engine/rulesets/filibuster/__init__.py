"""Filibuster (Drock, 1 June 2012), a CCG set with its own procedure: campaigns, filibusters, points to 200.

``RULESET`` plugs the game into the ruleset contract (``dvorak_engine.ruleset``); the rules are in ``ruleset``,
what a card must carry in ``cards``, the table in ``state``, the game's options in ``options``.

The game in short: every campaign, all players roll their dice and the highest is the pitcher; everyone draws five.
The pitcher must play a Campaign Card if able (else the next-highest roller who can, who becomes the pitcher; if
nobody can, the campaign dies), then may play one Constant. In the Main Step Gambits are stacked on the Campaign, a
Gambit only on one of equal or lesser value (else it fizzles), and resolve from the top down. In the End Step the
pitcher gains 10 points. At the beginning of every step but the Roll Step, a non-pitcher may filibuster the pitcher:
both reveal a card at once; the higher value takes or keeps the pitch, with a counter and a second reveal after a
success. The first player to 200 points wins; points never go below 0.

Readings (where the rules are silent, the choice made here)
-----------------------------------------------------------
Where players might settle a point otherwise, it is an option of the game (``options``, checked when the game is
created: a bad value is 400 ``invalid``), and every game is created with its options written in full
(``options.read_options``), so it keeps them whatever the defaults become. A game created before an option was
written keeps the reading it was played by then (said below).

1. Decks. "This is a CCG set, a set of cards which can be used to construct personalised decks": by default
   (the ``ccg`` variant) each player brings a player deck built from the set, as in CCG Dvorak
   (``options.player_deck`` when creating, ``player_deck`` when joining); a game is refused (400 ``invalid``)
   without one. The set gives no deck-building rule: a player deck is one the service's CCG side holds valid for
   the set (its own size rule, twenty cards unless the set's Special Rules say otherwise). The ``standard``
   variant, an option, gives every player a copy of the whole set as their own deck (the default of games
   created before the ``ccg`` one became it). Each player draws from, discards to and shuffles only their own
   piles; an empty draw pile is refilled by shuffling its owner's discard pile.
2. Dice. "All players roll their dice" says neither how many nor of what kind: six-sided dice, two each unless
   ``options.dice`` says another number (1 to 6), rolled by the server. Players tied on a total roll again among
   themselves, as often as needed, to order them; the order (highest first) gives the pitcher and "the
   next-highest dice value".
3. Hands. The page's opening line ("Draw five cards each ...") is the wiki's summary of the Basic Rules, which
   the set's procedure replaces: the first Roll Step's "All players draw 5 cards" deals the first hands. Hands
   are kept from one campaign to the next, each Roll Step drawing five more; there is no hand limit and no
   turn.
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
8. Filibusters. "At the beginning of any step during a campaign except the roll step, if you are not the
   pitcher, you can filibuster the pitcher": at the beginning of the Beginning, Main and End Steps a window asks
   each non-pitcher holding a card, while the pitcher holds one too; each answers ``filibuster`` or ``pass``.
   The rules give the filibuster to every "you" who is not the pitcher and limit it no further, so by default
   (``options.filibusters``: ``each``) every player may filibuster once a step: a filibuster holds the window
   until it is settled, then the window goes on, asking those who may filibuster the pitcher now and have not
   filibustered in this step; when the pitch stayed where it was, only those who had not answered yet (a pass
   declined to filibuster this pitcher); when it changed hands, all of them (the former pitcher too: they are
   no longer the pitcher). The step goes on once nobody is left to ask. With ``options.filibusters``: ``one``
   (the reading of games created before the option), the first ``filibuster`` closes the window: one
   filibuster a step. The filibusterer and the pitcher then ``reveal_card`` a card of their hand, any card
   whatever its type, in secret (the contract's simultaneous moves); a card revealed and not discarded goes back
   to its holder's hand.
9. After a successful filibuster, the former pitcher (if holding a card) may ``counter_filibuster`` with a card of a higher
   value than the filibusterer's, or pass; the filibusterer (if holding a card) may ``respond`` with a second
   card, or pass, which leaves the former pitcher the pitcher again. When the counter wins, the counter's card goes
   back to the former pitcher's hand (the rules discard only the filibusterer's cards then); when it loses, both
   cards are discarded and the former pitcher loses 20 points. No other points change. "You become the pitcher
   for the remainder of the campaign" unless a later filibuster takes the pitch: the pitcher of the End Step,
   however they came to pitch, gains its 10 points.
10. "The first player to get 200 points wins": checked at every change of points, so the game may end in the
    middle of a step.
"""

from dvorak_engine.rulesets.filibuster.ruleset import NAME, FilibusterRuleset

RULESET = FilibusterRuleset()

__all__ = ["NAME", "RULESET", "FilibusterRuleset"]
