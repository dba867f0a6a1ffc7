"""GraphStore contract, run once per engine in its own process (ANNEX_TEST_GRAPH_ENGINE) by test_graph_store.py."""
from __future__ import annotations

import os
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import pytest

from graph import schema as cypher
from graph.engine import load_engine
from graph.errors import GraphStoreError, GraphWriteError, InvalidDocumentError
from graph.factory import open_graph_store
from graph.kuzu_store import KuzuGraphStore
from graph.store import AttachmentPath
from kb.model import CORPUS, UPLOAD, Attachment, Chunk, Document, Heading, Part, Reference
from kb.settings import load_settings

ENGINE = os.environ.get("ANNEX_TEST_GRAPH_ENGINE", "kuzu")
LIBRARY = "应急"
BODY = "第一章 总则\n发生事故时详见附件1。\n第二章 设备\n设备清单见附件4。另见附件9。\n"
BODY_EDITED = BODY.replace("详见附件1", "联系值班室")
ATT1 = "附件1 通讯录\n值班电话：12345，设备见附件4。\n"
ATT4 = "附件4 设备清单\n发电机两台，联系人见附件1。\n水泵三台。\n"
ATT4_EDITED = "附件4 设备清单（修订）\n发电机三台。\n"


def chunks_of(store: KuzuGraphStore, doc_id: str, label: str) -> list[Chunk]:
    """One attachment's chunks, read the way every caller reads them (GraphReads.attachments_chunks)."""
    return store.attachments_chunks([(doc_id, label)])[(doc_id, label)]


def make_doc(doc_id: str, name: str = "应急预案.docx", library: str = LIBRARY, edited: bool = False) -> Document:
    """The template: body cites 附件1, 附件4 and a missing 附件9; 附件1 cites 附件4; 附件4 cites 附件1."""
    body, att1, att4 = (BODY_EDITED, "", ATT4_EDITED) if edited else (BODY, ATT1, ATT4)
    text = body + att1 + att4
    a1, a4, split = len(body), len(body) + len(att1), text.index("第二章")
    attachments = [Attachment("附件1", "附件", "1", "通讯录", a1, a4)] if att1 else []
    attachments.append(Attachment("附件4", "附件", "4", "设备清单", a4, len(text)))
    starts = [("", 0), ("", split)] + ([("附件1", a1)] if att1 else []) + [("附件4", a4)]
    if not edited:
        starts.append(("附件4", text.index("水泵")))
    ends = [start for _, start in starts[1:]] + [len(text)]
    chunks = []
    for pos, ((owner, start), end) in enumerate(zip(starts, ends)):
        idx = sum(1 for other, _ in starts[:pos] if other == owner)
        chunks.append(Chunk(f"{doc_id}:{owner or 'body'}:{idx}", doc_id, owner, idx, start, end, text[start:end]))
    labels = {a.label for a in attachments}
    refs = []
    for needle, source, offset in [("详见附件1", "", 0), ("见附件4", "", split), ("另见附件9", "", 0),
                                   ("设备见附件4", "附件1", a1), ("联系人见附件1", "附件4", a4)]:
        start = text.find(needle, offset)
        if start >= 0:
            label = needle[-3:]
            target = label if label in labels else None
            refs.append(Reference(label, needle, start, start + len(needle), source, target))
    refs.sort(key=lambda r: r.start)
    return Document(
        id=doc_id, library=library, name=name, title=name.split(".")[0], text=text,
        content_hash=f"hash-{doc_id}-{edited}", parts=(Part(name, 0, len(text), f"part-{doc_id}"),),
        attachments=tuple(attachments), references=tuple(refs), chunks=tuple(chunks),
        headings=(Heading(1, 0, 5), Heading(1, split, split + 5)), tags=("应急", "设备"),
    )


