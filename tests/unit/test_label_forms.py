"""Attachment labels in the forms real notices number them: sub-numbers written 附件1-2, 附件1.2 or 附件一（1）,
full-width digits, a spaced kind, and 附件：1. as each attachment's header. Each form is one attachment, and a
mention written in any form leads to it."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.labels import LABEL, make_label, parse_label
from kb.model import ParsedFile

NOTICE = """关于开展安全生产检查的通知

各单位：
检查登记表见附件１，汇总表见附件1-2，评分细则见附件1.3，补充说明见附 件 2，附表一列出了检查人员。

附件１

检查登记表
单位、日期、检查人。

附件1-2

检查汇总表
合计 12 家。

附件1.3

评分细则
满分 100 分，80 分合格。

附 件 2

补充说明
其他事项另行通知。

附表一

检查人员名单
李四、王五。
"""

PROJECTS = """关于申报2024年度科技项目的通知

各单位：
项目申报书见附件一（1），预算表见附件一（2），承诺书见附件二。

附件一（1）

项目申报书
项目名称、负责人、起止年限。

附件一（2）

项目预算表
经费合计 10 万元。

附件二

诚信承诺书
本单位承诺所填内容真实。
"""

# Each attachment headed as the list names it (附件：1. / its title below), as some offices print them.
COLON_HEADERS = """关于报送统计材料的通知

各单位：
请按附件1格式填写报送表，填报要求见附件2。

附件：1.
材料报送表
单位名称、联系人、联系电话。

附件：2.
填报说明
请于5月31日前报送。
"""


def _doc(text: str):
    return build_document("t", ParsedFile("n.txt", "n.txt", text, "h"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (NOTICE, [("附件1", "检查登记表"), ("附件1-2", "检查汇总表"), ("附件1-3", "评分细则"), ("附件2", "补充说明"),
                  ("附表1", "检查人员名单")]),
        (PROJECTS, [("附件1-1", "项目申报书"), ("附件1-2", "项目预算表"), ("附件2", "诚信承诺书")]),
        (COLON_HEADERS, [("附件1", "材料报送表"), ("附件2", "填报说明")]),
    ],
)
def test_each_form_is_one_attachment_and_every_mention_leads_to_it(text, expected):
    doc = _doc(text)
    assert [(a.label, a.title) for a in doc.attachments] == expected
    body = [r for r in doc.references if r.source == ""]
    assert sorted({r.target for r in body}) == sorted(label for label, _ in expected)
    assert not doc.dangling
    for a in doc.attachments:  # the attachment holds its own content, not its neighbour's
        assert doc.text[a.start:a.end].count("\n\n") <= 2


@pytest.mark.parametrize(
    ("written", "label"),
    [
        ("附件1.2", "附件1-2"), ("附件1．2", "附件1-2"), ("附件１．２", "附件1-2"), ("附件一（1）", "附件1-1"),
        ("附件2(3)", "附件2-3"), ("附件三（2）", "附件3-2"), ("附件1-2", "附件1-2"),
        # a title after the dot, a note in brackets, a count: the number is the first one alone
        ("附件1.2023年度统计表", "附件1"), ("附件1.检查表", "附件1"), ("附件1（略）", "附件1"),
        ("附件1(2023年版)", "附件1"), ("附件2.3个工作组名单", "附件2"), ("附件1.5万元以下", "附件1"),
    ],
)
def test_sub_numbers_read_as_one_label(written, label):
    match = LABEL.search(written)
    assert make_label(match.group("kind"), match.group("number")) == label
    assert parse_label(written) == label


def test_a_list_entry_with_its_title_is_no_header():
    text = "关于报送材料的通知\n\n请按要求报送。\n\n附件：1.材料报送表\n2.填报说明\n\n某某局\n2024年5月6日\n"
    assert _doc(text).attachments == ()
