"""When an attachment holds nothing but its header: the gap answerer's reading of an attachment's text."""
from __future__ import annotations

from kb.answer.gaps import EMPTY, Gap, _names_title, gap_answer, is_empty
from kb.answer.sources import declines


def test_an_attachment_is_empty_when_only_its_header_title_and_captions_are_there():
    assert is_empty("附件4：应急通讯录\n表1 应急通讯录\n", "应急通讯录")
    assert not is_empty("附件4：应急通讯录\n| 姓名 | 电话 |\n| 张三 | 110 |", "应急通讯录")


def test_a_header_line_that_runs_on_into_the_content_is_not_an_empty_attachment():
    # text without line breaks: the whole attachment is its header's line
    assert not is_empty("附件二：授权委托书兹全权委托先生（女士）代表我单位出席股东大会，并代为行使表决权。委托人签名：", "授权委托书")
    assert is_empty("附件二：授权委托书（见下表）", "授权委托书")


def test_a_title_said_with_de_between_its_words_names_the_attachment():
    assert _names_title("印花税的税目税率表里有哪些税目？", "印花税税目税率表")
    assert not _names_title("印花税的税率是多少？", "印花税税目税率表")


def test_a_gap_answer_quotes_the_sentence_that_cites_the_table_first():
    gap = Gap("d", "中华人民共和国印花税暂行条例", "附件", "印花税税目税率表", EMPTY)
    answer = gap_answer([gap], [("具体税率、税额的确定，依照本条例所附《印花税税目税率表》执行。", 3)])
    lines = answer.splitlines()
    assert lines[2] == "- 具体税率、税额的确定，依照本条例所附《印花税税目税率表》执行。 [3]", lines
    assert "“印花税税目税率表”在知识库中只有标题" in lines[3] and declines(answer), lines
