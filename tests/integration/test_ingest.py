"""Ingestion into real Kuzu and Chroma: batches, pre-split attachments, idempotence, edits, deletes, bad files."""
from __future__ import annotations

import shutil
from pathlib import Path

import docx
import pytest

from tests.conftest import SHARED_CORPUS

HOTEL = "zh_plan_sheraton_xian_2024.txt"
RULES = "zh_rule_jiaojing_daolu_zhiqin_zhifa_guifan.md"
LICENCE = "zh_rule_jiashizheng_shenling_2021_dangling_refs.md"


def _copy(tmp_path: Path, *names: str) -> Path:
    if not SHARED_CORPUS.is_dir():
        pytest.skip(f"{SHARED_CORPUS} is absent (a fresh clone has no ../shared/corpus)")
    folder = tmp_path / "in"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(SHARED_CORPUS / name, folder / name)
    return folder


def _consistent(stores) -> dict[str, int]:
    """Both stores hold exactly the same chunks; returns the graph counts."""
    counts = stores.graph.stats()
    vectors = stores.vectors.count()
    assert sum(vectors.values()) == counts["chunks"]
    assert stores.vectors.doc_ids() == {d.id for d in stores.graph.list_documents()}
    return counts


def test_ingest_writes_documents_attachments_and_references_to_both_stores(stores, tmp_path):
    results = stores.ingestor.ingest([_copy(tmp_path, HOTEL, RULES, LICENCE)], "shared")
    assert [(r.file, r.status, r.error) for r in results] == [
        (HOTEL, "ingested", None), (RULES, "ingested", None), (LICENCE, "ingested", None)
    ]
    counts = _consistent(stores)
    assert counts["documents"] == 3 and counts["attachments"] == 8 + 6
    assert counts["dangling"] == 4  # the driving-licence rules cite 附件1–4, which are absent
    listing = {d.name: d for d in stores.graph.list_documents("shared")}
    assert listing[LICENCE].dangling == ("附件1", "附件2", "附件3", "附件4")
    hotel = stores.graph.load_document(listing[HOTEL].id)
    assert hotel == next(r.document for r in results if r.file == HOTEL)
    # 应急物资配备明细见附件4 → the chunk that says it links to 附件4 in the graph
    citing = [c.id for c in hotel.chunks if "见附件4" in c.text]
    paths = stores.graph.attachment_paths(citing, hops=2)
    assert {p.labels for p in paths} == {("附件4",)}
    a4 = stores.graph.attachments_chunks([(hotel.id, "附件4")])[(hotel.id, "附件4")]
    assert [c.text for c in a4] == ["附件4：应急物资装备清单"]


def test_reingesting_unchanged_files_changes_nothing(stores, tmp_path):
    folder = _copy(tmp_path, HOTEL, RULES)
    stores.ingestor.ingest([folder], "shared")
    before = _consistent(stores)
    again = stores.ingestor.ingest([folder], "shared")
    assert [r.status for r in again] == ["unchanged", "unchanged"]
    assert _consistent(stores) == before


@pytest.mark.parametrize("list_at", [0, 50])  # a bulk ingest lists the library once; a small one asks per document
def test_an_unchanged_file_is_told_from_an_edited_one_either_way(stores, tmp_path, monkeypatch, list_at):
    from kb.ingest import ingestor

    monkeypatch.setattr(ingestor, "LIST_LIBRARY_AT", list_at)
    folder = _copy(tmp_path, HOTEL, RULES)
    stores.ingestor.ingest([folder], "shared")
    (folder / RULES).write_text((folder / RULES).read_text(encoding="utf-8") + "\n补充：本规程自发布之日起施行。\n",
                                encoding="utf-8")
    assert [r.status for r in stores.ingestor.ingest([folder], "shared")] == ["unchanged", "ingested"]
    assert [r.status for r in stores.ingestor.ingest([folder], "other")] == ["ingested", "ingested"]  # per library


def test_a_new_way_of_reading_reads_an_unchanged_file_again(stores, tmp_path, monkeypatch):
    # an upgrade that splits or links differently: the same file is read anew, not kept as it was first read
    from kb.ingest import assemble

    folder = _copy(tmp_path, HOTEL)
    stores.ingestor.ingest([folder], "shared")
    before = _consistent(stores)
    monkeypatch.setattr(assemble, "READING_VERSION", assemble.READING_VERSION + 1)
    again = stores.ingestor.ingest([folder], "shared")
    assert [r.status for r in again] == ["ingested"]
    assert _consistent(stores) == before
    assert [r.status for r in stores.ingestor.ingest([folder], "shared")] == ["unchanged"]


