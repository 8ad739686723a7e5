"""What the archive tells the rest of the service, without knowing who listens (the layers above it may not be
imported here): `deck_changed`, sent inside the change's transaction by every write of `decks.services` that
leaves something to follow.

`deck_changed` (sender `Deck`) carries:

- `deck`: the `Deck` row, as the change left it;
- `actor`: the user who made the change, or None for the system (seed data, a CCG version build);
- `kind`: `"created"` (a new deck's first revision), `"revision"` (any later revision: an edit, a restore, a
  game's Aftermath, confirmed effects, a card set's version), `"lock"`, `"unlock"` (each a revision too) or
  `"talk"` (a post or a reply on its talk page);
- `summary`: the revision's summary, or the start of the post;
- `revision`: the revision's number (for `"talk"`, the deck's current one);
- `post`: the `TalkPost` for `"talk"`, else None.

A receiver runs inside the transaction: what it does outside the database waits for the commit
(`transaction.on_commit`), so a change rolled back tells no one.
"""

from __future__ import annotations

from django.dispatch import Signal

CREATED, REVISION, LOCK, UNLOCK, TALK = "created", "revision", "lock", "unlock", "talk"
KINDS = (CREATED, REVISION, LOCK, UNLOCK, TALK)

deck_changed = Signal()
