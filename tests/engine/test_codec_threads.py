"""The codec works out how to read a type on first use; threads that meet a type first at the same moment (a server's
command threads loading two games' snapshots) must each read it right. Two threads once both added what they
worked out to one list, and every later read of that type failed."""

from __future__ import annotations

import dataclasses
import threading
import time

from dvorak_engine import codec


@dataclasses.dataclass(frozen=True)
class Seat:
    name: str
    score: int = 0


@dataclasses.dataclass(frozen=True)
class Table:
    seats: tuple[Seat, ...] = ()
    round: int = 1


def test_threads_reading_a_type_first_at_once_all_read_it(monkeypatch):
    hints = codec._hints

    def slow_hints(cls):  # widen the moment between finding the type new and having it worked out
        time.sleep(0.05)
        return hints(cls)

    monkeypatch.setattr(codec, "_hints", slow_hints)
    data = {"seats": [{"name": "ann", "score": 2}, {"name": "bo"}], "round": 3}
    barrier, results, errors = threading.Barrier(4), [], []

    def read() -> None:
        barrier.wait()
        try:
            results.append(codec.from_json(Table, data))
        except Exception as error:  # noqa: BLE001 - the failure this test is about
            errors.append(error)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    expected = Table(seats=(Seat("ann", 2), Seat("bo", 0)), round=3)
    assert results == [expected] * 4
    assert codec.from_json(Table, data) == expected  # and after them
