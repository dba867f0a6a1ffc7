"""The vector store in a process of its own (kb/search/vector_process.py), as bulk loads open it: the vector
contract through it, a bulk load that stores exactly what an in-process one stores, and a child that dies."""
from __future__ import annotations

import os
import signal

import pytest
from chromadb.api.shared_system_client import SharedSystemClient

from kb.errors import VectorStoreError
from kb.ingest import ingestor as ingestor_module
from kb.search.chroma import ChromaVectorStore
from kb.search.embeddings import make_embedder
from kb.search.vector_process import VectorsApart
from kb.settings import Settings, load_settings
from kb.stores import open_stores
from tests.conftest import DEMO_CORPUS
from tests.vector_contract import PLAN, check_contract

QUESTION = "东岭街道的防汛物资有哪些？"


def _stored(stores) -> tuple[dict, dict, list]:
    """What a store holds: each document's version and chunks in the graph, its vectors, and a search's hits."""
    graph = {d.id: (d.content_hash, d.chunks, d.attachments) for d in stores.graph.list_documents()}
    return graph, stores.vectors.chunk_versions(), [(h.chunk_id, round(h.score, 5))
                                                   for h in stores.vectors.query(QUESTION, 8)]


def test_contract_through_the_child_and_its_writes_persist(settings: Settings) -> None:
    apart = VectorsApart(settings)
    try:
        assert apart._process.pid != os.getpid() and apart._process.is_alive()
        check_contract(lambda: apart)  # one client: embedded Chroma is opened by one process at a time
    finally:
        apart.close()
    assert not apart._process.is_alive()
    here = ChromaVectorStore(settings, make_embedder(settings))  # the child is gone: this process may open it
    assert here.chunk_counts() == {"law": 2}


def test_an_error_in_the_child_is_raised_here_as_it_was_and_the_child_serves_on(settings: Settings) -> None:
    apart = VectorsApart(settings)
    try:
        with pytest.raises(ValueError, match="annex_body") as raised:
            apart.query("应急", 5, collections=("annex_other",))
        assert "in the vector store's process" in "".join(raised.value.__notes__)  # where it came from
        apart.upsert_documents([PLAN])
        assert apart.chunk_counts() == {"plan": 4}
    finally:
        apart.close()


def test_a_bulk_load_stores_what_an_in_process_load_stores(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(ingestor_module, "WRITE_BATCH", 2)  # several batches, so writes run ahead of commits
    seen = {}
    for bulk in (True, False):
        settings = load_settings(env={}, store_dir=tmp_path / f"bulk-{bulk}")
        stores = open_stores(settings, bulk=bulk)
        try:
            assert isinstance(stores.vectors, VectorsApart) is bulk
            batches = list(stores.ingestor.ingest_batches([DEMO_CORPUS], "demo"))
            assert len(batches) > 2 and all(r.status in ("ingested", "attached") for batch in batches for r in batch)
            seen[bulk] = _stored(stores)
            again = [r.status for r in stores.ingestor.ingest([DEMO_CORPUS], "demo")]
            assert set(again) == {"unchanged"}  # a re-ingest asks the child for the stored versions
        finally:
            stores.close()
            SharedSystemClient.clear_system_cache()
    graph, versions, hits = seen[True]
    assert graph and versions == {doc_id: {h: n} for doc_id, (h, n, _) in graph.items()}
    assert seen[True] == seen[False]
    assert hits and any("附件" in chunk_id for chunk_id, _ in hits)


def test_a_child_killed_mid_load_fails_the_rest_loudly_and_a_normal_open_repairs(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(ingestor_module, "WRITE_BATCH", 2)
    settings = load_settings(env={}, store_dir=tmp_path / "store")
    stores = open_stores(settings, bulk=True)
    results = []
    try:
        for n, batch in enumerate(stores.ingestor.ingest_batches([DEMO_CORPUS], "demo")):
            results += batch
            if n == 0:
                os.kill(stores.vectors._process.pid, signal.SIGKILL)
                stores.vectors._process.join(10)
    finally:
        stores.close()
        SharedSystemClient.clear_system_cache()
    written = [r for r in results if r.status in ("ingested", "attached")]
    failed = [r for r in results if r.error]
    assert written and failed and len(written) + len(failed) == len(results)
    assert all("vector store's process stopped" in r.error for r in failed)
    stores = open_stores(settings)  # as the app or the next CLI run opens it
    try:
        stores.ingestor.reconcile()
        graph = {d.id: {d.content_hash: d.chunks} for d in stores.graph.list_documents()}
        assert set(graph) == {r.doc_id for r in written}  # what was reported written is stored, nothing else
        assert stores.vectors.chunk_versions() == graph
        redo = stores.ingestor.ingest([DEMO_CORPUS], "demo")
        assert {r.status for r in redo} >= {"ingested", "unchanged"} and not [r for r in redo if r.error]
        assert stores.vectors.chunk_versions() == {d.id: {d.content_hash: d.chunks}
                                                   for d in stores.graph.list_documents()}
    finally:
        stores.close()


def test_a_store_the_child_cannot_open_is_an_error_here(tmp_path) -> None:
    settings = load_settings(env={}, store_dir=tmp_path / "store", vector_store="chroma")
    settings.store_dir.mkdir(parents=True)
    (settings.chroma_dir).write_text("not a folder", encoding="utf-8")  # Chroma cannot make its folder there
    with pytest.raises(VectorStoreError, match="could not open the database"):
        VectorsApart(settings)
    assert PLAN.chunks  # the contract's document is untouched by a failed open
