"""The archive's own JSON: one deck object, or a list of them, as `DeckData.to_dict()` writes it."""

from __future__ import annotations

import json
import re
from typing import Any

from decks.importers.errors import ListingError
from dvorak_core.deckdata import DeckData
from dvorak_core.errors import DomainError
from dvorak_core.rule_params import checked_params

# JSON's escape of U+0000; after an escaped backslash, "u0000" is only text.
_NULL_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)
# A "params" key (not the text "params" inside a string, whose quotes would be escaped).
_PARAMS_KEY = re.compile(r'(?<!\\)"params"\s*:')


def parse_json(text: str) -> list[DeckData]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ListingError(f"This is not JSON: {error.msg}.", error.lineno) from error
    if _holds_null(document):
        # The text itself had none (the importer checks first), so a string holds one through its escape.
        found = _NULL_ESCAPE.search(text)
        line = text.count("\n", 0, found.start()) + 1 if found else 1
        raise ListingError("This line holds a null character (U+0000, written \\u0000); remove it.", line)
    items = document if isinstance(document, list) else [document]
    _check_rule_params(items, text)
    return [_deck(item) for item in items]


def _check_rule_params(items: list, text: str) -> None:
    """Each Special Rule's ``params`` within the rule parameters' bounds (``dvorak_core.rule_params``), or a
    ListingError naming the rule and the line of the parameter at fault: a deck the archive takes is a deck a
    game can be created from."""
    params_keys = [found.end() for found in _PARAMS_KEY.finditer(text)]
    rules_with_params = 0
    for item in items:
        rules = item.get("special_rules") if isinstance(item, dict) else None
        for rule in rules if isinstance(rules, list) else []:
            if not isinstance(rule, dict) or "params" not in rule:
                continue
            rules_with_params += 1
            try:
                checked_params(rule["params"])
            except DomainError as bad:
                # The n-th "params" key of the text is this rule's; its parameter at fault follows it.
                start = params_keys[rules_with_params - 1] if rules_with_params <= len(params_keys) else 0
                param = bad.details.get("field", "").removeprefix("params").removeprefix(".")
                at = text.find(json.dumps(param), start) if param else -1
                line = text.count("\n", 0, at if at >= 0 else start) + 1
                title = str(rule.get("title") or "(untitled)")
                raise ListingError(f"The Special Rule {title!r}: {bad.message}", line) from None


def _holds_null(document: Any) -> bool:
    # A loop, not recursion: JSON nested as deep as the parser allows must not overflow the stack here.
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def _deck(item: Any) -> DeckData:
    try:
        return DeckData.from_dict(item)
    except KeyError as error:
        raise ListingError(f"A deck in the JSON lacks its {error.args[0]!r}.", 1) from error
    except (TypeError, ValueError, AttributeError) as error:
        raise ListingError(f"A deck in the JSON is malformed: {error}", 1) from error
