"""A client of the Dvorak service's API (v1): ``Client`` signs in, reads the archive, creates, joins and plays
games, sends commands with automatic Idempotency-Keys and retries, and follows the NDJSON streams.

    from dvorak_client import Client, fill

    with Client.sign_in("http://127.0.0.1:8000", "ann", "blank-cards-forever") as ann:
        for line in ann.account_stream():
            if line["type"] == "your_turn":
                listed = ann.moves(line["game"])
                ann.command(line["game"], fill(listed["moves"][0]), if_match=listed["version"])
"""

from dvorak_client.client import ApiError, Client, __version__
from dvorak_client.moves import fill, is_choice
from dvorak_client.shapes import AccountLine, CommandResult, Event, Moves

__all__ = ["AccountLine", "ApiError", "Client", "CommandResult", "Event", "Moves", "__version__", "fill", "is_choice"]
