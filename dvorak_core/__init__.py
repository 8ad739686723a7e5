"""Pure values and rules that the Django apps and the game engine share: no Django, no database.

``errors`` (the one ``DomainError`` hierarchy), ``deckdata`` (a deck as plain values), ``vote_rules`` (who may
vote and what passes), ``card_data`` (what a ruleset needs its cards to carry) and ``rule_params`` (the rule
parameters' bounds, and the words cards name them by) sit below both the apps (``decks``, ``proposals``,
``games``) and the engine (``dvorak_engine``), so neither imports the other to reach them.
"""
