"""The ``dvorak`` ruleset: the Basic Rules of Dvorak (``basic``) with the Creative Rules (``creative``), in every
Variant (``variants``: Team, Multi-Deck and CCG Dvorak, with their piles in ``piles``), what each viewer sees
(``views``), the legal moves of a seat (``moves``), the Aftermath of a creative game (``aftermath``) and what clocks,
undo and computer players need of it (``live``)."""

from dvorak_engine.rulesets.dvorak.basic import DvorakRuleset

RULESET = DvorakRuleset()
