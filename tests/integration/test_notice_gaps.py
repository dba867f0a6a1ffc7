"""A notice that lists attachments it does not carry, and sends the reader to them: real Kuzu and Chroma."""
from __future__ import annotations

import pytest

from tests.integration.test_answerer import _served
from tests.integration.test_law_gaps import _answer

NOTICE = "\n".join([
    "# 关于举办青禾县急救培训的通知", "",
    "各乡镇卫生院：", "",
    "一、培训定于2019年7月23日在青禾县人民医院报告厅（具体地址详见附件3）举行。", "",
    "二、请各单位根据《培训学员选定要求》（附件1）推荐学员，填写《2019年培训学员汇总表》（附件2），于7月12日前报送。", "",
    "三、具体培训课程和授课安排详见附件4。", "",
    "附件：1.培训学员选定要求",
    "　　　2.2019年培训学员汇总表",
    "　　　3.报告厅交通指引",
    "　　　4.培训课程安排表", "",
    "附件1", "",
    "培训学员选定要求", "",
    "一、年龄在55周岁以内；", "二、身体健康。", "",
])


@pytest.fixture(scope="module")
def notice(tmp_path_factory):
    yield from _served(tmp_path_factory, {"急救培训通知.md": NOTICE}, "notice")


def test_an_attachment_the_notice_lists_by_title_and_does_not_carry_gets_the_gap_answer(notice):
    answer = _answer(notice, "2019年培训学员汇总表里一共有多少名学员？").split("**相关附件**")[0]
    assert "正文引用了附件2“2019年培训学员汇总表”，但文档没有附上附件2的内容" in answer, answer
    assert "[" not in answer


def test_a_sentence_that_only_sends_the_reader_to_a_missing_attachment_is_no_answer(notice):
    answer = _answer(notice, "急救培训的具体培训课程和授课安排是什么？").split("**相关附件**")[0]
    assert "附件4“培训课程安排表”" in answer and "没有找到" in answer and "[" not in answer, answer


def test_a_sentence_that_answers_beside_its_pointer_answers_unless_the_detail_is_asked(notice):
    answered = _answer(notice, "急救培训什么时候在哪里举行？")
    assert "2019年7月23日" in answered and "没有附上" not in answered, answered
    declined = _answer(notice, "急救培训报告厅的具体地址是哪里？").split("**相关附件**")[0]
    assert "附件3“报告厅交通指引”" in declined and "[" not in declined, declined


CAMP = "\n".join([
    "# 关于举办青禾县中学生科技夏令营的通知", "",
    "各区教育局：", "",
    "## 一、营员对象", "",
    "本次夏令营面向全县各区从事科技创新活动的**在校中学生**，共招收60名营员（各区的营员名额分配表见**附件1**）。", "",
    "## 二、报名方式", "",
    "请将报名表（见附件3）于2019年6月10日前发送至县科协电子信箱。", "",
    "附件：1.青禾县中学生科技夏令营各区营员名额分配表",
    "2.青禾县中学生科技夏令营日程安排表",
    "3.青禾县中学生科技夏令营报名表", "",
    "青禾县科学技术协会", "2019年5月20日",
])


@pytest.fixture(scope="module")
def camp(tmp_path_factory):
    yield from _served(tmp_path_factory, {"科技夏令营通知.md": CAMP}, "camp")


def test_a_total_beside_a_pointer_to_the_share_of_each_is_no_answer_to_one_share(camp):
    # the sentence gives the total (60名) and sends the reader to 附件1 for each 区's 名额: the share asked is there
    answer = _answer(camp, "科技夏令营每个区分到几个名额").split("**相关附件**")[0]
    assert "附件1" in answer and "没有附上" in answer and "[" not in answer, answer


def test_the_entry_of_a_missing_attachment_in_the_list_is_no_answer_to_what_it_holds(camp):
    answer = _answer(camp, "科技夏令营日程是怎么安排的？").split("**相关附件**")[0]
    assert "附件2“青禾县中学生科技夏令营日程安排表”" in answer and "[" not in answer, answer


def test_the_total_itself_is_still_answered(camp):
    answer = _answer(camp, "科技夏令营一共招收多少名营员？")
    assert "60名营员" in answer and "没有附上" not in answer, answer


def test_a_deadline_is_read_in_the_body_not_in_the_list_line_of_the_form_it_names(camp):
    # 3.…报名表 shares more of the question's words than the sentence that gives the day; it only names a form
    answer = _answer(camp, "科技夏令营的报名表最晚什么时候发？").split("**相关附件**")[0]
    assert "2019年6月10日前" in answer and "3.青禾县中学生科技夏令营报名表" not in answer, answer
