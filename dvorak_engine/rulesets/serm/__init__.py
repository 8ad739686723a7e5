"""S.E.R.M., the Simplistic Wargame with four stats (Coprolite Golem, 2011): a skirmish of two players.

``RULESET`` plugs the game into the ruleset contract (``ruleset``). The rules are read beside the deck's Special
Rules and its eight soldier cards: ``cards`` reads each soldier's stats, cost and abilities from the deck,
``geometry`` measures the table, ``reading`` says who sees what and where a Move goes, ``bodies`` declares each
command's body (checked before its handler runs), ``ruleset`` decides and applies the events, ``moves`` lists the
legal moves, ``views`` shows the table (all of it, to everyone: the game hides nothing). docs/serm.md is the
players' guide, with a diagram of the geometry.

Readings (where the rules leave a measure open, the choice made here; those players might disagree on are game
options, named in brackets)
--------------------------------------------------------------------------------------------------------------
1. The field is a rectangle of whole squares, each one card length, 12 by 12 unless the game says (``width``,
   ``height``). A card fills one square and faces one of the eight compass directions; a Move of n card lengths
   is n squares, straight or diagonal, as a king moves. Every measure is an integer (the one slanted line, sight
   past terrain, is clipped with exact fractions), so replay is exact.
2. Forces: one of each soldier card of the deck, or, with a ``budget``, each player recruits cards (any, as often
   as the budget pays for) by their corner values before the battle. Seat 0 stands in the row at the south edge
   facing north, seat 1 at the north edge facing south; the first initiative is drawn at random.
3. Line of sight "extends out diagonally from the top corners of their card": facing a side of the field, the
   squares ahead no further to the side than they are ahead; facing a corner, the quarter of the field between the
   two sides it faces. No range limit; the Ranger sees all round. Terrain (``terrain``: rectangles of squares)
   blocks sight when the line between the two squares' centres passes through its inside; soldiers never do.
4. An initiative is one soldier's: Move then Shoot, or Shoot then Move, either of which may be forgone (``pass``).
   It passes by itself once the soldier has done both, has nothing in sight to shoot after its Move, fell, or
   "Cannot move then shoot (or shoot then move) in the same activation". Turning in place (``turn``) is a Move
   (one the enemy may React to: reading 8).
5. A Move rolls its dice after the direction is declared, and is traced square by square: halted before a
   soldier, before terrain, or at the edge. An enemy soldier it runs into is killed (the mover halts before its
   square), unless it "Cannot be killed by a Move"; a friendly one just halts it. The soldier ends facing its
   direction of travel, or the ``facing`` its command names ("Turning counts as the start and end of a Move").
6. The Brawler names no direction: after the roll its player steers it one square at a time (``step``). The first
   enemy it runs into that a Move can kill is killed and the Brawler goes on through its square; the next halts it.
7. React: once a Move's path is traced, the enemy is asked if any of its soldiers with React dice sees a square of
   the path (the mover's starting square included: the Move "is made in the line of sight"). "One React attempt
   with one soldier" per Move (``reacts: one``); with ``reacts: each``, every soldier in sight may try once. A
   React total greater than the Move total stops the mover "anywhere along its move path": at the square of the
   path the reacting player names, seen by the reactor or not (``react_stop: reactor_chooses``, the default), or
   at the first square of its path the reactor sees (``react_stop: entry``; games created while it was the
   default keep it, written in their options). An enemy the mover had not yet reached is spared; the reacting
   soldier takes the next initiative.
8. "Turning counts as the start and end of a Move": a turn in place is a Move whose path is the soldier's own
   square, so an enemy soldier that sees that square may React to it. Its Move dice are rolled then, for the React
   roll to beat (a turn no enemy may React to is made at once, with no roll). Stopped, the soldier has turned
   (turning is the Move's start: ``react_turn: turned``, the default), or keeps the way it faced (``react_turn:
   unturned``). With ``react_turn: never`` every turn is made at once, unreacted; so is it in a game created
   before turns could be Reacted to (its options name no ``react_turn``).
9. Shoot: a target in line of sight. A higher Shoot total than the target's Endure total eliminates it; a tie does
   not. The Gunner and the Dreadnaught fire at every enemy they see, a Shoot roll for each. The Rocket Launcher
   aims at a square in sight; its blast covers the cards of both sides (itself too) with any part of their square
   inside a circle of two card lengths around the square's centre (``blast: partly``), or with their square's
   centre within it (``blast: centre``); each rolls Endure against the one Shoot total.
10. Dice: a stat is that many six-sided dice; every six is rolled again and added, for as long as sixes come. A
    stat of 0 rolls nothing (total 0). Every roll is written into its event.
11. The last player with soldiers wins; if a blast takes the last soldiers of both, nobody does.
"""

from dvorak_engine.rulesets.serm.ruleset import NAME, SermRuleset

RULESET = SermRuleset()

__all__ = ["NAME", "RULESET", "SermRuleset"]
