"""A bulk ingest builds its new documents in a worker process beside its writes (kb/ingest/parallel.py, issue 20):
what it stores is exactly what building them here stores, and a worker that dies costs time, never a document."""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import signal

import pytest

from kb.ingest import parallel
from kb.stores import open_stores
from tests.conftest import DEMO_CORPUS, SHARED_CORPUS, needs_shared_corpus

pytestmark = needs_shared_corpus  # the worker must meet documents written by others, not only ours


def _ingest(settings, workers: int, progress=None):
    stores = open_stores(dataclasses.replace(settings, ingest_workers=workers))
    try:
        results = stores.ingestor.ingest([DEMO_CORPUS, SHARED_CORPUS], "lib", progress)
        return results, _stored(stores)
    finally:
        stores.close()


def _stored(stores) -> dict:
    """Every stored document as the stores hold it: its graph record and its chunks' keyword rows."""
    docs = {d.id: stores.graph.load_document(d.id) for d in stores.graph.list_documents("lib")}
    word = {i: w for w, i in stores.keywords.vocab.items()}  # ids differ with the order words were first met
    words = {row.chunk_id: [word[i] for i in row.ids] for row in stores.keywords.chunks()}
    return {"docs": docs, "words": words, "vectors": stores.vectors.chunk_versions()}


@pytest.fixture
def inline_ingest(tmp_path, settings):
    return _ingest(dataclasses.replace(settings, store_dir=tmp_path / "inline"), 0)


def test_documents_built_in_a_worker_are_stored_as_if_built_here(settings, inline_ingest, monkeypatch, caplog):
    monkeypatch.setattr(parallel, "MIN_UNITS", 2)  # these few real documents are enough to start a worker
    with caplog.at_level(logging.INFO, logger=parallel.__name__):
        results, stored = _ingest(settings, 1)
    inline_results, inline_stored = inline_ingest
    built = [r.message for r in caplog.records if "worker processes" in r.message]
    assert built and not built[0].startswith("built 0 ")  # the worker did build them
    assert [(r.file, r.doc_id, r.status, r.error) for r in results] == \
        [(r.file, r.doc_id, r.status, r.error) for r in inline_results]
    assert len(stored["docs"]) >= 15 and stored["docs"] == inline_stored["docs"]
    assert stored["words"] == inline_stored["words"] and stored["vectors"] == inline_stored["vectors"]


def test_a_worker_killed_mid_ingest_leaves_every_document_built_here(settings, inline_ingest, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_UNITS", 2)
    killed: list[int] = []

    def progress(done: int, total: int, what: str) -> None:
        if done > 2 and not killed:
            for child in multiprocessing.active_children():
                os.kill(child.pid, signal.SIGKILL)
                killed.append(child.pid)

    results, stored = _ingest(settings, 1, progress)
    assert killed  # the worker was running, and was killed
    assert [(r.file, r.status) for r in results] == [(r.file, r.status) for r in inline_ingest[0]]
    assert stored["docs"] == inline_ingest[1]["docs"] and stored["words"] == inline_ingest[1]["words"]
