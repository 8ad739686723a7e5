"""S.E.R.M., the Simplistic Wargame with four stats (Coprolite Golem, 2011): a skirmish of two players.

RULESET plugs the game into the ruleset contract. It is played as the deck's Special Rules say; where they leave a
measure open, the choice made here is listed below (and in docs/serm.md), the ones players might disagree on as
game options.
"""

from games.engine.rulesets.serm.ruleset import NAME, SermRuleset

RULESET = SermRuleset()

__all__ = ["NAME", "RULESET", "SermRuleset"]
