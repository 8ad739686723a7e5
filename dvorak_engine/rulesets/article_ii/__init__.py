"""The ``article_ii`` ruleset: "Article II, updated", the election game (``ruleset``), its cards' effects read
from their texts (``cards``), and the legal moves of a seat (``moves``)."""

from dvorak_engine.rulesets.article_ii.ruleset import ArticleIIRuleset, acting_seat

RULESET = ArticleIIRuleset()

__all__ = ["RULESET", "acting_seat"]
