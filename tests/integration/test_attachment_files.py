"""Attachment files uploaded flat beside their notice and other documents: each joins the document whose attachment
list or mentions name it; one that two documents name, or none does, is stored on its own and says how to attach it.
Through the real Ingestor, the upload path and `python -m kb ingest`, on real Kuzu and Chroma."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import docx

from kb.cli import main
from kb.ingest.uploads import ingest_uploads
from ui.library.render import ingest_results_html

CONTEST = "关于举办2024年职工技能竞赛的通知"
SAFETY = "关于开展安全生产大检查的通知"
FLOOD = "关于做好汛期值班工作的通知"
SIGNOFF = "\n\n市应急管理局\n2024年3月1日\n"


def _docx(path: Path, lines: list[str], table: list[list[str]] = ()) -> None:
    document = docx.Document()
    for line in lines:
        document.add_paragraph(line)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for i, row in enumerate(table):
            for j, cell in enumerate(row):
                grid.cell(i, j).text = cell
    document.save(path)


def _notices(folder: Path) -> None:
    """Three notices and five attachment files, all in one folder, named the ways people name them; each notice
    has an 附件1."""
    folder.mkdir(parents=True)
    (folder / f"{CONTEST}.txt").write_text(
        f"{CONTEST}\n各区总工会：\n为提升职工技能，决定举办竞赛。请各单位填写报名表，并于3月20日前报送推荐名单。\n\n"
        f"附件：1. 报名表\n      2. 推荐名单{SIGNOFF}", encoding="utf-8")
    _docx(folder / f"{SAFETY}.docx", [
        SAFETY, "各镇街：", "请对照附件1《企业安全检查表》逐项检查，发现的问题填入附件2《隐患整改台账》，4月30日前报送。",
        "市应急管理局", "2024年3月5日"])
    (folder / f"{FLOOD}.txt").write_text(  # its list closes the text: a header with nothing under it
        f"{FLOOD}\n各单位：\n汛期实行24小时值班，值班表报办公室备案。\n\n附件1：值班表\n", encoding="utf-8")
    (folder / "附件1：报名表.txt").write_text("报名表\n姓名 | 单位 | 工种\n", encoding="utf-8")
    _docx(folder / "附件2-推荐名单.docx", ["推荐名单"], [["序号", "姓名"], ["1", "王建国"]])
    (folder / "附件1 企业安全检查表.txt").write_text("企业安全检查表\n一、消防通道是否畅通\n", encoding="utf-8")
    _docx(folder / f"{SAFETY}附件2.docx", ["隐患整改台账"], [["隐患", "整改时限"], ["消防通道堵塞", "3日"]])
    (folder / "附件1-汛期值班表.txt").write_text("汛期值班表\n6月1日 张伟 13800001111\n", encoding="utf-8")


def _by_file(results) -> dict:
    return {r.file: r for r in results}


def test_each_attachment_file_joins_the_notice_whose_list_or_mentions_name_it(stores, tmp_path):
    _notices(tmp_path / "flat")
    results = _by_file(stores.ingestor.ingest([tmp_path / "flat"], "notices"))
    assert {f: r.status for f, r in results.items()} == {
        f"{CONTEST}.txt": "ingested", f"{SAFETY}.docx": "ingested", f"{FLOOD}.txt": "ingested",
        "附件1：报名表.txt": "attached", "附件2-推荐名单.docx": "attached",
        "附件1 企业安全检查表.txt": "attached", f"{SAFETY}附件2.docx": "attached", "附件1-汛期值班表.txt": "attached",
    }
    contest, safety = results[f"{CONTEST}.txt"].document, results[f"{SAFETY}.docx"].document
    assert [(a.label, a.title) for a in contest.attachments] == [("附件1", "报名表"), ("附件2", "推荐名单")]
    assert "王建国" in contest.text[contest.attachment("附件2").start:]
    # the glued name (<通知>附件2) carries no title: the notice's own mention gives it
    assert [(a.label, a.title) for a in safety.attachments] == [("附件1", "企业安全检查表"), ("附件2", "隐患整改台账")]
    assert "消防通道堵塞" in safety.text[safety.attachment("附件2").start:]
    assert {(r.label, r.target) for r in safety.references} >= {("附件1", "附件1"), ("附件2", "附件2")}
    flood = results[f"{FLOOD}.txt"].document
    assert [(a.label, a.title) for a in flood.attachments] == [("附件1", "汛期值班表")]
    assert flood.text[flood.attachment("附件1").start:].startswith("汛期值班表\n6月1日 张伟 13800001111")
    assert sorted(d.name for d in stores.graph.list_documents("notices")) == sorted(
        [f"{CONTEST}.txt", f"{SAFETY}.docx", f"{FLOOD}.txt"])


def test_an_attachment_file_two_notices_name_is_stored_alone_and_says_what_to_do(stores, tmp_path):
    folder = tmp_path / "flat"
    _notices(folder)
    other = "关于举办青年歌手大赛的通知"
    (folder / f"{other}.txt").write_text(f"{other}\n请填写报名表。\n\n附件：1. 报名表\n2. 参赛曲目{SIGNOFF}",
                                         encoding="utf-8")
    (folder / "附件9-费用明细.txt").write_text("费用明细\n场地费 2000元\n", encoding="utf-8")
    results = _by_file(stores.ingestor.ingest([folder], "notices"))
    both = results["附件1：报名表.txt"]
    assert both.status == "ingested" and both.error is None  # not lost: its own document, searchable
    [note] = both.notes
    assert f"“{CONTEST}”、“{other}”都列有附件1“报名表”，无法判断它属于哪一份" in note
    assert "只把它和所属文档一起上传" in note and "“<文档名>-附件1-报名表.txt”" in note
    shown = ingest_results_html([both])  # the upload's result row: stored, with the note under it
    assert "已入库" in shown and "⚠ 未并入附件" in shown
    stored = stores.graph.find_document("notices", "附件1：报名表.txt")
    assert stored is not None and "姓名 | 单位 | 工种" in stores.graph.load_document(stored.id).text
    # the other attachment file of that notice is named by it alone, so it still joins it
    assert results["附件2-推荐名单.docx"].status == "attached"
    assert [a.label for a in results[f"{CONTEST}.txt"].document.attachments] == ["附件2"]
    none = results["附件9-费用明细.txt"]
    assert none.status == "ingested" and "同批上传的文档都没有列出附件9“费用明细”" in none.notes[0]


def test_a_multi_file_upload_groups_as_a_folder_does(stores, tmp_path):
    source = tmp_path / "picked"
    _notices(source)
    sent = [(p.name, p) for p in sorted(source.iterdir())]
    results = _by_file(ingest_uploads(stores.ingestor, stores.settings.store_dir, sent, "uploaded"))
    assert results["附件1：报名表.txt"].status == "attached"
    assert results["附件1：报名表.txt"].doc_id == results[f"{CONTEST}.txt"].doc_id
    assert results[f"{SAFETY}附件2.docx"].doc_id == results[f"{SAFETY}.docx"].doc_id
    assert results["附件1-汛期值班表.txt"].doc_id == results[f"{FLOOD}.txt"].doc_id
    assert len(stores.graph.list_documents("uploaded")) == 3


def test_the_cli_groups_a_flat_folder_the_same_way(tmp_path, monkeypatch):
    for name in [k for k in __import__("os").environ if k.startswith("ANNEX_")]:
        monkeypatch.delenv(name)
    _notices(tmp_path / "flat")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["ingest", str(tmp_path / "flat"), "--library", "cli", "--store", str(tmp_path / "store")])
    lines = out.getvalue().splitlines()
    assert code == 0
    assert f"✓ 附件1：报名表.txt [attached] 2 attachments" in "\n".join(lines)
    assert sum("[attached]" in line for line in lines) == 5


def test_a_list_numbered_below_its_first_entry_and_an_unnumbered_attachment_find_their_notices(stores, tmp_path):
    folder = tmp_path / "flat"
    _notices(folder)
    poems, essay = "经典诗文朗诵比赛通知", "关于组织参加作文竞赛的通知"
    (folder / f"{poems}.txt").write_text(  # the list's second entry is a number alone; the sign-off follows it
        f"{poems}\n各二级工会：\n请各单位将报名表于11月14日前交至工会。\n附件 1 教工经典诗文朗诵比赛报名表\n2 经典诗文参考篇目\n"
        "校工会\n二○一四年十一月七日\n", encoding="utf-8")
    (folder / f"{essay}.txt").write_text(
        f"{essay}\n全体同学：\n各班将参赛名单交至年级辅导员（汇总表见附件）。\n学生工作办公室\n2019年3月19日\n",
        encoding="utf-8")
    (folder / "附件2 经典诗文参考篇目.txt").write_text("经典诗文参考篇目\n1. 岳阳楼记\n", encoding="utf-8")
    (folder / "附件1-诗文朗诵比赛报名表.txt").write_text("朗诵比赛报名表\n单位 | 节目 | 朗诵者\n", encoding="utf-8")
    (folder / "附件：参赛名单汇总表.txt").write_text("参赛名单汇总表\n班级 | 姓名\n", encoding="utf-8")
    results = _by_file(stores.ingestor.ingest([folder], "notices"))
    assert {results[f].status for f in ("附件2 经典诗文参考篇目.txt", "附件1-诗文朗诵比赛报名表.txt", "附件：参赛名单汇总表.txt")} \
        == {"attached"}
    poem = results[f"{poems}.txt"].document
    assert [a.label for a in poem.attachments] == ["附件1", "附件2"]
    # the file, not the list line with the sign-off under it, is 附件1; that line stays in the text
    assert poem.text[poem.attachment("附件1").start:].startswith("朗诵比赛报名表\n单位 | 节目 | 朗诵者")
    assert "二○一四年十一月七日" in poem.text
    [whole] = results[f"{essay}.txt"].document.attachments
    assert (whole.label, whole.title) == ("附件", "参赛名单汇总表")


def test_files_of_one_name_in_two_folders_are_never_lost_silently(stores, tmp_path):
    # 2023/通知.md and 2024/通知.md: one library knows a document by its file name, so the second is refused by name
    # and says how to keep both; 通知.txt beside them is a document of its own, not lost to its stem
    for year, phone in (("2023", "111"), ("2024", "222")):
        (tmp_path / "c" / year).mkdir(parents=True)
        (tmp_path / "c" / year / "通知.md").write_text(f"# {year}年值班通知\n值班电话：{phone}。\n", encoding="utf-8")
    (tmp_path / "c" / "2024" / "通知.txt").write_text("2024年放假安排\n5月1日至5日放假。\n", encoding="utf-8")
    results = stores.ingestor.ingest([tmp_path / "c"], "notices")
    assert sorted((r.file, r.status) for r in results) == [("通知.md", "error"), ("通知.md", "ingested"),
                                                           ("通知.txt", "ingested")]
    refused = next(r for r in results if r.status == "error")
    assert "2023/通知.md" in refused.error and "改名" in refused.error and "2024/通知.md" in refused.error
    stored = {d.name: stores.graph.load_document(d.id) for d in stores.graph.list_documents("notices")}
    assert sorted(stored) == ["通知.md", "通知.txt"]
    assert "值班电话：111" in stored["通知.md"].text and "5月1日" in stored["通知.txt"].text


def test_two_notices_attachment_files_of_one_name_each_join_their_own_notice(stores, tmp_path):
    # a zip of two notices, each with its 附件1-报名表.md: an attachment file that joins its notice is known by the
    # notice and its label, so the second is not refused as a rival of the first (only documents of their own are)
    for org, phone in (("市教育局", "111"), ("市体育局", "222")):
        folder = tmp_path / "c" / org
        folder.mkdir(parents=True)
        (folder / f"{org}报名通知.md").write_text(f"# {org}关于比赛报名的通知\n报名表详见附件1。\n", encoding="utf-8")
        (folder / "附件1-报名表.md").write_text(f"# 报名表\n咨询电话：{phone}。\n", encoding="utf-8")
    results = stores.ingestor.ingest([tmp_path / "c"], "notices")
    assert sorted((r.file, r.status) for r in results) == [("市体育局报名通知.md", "ingested"),
                                                           ("市教育局报名通知.md", "ingested"),
                                                           ("附件1-报名表.md", "attached"), ("附件1-报名表.md", "attached")]
    phones = {}
    for doc in stores.graph.list_documents("notices"):
        stored = stores.graph.load_document(doc.id)
        [form] = stored.attachments
        assert form.label == "附件1"
        phones[doc.name[:4]] = stored.text[form.start:form.end].split("咨询电话：")[1][:3]
    assert phones == {"市教育局": "111", "市体育局": "222"}
