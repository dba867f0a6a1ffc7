"""Uploads are staged under <store>/uploads/ and removed after the ingest; leftovers of a killed process go at open."""
from __future__ import annotations

import io

from kb.service import open_service
from kb.settings import load_settings
from kb.ingest.uploads import UPLOADS_DIR, ingest_uploads


def test_a_leftover_staging_folder_is_removed_when_the_service_opens(tmp_path):
    store = tmp_path / "store"
    leftover = store / UPLOADS_DIR / "3f2a9c"  # what a kill -9 during an upload leaves behind
    leftover.mkdir(parents=True)
    (leftover / "预案.md").write_bytes(b"x" * 100_000)
    service = open_service(load_settings(env={}, store_dir=store))
    try:
        assert not leftover.exists() and list((store / UPLOADS_DIR).iterdir()) == []
    finally:
        service.close()


def test_an_upload_is_staged_under_the_store_and_the_folder_is_gone_after_the_ingest(tmp_path):
    store = tmp_path / "store"
    service = open_service(load_settings(env={}, store_dir=store))
    seen = []
    try:
        def progress(done, total, what):
            seen.extend(p for p in (store / UPLOADS_DIR).rglob("*") if p.is_file())

        sent = [("演练.md", io.BytesIO("# 演练\n\n参演 30 人。\n".encode())), ("..", io.BytesIO(b"x")),
                ("演练.md", io.BytesIO(b"# dup\n"))]
        results = ingest_uploads(service.stores.ingestor, store, sent, "uploads", progress)
    finally:
        service.close()
    assert [(r.file, r.status) for r in results] == [("演练.md", "ingested"), ("..", "error"), ("演练.md", "error")]
    assert "another file of this upload has the same name" in results[2].error
    assert [p.name for p in set(seen)] == ["演练.md"]  # it was there during the ingest, in the store
    assert list((store / UPLOADS_DIR).iterdir()) == []


def test_an_attachment_file_uploaded_after_its_parent_stored_alone_joins_it(tmp_path):
    """Issue 21 item 10: the parent was stored as one file; its 附件 files arrive in later uploads (.md, .docx)."""
    import docx

    store = tmp_path / "store"
    service = open_service(load_settings(env={}, store_dir=store))
    ingestor = service.stores.ingestor
    parent = "# 码头应急预案\n第一条 值班电话详见附件1。\n第二条 车辆清单见附件2。\n".encode()
    table = docx.Document()
    table.add_paragraph("附件2 车辆清单")
    rows = table.add_table(rows=2, cols=2)
    rows.cell(0, 0).text, rows.cell(0, 1).text = "车牌", "载重"
    rows.cell(1, 0).text, rows.cell(1, 1).text = "浙A12345", "18吨"
    sheet = io.BytesIO()
    table.save(sheet)
    sheet.seek(0)
    try:
        [first] = ingest_uploads(ingestor, store, [("码头应急预案.md", io.BytesIO(parent))], "port")
        late = "值班通讯录\n调度室 0571-86001234\n".encode()
        [one] = ingest_uploads(ingestor, store, [("码头应急预案-附件1-值班通讯录.md", io.BytesIO(late))], "port")
        [two] = ingest_uploads(ingestor, store, [("码头应急预案-附件2-车辆清单.docx", sheet)], "port")
        doc = service.stores.graph.load_document(first.doc_id)
    finally:
        service.close()
    assert first.status == "ingested"
    assert (one.status, one.doc_id, one.error) == ("attached", first.doc_id, None)
    assert (two.status, two.doc_id, two.error) == ("attached", first.doc_id, None)
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "值班通讯录"), ("附件2", "车辆清单")]
    assert [(r.label, r.target) for r in doc.references] == [("附件1", "附件1"), ("附件2", "附件2")]
    assert "调度室 0571-86001234" in doc.text and "浙A12345 | 18吨" in doc.text
    assert doc.text.startswith("# 码头应急预案\n第一条")
