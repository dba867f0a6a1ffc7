"""Attachment splitting on the header forms real documents use."""
from __future__ import annotations

import re

import pytest

from kb.ingest.splitting import split_attachments
from kb.labels import make_label, parse_label

BODY = "第一条 为规范应急工作，制定本预案。\n第二条 本预案适用于园区。\n"


def _found(text: str) -> list[tuple[str, str]]:
    return [(a.label, a.title) for a in split_attachments(text).attachments]


@pytest.mark.parametrize(
    ("header", "label", "title"),
    [
        ("附件1：应急指挥部成员名单", "附件1", "应急指挥部成员名单"),
        ("附件2-应急物资清单", "附件2", "应急物资清单"),
        ("附件 3 应急队伍联系表", "附件3", "应急队伍联系表"),
        ("附件3-1：危险化学品储罐清单", "附件3-1", "危险化学品储罐清单"),
        ("附件十一：事件报告表", "附件11", "事件报告表"),
        ("## 附件4：疏散集合点", "附件4", "疏散集合点"),
        ("**附件5** 应急值班表", "附件5", "应急值班表"),
        ("附录A 术语", "附录A", "术语"),
        ("附录 B：风险物质临界量", "附录B", "风险物质临界量"),
        ("附件１２：通讯录", "附件12", "通讯录"),
        ("附 件 3：应急队伍联系表", "附件3", "应急队伍联系表"),  # spaced as text taken from a PDF
        ("附1: 应急行动工作领导小组联络方式", "附件1", "应急行动工作领导小组联络方式"),  # 附1: short for 附件1
        ("## 附 录 E（资料性）数据对象快照存证参考示例", "附录E", "数据对象快照存证参考示例"),  # status, then title
        ("附图1 厂区平面布置图", "附图1", "厂区平面布置图"),  # a drawing, its own kind as 附表 is
        ("附 图 二：疏散路线图", "附图2", "疏散路线图"),
        ("附录一：名词解释", "附录1", "名词解释"),
        ("附2. 报名回执", "附件2", "报名回执"),  # 附2 with a list's full stop: 附件2
    ],
)
def test_header_forms(header, label, title):
    assert _found(BODY + header + "\n内容一行。\n") == [(label, title)]


def test_bare_header_takes_the_title_from_the_next_line():
    text = BODY + "附件4\n\n应急物资清单\n\n名称 | 数量\n" + "附表一\n排污费标准表\n"
    assert _found(text) == [("附件4", "应急物资清单"), ("附表1", "排污费标准表")]


def test_attachment_list_names_titles_and_is_not_an_attachment():
    text = BODY + "附件：1.指挥部名单\n2.物资清单\n\n附件1\n\n附件2\n物资清单\n帐篷 20顶\n"
    split = split_attachments(text)
    assert [(a.label, a.title) for a in split.attachments] == [("附件1", "指挥部名单"), ("附件2", "物资清单")]
    assert split.listed_titles == {"附件1": "指挥部名单", "附件2": "物资清单"}
    assert split.attachments[0].start == text.index("附件1\n")


def test_table_of_contents_lines_are_not_attachments():
    toc = "目录\n第一章 总则\t1\n附件4：应急物资清单\t98\n附件5：通讯录……………102\n"
    text = toc + BODY + "附件4：应急物资清单\n帐篷 20顶\n附件5：通讯录\n张三 029-88886666\n"
    split = split_attachments(text)
    assert [(a.label, a.title) for a in split.attachments] == [("附件4", "应急物资清单"), ("附件5", "通讯录")]
    assert split.attachments[0].start == text.index("附件4：应急物资清单\n帐篷")
    assert split.attachments[0].end == text.index("\n附件5：通讯录\n张三")


def test_sentences_that_begin_with_a_label_are_not_headers():
    text = BODY + "附件4所列物资应当每季度检查一次。\n附件五、六由办公室负责更新，每年一次。\n"
    assert _found(text) == []


