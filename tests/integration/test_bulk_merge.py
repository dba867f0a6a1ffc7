"""A bulk load merges the BM25 main segment once, after its last batch, not after each batch (issue 20)."""
from __future__ import annotations

from kb.ingest import ingestor as ingestor_module
from kb.search import bm25_segments
from kb.search.bm25_segments import Segments
from kb.service import open_service
from tests.conftest import DEMO_CORPUS

QUESTIONS = ("冲锋舟 数量", "值班电话", "危险化学品 储罐", "应急物资清单")


def test_a_bulk_load_merges_and_saves_once_after_its_last_batch(settings, monkeypatch):
    monkeypatch.setattr(ingestor_module, "WRITE_BATCH", 1)  # a batch a document: six batches
    monkeypatch.setattr(bm25_segments, "MERGE_AT", 1)  # any change wants a merge
    saves: list[int] = []
    real_save = Segments.save
    monkeypatch.setattr(Segments, "save", lambda self, folder: (saves.append(len(self.main_rows)),
                                                                 real_save(self, folder)))
    service = open_service(settings)
    try:
        service.read.current()  # the read models exist before the load, so each batch refreshes them
        batches = 0
        for _ in service.stores.ingestor.ingest_batches([DEMO_CORPUS], "demo"):
            batches += 1
            if batches < 6:
                service.read.current()  # a reader between batches does not start a merge either
                assert saves == [], f"merged or saved after batch {batches} of 6"
        service.read.settle()
        segments = service.read.current().bm25.segments
        chunks = service.stores.graph.stats()["chunks"]
        assert batches == 6 and saves == [chunks]  # one save, of a main segment that holds every chunk
        assert not segments.delta and len(segments.main_rows) == chunks
        loaded = service.read.current().bm25
        found = {q: [h.chunk_id for h, _ in loaded.search(q, 5)] for q in QUESTIONS}
    finally:
        service.close()
    again = open_service(settings)  # a start loads the saved segment: the same ranking
    try:
        assert {q: [h.chunk_id for h, _ in again.read.current().bm25.search(q, 5)] for q in QUESTIONS} == found
        assert all(found.values())
    finally:
        again.close()


def test_a_write_outside_a_bulk_load_still_merges_in_the_background(settings, monkeypatch):
    monkeypatch.setattr(bm25_segments, "MERGE_AT", 1)
    first, second = sorted(p for p in DEMO_CORPUS.iterdir() if p.suffix in (".md", ".txt", ".docx"))[:2]
    service = open_service(settings)
    try:
        service.read.current()
        service.stores.ingestor.ingest([first], "demo")
        service.stores.ingestor.ingest([second], "demo")  # the second goes to the delta, then a merge takes it
        service.read.settle()
        segments = service.read.current().bm25.segments
        assert not segments.delta and len(segments.main_rows) == service.stores.graph.stats()["chunks"]
    finally:
        service.close()
