"""Attachment splitting on the header forms real documents use."""
from __future__ import annotations

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
