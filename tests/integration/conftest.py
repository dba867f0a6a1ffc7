"""Fixtures for the integration tests: the bundled corpus in real stores, once per test module."""
from __future__ import annotations

import pytest

from kb.service import open_service
from kb.settings import load_settings
from tests.conftest import DEMO_CORPUS


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """A Service on a temporary store holding data/corpus in library 'demo' (Kuzu allows one per store)."""
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    results = svc.stores.ingestor.ingest([DEMO_CORPUS], "demo")
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()
