"""Documents whose lines run together (a web page's notice, a database string, a PDF pasted as one paragraph) still
split into the attachments their list announces, with spans that point into the text as it arrived."""
from __future__ import annotations

import re
import time

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from kb.ingest.splitting import split_attachments
from kb.model import ParsedFile
from tests.conftest import DATA_DIR, SHARED_CORPUS, needs_shared_corpus

NOTICE = (
    "关于召开2024年第一次临时股东大会的通知本公司董事会决定召开股东大会。股东可以通过深交所系统投票，具体程序详见附件一。"
    "特此公告。附件：1、网络投票程序及要求2、授权委托书格式深圳市某某股份有限公司董事会2024年3月1日"
    "附件一：网络投票程序及要求一、采用深交所交易系统投票的程序1.投票代码：360001。2.投票简称：某某投票。"
    "二、通过互联网投票系统的投票程序投票时间为2024年3月15日。"
    "附件二：授权委托书兹全权委托先生（女士）代表本人出席会议，并代为行使表决权。委托人签名：委托日期：年月日"
)


def _doc(text: str, name: str = "通知.txt"):
    return build_document("t", ParsedFile(name, name, text, str(hash(text))))


def _found(text: str) -> list[tuple[str, str]]:
    return [(a.label, a.title) for a in split_attachments(text).attachments]


def test_a_one_line_notice_splits_where_the_listed_titles_recur_and_its_mention_links_to_the_first():
    doc = _doc(NOTICE)
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "网络投票程序及要求"), ("附件2", "授权委托书")]
    first, second = doc.attachments
    assert doc.text[first.start : first.end].startswith("附件一：网络投票程序及要求一、采用深交所")
    assert doc.text[first.start : first.end].endswith("投票时间为2024年3月15日。")
    assert first.end <= second.start == NOTICE.index("附件二：授权委托书兹")
    assert doc.text[second.start : second.end].endswith("委托日期：年月日")
    # 详见附件一 in the body names the attachment; the list and the headers are structure, no reference
    assert [(r.source or "body", r.mention, r.target) for r in doc.references] == [("body", "详见附件一", "附件1")]
    assert {c.attachment for c in doc.chunks if "采用深交所交易系统投票" in c.text} == {"附件1"}


def test_the_glued_list_names_each_attachment_once_and_its_last_title_stops_where_the_header_agrees():
    split = split_attachments(NOTICE)
    # the header says 授权委托书; the list says 授权委托书格式 — 格式 is a word titles end in, the issuer after it is not
    assert split.listed_titles == {"附件1": "网络投票程序及要求", "附件2": "授权委托书格式"}


def test_without_a_list_a_run_of_headers_each_titled_and_with_content_is_the_attachments():
    text = ("为做好工作，制定本办法。本办法自发布之日起施行。附件1：企业基本情况表一、企业名称。二、法定代表人。"
            "附件2：风险物质清单一、物质名称。二、临界量。附件3：应急联系电话值班室：029-88886666。")
    assert _found(text) == [("附件1", "企业基本情况表"), ("附件2", "风险物质清单"), ("附件3", "应急联系电话")]
    third = split_attachments(text).attachments[2]
    assert text[third.start : third.end] == "附件3：应急联系电话值班室：029-88886666。"


def test_chinese_and_arabic_numbers_name_one_attachment_whichever_the_list_and_header_use():
    listed = "特此通知。附件：1.参会回执2.交通路线图附件一参会回执姓名：单位：附件二交通路线图乘地铁2号线。"
    assert _found(listed) == [("附件1", "参会回执"), ("附件2", "交通路线图")]
    arabic = "特此通知。附件：一、参会回执。附件1：参会回执姓名：单位：附件2：交通路线图乘地铁2号线。"
    assert [a.label for a in split_attachments(arabic).attachments] == ["附件1", "附件2"]


@pytest.mark.parametrize("text", [
    "股东可以通过深交所系统投票，具体程序详见附件一。特此公告。",
    "各单位按附件2：报名表填写，并报送附件1：汇总表和附件2：报名表。特此通知。",
    "本条例自公布之日起施行。倾倒未列入附件一的杀虫剂，应当事先获得许可证。附件二规定的物质不得倾倒。",
])
def test_mentions_in_running_text_stay_references_and_begin_no_attachment(text):
    doc = _doc(text)
    assert doc.attachments == ()
    assert doc.references and all(r.target is None for r in doc.references)


