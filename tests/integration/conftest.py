"""Fixtures for the integration tests: the bundled corpus in real stores, once per test module."""
from __future__ import annotations

import pytest

from kb.service import open_service
from kb.settings import load_settings
from tests.conftest import SHARED_CORPUS
from tests.demo_service import open_demo_service


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """The demo service with default settings, one per test module (Kuzu allows one Database per store)."""
    svc = open_demo_service(tmp_path_factory.mktemp("store"))
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """The real documents of ../shared/corpus in real stores, once per test module (tests using it skip without them)."""
    if not SHARED_CORPUS.is_dir():
        pytest.skip(f"{SHARED_CORPUS} is absent (a fresh clone has no ../shared/corpus)")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("real")))
    results = svc.stores.ingestor.ingest(sorted(SHARED_CORPUS.glob("zh_*")), "real")
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()
