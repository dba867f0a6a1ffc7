"""Attachment files in a folder of their own: a notice with 附件/ beside it, a zip's tree (通知/正文.docx,
通知/附件/附件1 报名表.xlsx). Each file joins the nearest document that is its own; a folder further up takes it only
when its document names it. Through the real Ingestor on real Kuzu and Chroma."""
from __future__ import annotations

from pathlib import Path

import docx
import openpyxl

CONTEST = "关于举办2024年职工技能竞赛的通知"
SAFETY = "关于开展安全生产大检查的通知"


def _docx(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    document = docx.Document()
    for line in lines:
        document.add_paragraph(line)
    document.save(path)


def _xlsx(path: Path, rows: list[list[str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    book.save(path)


def _by_file(results) -> dict:
    return {r.file: r for r in results}


def test_a_zips_tree_and_a_folder_beside_its_notice_join_their_documents(stores, tmp_path):
    root = tmp_path / "收文"
    # a zip's tree: 竞赛通知/正文.docx with its list, 竞赛通知/附件/ holding the two files it lists
    _docx(root / "竞赛通知" / "正文.docx", [
        CONTEST, "各区总工会：", "请各单位填写报名表，并于3月20日前报送推荐人选名单。", "附件：1. 报名表", "2. 推荐人选名单",
        "市总工会", "2024年3月1日"])
    _xlsx(root / "竞赛通知" / "附件" / "附件1 报名表.xlsx", [["姓名", "单位", "工种"], ["王建国", "市电力公司", "电工"]])
    (root / "竞赛通知" / "附件" / "附件2 推荐人选名单.txt").write_text("推荐人选名单\n1 王建国\n", encoding="utf-8")
    # a notice with its 附件/ folder beside it, naming the file by a title it words otherwise
    _docx(root / "检查通知" / f"{SAFETY}.docx", [
        SAFETY, "各镇街：", "请对照附件1逐项检查，发现的问题填入附件2，4月30日前报送。", "附件：1．企业安全检查表",
        "2．问题整改台账", "市应急管理局", "2024年3月5日"])
    _xlsx(root / "检查通知" / "附件" / "附件2 隐患整改台账.xlsx", [["隐患", "整改时限"], ["消防通道堵塞", "3日"]])
    results = _by_file(stores.ingestor.ingest([root], "notices"))
    assert {f: r.status for f, r in results.items()} == {
        "正文.docx": "ingested", "附件1 报名表.xlsx": "attached", "附件2 推荐人选名单.txt": "attached",
        f"{SAFETY}.docx": "ingested", "附件2 隐患整改台账.xlsx": "attached"}
    assert results["附件1 报名表.xlsx"].doc_id == results["正文.docx"].doc_id
    assert results["附件2 隐患整改台账.xlsx"].doc_id == results[f"{SAFETY}.docx"].doc_id
    safety = stores.graph.load_document(results[f"{SAFETY}.docx"].doc_id)
    table = next(a for a in safety.attachments if a.label == "附件2")
    assert "消防通道堵塞" in safety.text[table.start:table.end]
    links = {(r.mention, r.target) for r in safety.references}
    assert ("附件2", "附件2") in links  # the body's 填入附件2 leads to the file's table


def test_a_file_two_folders_up_joins_only_the_document_that_names_it(stores, tmp_path):
    root = tmp_path / "收文"
    (root / "2024").mkdir(parents=True)
    (root / "2024" / "关于做好汛期值班工作的通知.txt").write_text(
        "关于做好汛期值班工作的通知\n各单位：\n汛期实行24小时值班。\n\n市应急管理局\n2024年5月6日\n", encoding="utf-8")
    (root / "2024" / "关于开展防汛演练的通知.txt").write_text(
        "关于开展防汛演练的通知\n各单位：\n演练方案见附件3。\n\n附件：3. 防汛演练方案\n\n市应急管理局\n2024年5月8日\n",
        encoding="utf-8")
    (root / "2024" / "资料" / "附件").mkdir(parents=True)
    (root / "2024" / "资料" / "附件" / "附件3-防汛演练方案.txt").write_text("防汛演练方案\n5月20日在江堤演练。\n",
                                                                      encoding="utf-8")
    (root / "2024" / "资料" / "附件" / "附件5-车辆清单.txt").write_text("车辆清单\n皖A12345\n", encoding="utf-8")
    results = _by_file(stores.ingestor.ingest([root], "notices"))
    assert results["附件3-防汛演练方案.txt"].status == "attached"
    assert results["附件3-防汛演练方案.txt"].doc_id == results["关于开展防汛演练的通知.txt"].doc_id
    # a file no document up there names stays alone and says so
    alone = results["附件5-车辆清单.txt"]
    assert alone.status == "ingested" and "同批上传的文档都没有列出附件5“车辆清单”" in alone.notes[0]