def test_attachment_ends_at_the_next_and_the_last_runs_to_the_end():
    text = BODY + "附件1：甲\n甲的内容。\n\n附件2：乙\n乙的内容。\n"
    first, second = split_attachments(text).attachments
    assert text[first.start : first.end] == "附件1：甲\n甲的内容。"
    assert text[second.start : second.end] == "附件2：乙\n乙的内容。"


@pytest.mark.parametrize(
    ("kind", "number", "label"),
    [("附件", "一", "附件1"), ("附件", "十一", "附件11"), ("附表", "二", "附表2"), ("附件", "3－1", "附件3-1"),
     ("附录", "b", "附录B"), ("附件", "二十三", "附件23"), ("附件", "011", "附件11")],
)
def test_label_normalization(kind, number, label):
    assert make_label(kind, number) == label


@pytest.mark.parametrize(
    ("text", "label"),
    [("附件4：应急物资清单", "附件4"), ("附录B 突发环境事件风险物质及临界量清单", "附录B"),
     ("附件2 需要获得特别许可证才能倾倒的物质（正文称“附件二”）", "附件2"), ("附件十一", "附件11"), ("安全附件", None)],
)
def test_parse_label_of_free_text(text, label):
    assert parse_label(text) == label


@pytest.mark.parametrize(
    "tail",
    [
        "附件：\n\n县级防汛物资储备定额表\n\n编织袋 5000条\n",  # kind and colon, title on the next line
        "附件：县级防汛物资储备定额表\n\n附件\n\n县级防汛物资储备定额表\n\n编织袋 5000条\n",  # named, then begun
        "## 附件：县级防汛物资储备定额表\n\n## 一、总则\n编织袋 5000条\n## 二、仓储\n",  # title inline, ## sections
    ],
)
def test_a_single_unnumbered_attachment_is_labelled_by_its_kind(tail):
    text = BODY + tail
    split = split_attachments(text)
    assert [(a.label, a.kind, a.number, a.title) for a in split.attachments] == [("附件", "附件", "", "县级防汛物资储备定额表")]
    att = split.attachments[0]
    assert text[att.start : att.end].rstrip().endswith(tail.rstrip().splitlines()[-1])
    header = [m.start() for m in re.finditer(r"^(?:## )?附件(?:：.*)?$", text, re.M)][-1]
    assert att.start == header  # the last kind-alone line begins it; an earlier one only named it


def test_the_kind_alone_is_no_header_when_numbered_attachments_exist_or_nothing_follows():
    numbered = BODY + "附件：\n1.名单\n2.物资\n附件1：名单\n甲。\n附件2：物资\n乙。\n附件：（按顺序列明附件名称）\n"
    assert _found(numbered) == [("附件1", "名单"), ("附件2", "物资")]
    assert _found(BODY + "附件\n") == []
    assert _found(BODY + "附件：（按顺序列明附件名称及件数）\n") == []
    assert _found(BODY + "附件：按照规定报送，不得迟报。\n") == []


def test_omitted_attachments_on_one_line_each_keep_a_title_and_the_mark():
    text = BODY + "附录一 值班记录表（略） 附录二 交接班记录表（一）（略） 交接班记录表（二）（略）\n"
    split = split_attachments(text)
    assert [(a.label, a.title, a.omitted) for a in split.attachments] == [
        ("附录1", "值班记录表", True), ("附录2", "交接班记录表", True)]
    first, second = split.attachments
    assert text[first.start : first.end] == "附录一 值班记录表（略）"
    assert text[second.start : second.end] == "附录二 交接班记录表（一）（略） 交接班记录表（二）（略）"


def test_an_attachment_whose_content_is_only_a_lue_mark_is_omitted_an_empty_one_is_not():
    text = BODY + "附件1：值班表\n（略）\n附件2：通讯录\n\n附件3：物资表（略）\n"
    assert [(a.label, a.title, a.omitted) for a in split_attachments(text).attachments] == [
        ("附件1", "值班表", True), ("附件2", "通讯录", False), ("附件3", "物资表", True)]


