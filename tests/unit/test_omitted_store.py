"""An omitted attachment (content left out, （略）) keeps its mark through the graph store."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from graph.kuzu_store import KuzuGraphStore
from kb.ingest.assemble import build_document
from kb.model import ParsedFile

TEXT = "第一条 按照本规则附件一的规定执行。\n附件一：辅助指挥、联络的符号和信号（略）\n附件二：飞行高度层配备标准\n一、八千四百米以下，每隔三百米为一个高度层。\n"


def test_omitted_survives_the_round_trip_and_shows_in_the_listing(tmp_path: Path):
    doc = build_document("t", ParsedFile("规则.md", "规则.md", TEXT, "h"))
    first = replace(doc.attachments[0], omitted=True)
    doc = replace(doc, attachments=(first, *doc.attachments[1:]))
    with KuzuGraphStore(tmp_path / "graph") as store:
        store.upsert_documents([doc])
        assert store.load_document(doc.id) == doc
        assert [(a.label, a.omitted) for a in store.list_attachments()] == [("附件1", True), ("附件2", False)]


def test_a_store_written_before_the_omitted_column_gains_it_on_open(tmp_path: Path):
    from graph.engine import load_engine
    from graph.kuzu_store import DB_FILE

    kuzu = load_engine("kuzu")

    (tmp_path / "graph").mkdir()
    db = kuzu.Database(str(tmp_path / "graph" / DB_FILE))
    conn = kuzu.Connection(db)
    conn.execute("CREATE NODE TABLE Attachment(id STRING PRIMARY KEY, doc_id STRING, label STRING, kind STRING, "
                 "number STRING, title STRING, char_start INT64, char_end INT64, pos INT64)")
    conn.execute("CREATE (:Attachment {id: 'old:附件1', doc_id: 'old', label: '附件1', kind: '附件', number: '1', "
                 "title: '旧附件', char_start: 0, char_end: 3, pos: 0})")
    conn.close()
    db.close()
    with KuzuGraphStore(tmp_path / "graph") as store:  # nothing a user stored is lost: the column is added
        doc = build_document("t", ParsedFile("规则.md", "规则.md", TEXT, "h"))
        store.upsert_documents([doc])
        assert store.load_document(doc.id) == doc
