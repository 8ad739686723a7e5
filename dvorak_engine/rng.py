"""Sources of randomness for ``decide`` and ``create_game``.

Only their outcomes (a pile's new order, the card taken, the dice) are written into events, so replay never
needs the source again. Production uses ``SecureRng``; tests use ``SeededRng`` to make games repeatable.
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Protocol


class Rng(Protocol):
    def randbelow(self, n: int) -> int: ...

    def shuffle(self, items: list[Any]) -> None: ...

    def token_hex(self, nbytes: int) -> str: ...


class SecureRng:
    """Unpredictable randomness from the operating system, for real games."""

    def __init__(self) -> None:
        self._system = random.SystemRandom()

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)

    def shuffle(self, items: list[Any]) -> None:
        self._system.shuffle(items)

    def token_hex(self, nbytes: int) -> str:
        return secrets.token_hex(nbytes)


class SeededRng:
    """Repeatable randomness for tests: the same seed gives the same game."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        return self._random.randrange(n)

    def shuffle(self, items: list[Any]) -> None:
        self._random.shuffle(items)

    def token_hex(self, nbytes: int) -> str:
        return self._random.randbytes(nbytes).hex()
