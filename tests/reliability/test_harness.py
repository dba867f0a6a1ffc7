"""The harness itself: a fresh app is healthy."""
from __future__ import annotations

from tests.reliability.conftest import assert_healthy


def test_fresh_app_is_healthy(live_app) -> None:
    assert_healthy(live_app)
