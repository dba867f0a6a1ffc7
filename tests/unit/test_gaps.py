"""When an attachment holds nothing but its header: the gap answerer's reading of an attachment's text."""
from __future__ import annotations

from kb.answer.gaps import is_empty


def test_an_attachment_is_empty_when_only_its_header_title_and_captions_are_there():
    assert is_empty("附件4：应急通讯录\n表1 应急通讯录\n", "应急通讯录")
    assert not is_empty("附件4：应急通讯录\n| 姓名 | 电话 |\n| 张三 | 110 |", "应急通讯录")


def test_a_header_line_that_runs_on_into_the_content_is_not_an_empty_attachment():
    # text without line breaks: the whole attachment is its header's line
    assert not is_empty("附件二：授权委托书兹全权委托先生（女士）代表我单位出席股东大会，并代为行使表决权。委托人签名：", "授权委托书")
    assert is_empty("附件二：授权委托书（见下表）", "授权委托书")