def synthetic_doc(n: int, chunks: int = 50) -> Document:
    """A document of `chunks` chunks: half body, half 附件1, every body chunk citing 附件1."""
    piece = "详见附件1。" + "文" * 94
    text = piece * chunks
    half = chunks // 2
    atts = (Attachment("附件1", "附件", "1", "清单", half * 100, len(text)),)
    cs = tuple(Chunk(f"s{n}:{i}", f"s{n}", "" if i < half else "附件1", i if i < half else i - half,
                     i * 100, i * 100 + 100, piece) for i in range(chunks))
    refs = tuple(Reference("附件1", "详见附件1", i * 100, i * 100 + 5, "", "附件1") for i in range(half))
    return Document(f"s{n}", "bench", f"s{n}.txt", f"s{n}", text, f"h{n}", (), atts, refs, cs)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[KuzuGraphStore]:
    with KuzuGraphStore(tmp_path / "graph", engine=ENGINE) as opened:
        yield opened


def expected_stats(*docs: Document) -> dict[str, int]:
    """What stats() must say when exactly these documents are stored."""
    return {
        "libraries": len({d.library for d in docs}), "documents": len(docs),
        "attachments": sum(len(d.attachments) for d in docs), "chunks": sum(len(d.chunks) for d in docs),
        "references": sum(len(d.references) - len(d.dangling) for d in docs),
        "dangling": sum(len(d.dangling) for d in docs),
    }


def test_engine_and_factory(tmp_path: Path) -> None:
    settings = load_settings(env={}, store_dir=tmp_path / "store", graph_engine=ENGINE)
    opened = open_graph_store(settings.graph_dir, settings.graph_engine)
    try:
        assert opened.engine == ENGINE
        assert opened.stats() == expected_stats()
        assert settings.graph_dir.is_dir()
    finally:
        opened.close()


def test_round_trip(store: KuzuGraphStore) -> None:
    doc = make_doc("d1")
    store.upsert_documents([doc])
    assert store.load_document("d1") == doc
    assert store.content_hash("d1") == doc.content_hash
    assert store.load_document("nope") is None and store.content_hash("nope") is None
    assert store.stats() == expected_stats(doc) == {
        "libraries": 1, "documents": 1, "attachments": 2, "chunks": 5, "references": 4, "dangling": 1}


def test_documents_from_one_template_never_share_edges(store: KuzuGraphStore) -> None:
    d1, d2 = make_doc("d1"), make_doc("d2", name="另一预案.md")
    store.upsert_documents([d1, d2])
    assert [c.doc_id for c in chunks_of(store, "d1", "附件4")] == ["d1", "d1"]
    from_d1 = store.attachment_paths([c.id for c in d1.chunks], hops=3)
    from_d2 = store.attachment_paths([c.id for c in d2.chunks], hops=3)
    assert len(from_d1) == 8 and {p.doc_id for p in from_d1} == {"d1"}
    assert [replace(p, chunk_id=p.chunk_id.replace("d2", "d1", 1), doc_id="d1") for p in from_d2] == from_d1
    assert store.load_document("d1") == d1 and store.load_document("d2") == d2  # no reference from the other
    assert store.stats() == expected_stats(d1, d2)


def test_reupsert_is_idempotent(store: KuzuGraphStore) -> None:
    docs = [make_doc("d1"), make_doc("d2", name="b.md")]
    store.upsert_documents(docs)
    before = store.stats()
    store.upsert_documents(docs)
    store.upsert_documents(docs + docs)  # a repeated id in one batch is written once
    assert store.stats() == before
    assert [store.load_document(d.id) for d in docs] == docs


def test_edited_document_replaces_the_old_one(store: KuzuGraphStore) -> None:
    old, other = make_doc("d1"), make_doc("d2", name="b.md")
    store.upsert_documents([old, other])
    new = make_doc("d1", edited=True)
    store.upsert_documents([new])
    assert store.load_document("d1") == new
    assert store.stats() == expected_stats(new, other)
    assert chunks_of(store, "d1", "附件1") == []
    assert chunks_of(store, "d1", "附件4") == [c for c in new.chunks if c.attachment == "附件4"]
    assert store.attachment_paths(["d1:附件1:0", "d1:附件4:1"]) == []
    assert store.load_document("d2") == other


