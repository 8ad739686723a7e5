"""Pure values and rules that the Django apps and the game engine share: no Django, no database.

``errors`` (the one ``DomainError`` hierarchy), ``deckdata`` (a deck as plain values), ``vote_rules`` (who may
vote and what passes) and ``rule_params`` (the rule parameters' bounds, and the words cards name them by) sit below both the apps (``decks``, ``proposals``, ``games``) and the engine
(``games.engine``), so neither imports the other to reach them.
"""
