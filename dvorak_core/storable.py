"""Text the database can keep: PostgreSQL stores no null character (U+0000) in text or jsonb, and no text can
hold a lone surrogate (U+D800 to U+DFFF on its own), which UTF-8 has no bytes for. JSON carries both as escapes
(``\\u0000``, ``\\ud800``), in a value or in an object's key, at any depth; input that holds them is refused as
invalid before anything is written, rather than failing when the row is. So is a whole number beyond 64 bits
(JSON has no bound on one; an event's data is written as JSON that a 64-bit reader must take back).
"""

from __future__ import annotations

import json
import re
from typing import Any

from dvorak_core.errors import DomainError

_SURROGATE = re.compile("[\ud800-\udfff]")
_LOWEST, _HIGHEST = -(2**63), 2**63 - 1


def text_fault(text: str) -> str | None:
    """What in ``text`` cannot be stored, or None."""
    if "\x00" in text:
        return "a null character (U+0000)"
    if _SURROGATE.search(text):
        return "a lone surrogate (U+D800 to U+DFFF)"
    return None


def unstorable(value: Any) -> str | None:
    """Where in a JSON value (its keys included) a text holds what cannot be stored, and what; None if nothing
    does. Walked without recursion: a value may be nested as deep as the parser allows."""
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        where, item = pending.pop()
        if isinstance(item, str):
            fault = text_fault(item)
            if fault:
                return f"The value at {where} holds {fault}" if where else f"The text holds {fault}"
        elif isinstance(item, int) and not _LOWEST <= item <= _HIGHEST:
            where = f"The value at {where}" if where else "The number"
            return f"{where} is a whole number beyond 64 bits"
        elif isinstance(item, dict):
            for key, inner in item.items():
                place = f"{where}[{_shown(key)}]"
                if isinstance(key, str) and (fault := text_fault(key)):
                    return f"The key {place} holds {fault}"
                pending.append((place, inner))
        elif isinstance(item, list | tuple):
            pending.extend((f"{where}[{index}]", inner) for index, inner in enumerate(item))
    return None


def _shown(key: Any) -> str:
    """A key as a person can read it in a message: JSON-quoted, control characters escaped, cut short."""
    text = json.dumps(key if isinstance(key, str) else str(key))
    return text if len(text) <= 42 else text[:40] + '…"'


def ensure_storable(value: Any, *, field: str) -> None:
    """Refuse (400 ``invalid``, naming ``field``) a value holding text the database cannot store."""
    fault = unstorable(value)
    if fault:
        message = f"{fault}, which cannot be stored."
        raise DomainError(f"{field}: {message}", details={field: [message]})
