"""The account feed's live side: each user's account streams (``GET /api/v1/account/stream/``) follow a channel-layer
group of that user's own, and whatever concerns the user (a game of theirs started, their turn, an invitation, a
notice) is sent there as one line, made for that user alone.

A line is what the user may see anyway (a game's id, ruleset and version, their own seat, a notice of theirs), so a
group message carries nothing secret. Like every group message it is at most once: a stream that misses one (Redis
away, a full channel) is sent again what is true now when it is back (the stream's own catch-up), and a client acts
on ``/moves/`` anyway, so a line twice does no harm.
"""

from __future__ import annotations

import logging
from typing import Any

from dvorak_kit import publisher

logger = logging.getLogger("dvorak.feed")

# The group message's type: the account stream's handler is ``feed_line``.
LINE = "feed.line"


def group_of(user_id: Any) -> str:
    return f"user.{user_id}"


def tell(user_id: Any, line: dict[str, Any]) -> None:
    """Send ``line`` to the account streams of ``user_id`` that are open now; call it once the work it reports has
    committed. A failure is logged, never raised into the work that committed."""
    try:
        publisher.group_send(group_of(user_id), {"type": LINE, "line": line})
    except Exception:
        logger.exception("A line of the account feed of user %s could not be handed on.", user_id)
