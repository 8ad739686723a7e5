"""The collector's policy for long-lived live readers (dvorak_kit/collector.py): what readers keep is frozen out of
full collections as they open, and seen again now and then, so that a cycle a closed socket left is freed."""

import gc
import weakref

import pytest

from dvorak_kit import collector


@pytest.fixture
def collector_state(monkeypatch):
    monkeypatch.setattr(collector, "ENABLED", True)
    frozen = gc.get_freeze_count()
    yield
    gc.unfreeze()  # as the suite's process had it: everything frozen at its start stays out of sight
    if frozen:
        gc.freeze()


def test_readers_opened_are_frozen_a_few_dozen_at_a_time_and_a_cycle_left_frozen_is_freed_after_the_unfreeze(
        collector_state, monkeypatch):
    class Socket:  # a closed socket's objects, in a reference cycle
        pass

    assert not collector.settle_live(collector.FREEZE_AFTER_READERS - 1)  # too few readers yet
    left = Socket()
    left.me = left
    assert collector.settle_live(collector.FREEZE_AFTER_READERS)
    assert gc.get_freeze_count() > 0
    gone = weakref.ref(left)
    del left
    gc.collect()
    assert gone() is not None  # frozen: out of the full collections' sight, the cycle waits

    monkeypatch.setattr(collector, "GC_UNFREEZE_SECONDS", 0)
    assert not collector.settle_live(0)  # the unfreeze is due: everything is seen again
    gc.collect()
    assert gone() is None
