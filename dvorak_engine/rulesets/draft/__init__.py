"""Booster draft: a CCG card set's players open packs of its cards, pick one card at a time in secret and pass the
rest on; each player's picks become a player deck of theirs.

``RULESET`` plugs the format into the ruleset contract (``dvorak_engine.ruleset``): the procedure is in
``ruleset``, the table in ``state``, the options in ``options``, the pool, the cards' rarity and the deal in
``packs``. None of the archive's old tools ran a draft; these are the rules the server plays, and where a choice
was made, the reading taken (docs/draft.md):

1. The set. A draft is created from a card set (an archive deck of kind ``card_set``; the service refuses another
   with 409 ``not_a_card_set``), and its cards come from the set's latest version, each with its id there: the
   version is named in the state (``deck.version``) and the picks are that version's cards.
2. The pool. Packs are dealt from the set's cards as the set holds them: a card of three copies three times at
   most (``options.pool``: ``copies``, the default), or one of each (``one_each``). A card is never dealt more
   often than the pool holds it: a small set makes small packs.
3. Packs. Each player opens ``options.packs`` packs (3 by default), one a round, of ``options.pack_size`` cards:
   by default 15, or fewer when the pool does not make that many packs of 15 for the players seated at the start
   (its size divided by players times packs). A pool too small for every player's packs refuses the start (409
   ``not_enough_cards``), and one too small for two players refuses the game's creation alike. Every pack is dealt
   at the start from the game's randomness and stays unseen until its round opens.
4. Rarity. A card may carry its rarity in ``stats.rarity``: 1 common, 2 uncommon, 3 rare (another value is
   refused). When any card of the set carries one, packs follow it: a pack's rare slots take rare cards, its
   uncommon slots uncommon ones and the rest commons (a card without a rarity is common); a slot whose rarity has
   run out takes any card left, at random. ``options.rarity`` gives the slots (``{"rare": 1, "uncommon": 3}``); by
   default one rare slot in a pack of three cards or more and an uncommon slot for every five cards (15 cards:
   1 rare, 3 uncommons, 11 commons).
5. Picks. Every player still drafting picks a card of the pack they hold at once, in secret (the contract's
   simultaneous choices): until all have picked the others see only that a pick was made. Then the picks are
   taken, and the packs pass: to the left (the next seat) in the first round, to the right (the seat before) in the
   second, left again in the third, and so on. A player sees the pack they hold and nobody else's.
6. Picks stay secret. A player's picks are shown to that player alone, during the draft and after it (the
   reveal of the picks shows each player their own); the others see how many they have.
7. The end. The draft is over when the last round's packs are empty: the game is ``finished`` with no winners.
   Each person's picks become a player deck of theirs, built on the set's latest version (the service's doing:
   the engine says what each seat picked, ``drafted``); computer players keep none.
8. Live tables. A player out of time leaves the draft with the picks they made: their pack and their packs of
   the rounds to come go out of the game, and the others pass among themselves; with one player left, that player
   wins on time (the core's rule). The ``greedy`` computer player takes the rarest card of its pack (its pick
   scored by the rarity of what it has picked); a pick that completes the table's, which reveals the next packs, is
   not looked through, so it then picks at random.
"""

from dvorak_engine.rulesets.draft.ruleset import NAME, DraftRuleset

RULESET = DraftRuleset()

__all__ = ["NAME", "RULESET", "DraftRuleset"]