def test_appendices_and_tables_in_run_on_text():
    tables = "本法自2018年1月1日起施行。附表一环境保护税税目税额表附表二应税污染物和当量值表一、第一类水污染物污染当量值。"
    # 附表一's table was lost: the header alone, glued to the next one, is still 附表1
    assert _found(tables) == [("附表1", "环境保护税税目税额表"), ("附表2", "应税污染物和当量值表")]
    appendices = ("应及时修订预案，并记录等级划定过程。附录A 风险等级划分方法 附录B 风险物质及临界量清单"
                  "附录A风险等级划分方法。通过定量分析企业的风险物质数量。附录B风险物质及临界量清单 序号 物质名称 临界量")
    split = split_attachments(appendices)
    assert [(a.label, a.title) for a in split.attachments] == [("附录A", "风险等级划分方法"), ("附录B", "风险物质及临界量清单")]
    assert split.attachments[0].start == appendices.index("附录A风险等级划分方法。通过")


def test_a_header_after_a_sentence_at_a_lines_end_begins_the_attachment_below():
    text = "各单位：请于5月底前报送材料。特此通知。附件1：应急物资清单\n序号 名称 数量\n1 帐篷 20\n"
    (att,) = split_attachments(text).attachments
    assert (att.label, att.title) == ("附件1", "应急物资清单")
    assert text[att.start : att.end] == "附件1：应急物资清单\n序号 名称 数量\n1 帐篷 20"


def test_a_glued_list_on_its_own_line_names_every_entry():
    text = "第一条 为规范应急工作，制定本预案。\n附件：1、指挥部名单2、物资清单\n附件1\n指挥部名单\n张三\n附件2\n物资清单\n帐篷 20顶\n"
    split = split_attachments(text)
    assert split.listed_titles == {"附件1": "指挥部名单", "附件2": "物资清单"}
    assert [(a.label, a.title) for a in split.attachments] == [("附件1", "指挥部名单"), ("附件2", "物资清单")]


def test_a_single_attachment_marked_by_its_kind_alone_in_run_on_text():
    text = "第三十四条 本细则自发布之日起施行。附件：矿产资源分类细目附件矿产资源分类细目(一)能源矿产煤、石油。"
    (att,) = split_attachments(text).attachments
    assert (att.label, att.title) == ("附件", "矿产资源分类细目")
    assert att.start == text.index("附件矿产资源分类细目(一)")


def _flattened(text: str, joint: str) -> str:
    """The document as a web page or a database hands it over: heading marks gone, lines run together."""
    return re.sub(r"\s*\n\s*", joint, re.sub(r"^#+\s*", "", text, flags=re.M))


def _labels(text: str) -> list[str]:
    return [a.label for a in split_attachments(text).attachments]


RUN_TOGETHER = [
    *(DATA_DIR / "corpus" / name for name in (
        "东岭街道防汛应急预案.md", "西岭街道防汛应急预案.txt", "青禾县人民医院火灾事故应急预案.md",
        "示范市餐厨垃圾管理办法.md", "绿洲化工园区突发环境事件应急预案.docx")),
]
SHARED_RUN_TOGETHER = [
    "zh_guide_qiye_tufa_huanjing_fengxian_pinggu_2014.md", "zh_judicial_zonghe_zhili_sifa_jianyi_2023.md",
    "zh_law_huanjing_baohushui_fa_empty_tables.md", "zh_plan_sheraton_xian_2024.txt",
    "zh_plan_ziyingtai_hotel_2024.txt", "zh_reg_daodan_chukou_guanzhi_tiaoli_2002.md",
    "zh_reg_haiyang_qingfei_guanli_tiaoli.md", "zh_reg_kuangchan_ziyuan_shishi_xize_1994.md",
    "zh_reg_zhongcai_shoufei_banfa_1995.md", "zh_rule_jiaojing_daolu_zhiqin_zhifa_guifan.md",
]


@pytest.mark.parametrize("joint", ["", " "])
@pytest.mark.parametrize("path", RUN_TOGETHER, ids=lambda p: p.name)
def test_a_bundled_document_with_its_lines_run_together_has_the_same_attachments(path, joint):
    text = parse_file(path, 50 << 20).text
    assert _labels(_flattened(text, joint)) == _labels(text) != []


@needs_shared_corpus
@pytest.mark.parametrize("joint", ["", " "])
@pytest.mark.parametrize("name", SHARED_RUN_TOGETHER)
def test_a_real_document_with_its_lines_run_together_has_the_same_attachments(name, joint):
    text = parse_file(SHARED_CORPUS / name, 50 << 20).text
    assert _labels(_flattened(text, joint)) == _labels(text) != []


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        split_attachments(text)
        best = min(best, time.perf_counter() - began)
    return best


@pytest.mark.parametrize("unit", [
    "本单位按照规定报送材料，详见附件一。",  # prose with mentions: 100 KB of one line
    "附件",  # a run of the word itself
    "附件1：",  # labels with nothing between
    "附件：1、",  # list heads with nothing listed
    "附件1：应急物资清单一、",  # a run of headers, each with a title
])
def test_one_long_line_splits_in_time_linear_in_its_length(unit):
    small = unit * (50_000 // len(unit))
    large = unit * (100_000 // len(unit))
    assert _seconds(large) < 3.5 * _seconds(small) + 0.05