def test_delete_removes_everything(store: KuzuGraphStore) -> None:
    d1, d2 = make_doc("d1"), make_doc("d2", name="b.md", library="其他")
    store.upsert_documents([d1, d2])
    assert store.delete_document("d1") is True
    assert store.delete_document("d1") is False
    assert store.load_document("d1") is None
    assert store.stats() == expected_stats(d2)
    assert store.attachment_paths([c.id for c in d1.chunks]) == []
    assert store.delete_document("d2") is True
    assert store.stats() == expected_stats()  # empty libraries go with their last document


def test_attachment_paths_follow_hops(store: KuzuGraphStore) -> None:
    doc = make_doc("d1")
    store.upsert_documents([doc, make_doc("d2")])
    first = "d1:body:0"  # 发生事故时详见附件1
    assert store.attachment_paths([first], hops=1) == [AttachmentPath(first, "d1", ("附件1",), ("详见附件1",))]
    two = [AttachmentPath(first, "d1", ("附件1",), ("详见附件1",)),
           AttachmentPath(first, "d1", ("附件1", "附件4"), ("详见附件1", "设备见附件4"))]
    assert store.attachment_paths([first], hops=2) == two
    assert store.attachment_paths([first], hops=3) == two  # 附件4 → 附件1 would revisit 附件1
    in_attachment = store.attachment_paths(["d1:附件1:0"], hops=2)
    assert [p.labels for p in in_attachment] == [("附件4",), ("附件4", "附件1")]
    assert store.attachment_paths([first], hops=0) == [] and store.attachment_paths([]) == []
    assert store.attachment_paths(["d1:body:1"], hops=1) == [
        AttachmentPath("d1:body:1", "d1", ("附件4",), ("见附件4",))]  # the dangling 附件9 has no edge
    with pytest.raises(ValueError):
        store.attachment_paths([first], hops=-1)


def test_attachment_chunks_in_order(store: KuzuGraphStore) -> None:
    doc = make_doc("d1")
    shuffled = replace(doc, chunks=tuple(reversed(doc.chunks)))
    store.upsert_documents([shuffled])
    assert [c.index for c in chunks_of(store, "d1", "附件4")] == [0, 1]
    assert chunks_of(store, "d1", "附件7") == []
    assert store.load_document("d1") == shuffled


def test_list_and_find_documents(store: KuzuGraphStore) -> None:
    store.upsert_documents([make_doc("d2", name="b预案.md"), make_doc("d1", name="a预案.docx"),
                            make_doc("d3", name="a预案.docx", library="其他")])
    assert [(s.library, s.name) for s in store.list_documents()] == [
        ("其他", "a预案.docx"), ("应急", "a预案.docx"), ("应急", "b预案.md")]
    summary = store.list_documents(LIBRARY)[0]
    assert (summary.id, summary.attachments, summary.chunks, summary.dangling) == ("d1", 2, 5, ("附件9",))
    assert store.find_document(LIBRARY, "a预案.docx") == summary
    assert store.find_document(LIBRARY, "a预案") == summary
    assert store.find_document("其他", "a预案").id == "d3"
    assert store.find_document(LIBRARY, "c预案") is None and store.list_documents("无") == []


def test_where_a_document_came_from_round_trips(store: KuzuGraphStore) -> None:
    uploaded, synced = make_doc("d1"), replace(make_doc("d2", name="b预案.md"), source=CORPUS)
    assert uploaded.source == UPLOAD
    store.upsert_documents([uploaded, synced])
    assert store.load_document("d1") == uploaded and store.load_document("d2") == synced
    assert [(s.id, s.source) for s in store.list_documents(LIBRARY)] == [("d2", CORPUS), ("d1", UPLOAD)]
    assert store.find_document(LIBRARY, "b预案").source == CORPUS


