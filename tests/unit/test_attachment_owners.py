"""Attachment file names and the document that names them: label and title, the title alone, ties and none."""
from __future__ import annotations

import pytest

from kb.ingest.attachment_owners import Listing, listing, near_title, place
from kb.ingest.presplit import presplit_name
from kb.model import ParsedFile

CONTEST = "关于举办职工技能竞赛的通知"


@pytest.mark.parametrize("stem, expected", [
    ("附件1：报名表", (None, "附件1", "报名表")),
    ("附件2-推荐名单", (None, "附件2", "推荐名单")),
    ("附件二 推荐名单", (None, "附件2", "推荐名单")),
    (f"{CONTEST}附件1", (CONTEST, "附件1", "")),
    (f"{CONTEST}（附件1：报名表）", (CONTEST, "附件1", "报名表")),
    ("附件：报名表", (None, "附件", "报名表")),
    ("码头应急预案-附件2-车辆清单", ("码头应急预案", "附件2", "车辆清单")),
])
def test_attachment_file_names(stem, expected):
    name = presplit_name(f"{stem}.docx")
    assert (name.parent, name.label, name.title) == expected


@pytest.mark.parametrize("stem", ["附件管理办法", "国家标准附录", "附件", "关于印发附件1的通知", "2024年度计划附1号楼"])
def test_documents_whose_names_hold_a_kind_are_documents(stem):
    assert presplit_name(f"{stem}.docx") is None


def _listing(stem: str, text: str) -> Listing:
    return listing(ParsedFile(f"{stem}.txt", f"{stem}.txt", text, "h"))


def test_a_document_names_its_attachments_by_list_and_by_titled_mentions():
    listed = _listing(CONTEST, f"{CONTEST}\n请填写报名表。\n\n附件：1. 报名表\n      2. 推荐名单\n\n市总工会\n2024年3月1日\n")
    assert listed.names == (CONTEST, CONTEST)
    assert [(n.label, n.title) for n in listed.named] == [("附件1", "报名表"), ("附件2", "推荐名单")]
    mentioned = _listing("检查", "关于开展检查的通知\n请对照附件1《企业安全检查表》检查，问题填入《隐患整改台账》（附件2）。\n")
    assert [(n.label, n.title) for n in mentioned.named] == [("附件1", "企业安全检查表"), ("附件2", "隐患整改台账")]


def test_the_document_that_names_label_and_title_wins_over_one_naming_the_label_alone():
    contest = _listing(CONTEST, f"{CONTEST}\n\n附件：1. 报名表\n2. 推荐名单\n\n市总工会\n2024年3月1日\n")
    safety = _listing("安全检查", "关于开展检查的通知\n请对照附件1逐项检查。\n")
    flood = _listing("汛期值班", "关于做好汛期值班工作的通知\n汛期实行24小时值班。\n")
    documents = {"contest": contest, "safety": safety, "flood": flood}
    assert place(presplit_name("附件1：报名表.txt"), documents).owner == "contest"
    # the label alone, where the document gives no title
    assert place(presplit_name("附件1-推荐名单.txt"), {"safety": safety}).owner == "safety"
    # a title on each side that differs is another attachment: 附件1 企业安全检查表 is not a 名单
    titled = _listing("安全检查", "关于开展检查的通知\n请对照附件1《企业安全检查表》逐项检查。\n")
    assert place(presplit_name("附件1-推荐名单.txt"), {"safety": titled}) == place(presplit_name("附件1.txt"), {})
    # the title alone finds it under the number the notice gives it
    moved = place(presplit_name("附件3-2024年度推荐名单.txt"), documents)
    assert (moved.owner, moved.named.label) == ("contest", "附件2")
    # a file with only a number: each notice naming 附件1 names it equally
    assert place(presplit_name("附件1.txt"), documents).rivals == ("contest", "safety")
    assert place(presplit_name("附件7-费用明细.txt"), documents) == place(presplit_name("附件7.txt"), {})


def test_a_file_named_after_its_notice_joins_it_though_the_notice_file_is_named_otherwise():
    notice = _listing("通知", f"{CONTEST}\n各单位：\n请报送名单。\n")
    other = _listing("另一个通知", "关于做好汛期值班工作的通知\n请填写附件1。\n")
    assert place(presplit_name(f"{CONTEST}附件1.docx"), {"a": notice, "b": other}).owner == "a"


def test_near_titles():
    assert near_title("报名表（样表）", "报名表") and near_title("推荐人选名单", "推荐名单")
    assert not near_title("报名表", "推荐名单") and not near_title("表", "报名表")