def test_reingesting_an_edited_file_replaces_its_old_nodes(stores, tmp_path):
    folder = _copy(tmp_path, RULES)
    stores.ingestor.ingest([folder], "shared")
    path = folder / RULES
    text = path.read_text(encoding="utf-8")
    cut = text.index("附件5：查处涉牌涉证违法行为操作规程")
    path.write_text(text[:cut] + "附件5：新增的临时检查规程\n检查点设在收费站出口。\n", encoding="utf-8")
    [result] = stores.ingestor.ingest([path], "shared")
    assert result.status == "ingested"
    counts = _consistent(stores)
    assert counts["documents"] == 1 and counts["attachments"] == 5
    doc = stores.graph.load_document(result.doc_id)
    assert doc.attachment("附件5").title == "新增的临时检查规程"
    assert doc.attachment("附件6") is None
    assert [c.text for c in stores.graph.attachments_chunks([(doc.id, "附件6")])[(doc.id, "附件6")]] == []
    hits = stores.vectors.query("收费站出口检查点", 3, doc_id=doc.id)
    assert hits[0].attachment == "附件5" and "收费站出口" in stores.graph.chunks_by_id([hits[0].chunk_id])[0].text
    assert not any(h.attachment == "附件6" for h in stores.vectors.query("查处运载危险化学品车辆操作规程", 20))


def test_delete_removes_a_document_from_both_stores(stores, tmp_path):
    results = stores.ingestor.ingest([_copy(tmp_path, HOTEL, RULES)], "shared")
    hotel_id = next(r.doc_id for r in results if r.file == HOTEL)
    assert stores.ingestor.delete(hotel_id)
    counts = _consistent(stores)
    assert counts["documents"] == 1 and counts["attachments"] == 6
    assert all(h.doc_id != hotel_id for h in stores.vectors.query("应急物资装备清单 酒店", 20))
    assert not stores.ingestor.delete(hotel_id)


def _bad_files(folder: Path) -> dict[str, str]:
    (folder / "corrupt.docx").write_bytes(b"PK\x03\x04garbage")
    (folder / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512)
    (folder / "empty.md").write_bytes(b"")
    (folder / "binary.txt").write_bytes(bytes(range(256)) * 20)
    (folder / "huge.txt").write_text("附件" * 600_000, encoding="utf-8")
    (folder / "slides.pptx").write_bytes(b"x")
    return {
        "corrupt.docx": "not a valid .docx",
        "locked.docx": "password-protected",
        "empty.md": "empty",
        "binary.txt": "binary",
        "huge.txt": "over the 1 MB limit",
        "slides.pptx": "unsupported file type",
    }


def test_bad_files_get_their_own_error_and_the_rest_of_the_batch_ingests(tmp_path):
    from kb.settings import load_settings
    from kb.stores import open_stores

    stores = open_stores(load_settings(env={}, store_dir=tmp_path / "store", max_file_mb=1.0))
    try:
        folder = _copy(tmp_path, RULES)
        expected = _bad_files(folder)
        paths = sorted(folder.iterdir())  # named one by one, so the .pptx is reported too
        results = {r.file: r for r in stores.ingestor.ingest(paths, "shared")}
        assert results[RULES].status == "ingested"
        for name, reason in expected.items():
            assert results[name].status == "error", name
            assert name in results[name].error and reason in results[name].error
        counts = _consistent(stores)
        assert counts["documents"] == 1
        assert [d.name for d in stores.graph.list_documents()] == [RULES]
    finally:
        stores.close()


def _presplit_plan(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "码头应急预案.md").write_text(
        "# 码头应急预案\n第一条 值班电话详见附件1。\n第二条 车辆清单见附件2，消防器材见附件3。\n", encoding="utf-8"
    )
    (folder / "附件1-值班通讯录.md").write_text("值班通讯录\n调度室 0571-86001234\n车辆调度见附件2。\n", encoding="utf-8")
    document = docx.Document()
    document.add_paragraph("附件2 车辆清单")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "车牌", "载重"
    table.cell(1, 0).text, table.cell(1, 1).text = "浙A12345", "18吨"
    document.save(folder / "码头应急预案-附件2-车辆清单.docx")


