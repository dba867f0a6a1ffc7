"""Attachment forms of real national laws (LawRefBook/Laws; laws are public domain, PRC Copyright Law Art. 5).

Each text below is a few lines taken from the law named in its test, checked as a reader of that law would."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.formats import expand_paths
from kb.model import ParsedFile


def _doc(name: str, text: str):
    return build_document("laws", ParsedFile(name, name, text, str(hash(text))))


def _attachments(doc) -> list[tuple[str, str]]:
    return [(a.label, a.title) for a in doc.attachments]


def _links(doc) -> list[tuple[str, str, str, str | None]]:
    return [(r.source or "body", r.label, r.mention, r.target) for r in doc.references]


# 国旗法 (2020): 附： on its own line, the title on the next; the body names the attachment by its title, unquoted.
GUOQI = "\n\n".join([
    "# 中华人民共和国国旗法",
    "第二条 中华人民共和国国旗是五星红旗。",
    "中华人民共和国国旗按照中国人民政治协商会议第一届全体会议主席团公布的国旗制法说明制作。",
    "第三条 国旗的通用尺度为国旗制法说明中所列明的五种尺度。",
    "第二十四条 本法自1990年10月1日起施行。",
    "附：",
    "国旗制法说明",
    "（1949年9月28日中国人民政治协商会议第一届全体会议主席团公布）",
    "（一）旗面为红色，长方形，其长与高为三与二之比。旗杆套为白色。",
    "甲、长288公分，高192公分。",
])


def test_fu_colon_on_its_own_line_marks_the_single_attachment_named_by_its_title():
    doc = _doc("国旗法.md", GUOQI)
    assert _attachments(doc) == [("附件", "国旗制法说明")]
    att = doc.attachment("附件")
    assert doc.text[att.start : att.end].startswith("附：\n\n国旗制法说明")
    assert doc.text[att.start : att.end].endswith("甲、长288公分，高192公分。")
    assert _links(doc) == [("body", "附件", "国旗制法说明", "附件")] * 2


@pytest.mark.parametrize("line", ["附：国旗制法说明", "附:", "**附：**", "附件:", "附表：", "附录："])
def test_every_colon_form_of_the_kind_is_a_marker(line):
    text = "第二十四条 本法自1990年10月1日起施行。\n\n" + line + "\n\n国旗制法说明\n\n旗杆套为白色。"
    (att,) = _doc("x.md", text).attachments
    assert att.title == "国旗制法说明" and att.start == text.index(line)
    assert att.label == ("附表" if "附表" in line else "附录" if "附录" in line else "附件")


@pytest.mark.parametrize("line", [
    "## 第九章 附则",
    "附则",
    "附近居民应当配合。",
    "附带民事诉讼依照有关规定执行。",
    "附属设施由县级人民政府管理",
    "附 则",
])
def test_words_that_open_with_fu_are_not_markers(line):
    text = "第一条 为了规范国旗的使用，制定本法。\n\n" + line + "\n\n国旗制法说明\n\n第二条 本法自公布之日起施行。"
    doc = _doc("x.md", text)
    assert doc.attachments == ()
    assert doc.references == ()


# 国徽法 (2020): one 附件: (ASCII colon) holding two titled documents, each cited in the body by its 《title》.
GUOHUI = "\n\n".join([
    "# 中华人民共和国国徽法",
    "第二条 中华人民共和国国徽，中间是五星照耀下的天安门，周围是谷穗和齿轮。",
    "中华人民共和国国徽按照1950年中央人民政府委员会通过的《中华人民共和国国徽图案》和中央人民政府委员会办公厅"
    "公布的《中华人民共和国国徽图案制作说明》制作。",
    "第十九条 本法自1991年10月1日起施行。",
    "附件:",
    "中华人民共和国国徽图案",
    "（1950年6月28日中央人民政府委员会第八次会议通过）",
    "说明：国徽的内容为国旗、天安门、齿轮和麦稻穗。",
    "中华人民共和国国徽图案制作说明",
    "（1950年9月20日中央人民政府委员会办公厅公布）",
    "五、 国徽之涂色为金红二色：麦稻、五星、天安门、齿轮为金色。",
])


def test_both_documents_of_one_attachment_resolve_by_their_titles():
    doc = _doc("国徽法.md", GUOHUI)
    assert _attachments(doc) == [("附件", "中华人民共和国国徽图案")]
    att = doc.attachment("附件")
    assert doc.text[att.start : att.end].startswith("附件:\n\n中华人民共和国国徽图案")
    assert doc.text[att.start : att.end].endswith("麦稻、五星、天安门、齿轮为金色。")
    assert _links(doc) == [
        ("body", "附件", "《中华人民共和国国徽图案》", "附件"),
        ("body", "附件", "《中华人民共和国国徽图案制作说明》", "附件"),
    ]


def test_a_cited_title_that_is_no_line_of_any_attachment_is_not_linked():
    text = GUOHUI.replace("第十九条", "国徽的使用依照《中华人民共和国国旗法》的规定。\n\n第十九条")
    assert [r.mention for r in _doc("国徽法.md", text).references] == [
        "《中华人民共和国国徽图案》", "《中华人民共和国国徽图案制作说明》"]


# 国歌法 (2017): the attachment is its title line alone; the body names it by the kind alone.
GUOGE = "\n\n".join([
    "# 中华人民共和国国歌法",
    "第六条 奏唱国歌，应当按照本法附件所载国歌的歌词和曲谱，不得采取有损国歌尊严的奏唱形式。",
    "第十六条 本法自2017年10月1日起施行。",
    "附件：中华人民共和国国歌（五线谱版、简谱版）",
])


def test_a_title_only_attachment_exists_and_holds_nothing():
    doc = _doc("国歌法.md", GUOGE)
    assert _attachments(doc) == [("附件", "中华人民共和国国歌（五线谱版、简谱版）")]
    att = doc.attachment("附件")
    assert doc.text[att.start : att.end] == "附件：中华人民共和国国歌（五线谱版、简谱版）"
    assert _links(doc) == [("body", "附件", "本法附件", "附件")]


# 个人所得税法 (2018): tables announced by （税率表附后）, no 附件/附表 header, only their titles and notes survive.
GESHUI = "\n\n".join([
    "# 中华人民共和国个人所得税法",
    "（一）综合所得，适用百分之三至百分之四十五的超额累进税率（税率表附后）；",
    "（二）经营所得，适用百分之五至百分之三十五的超额累进税率（税率表附后）；",
    "第二十二条 本法自公布之日起施行。",
    "个人所得税税率表一（综合所得适用）",
    "（注1：本表所称全年应纳税所得额是指依照本法第六条的规定…的余额。",
    "个人所得税税率表二（经营所得适用）",
])


def test_tables_announced_only_by_fuhou_are_neither_split_nor_linked():
    doc = _doc("个人所得税法.md", GESHUI)
    assert doc.attachments == ()
    assert doc.references == ()


def test_a_folder_readme_is_not_one_of_its_documents(tmp_path: Path):
    (tmp_path / "README.md").write_text("附件5 的表格丢失", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "readme.txt").write_text("附件四", encoding="utf-8")
    (tmp_path / "国歌法.md").write_text(GUOGE, encoding="utf-8")
    (tmp_path / "README-附件.md").write_text(GUOGE, encoding="utf-8")  # only a README itself is the folder's note
    assert expand_paths([tmp_path]) == [tmp_path / "README-附件.md", tmp_path / "国歌法.md"]
    assert expand_paths([tmp_path / "README.md"]) == [tmp_path / "README.md"]  # named explicitly: a document
