"""BM25 in segments: a write goes to a delta scored like the main segment, and a merge gives bm25s's own ranking."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from kb.search import bm25_segments
from kb.search.bm25_segments import Segments
from kb.search.keyword_index import KeywordIndex
from kb.search.tokens import tokenize
from tests.conftest import DEMO_CORPUS

QUESTIONS = ("冲锋舟 数量", "应急物资清单", "值班电话", "餐厨垃圾 收运 许可", "火灾 疏散 路线", "危险化学品 储罐")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The demo documents' words in a keyword store, two libraries."""
    index = KeywordIndex(tmp_path_factory.mktemp("words") / "keywords.sqlite3")
    paths = sorted(p for p in DEMO_CORPUS.iterdir() if p.is_file())
    docs = [build_document("a" if i % 2 else "b", parse_file(p, 50 << 20)) for i, p in enumerate(paths)]
    index.upsert_documents(docs)
    yield index, docs
    index.close()


def _search(segments: Segments, index: KeywordIndex, question: str, **kw) -> list[tuple[str, float]]:
    return segments.search(index.vocab.known(tokenize(question)), 10, **kw)


def test_a_document_written_after_the_build_is_found_and_ranked_like_the_rest(store):
    index, docs = store
    rows = index.chunks()
    whole = Segments({r.chunk_id: r for r in rows}, rows, len(index.vocab))
    last = docs[-1].id
    built = Segments({r.chunk_id: r for r in rows if r.doc_id != last}, [r for r in rows if r.doc_id != last],
                     len(index.vocab))
    written = built.replaced([], index.chunks([last]), len(index.vocab))
    assert written.delta and len(written.main_rows) == len(rows) - len(written.delta)
    for question in QUESTIONS:
        exact, approximate = _search(whole, index, question), _search(written, index, question)
        assert exact, question
        # the delta is scored with the main segment's statistics (here five documents of six: a large change; in a
        # library of thousands one document moves them by a hair): the same chunk leads, the same chunks follow
        assert approximate[0][0] == exact[0][0], question
        assert len({c for c, _ in approximate[:5]} & {c for c, _ in exact[:5]}) >= 4, question
    merged = Segments(written.live, list(written.live.values()), len(index.vocab))
    assert all(_search(merged, index, q) == _search(whole, index, q) for q in QUESTIONS)  # a merge is exact


def test_a_deleted_document_is_masked_out_and_filters_hold_in_both_segments(store):
    index, docs = store
    rows = index.chunks()
    whole = Segments({r.chunk_id: r for r in rows}, rows, len(index.vocab))
    first = docs[0].id
    gone = whole.replaced([r.chunk_id for r in rows if r.doc_id == first], [], len(index.vocab))
    assert any(c.startswith(first) for q in QUESTIONS for c, _ in _search(whole, index, q))
    assert not any(c.startswith(first) for q in QUESTIONS for c, _ in _search(gone, index, q))
    moved = gone.replaced([], [r for r in rows if r.doc_id == first], len(index.vocab))  # back, in the delta
    for question in QUESTIONS:
        for library in ("a", "b"):
            hits = _search(moved, index, question, libraries=[library])
            assert all(moved.live[c].library == library for c, _ in hits)
        one = _search(moved, index, question, doc_id=first)
        assert all(moved.live[c].doc_id == first for c, _ in one)


def test_a_merge_is_wanted_once_enough_has_changed(store, monkeypatch):
    index, _ = store
    rows = index.chunks()
    whole = Segments({r.chunk_id: r for r in rows}, rows, len(index.vocab))
    monkeypatch.setattr(bm25_segments, "MERGE_AT", 5)
    assert not whole.wants_merge
    assert whole.replaced([r.chunk_id for r in rows[:5]], [], len(index.vocab)).wants_merge
    # a bulk load (more new chunks than the main segment holds) is built whole at once: nothing left to merge
    empty = Segments({}, [], len(index.vocab))
    loaded = empty.replaced([], rows, len(index.vocab))
    assert not loaded.delta and len(loaded.main_rows) == len(rows)


