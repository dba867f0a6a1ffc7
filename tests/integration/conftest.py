"""Fixtures for the integration tests: the bundled corpus in real stores, once per test module."""
from __future__ import annotations

import pytest

from tests.demo_service import open_demo_service


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """The demo service with default settings, one per test module (Kuzu allows one Database per store)."""
    svc = open_demo_service(tmp_path_factory.mktemp("store"))
    yield svc
    svc.close()
