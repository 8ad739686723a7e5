"""The ``socialism`` ruleset: Socialism, the social networking game (2 to 5 players), played by the server.

``ruleset`` plugs the game into the contract; ``board`` holds its state and the grid's geometry; ``cards`` is the
table of every card's text, keyed by the deck's titles; ``actions`` carries out each card played; ``invitations``
and ``rules`` the Invitation phase and its dice; ``moves`` lists each seat's legal moves; ``options`` the
options a game is created with. ``docs/socialism.md`` is the reference for players and client authors.

Readings, where the deck's words leave the server a choice (each card's own in ``cards``); those players might
disagree on are options, written into every new game's ``game.created`` (a game created before they were keeps
the way it was played, ``options.BEFORE_STAMPED``):

- Tokens: "fifteen" three times, "all twenty tokens" once: 15, or 20 with ``options.tokens``.
- The Invitation phase: "you have a few basic options" (automatic, spam, personal) is the seed; how many of them
  one turn allows it does not say. Read as each at most once a turn, in any order, so all three in one turn
  (``options.invitations`` ``each``, the default), or as one of them a turn (``one``).
- OMG CAT PIC: the senders invite "all of their friends" (``options.cat_pic`` ``all``, the default), save a sender
  whose own text invites fewer than a personal invitation's two (Billy: one); Friends only, not Alan Dale's
  Friends of Friends. ``up_to_two``: each sender as many as a personal invitation of its may name, drawn by the
  server (how the server played it before).
- Viral Post: "moves to a new user, who joins your network". A new user is read as a User on a card adjacent to
  the post's who is not yet on its player's network. Who picks among several the seed does not say: its player
  (``options.viral_post`` ``chosen``, the default: the ``move_viral_post`` command), or the server at random
  (``random``). With one, the post moves there; with none, it stays where it is.
"""

from dvorak_engine.rulesets.socialism.ruleset import NAME, SocialismRuleset

RULESET = SocialismRuleset()

__all__ = ["NAME", "RULESET", "SocialismRuleset"]
