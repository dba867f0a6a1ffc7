"""One way of writing a thing (kb/search/same_words.py): a question in everyday words finds the law's wording."""
from __future__ import annotations

import pytest

from kb.answer.offline import ExtractiveAnswerer
from kb.answer.question import asked_for, asks
from kb.search.same_words import numeral_value, same_words
from kb.search.tokens import tokenize
from kb.turn import Source


@pytest.mark.parametrize("written, value", [
    ("十五", 15), ("二十", 20), ("十", 10), ("两", 2), ("一百五", 150), ("一百零五", 105), ("两千零五", 2005),
    ("一九八五", None), ("万", None), ("百", None),
])
def test_a_number_in_characters_has_its_value(written, value):
    assert numeral_value(written) == value


@pytest.mark.parametrize("asked, law", [
    ("季度结束后十五天内", "季度终了之日起15日内"),  # 天 and 日, characters and digits
    ("住了三个多月", "累计居留九十日以上"),  # whole months of days, and 多 as 以上
    ("半年内", "六个月内"),
    ("不到一角钱", "应纳税额不足1角的"),
    ("低于标准百分之五十", "低于标准50%"),
    ("驾照", "机动车驾驶证"),
    ("醉驾", "醉酒驾驶机动车"),
    ("科目一考试及格", "成绩达到90分的为合格"),
    ("什么时候开始实施", "本法自2018年1月1日起施行"),
    ("这部条例什么时候生效", "本条例自公布之日起施行"),
    ("全国人大常委会", "全国人民代表大会常务委员会"),
    ("哪些情形不用交环保税", "下列情形，暂予免征环境保护税："),  # waived is not paid, whoever's side says it
    ("税款晚交了会怎样", "纳税人逾期缴纳税款的，按日加收滞纳金"),
    ("每个季度什么时候报税", "纳税人按季申报纳税的"),
])
def test_the_everyday_wording_shares_its_words_with_the_law(asked, law):
    shared = set(tokenize(asked)) & set(tokenize(law))
    key = {"季度结束后十五天内": "15", "住了三个多月": "以上", "半年内": "6", "不到一角钱": "不足", "低于标准百分之五十": "50%",
           "驾照": "驾驶证", "醉驾": "醉酒", "科目一考试及格": "合格", "什么时候开始实施": "施行",
           "这部条例什么时候生效": "施行", "全国人大常委会": "常务",
           "哪些情形不用交环保税": "免纳", "税款晚交了会怎样": "逾期", "每个季度什么时候报税": "申报"}[asked]
    assert key in shared, (tokenize(asked), tokenize(law))


def test_a_date_and_words_that_only_look_like_numbers_keep_their_writing():
    assert same_words("2018年1月30日") == "2018年1月30日"  # a date's day is no length of time
    assert same_words("第三章 统一规定，一般情形") == "第三章 统一规定，一般情形"
    assert same_words("万人") == "万人"
    assert same_words("3个月") == "3个月"


def test_handing_something_in_late_is_no_late_payment():
    assert "逾期" not in same_words("材料晚交给学校的")  # 交给: handed to someone, not paid


def test_a_question_in_the_laws_own_word_finds_the_clause_that_writes_it_before_one_made_equal():
    # 不缴纳 and 免征 are both 免纳 to the table; 暂时免征 asks for the clause that says 免征
    exempt = "\n".join(["第十二条 下列情形，暂予免征环境保护税：", "（一）农业生产（不包括规模化养殖）排放应税污染物的；",
                        "（二）机动车、铁路机车、船舶和航空器等流动污染源排放应税污染物的；"])
    outside = "\n".join(["第四条 有下列情形之一的，不属于直接向环境排放污染物，不缴纳相应污染物的环境保护税：",
                         "（一）企业事业单位和其他生产经营者向依法设立的污水集中处理场所排放应税污染物的；"])
    sources = [_law(1, outside), _law(2, exempt)]
    answer = [c.text for c in ExtractiveAnswerer().select_parts("哪些情形暂时免征环境保护税？", sources)]
    assert answer and answer[0].startswith("第十二条"), answer
    assert "（一）农业生产（不包括规模化养殖）排放应税污染物的；" in answer, answer


def test_a_vague_noun_in_the_question_names_nothing_a_line_must_hold():
    text = "\n".join(["三、报名方式", "参赛学生报名时须提交以下材料：", "1．学生证复印件；", "2．参赛作品一份；",
                      "3．指导教师推荐意见。"])
    answer = [c.text for c in ExtractiveAnswerer().select_parts("报名要提交哪些东西？", [_law(1, text, "作文比赛的通知")])]
    assert "1．学生证复印件；" in answer and "3．指导教师推荐意见。" in answer, answer


def _law(n: int, text: str, title: str = "中华人民共和国环境保护税法") -> Source:
    return Source(n, "d1", title, "lib", "", "", text, ((0, len(text)),), (f"c{n}",), 1.0)


def test_what_a_list_question_counts_ends_where_its_predicate_begins():
    assert asked_for("哪些凭证暂时免征印花税？")[0] == [{"凭证"}]
    assert asked_for("哪些凭证不用交印花税？")[0] == [{"凭证"}]
    assert asked_for("有哪些单位不能申请？")[0] == [{"单位"}]
    assert asked_for("有哪些情形不能申请驾驶证？")[0] == []  # 情形 names the kind of answer: no item says it
    assert asked_for("哪些外部救援电话？")[0] == [{"外部", "救援"}]  # a verbal noun stays in the phrase
    assert asked_for("科目一没考过能补考几次？")[0] == [{"补考"}]  # a count of times counts the act


def test_everyday_words_for_who_works_and_when_are_the_labour_rules():
    assert "职工" in set(tokenize("新来的员工有没有年休假")) & set(tokenize("职工连续工作1年以上的，享受带薪年休假"))
    for asked in ("学生来例假的时候能上体育课吗", "生理期能游泳吗", "月经期有什么要注意的"):
        assert "经期" in tokenize(asked), tokenize(asked)
    assert "孕期" in tokenize("怀孕期间可以出差吗")


def test_which_day_of_the_month_asks_when_but_a_numbered_thing_keeps_its_number():
    assert same_words("回执几号前寄回") == "回执什么时候前寄回"
    assert same_words("几号楼在哪里") == "几号楼在哪里"
    assert same_words("坐几号线到会场") == "坐几号线到会场"


def test_a_count_of_stripes_or_stars_is_a_question_word_with_its_measure():
    # 几道横线几颗五角星: 道 and 颗 count lines and stars as 枚 counts a badge's; the fused word is no word of a text
    assert "几道" not in tokenize("臂章上印几道横线几颗五角星") and "几颗" not in tokenize("臂章上印几道横线几颗五角星")
    assert asks("臂章上印几道横线几颗五角星").quantity