def test_a_store_from_before_provenance_opens_with_the_source_unknown(tmp_path: Path) -> None:
    module = load_engine(ENGINE)
    (tmp_path / "g").mkdir()
    db = module.Database(str(tmp_path / "g" / "graph.db"))
    conn = module.Connection(db)
    for ddl in cypher.SCHEMA:
        if ddl == cypher.DOCUMENT:
            ddl = ddl.replace(", source STRING)", ")")
        if ddl != cypher.DOCUMENT_SOURCE:
            conn.execute(ddl)
    conn.execute("CREATE (:Document {id: 'old', library: $lib, name: 'a.md', stem: 'a', title: 'a', text: 'x', "
                 "content_hash: 'h', parts: '[]', headings: '[]', tags: '[]', dangling: '[]', unplaced: '[]', "
                 "n_attachments: 0, n_chunks: 0, n_dangling: 0})", {"lib": LIBRARY})
    conn.close()
    db.close()
    with KuzuGraphStore(tmp_path / "g", engine=ENGINE) as opened:
        assert [(s.id, s.source) for s in opened.list_documents()] == [("old", "")]
        doc = make_doc("d1")
        opened.upsert_documents([doc])
        assert opened.load_document("d1") == doc


def test_reference_outside_every_chunk_round_trips(store: KuzuGraphStore) -> None:
    doc = make_doc("d1")
    loose = Reference("附件4", "附件4", doc.attachments[1].start, doc.attachments[1].start + 3, "", "附件4")
    doc = replace(doc, chunks=doc.chunks[1:], references=tuple(sorted((*doc.references, loose),
                                                                          key=lambda r: r.start)))
    store.upsert_documents([doc])
    assert store.load_document("d1") == doc


def test_store_reopens_from_disk(tmp_path: Path) -> None:
    doc = make_doc("d1")
    first = KuzuGraphStore(tmp_path / "g", engine=ENGINE)
    first.upsert_documents([doc])
    first.close()
    with pytest.raises(GraphStoreError):
        first.stats()
    with KuzuGraphStore(tmp_path / "g", engine=ENGINE) as again:
        assert again.load_document("d1") == doc
        assert again.stats() == expected_stats(doc)


def test_failed_write_changes_nothing(store: KuzuGraphStore) -> None:
    d1 = make_doc("d1")
    store.upsert_documents([d1])
    bad = replace(make_doc("d2"), chunks=(replace(make_doc("d2").chunks[0], id="d1:body:0"),))
    with pytest.raises(GraphWriteError):  # chunk id already taken by d1
        store.upsert_documents([bad])
    with pytest.raises(InvalidDocumentError):
        store.upsert_documents([replace(d1, attachments=d1.attachments[:1])])
    assert store.stats() == expected_stats(d1) and store.load_document("d1") == d1


def test_concurrent_upserts_both_land(store: KuzuGraphStore) -> None:
    errors: list[BaseException] = []

    def writer(prefix: str) -> None:
        try:
            for i in range(5):
                store.upsert_documents([make_doc(f"{prefix}{i}", name=f"{prefix}{i}.md")])
                store.list_documents()
        except BaseException as exc:  # handed to the main thread, which fails the test with it
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(p,)) for p in ("x", "y")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.stats()["documents"] == 10
    assert store.load_document("y4") == make_doc("y4", name="y4.md")


def test_loads_never_see_half_a_write(store: KuzuGraphStore) -> None:
    versions = [make_doc("d1"), make_doc("d1", edited=True)]
    store.upsert_documents(versions[:1])
    done = threading.Event()

    errors: list[BaseException] = []

    def writer() -> None:
        try:
            for i in range(6):
                store.upsert_documents([versions[(i + 1) % 2]])
        except BaseException as exc:  # handed to the main thread, which fails the test with it
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=writer)
    thread.start()
    seen = []
    while not done.is_set():
        seen.append(store.load_document("d1"))
    thread.join()
    assert errors == []  # Kuzu's checkpoint on commit used to time out behind a stream of reads
    assert seen and all(doc in versions for doc in seen)


