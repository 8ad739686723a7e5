"""Fixtures the API's whole-surface tests share."""

import pytest
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle


@pytest.fixture
def unthrottled(monkeypatch):
    """Throttling is checked in tests/api/test_frame.py; a run of many requests would only be cut short by it."""
    for throttle in (AnonRateThrottle, UserRateThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {"anon": "1000000/min", "user": "1000000/min"})