def test_writes_one_after_another_score_the_delta_exactly_as_one_write_of_them_all(store):
    index, docs = store
    rows = index.chunks()
    smallest = sorted(docs, key=lambda doc: len(doc.chunks))[:2]  # written after the main segment, in four writes
    half = {doc.id for doc in docs} - {doc.id for doc in smallest}
    main = Segments({r.chunk_id: r for r in rows if r.doc_id in half}, [r for r in rows if r.doc_id in half],
                    len(index.vocab))
    parts = [[r for r in rows if r.doc_id == doc.id] for doc in smallest]
    later = [part[i::2] for part in parts for i in range(2)]
    at_once = main.replaced([], [r for batch in later for r in batch], len(index.vocab))
    assert len(at_once.delta) == sum(len(b) for b in later) < len(main.main_rows)  # no rebuild on the way
    one_by_one = main
    for batch in later:  # each write scores its own chunks; the delta's earlier rows are kept as they were scored
        one_by_one = one_by_one.replaced([], batch, len(index.vocab))
    again = one_by_one.replaced([r.chunk_id for r in later[0]], later[0], len(index.vocab))  # one re-written
    for question in QUESTIONS:
        expected = _search(at_once, index, question)
        assert expected and _search(one_by_one, index, question) == expected, question
        assert _search(again, index, question) == expected, question
        for library in ("a", "b"):
            assert _search(one_by_one, index, question, libraries=[library]) == _search(
                at_once, index, question, libraries=[library]), question


def test_a_bulk_load_in_batches_is_searchable_throughout_and_built_whole_once_by_its_last_batch(store):
    index, docs = store
    rows = index.chunks()
    whole = Segments({r.chunk_id: r for r in rows}, rows, len(index.vocab))
    batches = [[r for r in rows if r.doc_id == doc.id] for doc in docs]
    loading = Segments({}, [], len(index.vocab))
    for n, batch in enumerate(batches[:-1]):
        loading = loading.replaced([], batch, len(index.vocab), more=True)
        # no rebuild while more batches follow: every chunk so far waits in the delta, and a search finds them
        assert not loading.main_rows and len(loading.delta) == sum(len(b) for b in batches[: n + 1])
        assert all(c in loading.live for q in QUESTIONS for c, _ in _search(loading, index, q))
    assert any(_search(loading, index, q) for q in QUESTIONS)
    loaded = loading.replaced([], batches[-1], len(index.vocab))  # the last batch: the delta outgrew the main
    assert not loaded.delta and len(loaded.main_rows) == len(rows)
    assert all(_search(loaded, index, q) == _search(whole, index, q) for q in QUESTIONS)  # bm25s's own ranking


def test_a_saved_main_segment_loads_and_what_changed_since_goes_to_the_delta(store, tmp_path):
    index, docs = store
    rows = index.chunks()
    whole = Segments({r.chunk_id: r for r in rows}, rows, len(index.vocab))
    whole.save(tmp_path / "main")
    loaded = Segments.load(tmp_path / "main", {r.chunk_id: r for r in index.chunks()}, len(index.vocab))
    assert loaded is not None and not loaded.delta
    assert all(_search(loaded, index, q) == _search(whole, index, q) for q in QUESTIONS)
    # bm25s's own word → id map is not kept: the words are ids already (the keyword store's)
    assert whole.main.vocab_dict == loaded.main.vocab_dict == {}
    assert (tmp_path / "main" / "vocab.index.json").read_text(encoding="utf-8") == "{}"
    first = docs[0].id
    changed = {r.chunk_id: r for r in index.chunks() if r.doc_id != first}  # the first document deleted since
    after = Segments.load(tmp_path / "main", changed, len(index.vocab))
    assert not any(c.startswith(first) for q in QUESTIONS for c, _ in _search(after, index, q))
    assert Segments.load(tmp_path / "nothing", changed, len(index.vocab)) is None