def test_a_bare_header_takes_its_title_from_the_documents_one_line_list_or_the_first_sentence_below():
    listed = ("目次\n附录A 风险等级划分方法 附录B 风险物质临界量清单 附录C 现场调查表\n" + BODY
              + "## 附录A\n\n风险等级划分方法。通过定量分析确定等级。\n## 附录B\n\n| 物质 | 临界量 |\n")
    split = split_attachments(listed)
    assert [(a.label, a.title) for a in split.attachments] == [("附录A", "风险等级划分方法"), ("附录B", "风险物质临界量清单")]
    assert split.listed_titles["附录C"] == "现场调查表"
    unlisted = BODY + "## 附录A\n\n风险等级划分方法。通过定量分析确定等级，分为三级。\n"
    assert _found(unlisted) == [("附录A", "风险等级划分方法")]
    prose = BODY + "## 附录A\n\n为规范风险评估工作，制定本方法。\n"
    assert _found(prose) == [("附录A", "")]


@pytest.mark.parametrize(("number", "label"), [("一百零五", "附件105"), ("〇三", "附件3"), ("两", "附件2"), ("十十", "附件十十")])
def test_chinese_numerals_read_by_cn2an(number, label):
    assert make_label("附件", number) == label


def test_a_list_without_headers_or_an_empty_note_makes_no_unnumbered_attachment():
    assert _found(BODY + "附件：1、值班表\n2、通讯录\n") == []
    assert _found(BODY + "附件：\n1.值班表\n2.通讯录\n\n县应急局\n2024年1月1日\n") == []
    assert _found(BODY + "附件：无\n") == []
    assert _found(BODY + "附件：\n\n抄送：县应急管理局\n") == []  # a form's fields, not an attachment
    assert _found(BODY + "## 附录A\n\n本表由办公室填写。\n") == [("附录A", "")]


def test_a_bare_header_keeps_the_title_an_earlier_line_gave_the_same_label():
    text = "附录A 风险等级划分方法\n附录B 风险物质临界量清单\n" + BODY + "## 附录A\n\n| 等级 | 分值 |\n## 附录B\n\n| 物质 | 临界量 |\n"
    split = split_attachments(text)
    assert [(a.label, a.title) for a in split.attachments] == [("附录A", "风险等级划分方法"), ("附录B", "风险物质临界量清单")]
    assert split.attachments[0].start == text.index("## 附录A")


def test_list_entries_marked_lue_are_omitted_attachments():
    text = BODY + "附件：1．值班记录表（略）\n2．交接班记录表（略）\n\n示范县应急管理局\n2024年1月1日\n"
    split = split_attachments(text)
    assert [(a.label, a.title, a.omitted) for a in split.attachments] == [
        ("附件1", "值班记录表", True), ("附件2", "交接班记录表", True)]
    assert text[split.attachments[0].start : split.attachments[0].end] == "1．值班记录表（略）"
    assert text[split.attachments[1].start : split.attachments[1].end] == "2．交接班记录表（略）"


def test_a_single_unnumbered_attachment_may_give_its_title_after_a_space():
    text = BODY + "附件 县级防汛物资储备定额表\n\n编织袋 5000条\n"
    assert _found(text) == [("附件", "县级防汛物资储备定额表")]
    assert split_attachments(text).attachments[0].start == text.index("附件 县级")


@pytest.mark.parametrize("tail", [
    "附件 所列物资由各单位自行保管\n",  # the line goes on as a sentence does
    "附件 及其改装附件应当定期检验\n",
    "附件 按规定填写，不得涂改。\n",
    "附件1：值班表\n甲。\n附件 县级防汛物资储备定额表\n乙。\n",  # numbered attachments exist: the kind alone is no header
])
def test_the_kind_then_a_space_is_no_header_when_a_sentence_follows_or_numbered_attachments_exist(tail):
    assert ("附件", "县级防汛物资储备定额表") not in _found(BODY + tail)
    assert all(label != "附件" for label, _ in _found(BODY + tail))


