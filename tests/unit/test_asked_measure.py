"""Asked how many of a measure (多少人, 哪几排), a careful reader declines lines that give no number in it
(kb/answer/asked_measure.py)."""
from __future__ import annotations

from kb.answer.asked_measure import asked_measure, gives_measure, unsaid_measure
from tests.unit.test_answer_reading import quoted, source

# A college's notice on meetings, written as such notices are: when to ask for a room, who to tell — no room's size
MEETINGS = "\n".join([
    "关于会议安排及会议室使用的通知",
    "各单位、各部门：",
    "一、各单位召开的各类会议，如需使用学院会议室，最晚应于每周一上午11:30前向党政办公室提出使用申请，并电话告知办公室工作人员。",
    "二、会议室使用完毕后，请及时关闭门窗和电源。",
])
# A final's audience: how many students each college sends, not where they sit
AUDIENCE = "\n".join([
    "关于组织学生观众观看总决赛的通知",
    "1. 5月30日晚主题论坛，各学院于18:40前组织学生观众按要求就位，具体安排为：储建150人，经管150人，理学院150人。",
    "2. 5月31日上午总决赛，各学院组织学生观众200人，于8:00前在体育馆就位。",
])


def test_the_measure_asked_is_the_one_fused_with_the_question_word():
    assert asked_measure("大会议室能坐多少人？") == "人"
    assert asked_measure("储建学院的学生坐哪几排？") == "排"
    assert asked_measure("清单里一共列了多少项收费？") == "项"
    assert asked_measure("第几排是储建的？") == "排"
    # a clock time, a date and a generic count are not read here
    assert asked_measure("几点开始？") == asked_measure("几号报名？") == asked_measure("有多少个单位参加？") == ""
    # which kinds are answered by their names, and things are counted in many measures (多少套 of 围油栏800米)
    assert asked_measure("附带的格式文本里有哪几种表？") == asked_measure("围油栏有多少套？") == ""


def test_a_number_is_in_the_measure_beside_it_after_an_ordinal_or_under_a_label():
    assert gives_measure("会议室可容纳200余人。", "人")
    assert gives_measure("评审专家15名。", "人")  # 名 counts people as 人 does
    assert gives_measure("储建学院：第3-5排。", "排")
    assert gives_measure("人数：200；地点：报告厅", "人")
    assert gives_measure("收费项目：行政审批；金额（元）：3000", "元")
    assert gives_measure("自收到材料之日起7个工作日内办结。", "天")
    assert not gives_measure("最晚应于每周一上午11:30前提出申请，并电话告知工作人员。", "人")
    assert not gives_measure("储建150人，经管150人。", "排")


def test_a_count_of_a_measure_no_line_gives_is_declined_and_one_a_line_gives_is_answered():
    meetings = [source(1, MEETINGS, doc_title="关于会议安排及会议室使用的通知")]
    assert quoted("学院大会议室能坐多少人？", meetings) == []
    audience = [source(1, AUDIENCE, doc_title="关于组织学生观众观看总决赛的通知")]
    assert quoted("主题论坛储建学院的学生坐哪几排？", audience) == []
    assert any("储建150人" in q for q in quoted("主题论坛储建学院去多少人？", audience))


def test_a_yes_or_no_question_is_answered_by_whether_not_declined_for_want_of_the_number():
    lines = MEETINGS.splitlines()
    assert unsaid_measure("会议室最多能坐多少人？", lines)
    assert not unsaid_measure("有没有规定会议室最多坐多少人？", lines)  # whether it says: the lines answer that
