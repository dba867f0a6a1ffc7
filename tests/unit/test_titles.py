"""A document's title as a reader finds it: its top heading, else the title line of its cover, else its file name."""
from __future__ import annotations

import hashlib

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from kb.model import ParsedFile
from tests.conftest import SHARED_CORPUS


def _titled(text: str, name: str = "plan_2024.txt") -> str:
    parsed = ParsedFile(name, name, text, hashlib.sha256(text.encode("utf-8")).hexdigest())
    return build_document("lib", parsed).title


@pytest.mark.parametrize("text, title", [
    # a cover: number fields, the issuer, the title, the date
    ("预案编号：AB-01\n版本号：2024-01\n某某物业管理有限公司\n某某物业管理有限公司火灾事故应急预案\n二〇二四年一月\n\n"
     "为了规范火灾事故的应急处置，制定本预案。", "某某物业管理有限公司火灾事故应急预案"),
    ("目录\n\n示范县城市供水管理办法（试行）\n\n第一条 为了加强城市供水管理，制定本办法。", "示范县城市供水管理办法（试行）"),
    # no line names a kind of document: the first line that looks like a title
    ("东湖街道防汛工作要点\n\n一、今年汛期的工作重点是排查易涝点。", "东湖街道防汛工作要点"),
    # a title that does not say whose it is belongs to the issuer beside it on the cover
    ("应急预案编号：XX-01\n\n某某酒店有限公司\n生产安全事故应急预案\n\n某某酒店有限公司\n二〇二四年四月\n\n批准页",
     "某某酒店有限公司生产安全事故应急预案"),
    ("火灾事故应急预案\n编制单位：某某物业管理有限公司\n2024年1月\n\n为了规范火灾事故的应急处置，制定本预案。",
     "某某物业管理有限公司火灾事故应急预案"),
    ("国务院办公厅\n国家突发公共事件总体应急预案\n2006年1月", "国家突发公共事件总体应急预案"),  # it says whose it is
    # a title over two lines: a bracket the first line opens, a kind of document alone on the second
    ("某市粮食局 某市财政局\n关于印发《某市粮食购销违法违规\n行为举报奖励实施细则（试行）》的通知\n某粮规范〔2023〕2号\n各区县：",
     "关于印发《某市粮食购销违法违规行为举报奖励实施细则（试行）》的通知"),
    ("某某高速2020-2022年养护工程施工\n招标公告\n1. 招标条件\n本招标项目已批准。", "某某高速2020-2022年养护工程施工招标公告"),
    # a notice that runs on without line breaks: its title inside the running text, not a document it cites
    ("证券代码：000001证券简称：某某公告编号：2015-019某某股份有限公司关于召开2014年年度股东大会的提示性公告本公司及董事会"
     "全体成员保证公告内容真实。根据《某省政府关于加快质量发展的意见》，", "某某股份有限公司关于召开2014年年度股东大会的提示性公告"),
    # a standard's cover: the series line and its number, then the title (not 中华人民共和国国家标准)
    ("ICS 13.200\nCCS C 68\n\n中华人民共和国国家标准\n\nGB/T 45839—2025\n代替 GB/T 1234—2010\n\n"
     "危险化学品企业安全风险评估导则\nGuidelines for safety risk assessment\n\n2025-05-30发布\n国家市场监督管理总局 发布",
     "危险化学品企业安全风险评估导则"),
    ("中华人民共和国国家标准 GB 18218—2018\n危险化学品重大危险源辨识\nIdentification of major hazard installations",
     "危险化学品重大危险源辨识"),  # the series and its number on one line, a title that names no kind
    ("某市人民政府文件\n某政发〔2024〕3号\n\n某市人民政府关于印发某某办法的通知\n\n各区县人民政府：", "某市人民政府关于印发某某办法的通知"),
])
def test_the_title_line_of_a_document_without_headings(text, title):
    assert _titled(text) == title


@pytest.mark.parametrize("text", [
    "为了规范火灾事故的应急处置，根据有关规定，制定本预案。本预案适用于本公司。",  # a sentence is not a title
    "附件1：应急物资清单\n1．灭火器：20具",  # an attachment header, a list item
    "2024年6月\n\n第一条 本办法自发布之日起施行。",
    "（一）基本条件\n\n申请人应当具备下列条件。",  # a section's heading is not the document's title
])
def test_no_title_line_falls_back_to_the_file_name(text):
    assert _titled(text) == "plan_2024"