def test_presplit_attachment_files_become_attachments_of_their_parent(stores, tmp_path):
    folder = tmp_path / "码头"
    _presplit_plan(folder)
    results = {r.file: r for r in stores.ingestor.ingest([folder], "port")}
    assert results["附件1-值班通讯录.md"].status == "attached"
    assert results["码头应急预案-附件2-车辆清单.docx"].status == "attached"
    doc = results["码头应急预案.md"].document
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "值班通讯录"), ("附件2", "车辆清单")]
    assert doc.text[doc.attachment("附件2").start :].startswith("附件2 车辆清单\n车牌 | 载重\n浙A12345 | 18吨")
    links = [(r.source or "body", r.label, r.target) for r in doc.references]
    assert links == [("body", "附件1", "附件1"), ("body", "附件2", "附件2"), ("body", "附件3", None), ("附件1", "附件2", "附件2")]
    assert _consistent(stores)["documents"] == 1
    citing = [c.id for c in doc.chunks if "值班电话详见附件1" in c.text]
    # the body chunk says 详见附件1 and 见附件2; 附件1 itself cites 附件2
    assert {p.labels for p in stores.graph.attachment_paths(citing, 2)} == {("附件1",), ("附件1", "附件2"), ("附件2",)}


def test_a_presplit_attachment_added_later_joins_the_stored_parent(stores, tmp_path):
    folder = tmp_path / "码头"
    _presplit_plan(folder)
    stores.ingestor.ingest([folder / "码头应急预案.md", folder / "附件1-值班通讯录.md"], "port")
    late = tmp_path / "later" / "码头应急预案-附件3-消防器材.md"
    late.parent.mkdir()
    late.write_text("消防器材\n干粉灭火器 40具，存放于2号仓库。\n", encoding="utf-8")
    [result] = stores.ingestor.ingest([late], "port")
    assert result.status == "attached"
    doc = stores.graph.load_document(result.doc_id)
    assert [a.label for a in doc.attachments] == ["附件1", "附件3"]
    assert ("附件3", "附件3") in [(r.label, r.target) for r in doc.references]
    assert "调度室 0571-86001234" in doc.text  # the earlier attachment file is kept
    # re-ingesting the parent alone keeps both attachment files
    [again] = stores.ingestor.ingest([folder / "码头应急预案.md"], "port")
    assert again.status == "unchanged"
    assert _consistent(stores)["attachments"] == 2


def test_an_attachment_file_without_a_parent_is_stored_alone_and_says_how_to_attach_it(stores, tmp_path):
    orphan = tmp_path / "x" / "附件7-孤立附件.md"
    orphan.parent.mkdir()
    orphan.write_text("内容", encoding="utf-8")
    [result] = stores.ingestor.ingest([orphan], "port")
    assert result.status == "ingested" and result.error is None
    assert "同批上传的文档都没有列出附件7“孤立附件”，已作为单独的文档入库" in result.notes[0]
    named = tmp_path / "x" / "不存在的预案-附件7-孤立附件.md"
    orphan.rename(named)
    [result] = stores.ingestor.ingest([named], "port")
    assert "它的主文档“不存在的预案”不在这次上传中，也不在库“port”里" in result.notes[0]
    assert "“<文档名>-附件7-孤立附件.md”" in result.notes[0]
    assert sorted(d.name for d in stores.graph.list_documents("port")) == ["不存在的预案-附件7-孤立附件.md",
                                                                           "附件7-孤立附件.md"]
    assert _consistent(stores)["documents"] == 2


def test_a_label_with_a_numeral_cn2an_cannot_read_ingests_as_written(stores, tmp_path):
    # cn2an raised KeyError (not ValueError) on 百百九十九: the whole batch's ingest raised instead of reading the file
    odd = tmp_path / "odd.txt"
    odd.write_text("某街道通知\n\n详见附件百百九十九。\n\n附件1：联系方式\n\n值班电话：0571-86301188。", encoding="utf-8")
    results = stores.ingestor.ingest([odd], "shared")
    assert [(r.status, r.error) for r in results] == [("ingested", None)]
    assert _consistent(stores)["documents"] == 1
