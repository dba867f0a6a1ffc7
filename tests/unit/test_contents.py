"""What an attachment holds, asked in everyday words (kb/answer/contents.py): the attachment, read under its title, is
the answer — a form's fields — and its header (附件：报名表) is the title of what follows, never a line to quote."""
from __future__ import annotations

import pytest

from kb.answer.contents import asked_thing
from kb.answer.offline import ExtractiveAnswerer
from kb.answer.shapes import opening
from kb.turn import Source

NOTICE = "关于举办2024年全市中小学生作文比赛的通知"
BODY = "\n".join([NOTICE, "各学校：", "为激发学生写作兴趣，决定举办全市中小学生作文比赛。",
                  "请各校于4月20日前将报名表（见附件）报送市教育局。", "附件：报名表"])
FORM = "\n".join(["附件：报名表", "学校名称：＿＿＿＿＿＿  联系人：＿＿＿＿", "学生姓名：＿＿＿＿  年级：＿＿＿＿",
                  "是否获奖：□是 □否"])


def sources(form: str = FORM, label: str = "附件", title: str = "报名表") -> list[Source]:
    return [Source(1, "d1", NOTICE, "lib", "", "", BODY, ((0, len(BODY)),), ("c1",), 1.0),
            Source(2, "d1", NOTICE, "lib", label, title, form, ((0, len(form)),), ("c2",), 1.0, prefetched=True)]


def quoted(question: str, given: list[Source]) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, given)]


@pytest.mark.parametrize("question, thing", [
    ("这个表要填什么？", "表"), ("附件里说了啥？", "附件"), ("报名表上要填写哪些信息？", "报名表"),
    ("附件2里写了什么？", "附件2"), ("报名表什么时候交？", None), ("演练时间是哪天？", None),
])
def test_a_question_about_what_a_thing_holds_names_the_thing(question, thing):
    assert asked_thing(question) == thing


@pytest.mark.parametrize("question", ["这个表要填什么？", "附件里说了啥？", "报名表要填什么？"])
def test_a_colloquial_question_about_an_attachment_is_answered_by_its_fields(question):
    answer = quoted(question, sources())
    assert answer == ["学校名称：＿＿＿＿＿＿  联系人：＿＿＿＿", "学生姓名：＿＿＿＿  年级：＿＿＿＿", "是否获奖：□是 □否"], answer


def test_an_attachments_header_is_its_title_not_a_line_of_it():
    for header in ("附件：报名表", "附件2：报名表", "附件2 报名表"):
        form = FORM.replace("附件：报名表", header)
        lines = [c.text for c in opening(sources(form, "附件2" if "2" in header else "附件")[1])]
        assert lines[0].startswith("学校名称"), lines


def test_a_form_tables_fields_answer_what_to_fill_and_a_blank_field_is_no_value():
    table = "\n".join(["附件2：报名表", "| 学校名称 |  | 联系人 |  |", "| 学生姓名 |  | 年级 |  |",
                       "| 是否获奖 | □是 □否 |  |  |"])
    given = sources(table, "附件2")
    answer = quoted("这个表要填什么？", given)
    assert "学生姓名：；年级：" in answer and not any("附件2" in line for line in answer), answer
    assert quoted("学生姓名是谁？", given) == []  # the form leaves it blank: nothing says who


def test_a_thing_two_attachments_could_be_is_no_answer_by_itself():
    other = Source(3, "d1", NOTICE, "lib", "附件2", "评分表", "评分项目：＿＿\n分值：＿＿", ((0, 10),), ("c3",), 1.0)
    answer = quoted("这个表要填什么？", [*sources(), other])
    assert answer != ["评分项目：＿＿", "分值：＿＿"], answer  # 表 names two forms: neither alone


@pytest.mark.parametrize("question, thing", [
    ("附件2是做什么用的？", "附件2"), ("作文比赛附件是做什么用的", "作文比赛附件"), ("这个表有什么用？", "表"),
])
def test_what_a_thing_is_for_is_asked_of_the_thing_itself(question, thing):
    assert asked_thing(question) == thing


def test_a_label_under_its_documents_shortened_name_names_that_attachment():
    given = sources(label="附件2", title="作文比赛报名表")
    answer = quoted("作文比赛附件2有什么用？", given)
    assert any("学生姓名" in line for line in answer), answer  # the form itself, handed over