def test_an_omitted_attachment_without_a_title_still_exists():
    text = BODY + "附件1：值班表\n甲。\n附件2（略）\n附件3(略) 附件4（略）\n"
    split = split_attachments(text)
    assert [(a.label, a.title, a.omitted) for a in split.attachments] == [
        ("附件1", "值班表", False), ("附件2", "", True), ("附件3", "", True), ("附件4", "", True)]
    assert text[split.attachments[1].start : split.attachments[1].end] == "附件2（略）"
    listed = BODY + "附件：1．值班表\n2．通讯录\n\n附件1（略）\n附件2（略）\n"  # a list named them: they keep its titles
    assert [(a.label, a.title, a.omitted) for a in split_attachments(listed).attachments] == [
        ("附件1", "值班表", True), ("附件2", "通讯录", True)]
    assert _found(BODY + "附件3（续）\n甲。\n") == []  # a continuation mark is not an omission


def test_a_standards_status_line_is_not_its_appendixs_title():
    # 附录 C / (资料性附录) / the title: the status says whether the appendix binds, the next line names it
    text = "\n".join([
        "正文见附录 C。", "", "附录 A", "", "(规范性附录)", "", "组织机构所处地貌代码", "", "代码 1 为山地。", "",
        "## 附录 B", "## （资料性附录）  基本地点名称优先级", "", "门牌号为8级。", "",
        "附录 C (资料性附录) 国家标准结构化标注实例", "以下是标注实例。",
    ])
    titles = {a.label: a.title for a in split_attachments(text).attachments}
    assert titles == {"附录A": "组织机构所处地貌代码", "附录B": "基本地点名称优先级", "附录C": "国家标准结构化标注实例"}


def test_a_title_over_two_lines_is_read_whole_from_the_documents_list():
    text = "\n".join([
        "现印发给你们，请认真遵照执行。", "附件：1．重庆市举报奖励审批表", "2．重庆市领取违法违规行为举报奖励资金授权委托书", "",
        "附件1", "重庆市举报奖励审批表", "举报人： 联系电话：", "",
        "附件2", "重庆市领取违法违规行为", "举报奖励资金授权委托书", "注：此文书一式4份。",
    ])
    titles = {a.label: a.title for a in split_attachments(text).attachments}
    assert titles == {"附件1": "重庆市举报奖励审批表", "附件2": "重庆市领取违法违规行为举报奖励资金授权委托书"}


def test_a_letter_spaced_title_is_read_as_written_together():
    # OCR and PDF copies set titles letter-spaced; the spaces inside a run of single characters are no part of it
    text = "正文见附录B。\n\n## 附 录 B\n\n(规范性附录)\n\n功 能 码\n\n功能码 0x03 读保持寄存器。\n"
    assert [(a.label, a.title) for a in split_attachments(text).attachments] == [("附录B", "功能码")]


@pytest.mark.parametrize("text", ["本通知附1张照片。", "请扫描本页所附二维码报名。", "报名表附2份。", "附1份材料。",
                                  "附近3公里内的医院。", "附图说明见下。"])
def test_the_verb_before_a_count_is_no_short_label(text):
    from kb.labels import LABEL
    assert LABEL.search(text) is None


def test_a_paragraph_that_closes_with_the_documents_list_titles_bare_headers_whose_title_runs_into_a_table():
    text = (
        "按照附录 A 划定企业环境风险等级，并记录等级划定过程。附录A 风险等级划分方法 附录B 风险物质及临界量清单\n"
        "## 附录A\n风险等级划分方法。通过定量分析……\n"
        "## 附录B\n风险物质及临界量清单 序号 物质名称 CAS 号 临界量（吨） 1 甲醛 50-00-0 0.5\n"
    )
    split = split_attachments(text)
    assert [(a.label, a.title) for a in split.attachments] == [
        ("附录A", "风险等级划分方法"),
        ("附录B", "风险物质及临界量清单"),
    ]
    listed = text.index("附录A 风险")
    assert any(s <= listed < e for s, e in split.structural)  # the list is no reference to 附录A


