"""Retrieval on the demo corpus: hybrid fusion, threshold scale, filters, rerank, context expansion."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from kb.errors import RerankError
from kb.eval.baselines import KeywordPipeline, NaivePipeline
from kb.search.rerank import EndpointReranker
from kb.turn import TurnRequest


def _retrieve(service, query, **kwargs):
    return service.pipeline.retriever.retrieve(query, TurnRequest(query, **kwargs))


def test_scores_are_relative_to_the_best_hit_and_the_threshold_cuts(service):
    hits = _retrieve(service, "应急物资清单 围油栏", threshold=0.0, top_k=50)
    assert hits[0].score == 1.0 or max(h.score for h in hits) == 1.0
    assert all(0.0 <= h.score <= 1.0 for h in hits)
    kept = _retrieve(service, "应急物资清单 围油栏", threshold=0.7, top_k=50)
    assert kept and all(h.score >= 0.7 for h in kept) and len(kept) < len(hits)
    assert len(_retrieve(service, "应急物资清单 围油栏", threshold=0.0, top_k=3)) == 3


def test_hybrid_adds_exact_word_matches_that_vectors_rank_low(service):
    query = "0513-85260110"
    vector_only = _retrieve(service, query, enable_hybrid_search=False, threshold=0.0)
    hybrid = _retrieve(service, query, threshold=0.0)
    assert any(h.bm25_score for h in hybrid) and not any(h.bm25_score for h in vector_only)
    assert "0513-85260110" in hybrid[0].text


def test_library_and_document_filters(service, tmp_path):
    other = tmp_path / "其他" / "仓库管理制度.md"
    other.parent.mkdir()
    other.write_text("# 仓库管理制度\n冲锋舟 99艘，存放于其他仓库。\n", encoding="utf-8")
    service.stores.ingestor.ingest([other], "other")
    try:
        demo_only = _retrieve(service, "冲锋舟存放", library_ids=("demo",), threshold=0.0)
        assert demo_only and {h.library for h in demo_only} == {"demo"}
        both = _retrieve(service, "冲锋舟存放", threshold=0.0)
        assert {"demo", "other"} <= {h.library for h in both}
        east = service.stores.graph.find_document("demo", "东岭街道防汛应急预案.md")
        in_doc = _retrieve(service, "冲锋舟存放", document_id=east.id, threshold=0.0)
        assert in_doc and {h.doc_id for h in in_doc} == {east.id}
    finally:
        service.stores.ingestor.delete(service.stores.graph.find_document("other", "仓库管理制度.md").id)


def test_lexical_rerank_orders_by_its_score(service):
    hits = _retrieve(service, "液氯的临界量", enable_rerank=True, threshold=0.0, top_k=10)
    scores = [h.rerank_score for h in hits]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)
    assert "液氯" in hits[0].text


def test_context_expansion_adds_the_neighbouring_chunks_of_the_same_owner(service):
    plain = _retrieve(service, "预警分级及发布", threshold=0.9, top_k=2)
    expanded = _retrieve(service, "预警分级及发布", threshold=0.9, top_k=2, enable_context_expansion=True)
    extra = [h for h in expanded if h.expanded]
    assert [h.chunk_id for h in expanded if not h.expanded] == [h.chunk_id for h in plain]
    assert extra
    for neighbour in extra:
        assert any(h.doc_id == neighbour.doc_id and h.attachment == neighbour.attachment
                   and abs(h.index - neighbour.index) == 1 for h in plain)


class _RerankHandler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        results = [{"index": i, "relevance_score": 1.0 if "液氯" in d else 0.1} for i, d in enumerate(body["documents"])]
        payload = json.dumps({"results": results}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def test_rerank_endpoint_over_http():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RerankHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        reranker = EndpointReranker(f"http://127.0.0.1:{server.server_address[1]}/v1", "bge-reranker")
        assert reranker.scores("临界量", ["氯气 5吨", "液氯 1吨"]) == [0.1, 1.0]
    finally:
        server.shutdown()
    with pytest.raises(RerankError, match="check ANNEX_RERANK_BASE_URL or turn rerank off"):
        EndpointReranker("http://127.0.0.1:9/v1", "m", timeout=2).scores("q", ["a"])


def test_a_write_changes_the_read_models_by_its_document_alone(service, tmp_path):
    before = service.read.current()
    note = tmp_path / "值班表.md"
    note.write_text("# 值班表\n周一值班：赵六，电话0571-11112222。\n", encoding="utf-8")
    [result] = service.stores.ingestor.ingest([note], "demo")
    try:
        after = service.read.current()  # published by the write itself: nothing is built on this read
        assert after is service.read.current() and after is not before
        assert after.bm25.size == before.bm25.size + len(result.document.chunks)
        assert after.bm25.search("赵六 值班", 3)[0][0].doc_id == result.doc_id
        assert not any(c.doc_id == result.doc_id for c, _ in before.bm25.search("赵六 值班", 3))  # the old one stays
        # every other document's records are the very objects of the snapshot before: nothing else was read again
        assert all(after.stored[k] is v for k, v in before.stored.items())
    finally:
        service.stores.ingestor.delete(result.doc_id)
    assert result.doc_id not in service.read.current().documents
    assert service.read.current().bm25.size == before.bm25.size


def test_only_the_graph_keeps_a_citing_chunk_under_the_threshold(service):
    # keep() holds a document's best chunk that cites an attachment below the threshold, since the graph follows it,
    # and a few attachment chunks past topK; which chunks cite one is the graph's REFERENCES edges, so the baselines
    # retrieve without them
    query = "绿洲化工园区应急指挥部的24小时值班电话是多少？"
    request = TurnRequest(query)
    with_leads = service.pipeline.retriever.retrieve(query, request)
    without = service.pipeline.retriever.retrieve(query, request, leads=False)
    extra = [h for h in with_leads if h.chunk_id not in {w.chunk_id for w in without}]
    citing = service.read.current().bm25.citing
    leads = [h for h in extra if h.chunk_id in citing and h.score < request.threshold]
    assert leads and all(h in leads or (h.attachment and h.score >= request.threshold) for h in extra)
    assert all(h.score >= request.threshold for h in without)
    for baseline in (NaivePipeline, KeywordPipeline):
        pipeline = baseline(service.settings, service.read, service.pipeline.retriever, service.history, None)
        assert [h.chunk_id for h in pipeline.retrieve(query, request)] == [h.chunk_id for h in without]


def test_vectors_the_read_model_does_not_know_yet_never_take_a_place_in_the_pool(service):
    # an upload's vectors land before its graph commit: the open query's closest then hold chunks no snapshot
    # knows; the pool is still the closest known chunks (asked wider, not through Chroma's slow filter)
    from tests.vector_contract import make_doc

    query = "应急物资储备 冲锋舟 救生衣 数量"
    retriever = service.pipeline.retriever
    index = retriever.bm25()
    before = retriever._vector_hits(index, query, 20, sorted(index.libraries), None, True)
    in_flight = make_doc("in-flight", "demo", "应急物资储备", [query] * 40, [])  # 40 of the closest vectors
    service.stores.vectors.upsert_documents([in_flight])
    try:
        assert all(cid.startswith("in-flight:") for cid, _ in service.stores.vectors.nearest(query, 20))
        during = retriever._vector_hits(index, query, 20, sorted(index.libraries), None, True)
    finally:
        service.stores.vectors.delete_document("in-flight")
    assert [c.chunk_id for c, _ in during] == [c.chunk_id for c, _ in before] and len(before) == 20