def test_a_top_heading_is_the_title(tmp_path):
    (tmp_path / "a.md").write_text("某某公司\n\n# 某某公司安全检查制度\n\n正文。\n", encoding="utf-8")
    assert build_document("lib", parse_file(tmp_path / "a.md", 1 << 20)).title == "某某公司安全检查制度"


def test_a_top_heading_that_is_a_section_or_a_series_is_not_the_title(tmp_path):
    (tmp_path / "a.md").write_text("# （一）基本条件\n\n某某公司安全检查制度\n\n正文。\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("# 中华人民共和国国家标准\n\nGB/T 45839—2025\n\n# 企业安全生产标准化基本规范\n\n"
                                   "## 1 范围\n\n本文件规定了……\n", encoding="utf-8")
    assert build_document("lib", parse_file(tmp_path / "a.md", 1 << 20)).title == "某某公司安全检查制度"
    assert build_document("lib", parse_file(tmp_path / "b.md", 1 << 20)).title == "企业安全生产标准化基本规范"


def test_a_placeholder_a_converter_wrote_before_the_title_is_not_part_of_it(tmp_path):
    (tmp_path / "a.md").write_text("# 未提供 企业突发环境事件风险评估指南（试行）\n\n- 发布机关：环境保护部\n", encoding="utf-8")
    assert build_document("lib", parse_file(tmp_path / "a.md", 1 << 20)).title == "企业突发环境事件风险评估指南（试行）"


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not beside the project")
def test_the_real_hotel_plan_is_titled_by_its_cover():
    doc = build_document("shared", parse_file(SHARED_CORPUS / "zh_plan_sheraton_xian_2024.txt", 50 << 20))
    assert doc.title == "西安喜来登大酒店生产安全事故应急预案"  # not the file name, not the company above it


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not beside the project")
def test_the_real_twin_plan_is_titled_with_the_hotel_its_cover_names():
    doc = build_document("shared", parse_file(SHARED_CORPUS / "zh_plan_ziyingtai_hotel_2024.txt", 50 << 20))
    assert doc.title == "西安新兴紫楹台酒店有限公司生产安全事故应急预案"  # its title line alone says 生产安全事故应急预案


# A notice that opens with its body (the record held no title), its attachments' headers below it.
UNTITLED = ("丹江口水力发电厂，位于湖北省丹江口市城区，系国有企业。\n为满足企业发展的需要，拟公开招聘8名员工，现将有关事项公告如下：\n"
            "一、招聘岗位及数量\n电气运检岗位4人。具体资格条件详见附件1。\n附件：1. 岗位一览表\n\n附件1：\n"
            "丹江口水力发电厂面向社会公开招聘岗位一览表\n| 岗位 | 人数 |\n| 电气运检 | 4 |\n")


def test_a_document_without_a_title_line_is_not_titled_by_its_first_attachment():
    assert "一览表" not in _titled(UNTITLED, "丹江口电厂招聘公告.txt")
    assert _titled(UNTITLED, "丹江口电厂招聘公告.txt") == "丹江口电厂招聘公告"  # a file name a reader reads


def test_an_untitled_notice_with_a_name_no_reader_reads_is_titled_by_what_it_announces():
    assert _titled(UNTITLED, "zh_notice_danjiangkou_2018.txt") == "丹江口水力发电厂公开招聘8名员工公告"
    # nothing announced: the file name, as before
    assert _titled("电气运检岗位4人。\n机械运检岗位2人。\n", "record_17.txt") == "record_17"


def test_a_title_whose_about_clause_runs_over_two_lines_is_read_whole():
    text = ("中国教育工会绍兴市委员会文件\n\n关于举办绍兴市优秀青年教师\n综合素质提升班的通知\n\n各区、县（市）教育工会：\n"
            "现将有关事项通知如下：\n")
    assert _titled(text) == "关于举办绍兴市优秀青年教师综合素质提升班的通知"
