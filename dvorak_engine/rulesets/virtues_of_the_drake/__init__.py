"""The ``virtues_of_the_drake`` ruleset: "The Virtues of the Drake, update II" with its Updated Rules, played by
the server (``ruleset``), and what its cards must carry and what the engine reads of them (``cards``)."""

from dvorak_engine.rulesets.virtues_of_the_drake.ruleset import NAME, VirtuesOfTheDrakeRuleset

RULESET = VirtuesOfTheDrakeRuleset()

__all__ = ["NAME", "RULESET", "VirtuesOfTheDrakeRuleset"]
