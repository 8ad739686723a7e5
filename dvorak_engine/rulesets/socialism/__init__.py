"""The ``socialism`` ruleset: Socialism, the social networking game (2 to 5 players), played by the server.

``ruleset`` plugs the game into the contract; ``board`` holds its state and the grid's geometry; ``cards`` is the
table of every card's text, keyed by the deck's titles; ``actions`` carries out each card played; ``invitations``
and ``rules`` the Invitation phase and its dice; ``moves`` lists each seat's legal moves. ``docs/socialism.md``
is the reference for players and client authors.
"""

from dvorak_engine.rulesets.socialism.ruleset import NAME, SocialismRuleset

RULESET = SocialismRuleset()

__all__ = ["NAME", "RULESET", "SocialismRuleset"]