def test_header_lines_one_under_another_are_a_list_when_one_is_written_again_further_on():
    text = (BODY + "8. 附件\n附件1：资格审查条件要求（详见第二章）\n附件2：评标办法（详见第三章）\n"
            "9. 联系方式\n招标人：某某公司，电话：0731-1234567\n\n附件1：资格审查条件要求\n资质要求：二级及以上。\n")
    split = split_attachments(text)
    # 附件2 is listed, not there: the contact section after the list stays the body's
    assert _found(text) == [("附件1", "资格审查条件要求")]
    assert split.listed_titles["附件2"] == "评标办法（详见第三章）"
    assert text.index("0731-1234567") < split.attachments[0].start
    # a run of headers none of which is written again is each an attachment (with nothing in it but its title)
    assert [label for label, _ in _found(BODY + "附件1：名单\n附件2：清单\n")] == ["附件1", "附件2"]


def test_an_attachment_that_holds_nothing_before_headers_of_another_kind_holds_them():
    text = (BODY + "附件1：资格审查条件要求\n附录1 资质最低要求\n二级及以上资质。\n附录2 财务最低要求\n净资产不少于3000万元。\n"
            "附件2：评标办法\n综合评估法。\n")
    split = split_attachments(text)
    assert _found(text) == [("附件1", "资格审查条件要求"), ("附件2", "评标办法")]
    assert split.parts == {"附录1": "附件1", "附录2": "附件1"}
    whole = split.attachments[0]
    assert "3000万元" in text[whole.start:whole.end]
    # an attachment with content of its own is followed by attachments of another kind, not parts
    text = BODY + "附件1：名单\n张三。\n附表1 物资表\n沙袋 100个。\n"
    assert _found(text) == [("附件1", "名单"), ("附表1", "物资表")] and not split_attachments(text).parts


def test_a_part_starts_a_chunk_of_the_attachment_that_holds_it():
    from kb.ingest.chunking import chunk_document

    text = (BODY + "附件1：资格审查条件要求\n附录1 资质最低要求\n二级及以上资质。\n附录2 财务最低要求\n净资产不少于3000万元。\n")
    split = split_attachments(text)
    chunks = chunk_document("d", text, split.attachments, breaks=split.part_starts)
    owned = [c.text.split("\n")[0] for c in chunks if c.attachment == "附件1"]
    assert owned == ["附件1：资格审查条件要求", "附录1 资质最低要求", "附录2 财务最低要求"]


def test_a_list_in_one_label_form_then_headers_in_another_is_read_as_the_list_and_its_attachments():
    # 绍兴一中's notice: the list says 附1./附2., the headers are a bare 附1 and then 附件2 — both 附件
    text = (BODY + "教科室\n附1. 2011年市属学校教师专业阅读活动方案\n附2. 让课堂教学更有效——《有效教学十讲》导读\n\n"
            "附1\n2011年市属学校教师专业阅读活动方案\n1. 活动宗旨：促进专业成长。\n\n"
            "附件2\n让课堂教学更有效\n——《有效教学十讲》导读\n新课程背景下……\n")
    split = split_attachments(text)
    assert _found(text) == [("附件1", "2011年市属学校教师专业阅读活动方案"),
                            ("附件2", "让课堂教学更有效——《有效教学十讲》导读")]
    first = split.attachments[0]
    assert text[first.start:first.end].startswith("附1\n") and "活动宗旨" in text[first.start:first.end]
    assert split.listed_titles["附件2"] == "让课堂教学更有效——《有效教学十讲》导读"


# 绍兴市第一中学 关于开展无偿献血的通知 (2019): the body points at 附件, the sign-off closes it, and the attachment
# follows headed by its title alone
SIGNED = ("关于开展无偿献血的通知\n\n全体教工：\n5.注意献血前后的饮食健康和休息（见附件），献血结束后向党政办反馈。\n"
          "6.市献血办公室联系人：方放，联系电话：0575-88137016。\n\n党政办\n8月29日\n\n献血需知:\n1.献血前注意事项\n"
          "⑴献血前保证充足睡眠。\n")


