"""What a crash can leave behind, and how ingestion notices and repairs it (real Kuzu and Chroma).

A crash is reproduced by doing only the part of a write that happened before it; tests/reliability/test_crash.py
kills a real ingest with SIGKILL.
"""
from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from kb.errors import IngestError
from kb.model import CLI, UPLOAD
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION
from tests.conftest import DEMO_CORPUS

LAW = "东岭街道防汛应急预案.md"  # sorts first: `[law, _] = ingest(...)` below
FEES = "示范市餐厨垃圾管理办法.md"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in (LAW, FEES):
        shutil.copy(DEMO_CORPUS / name, folder / name)
    return folder


def _agree(stores) -> dict[str, int]:
    """Per document, the vectors are exactly the graph's chunks of its stored version; returns chunks per doc."""
    graph = {d.id: {d.content_hash: d.chunks} for d in stores.graph.list_documents()}
    assert stores.vectors.chunk_versions() == graph
    return {doc_id: sum(v.values()) for doc_id, v in graph.items()}


def _drop_vectors(stores, doc_id: str, keep: int) -> None:
    """What a crash in the middle of a vector write leaves: only `keep` of the document's vectors."""
    for name in (BODY_COLLECTION, ATTACHMENT_COLLECTION):
        collection = stores.vectors.collections[name]
        ids = collection.get(where={"doc_id": doc_id}, include=[])["ids"]
        if ids[keep:]:
            collection.delete(ids=ids[keep:])
        keep = max(0, keep - len(ids))


def test_a_document_with_incomplete_vectors_is_not_unchanged_and_a_re_ingest_repairs_it(stores, tmp_path):
    folder = _folder(tmp_path)
    first = {r.file: r for r in stores.ingestor.ingest([folder], "shared")}
    whole = _agree(stores)
    law = first[LAW].doc_id
    _drop_vectors(stores, law, keep=3)
    assert stores.vectors.chunk_counts()[law] == 3 < whole[law]
    again = {r.file: r for r in stores.ingestor.ingest([folder], "shared")}
    assert (again[LAW].status, again[LAW].repaired) == ("ingested", True)
    assert (again[FEES].status, again[FEES].repaired) == ("unchanged", False)
    assert _agree(stores) == whole
    assert stores.vectors.query("环境保护税", 3, doc_id=law)
    assert [r.status for r in stores.ingestor.ingest([folder], "shared")] == ["unchanged", "unchanged"]


def test_reconcile_deletes_orphan_vectors_and_rewrites_incomplete_ones(stores, tmp_path):
    folder = _folder(tmp_path)
    results = {r.file: r for r in stores.ingestor.ingest([folder], "shared")}
    whole = _agree(stores)
    law, fees = results[LAW].document, results[FEES].document
    # a crash after the vectors of a new document, before its graph commit
    stranger = replace(law, id="never-committed", chunks=tuple(replace(c, id=f"x{c.id}", doc_id="never-committed")
                                                                for c in law.chunks))
    stores.vectors.upsert_documents([stranger])
    # a crash while replacing a stored document's vectors with those of an edit: half new, the graph still old
    edited = replace(fees, content_hash="edited")
    stores.vectors.upsert_documents([edited])
    _drop_vectors(stores, fees.id, keep=len(fees.chunks) // 2)
    fixed = stores.ingestor.reconcile()
    assert fixed.orphans == ("never-committed",) and fixed.repaired == (fees.id,)
    assert _agree(stores) == whole
    assert stores.ingestor.reconcile() == type(fixed)((), ())


def test_vectors_of_another_version_with_the_right_count_are_still_repaired(stores, tmp_path):
    folder = _folder(tmp_path)
    [law, _] = stores.ingestor.ingest([folder], "shared")
    # the vectors of an edit that never reached the graph: as many chunks, other text
    stores.vectors.upsert_documents([replace(law.document, content_hash="the-edit")])
    assert stores.vectors.chunk_counts()[law.doc_id] == len(law.document.chunks)
    again = {r.file: r for r in stores.ingestor.ingest([folder], "shared")}
    assert again[LAW].repaired
    _agree(stores)


def test_a_failed_graph_write_leaves_the_vectors_as_they_were(stores, tmp_path):
    folder = _folder(tmp_path)
    [law, _] = stores.ingestor.ingest([folder], "shared")
    before = _agree(stores)
    doc = law.document
    broken = replace(doc, content_hash="edit", attachments=doc.attachments + doc.attachments[:1])  # graph refuses
    with pytest.raises(IngestError, match="stores left as they were"):
        stores.ingestor.write([broken])
    new = replace(broken, id="new", chunks=tuple(replace(c, id=f"n{c.id}", doc_id="new") for c in doc.chunks))
    with pytest.raises(IngestError):
        stores.ingestor.write([new])
    assert _agree(stores) == before


def test_the_source_is_recorded_and_an_ingest_from_another_source_takes_the_document_over(stores, tmp_path):
    folder = _folder(tmp_path)
    stores.ingestor.ingest([folder / LAW], "shared", source=CLI)
    [summary] = stores.graph.list_documents("shared")
    assert summary.source == CLI and stores.graph.load_document(summary.id).source == CLI
    [kept] = stores.ingestor.ingest([folder / LAW], "shared", source=UPLOAD, keep_others=True)
    assert kept.status == "kept" and stores.graph.list_documents("shared")[0].source == CLI
    [taken] = stores.ingestor.ingest([folder / LAW], "shared")  # the same content, uploaded
    assert taken.status == "ingested" and stores.graph.list_documents("shared")[0].source == UPLOAD
    _agree(stores)
