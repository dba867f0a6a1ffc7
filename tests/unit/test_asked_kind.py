"""A question word asks for a kind of value (在哪里: a place); a notice gives it under a label (比赛地点：…)."""
from __future__ import annotations

from kb.answer.asked_kind import asked_kinds, completing, gives
from kb.answer.followup import NO_SUBJECT, read_question
from kb.answer.units import read_units
from tests.unit.test_answer_reading import quoted, source

# A contest's notice, as such notices are written: numbered sections of `label：value` lines
NOTICE = "\n".join([
    "2017全国青少年舞蹈比赛竞赛规程",
    "一、比赛日期：2017年8月19、20日（18日报到，21日返程）",
    "二、比赛地点：上海市奉贤中学（上海市奉贤区南奉公路7058号）",
    "三、参赛费用：",
    "1、单人组报名费为200元/人。",
    "2、请各参赛单位于7月15日前将报名费汇至：",
    "户名：上海市青少年活动中心",
    "帐户：31630803002787384",
    "开户行名称：上海银行闸北支行",
    "四、联系方式",
    "联系人：褚晓宇",
    "报名材料请发送至邮箱wudao2017@163.com，逾期不予受理。",
])
TITLE = "2017全国青少年舞蹈比赛竞赛规程"


def test_a_question_word_asks_for_a_kind_and_a_labelled_line_or_a_shaped_value_gives_it():
    place = asked_kinds("舞蹈比赛在哪里比？")
    assert gives("二、比赛地点：上海市奉贤中学", place) and not gives("一、比赛日期：2017年8月19日", place)
    when = asked_kinds("比赛什么时候开始？")
    assert gives("一、比赛日期：2017年8月19日", when)
    # a bracket ends no label: 场所 inside a project's name is no place given
    assert not gives("对宿舍楼生活环境和公共场所升级改造工程（项目编号：LNZC2019）进行磋商", place)
    assert gives("报名材料请发送至邮箱wudao2017@163.com", asked_kinds("报名材料发到哪个邮箱？"))
    assert not asked_kinds("单人组报名费多少钱？")


def test_a_labelled_line_completes_the_line_above_that_ends_in_a_colon():
    units = [(None, i, u.text) for i, u in enumerate(read_units(NOTICE))]
    texts = [u[2] for u in units]
    completed = completing(units)
    assert completed[texts.index("帐户：31630803002787384")] == "2、请各参赛单位于7月15日前将报名费汇至："
    assert texts.index("联系人：褚晓宇") not in completed  # under a heading, not a line it completes


def test_the_line_that_gives_the_kind_asked_answers():
    sources = [source(1, NOTICE, doc_title=TITLE)]
    # 账户 is written 帐户: the account line, read by its head 户 (kb/answer/rewording.py), comes first; the payee's
    # name and bank complete it
    account = quoted("舞蹈比赛的报名费打到哪个账户？", sources)
    assert account[0] == "帐户：31630803002787384" and "户名：上海市青少年活动中心" in account, account
    assert any("wudao2017@163.com" in q for q in quoted("舞蹈比赛的报名材料发到哪个邮箱？", sources))


def test_a_contact_detail_asked_alone_continues_the_earlier_question():
    reading = read_question("联系人是谁？", ["提升班的推荐表几号前交、发到哪个邮箱？"], ("绍兴市优秀青年教师综合素质提升班的通知",))
    assert reading.how == NO_SUBJECT and reading.standalone == "提升班联系人是谁？"


def test_a_deadline_is_the_day_before_which_and_the_words_that_ask_for_it_weigh_nothing():
    deadline = asked_kinds("报名费最晚哪天交？")
    assert gives("2、请各参赛单位于7月15日前将报名费汇至：", deadline)
    assert gives("报名截止到2017年7月20日。", deadline) and gives("请于七月十日17:00之前提交。", deadline)
    assert not gives("一、比赛日期：2017年8月19、20日（18日报到，21日返程）", asked_kinds("报名最迟要多久之前？"))
    # 最晚 asks for the deadline, and the notice never writes it: the sentence that gives the day answers
    quoted_lines = quoted("参赛的报名费最晚哪天交？", [source(1, NOTICE, doc_title=TITLE)])
    assert "2、请各参赛单位于7月15日前将报名费汇至：" in quoted_lines, quoted_lines
