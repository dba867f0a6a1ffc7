"""Reference extraction: every form that names an attachment, and the look-alikes that do not."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.model import Heading, ParsedFile

TAIL = "".join(
    f"\n附件{n}：{t}\n{t}的内容。\n"
    for n, t in [("1", "指挥部名单"), ("2", "物资清单"), ("3", "通讯录"), ("3-1", "车辆表"), ("4", "疏散图"),
                 ("5", "报告表"), ("6", "值班表"), ("11", "专家库")]
) + "\n附录B 风险物质临界量\n氯气 5吨。\n附表一\n收费标准表\n每吨100元。\n附图1 厂区平面布置图\n图上标出仓库。\n"


def _refs(body: str) -> list[tuple[str, str | None]]:
    doc = build_document("t", ParsedFile("p.md", "p.md", body + "\n" + TAIL, "h"))
    return [(r.label, r.target) for r in doc.references if r.source == ""]


@pytest.mark.parametrize(
    ("body", "labels"),
    [
        ("专家名单详见附件11。", ["附件11"]),
        ("物资见附件4。", ["附件4"]),
        ("按规定报告（附件1）。", ["附件1"]),
        ("填写附件一和附件二。", ["附件1", "附件2"]),
        ("执行附件五、六的要求。", ["附件5", "附件6"]),
        ("车辆见附件3-1。", ["附件3-1"]),
        ("临界量见附录 B。", ["附录B"]),
        ("临界量见附录B。", ["附录B"]),
        ("专家名单详见附 件 11。", ["附件11"]),
        ("收费按附表一执行。", ["附表1"]),
        ("按本预案所附《收费标准表》收费。", ["附表1"]),
        ("见附件1至附件3。", ["附件1", "附件2", "附件3"]),
        ("仓库位置见附图1。", ["附图1"]),
        ("名单和位置见附件1及附 图 1。", ["附件1", "附图1"]),
        ("压力容器安全附件失效时立即停机。", []),
        ("司法建议书如有附件，应当注明附件的顺序号和名称。", []),
        ("依照《中华人民共和国安全生产法》执行。", []),
    ],
)
def test_reference_forms(body, labels):
    assert _refs(body) == [(label, label) for label in labels]


def test_missing_attachment_is_dangling_never_guessed():
    assert _refs("专家名单详见附件15。") == [("附件15", None)]


def test_a_pointer_in_brackets_after_a_listed_title_names_this_documents_attachment():
    # 丹江口电厂's notice: 《…报名登记表》（见附件2）, the list names 附件2, the page left it out
    text = ("报名需提供完整填写的《公开招聘报名登记表》（见附件2）；岗位条件详见附件1。\n"
            "附件：1、招聘岗位一览表\n　　　2、公开招聘报名登记表\n")
    doc = build_document("t", ParsedFile("p.txt", "p.txt", text, "h"))
    assert {(r.label, r.target) for r in doc.references} == {("附件1", None), ("附件2", None)}
    # a label right after a cited document's title is still that document's
    assert _refs("按《某某市应急预案》附件2执行。") == []
    # …and one in brackets after it is this document's: 《安全生产法》（见附件1） is attached here
    assert _refs("遵守《安全生产法》（见附件1）。") == [("附件1", "附件1")]


def test_the_kind_alone_after_this_documents_name_dangles_when_no_such_attachment_is_there():
    # 本办法附录所列的矿产资源: the rule cites its 附录, and the document holds no 附录 at all (TAIL has 附录B: no)
    doc = build_document("t", ParsedFile("p.md", "p.md", "开采本办法附件所列的矿产资源，应当申请登记。\n", "h"))
    assert [(r.label, r.target) for r in doc.references] == [("附件", None)]
    # with numbered 附录 attached, a bare 本办法附录 names none of them and none is guessed
    assert _refs("本办法附录的修改，由国务院决定。") == []


def test_self_reference_inside_an_attachment_is_not_a_reference():
    text = "正文。\n附件1：名单\n本附件第一项由办公室维护，另见附件1的说明。\n附件2：物资\n联系人见附件1。\n"
    doc = build_document("t", ParsedFile("p.md", "p.md", text, "h"))
    assert [(r.source, r.label) for r in doc.references] == [("附件2", "附件1")]


def test_header_and_list_lines_are_not_references():
    text = "正文。\n附件：1、名单\n2、物资\n附件1：名单\n甲。\n附件2：物资\n乙。\n"
    doc = build_document("t", ParsedFile("p.md", "p.md", text, "h"))
    assert doc.references == ()


def _doc_refs(text: str) -> list[tuple[str, str | None, str]]:
    doc = build_document("t", ParsedFile("p.md", "p.md", text, "h"))
    return [(r.label, r.target, r.mention) for r in doc.references]


UNNUMBERED = "\n附件：\n\n示范县防汛物资储备定额标准表\n\n编织袋 5000条\n"


@pytest.mark.parametrize(
    ("body", "mentions"),
    [
        ("物资按照物资储备定额标准表执行。", ["物资储备定额标准表"]),  # word-aligned tail, led by 按照
        ("仓储数量在储备定额标准表规定的幅度内确定。", ["储备定额标准表"]),  # closed by 规定
        ("依照示范县防汛物资储备定额标准表。", ["示范县防汛物资储备定额标准表"]),  # the whole title without 《》
        ("按照标准表执行。", []),  # too short to be distinctive
        ("储备定额标准表由县应急局修订。", []),  # no sentence points at a document here
        ("仓储数量按省物资储备定额标准表的规定确定。", []),  # 省…标准表 is another document's name
        ("物资储备要充足，按照定额执行。", []),
        ("详见附件。", ["详见附件"]),  # the kind alone, in a document with one unnumbered attachment
        ("压力容器安全附件每年检验。", []),
    ],
)
def test_shortened_titles_and_the_bare_kind_name_the_single_attachment(body, mentions):
    refs = _doc_refs("第一条 " + body + "\n" + UNNUMBERED)
    assert refs == [("附件", "附件", m) for m in mentions]


def test_a_tail_shared_by_two_titles_names_neither():
    text = ("第一条 按照物资储备标准表执行。\n附件1：县级物资储备标准表\n甲。\n附件2：乡级物资储备标准表\n乙。\n")
    assert _doc_refs(text) == []


def test_an_alias_defined_after_a_reference_names_that_attachment_from_then_on():
    text = ("第一条 重点单位见本预案附件3《重点防护单位名录》（以下简称《名录》）。\n"
            "第二条 《名录》所列单位每年检查一次。\n第三条 园区（以下简称“园区”）内的“园区”道路。\n"
            "第四条 物资（以下简称“物资表”）。\n附件3：重点防护单位名录\n甲。\n")
    assert _doc_refs(text) == [("附件3", "附件3", "附件3"), ("附件3", "附件3", "《重点防护单位名录》"),
                               ("附件3", "附件3", "《名录》")]


def test_an_alias_for_a_numbered_mention_and_a_bare_alias():
    text = ("第一条 应急物资见附件2（以下简称物资储备清单），物资储备清单每年更新。\n"
            "第二条 队伍见附件1（以下简称队伍），队伍每年演练。\n附件1：队伍名单\n甲。\n附件2：物资\n乙。\n")
    assert _doc_refs(text) == [("附件2", "附件2", "见附件2"), ("附件2", "附件2", "物资储备清单"),
                               ("附件1", "附件1", "见附件1")]


def test_a_label_never_spans_a_line_break():
    text = "第一条 设备的成套附件及其改装附件\n4．调节装置。\n附件4：设备清单\n甲。\n"
    assert _doc_refs(text) == []
    assert _doc_refs("第一条 详见附件\n4。\n附件4：设备清单\n甲。\n") == []


@pytest.mark.parametrize(
    ("body", "labels"),
    [
        # a label right after a cited standard is that standard's
        ("消防用水量按《建筑设计防火规范》（GB 50016-2014）附录B确定。", []),
        ("消防用水量按《建筑设计防火规范》的附录B确定。", []),
        ("消防用水量按照该标准附录B确定。", []),
        ("消防用水量按GB 50016-2014附录B确定。", []),
        ("消防用水量按《建筑设计防火规范》（GB 50016）规定的附录B确定。", []),
        ("消防用水量见附录B，计算方法见GB 50016-2014。", ["附录B"]),
        # a cited clause opens a quoted passage: its labels are the standard's up to the paragraph's end
        ("事故池按照《水体污染防控技术要求》（Q/SY 1190-2013）5.4.2计算：\nV总=(V1+V2-V3)max+V4+V5，"
         "V2为消防水量；\n容积按附录B确定。", []),
        # the document's own again: after the sentence ends, a new paragraph, or 本预案
        ("依据《危险化学品重大危险源辨识》（GB 18218-2018）辨识。重大危险源清单见附录B。", ["附录B"]),
        ("依据《危险化学品重大危险源辨识》（GB 18218-2018），重大危险源清单见附录B。", ["附录B"]),
        ("按照《水体污染防控技术要求》（Q/SY 1190-2013）5.4.2计算。\n\n风险物质见附录B。", ["附录B"]),
        ("按照《水体污染防控技术要求》5.4.2计算，本预案附录B列出风险物质。", ["附录B"]),
        ("依照《中华人民共和国安全生产法》，填写附录B。", ["附录B"]),
        ("依据《应急监测技术规范》（HJ 589-2021）4.2制定方案，监测点位见附件3。", ["附件3"]),  # a standard has 附录
        ("依据《中华人民共和国安全生产法》第八十一条规定组织编制，物资清单见附件4。", ["附件4"]),
        ("执行《县防汛应急预案》附件3的分工。", []),  # right after the cited document: its 附件3
    ],
)
def test_labels_quoted_from_a_cited_document_are_not_references(body, labels):
    assert _refs(body) == [(label, label) for label in labels]


def test_the_documents_own_title_in_book_marks_is_not_a_cited_document():
    text = ("# 企业风险评估指南（试行）\n\n第一条 风险物质见《企业风险评估指南》附录B。\n"
            "第二条 消防水量按《建筑设计防火规范》附录B确定。\n\n## 附录B\n\n风险物质临界量清单\n氯 5吨\n")
    doc = build_document("t", ParsedFile("指南.md", "指南.md", text, "h", headings=(Heading(1, 0, 15),)))
    assert doc.title == "企业风险评估指南（试行）"
    assert [(r.label, r.target, r.mention) for r in doc.references] == [("附录B", "附录B", "附录B")]
    assert doc.references[0].start == text.index("附录B。")


STANDARD = "\n".join([
    "# 危险化学品储存通则", "",
    "5.1 储存限量应符合表A.1的规定。", "",
    "5.2 库房的耐火等级按A.2确定，计算见式（A.3）。", "",
    "5.3 消防用水量按《建筑设计防火规范》表A.1确定。", "",
    "5.4 检查记录按附表1-1填写，人员名单见附件1中的附表1-2。", "",
    "## 附录A", "", "（规范性）", "", "危险化学品储存限量", "",
    "### A.1 一般规定", "", "表A.1 储存限量", "", "| 类别 | 限量/t |", "| --- | --- |", "| 易燃液体 | 50 |", "",
    "### A.2 防火要求", "", "库房耐火等级不低于二级，见表A.1。", "",
    "## 附件1 检查制度", "",
    "附表1-1 检查记录表", "", "| 日期 | 检查人 |", "| --- | --- |", "| 1日 | 张三 |", "",
    "附表1-2 人员名单", "", "| 姓名 | 职务 |", "| --- | --- |", "| 李四 | 组长 |",
])


def test_a_layered_annexs_tables_and_clauses_lead_to_the_annex_that_holds_them():
    doc = build_document("t", ParsedFile("通则.md", "通则.md", STANDARD, "h", headings=(Heading(1, 0, 11),)))
    # 附表1-1 and 附表1-2 are 附件1's tables: one attachment holds them, as a reader reads it
    assert [a.label for a in doc.attachments] == ["附录A", "附件1"]
    annex = doc.attachment("附件1")
    assert "李四" in doc.text[annex.start:annex.end]
    body = [(r.mention, r.target) for r in doc.references if r.source == ""]
    assert body == [("表A.1", "附录A"), ("按A.2", "附录A"), ("式（A.3", "附录A"),  # not the cited 规范's 表A.1
                    ("按附表1-1", "附件1"), ("见附件1", "附件1"), ("附表1-2", "附件1")]
    assert not [r for r in doc.references if r.source]  # 表A.1 inside 附录A, 附表1-1 inside 附件1: their own


def test_a_title_the_list_gives_a_missing_attachment_does_not_lead_to_another_that_ends_the_same():
    text = ("# 某某公司应急预案\n\n各组按照应急物资清单配备物资。储备点见附件2。\n\n"
            "附件：1．应急人员名单\n2．园区应急物资清单\n3．应急物资清单\n\n"
            "附件1：应急人员名单\n\n张三 组长\n\n附件2：园区应急物资清单\n\n一号库 东路1号\n")
    doc = build_document("t", ParsedFile("预案.md", "预案.md", text, "h", headings=(Heading(1, 0, 10),)))
    assert [a.label for a in doc.attachments] == ["附件1", "附件2"]  # 附件3 is listed, not there
    # 应急物资清单 is the listed 附件3's name: it is not 园区应急物资清单 shortened
    assert [(r.mention, r.target) for r in doc.references] == [("见附件2", "附件2")]


def test_a_title_the_list_gives_an_attachment_names_it_though_its_header_gives_a_longer_one():
    # 绍兴市教育工会's notice: the list's short titles, the headers' long ones on the line below 附件1：
    text = ("请各校按《学员名额分配表》推荐学员，填写《学员推荐表》。\n附件：1. 学员名额分配表\n      2. 学员推荐表\n\n"
            "附件1：\n绍兴市优秀青年教师综合素质提升班学员名额分配表\n| 学校 | 名额 |\n| 一中 | 2 |\n\n"
            "附件2：\n绍兴市优秀青年教师综合素质提升班学员推荐表\n| 姓名 | | 性别 | |\n")
    doc = build_document("t", ParsedFile("p.txt", "p.txt", text, "h"))
    assert [(r.mention, r.target) for r in doc.references] == [("《学员名额分配表》", "附件1"), ("《学员推荐表》", "附件2")]