def test_of_two_notices_holding_a_title_the_one_written_more_alike_wins_and_a_bare_title_stays_a_tie():
    short = _listing("竞赛", "关于举办技能竞赛的通知\n\n附件：1. 报名表\n2. 推荐名单\n\n市总工会\n2024年3月1日\n")
    poems = _listing("朗诵", "关于举办朗诵比赛的通知\n请报送报名表。\n附件 1 教工经典诗文朗诵比赛报名表\n2 经典诗文参考篇目\n"
                             "校工会\n二○一四年十一月七日\n")
    essays = _listing("征文", "关于举办征文比赛的通知\n\n附件：1. 青年征文比赛报名表\n\n团委\n2024年3月1日\n")
    documents = {"short": short, "poems": poems}
    assert place(presplit_name("附件1-诗文朗诵比赛报名表.txt"), documents).owner == "poems"
    assert place(presplit_name("附件1：报名表.txt"), documents).owner == "short"  # written exactly so
    assert place(presplit_name("附件1：报名表.txt"), {"poems": poems, "essays": essays}).rivals == ("poems", "essays")
    # the list's entry written as a number alone below its first
    assert place(presplit_name("附件2 经典诗文参考篇目.txt"), {**documents, "essays": essays}).owner == "poems"


def test_an_unnumbered_attachment_file_joins_the_notice_that_points_at_its_one_attachment():
    essay = _listing("作文", "关于组织参加作文竞赛的通知\n各班将参赛名单交至辅导员（汇总表见附件）。\n")
    listed = _listing("竞赛", "关于举办技能竞赛的通知\n\n附件：1. 报名表\n2. 推荐名单\n\n市总工会\n2024年3月1日\n")
    assert place(presplit_name("附件：参赛名单汇总表.txt"), {"essay": essay, "listed": listed}).owner == "essay"


def test_a_reworded_title_under_the_one_label_of_its_topic_joins_and_a_tie_stays_alone():
    # the file says 隐患整改台账 (or 隐患排查整改情况统计表), the list says 问题整改台账: one topic (整改) under 附件2
    safety = _listing("检查", "关于开展安全生产大检查的通知\n各镇街：\n请对照附件1逐项检查，问题填入附件2，4月30日前报送。\n\n"
                              "附件：1．企业安全检查表\n2．问题整改台账\n\n市应急管理局\n2024年3月5日\n")
    contest = _listing(CONTEST, f"{CONTEST}\n\n附件：1. 报名表\n2. 推荐名单\n\n市总工会\n2024年3月1日\n")
    for stem in ("附件2 隐患整改台账", "附件2 隐患排查整改情况统计表"):
        placed = place(presplit_name(f"{stem}.xlsx"), {"contest": contest, "safety": safety})
        assert (placed.owner, placed.named.title) == ("safety", "问题整改台账")
    # titles that share only a form's words (名单, a year) or nothing are other attachments
    assert place(presplit_name("附件2 2024年度人员名单.xlsx"), {"contest": contest, "safety": safety}).owner is None
    assert place(presplit_name("附件1-推荐名单.xlsx"), {"safety": safety}).owner is None
    # two notices listing the same 附件2 问题整改台账: a tie, left to the user
    audit = _listing("审计", "关于开展审计整改的通知\n\n附件：1. 审计发现问题清单\n2. 问题整改台账\n\n市审计局\n2024年3月1日\n")
    assert place(presplit_name("附件2 隐患整改台账.xlsx"), {"safety": safety, "audit": audit}).rivals == ("safety", "audit")


def test_the_nearest_documents_of_a_folder_without_any():
    from pathlib import Path

    from kb.ingest.units import MAX_DOCUMENTS_ABOVE, nearest_documents

    root = Path("/收文")
    by_dir = {root / "竞赛通知": ["正文"], root / "检查通知": ["检查通知", "补充通知"], root / "检查通知" / "附件": []}
    # its own folder's; the folder above's (the one document there is the file's); the folder above's other folders
    assert nearest_documents(root / "检查通知", by_dir) == (["检查通知", "补充通知"], True)
    assert nearest_documents(root / "竞赛通知" / "附件", by_dir) == (["正文"], True)
    assert nearest_documents(root / "竞赛通知" / "附件" / "表格", by_dir) == (["正文"], False)
    assert nearest_documents(root / "其他" / "附件", by_dir) == (["正文", "检查通知", "补充通知"], False)
    assert nearest_documents(Path("/别处/a/b"), by_dir) == ([], False)
    # a corpus's root of many documents is no file's matter
    crowd = {root / f"通知{n}": [f"通知{n}"] for n in range(MAX_DOCUMENTS_ABOVE + 1)}
    assert nearest_documents(root / "附件", crowd) == ([], False)
