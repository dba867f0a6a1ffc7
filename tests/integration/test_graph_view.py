"""The in-memory graph view answers prefetch's and the hop's reads exactly as the Kuzu store does."""
from __future__ import annotations

from dataclasses import replace

import pytest

from graph.view import GraphView
from kb.search.readmodels import ReadModels
from tests.conftest import DEMO_CORPUS


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    from kb.settings import load_settings
    from kb.stores import open_stores

    stores = open_stores(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    assert not [r.error for r in stores.ingestor.ingest([DEMO_CORPUS], "demo") if r.error]
    yield stores
    stores.close()


def test_paths_match_the_store_for_every_chunk_and_hop_count(demo):
    graph = demo.graph
    view = GraphView(graph.all_chunks(), graph.reference_edges())
    ids = [c.id for c in graph.all_chunks()]
    for hops in (0, 1, 2, 3):
        for chunk_id in ids:
            assert view.attachment_paths([chunk_id], hops) == graph.attachment_paths([chunk_id], hops), (chunk_id, hops)
    batch = ids[::7] + ["no-such-chunk", ids[0]]
    assert view.attachment_paths(batch, 2) == graph.attachment_paths(batch, 2)
    assert len(view.attachment_paths(ids, 2)) > 50  # the corpus is linked: the comparison is not vacuous
    with pytest.raises(ValueError):
        view.attachment_paths(ids[:1], -1)


def test_attachment_chunks_and_chunks_by_id_match_the_store(demo):
    graph = demo.graph
    view = GraphView(graph.all_chunks(), graph.reference_edges())
    keys = [(a.doc_id, a.label) for a in graph.list_attachments()] + [("nobody", "附件1")]
    assert view.attachments_chunks(keys) == graph.attachments_chunks(keys)
    ids = [c.id for c in graph.all_chunks()][::-3] + ["missing"]
    assert view.chunks_by_id(ids) == graph.chunks_by_id(ids)


def test_the_snapshot_view_follows_writes(demo):
    read = ReadModels(demo.graph, demo.ingestor, demo.keywords)
    before = read.current().view
    doc = next(d for d in demo.graph.list_documents() if d.name == "东岭街道防汛应急预案.md")
    stored = demo.graph.load_document(doc.id)
    demo.ingestor.delete(doc.id)
    after = read.current().view
    assert before.attachments_chunks([(doc.id, "附件4")])[(doc.id, "附件4")]
    assert after.attachments_chunks([(doc.id, "附件4")]) == {(doc.id, "附件4"): []}
    demo.ingestor.write([stored])
    assert read.current().view.attachments_chunks([(doc.id, "附件4")]) == before.attachments_chunks([(doc.id, "附件4")])


def test_what_a_write_says_it_stored_is_what_the_store_reads_back(demo, real):
    """The read models take a write's documents as stored (as_stored) instead of reading each one back; the edges
    in any order (paths are ranked by graph/ranking.py, never by the order edges are read)."""
    def canonical(stored):
        return {k: replace(v, edges=tuple(sorted(v.edges, key=repr))) for k, v in stored.items()}

    for stores in (demo, real.stores):
        ids = [d.id for d in stores.graph.list_documents()]
        docs = [stores.graph.load_document(doc_id) for doc_id in ids]
        said = canonical(stores.graph.as_stored(docs))
        assert said == canonical(stores.graph.stored_documents(ids)) and said.keys() == set(ids)
        assert sum(len(s.edges) for s in said.values()) > 20  # linked: the comparison is not vacuous