def test_bulk_upsert_200_documents_of_50_chunks(store: KuzuGraphStore) -> None:
    docs = [synthetic_doc(n) for n in range(200)]
    started = time.perf_counter()
    store.upsert_documents(docs)
    first = time.perf_counter() - started
    started = time.perf_counter()
    store.upsert_documents(docs)
    again = time.perf_counter() - started
    print(f"\n[{ENGINE}] upsert 200x50: first {first:.2f}s, replace {again:.2f}s")
    assert store.stats() == expected_stats(*docs)
    assert len(store.attachment_paths([f"s{n}:0" for n in range(200)], hops=2)) == 200
    assert store.load_document("s7") == docs[7]


def test_batch_reads_for_the_answer_pipeline(store: KuzuGraphStore) -> None:
    one, two = make_doc("d1"), make_doc("d2", name="另一预案.md")
    store.upsert_documents([one, two])
    chunks = store.attachments_chunks([("d1", "附件4"), ("d2", "附件1"), ("d1", "附件99")])
    assert chunks[("d1", "附件4")] == [c for c in one.chunks if c.attachment == "附件4"]
    assert chunks[("d2", "附件1")] == [c for c in two.chunks if c.attachment == "附件1"]
    assert chunks[("d1", "附件99")] == []
    wanted = ["d2:附件4:1", "missing", "d1:body:0"]
    assert store.chunks_by_id(wanted) == [two.chunks[-1], one.chunks[0]]
    assert sorted(store.all_chunks(), key=lambda c: c.id) == sorted(one.chunks + two.chunks, key=lambda c: c.id)
    listed = store.list_attachments()
    assert [(a.doc_id, a.label, a.title, a.library) for a in listed] == [
        ("d2", "附件1", "通讯录", LIBRARY), ("d2", "附件4", "设备清单", LIBRARY),
        ("d1", "附件1", "通讯录", LIBRARY), ("d1", "附件4", "设备清单", LIBRARY),
    ]
    assert listed[0].doc_title == "另一预案"
    assert store.document_text("d1") == one.text and store.document_text("nope") is None


@pytest.mark.parametrize("bulk", [0, 10_000], ids=["copied, then created", "created, then copied"])
def test_a_write_reads_back_the_same_whether_bulk_loaded_or_created(
    store: KuzuGraphStore, monkeypatch: pytest.MonkeyPatch, bulk: int
) -> None:
    """Small writes create their rows, large ones COPY them (kuzu_store.CREATE_ROWS): a write of one kind into
    tables the other kind filled reads back as written, and replaces cleanly."""
    import graph.kuzu_store

    monkeypatch.setattr(graph.kuzu_store, "CREATE_ROWS", bulk)
    first = [make_doc(f"p{i}", name=f"p{i}.md") for i in range(3)]
    store.upsert_documents(first)
    monkeypatch.setattr(graph.kuzu_store, "CREATE_ROWS", 10_000 - bulk)  # the other way for the next write
    edited = make_doc("p1", name="p1.md", edited=True)
    store.upsert_documents([edited, make_doc("q0", name="q0.md", library="其他库")])
    for doc in (first[0], edited, first[2]):
        assert store.load_document(doc.id) == doc
    assert store.stats() == expected_stats(first[0], edited, first[2], make_doc("q0", name="q0.md", library="其他库"))
    reached = {p.labels for p in store.attachment_paths([c.id for c in edited.chunks], hops=1)}
    assert reached == {("附件4",)}  # the edited body cites 附件4 alone, and its edges were written with it