def test_the_text_below_a_pointing_notices_sign_off_is_its_unlabelled_attachment():
    split = split_attachments(SIGNED)
    [att] = split.attachments
    assert (att.label, att.title) == ("附件", "献血需知")
    assert SIGNED[att.start:att.end].startswith("献血需知:") and SIGNED[att.end - 11:att.end] == "⑴献血前保证充足睡眠。"
    # a notice that points at no attachment signs off and that is all: what follows is not one
    assert split_attachments(SIGNED.replace("（见附件）", "")).attachments == ()
    # a copy list after the date is the closing block, not an attachment
    assert split_attachments(SIGNED.replace("献血需知:", "抄送：市教育局")).attachments == ()


def test_a_download_link_named_by_its_label_is_no_header():
    # the page lists 附件：1.精品课制作要求 … and links each file as 附件1.docx: neither begins an attachment
    text = (BODY + "《精品课制作要求》（详见附件1）。\n附件：1.精品课制作要求\n2.2022年部级精品课评价指标\n"
            "附件1.docx\n附件2.docx\n绍兴市教育局办公室\n2022年10月19日\n")
    split = split_attachments(text)
    assert split.attachments == ()
    assert split.listed_titles["附件2"] == "2022年部级精品课评价指标"
    link = text.index("附件1.docx")
    assert any(s <= link < e for s, e in split.structural)


def test_header_lines_one_under_another_that_only_a_sign_off_follows_are_the_list():
    # 成都地铁 检三技[2017]第078号: the list's entries are written as header lines, then the department and the date
    tail = ("九、其他\n    各班组将学习记录填入附件1《检技通学习记录表》中。\n附件1：《检技通学习记录表》\n"
            "附件2：《7号线受电弓气阀箱电磁阀整改记录表》\n\n检修三车间技术组\n2017年10月20日\n")
    split = split_attachments(BODY + tail)
    assert split.attachments == ()
    assert split.listed_titles["附件2"] == "7号线受电弓气阀箱电磁阀整改记录表"  # the name, not its quotes
    # 第088号 lists 附件1 and two 附表: no 附表 is read as part of an empty 附件1
    mixed = BODY + "附件1：烟火报警系统故障分析报告\n附表1：增加滤波元件记录表\n附表2：增加滤波元件统计表\n\n\n检修三车间技术组\n2017年11月14日\n"
    assert split_attachments(mixed).attachments == ()
    # an attachment that holds content after the run is still one
    held = BODY + "附件1：名单\n附件2：清单\n| 序号 | 物资 |\n| 1 | 沙袋 |\n检修三车间技术组\n2017年11月14日\n"
    assert [a.label for a in split_attachments(held).attachments] == ["附件1", "附件2"]


def test_download_links_below_a_pointing_notices_sign_off_are_no_attachment():
    # the page links its attachment file under the date: the text does not hold it
    assert split_attachments(SIGNED.replace("献血需知:", "附件1.docx")).attachments == ()


def test_an_attachment_that_carries_its_own_attachment_keeps_it():
    # 附件1 is a plan issued by another body, with its own list and its own 附1 (绍兴一中's 教师专业阅读 notice
    # forwards such a plan): the 附1 is the plan's, not a second 附件1 that ends the plan where it begins
    text = (BODY + "附件1\n2011年市属学校教师专业阅读活动方案\n1. 活动宗旨：促进教师的专业发展。\n附件：1.读书心得评分表\n"
            "附1\n读书心得评分表\n| 项目 | 分值 |\n| 观点 | 4 |\n附件2\n让课堂教学更有效\n导读正文。\n")
    split = split_attachments(text)
    assert _found(text) == [("附件1", "2011年市属学校教师专业阅读活动方案"), ("附件2", "让课堂教学更有效")]
    plan = split.attachments[0]
    assert "| 观点 | 4 |" in text[plan.start:plan.end] and "活动宗旨" in text[plan.start:plan.end]
    assert text.index("附1\n") in split.part_starts  # its own attachment starts a chunk, as a part's header does
