"""A Service holding the bundled demo corpus, for tests that need real stores with data in them."""
from __future__ import annotations

import time
from pathlib import Path

from kb.service import Service, open_service
from kb.settings import load_settings
from tests.conftest import DEMO_CORPUS


def open_demo_service(store_dir: Path, **settings: object) -> Service:
    """A Service on store_dir holding data/corpus in library 'demo'; settings override the defaults."""
    svc = open_service(load_settings(env={}, store_dir=store_dir, **settings))
    results = svc.stores.ingestor.ingest([DEMO_CORPUS], "demo")
    assert not [r.error for r in results if r.error]
    return svc


def wait_until_gone(service: Service, doc_id: str, seconds: float = 30.0) -> None:
    """Wait for the background session sweep to delete doc_id; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while doc_id in service.read.current().documents:
        assert time.monotonic() < deadline, f"{doc_id} still stored {seconds} s after its session ended"
        time.sleep(0.05)
