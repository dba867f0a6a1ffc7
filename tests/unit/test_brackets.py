"""A tier rule read as a table in prose (kb/answer/brackets.py): the amount a question gives picks its row."""
from __future__ import annotations

import math

from kb.answer.brackets import Amount, Bracket, amounts, bracket_fit, brackets

TIERS = ["职工累计工作已满1年不满10年的，年休假5天；", "已满10年不满20年的，年休假10天；", "已满20年的，年休假15天。"]


def test_an_amount_given_is_read_in_its_measure_and_none_asked_for():
    assert amounts("我工作了12年，每年能休几天年假？") == (Amount(144.0, "个月", "12"),)  # years in months; 几天 asked
    assert amounts("争议金额3万元，受理费多少？") == (Amount(30000.0, "元", "30000"),)  # 3万元 is written 30000元
    assert amounts("服务三至五年的补贴是多少？") == (Amount(48.0, "个月", "3"),)  # a range given: its middle
    assert amounts("工作了十二年") == (Amount(144.0, "个月", "12"),)  # characters read as digits


def test_every_way_a_law_writes_a_bracket():
    assert brackets("已满10年不满20年的") == (Bracket(120.0, 240.0, "个月"),)
    assert brackets("可处以人民币2万元以上10万元以下的罚款") == (Bracket(20000.0, 100000.0, "元"),)
    assert brackets("1001元至50000元的部分") == (Bracket(1001.0, 50000.0, "元"),)
    assert brackets("六个月以上不满一年的，按一年计算") == (Bracket(6.0, 12.0, "个月"),)
    assert brackets("不满六个月的") == (Bracket(-math.inf, 6.0, "个月"),)
    assert brackets("已满20年的") == (Bracket(240.0, math.inf, "个月"),)
    assert brackets("单位应当保证职工享受年休假。") == ()


def test_the_amount_picks_the_row_whose_bracket_holds_it():
    assert [bracket_fit(amounts("工作了12年"), row) for row in TIERS] == [False, True, False]
    assert [bracket_fit(amounts("工作了25年"), row) for row in TIERS] == [False, False, True]
    assert bracket_fit(amounts("工作了12年"), "单位应当保证职工享受年休假。") is None  # no bracket: no row
    assert bracket_fit(amounts("罚了3000元"), TIERS[1]) is None  # another measure: no row of this table
    # every bracket of the row in the amount's measure must hold it: this row is 1–10 years, whatever the 2 months
    assert bracket_fit(amounts("工作了12年"), "累计工作满1年不满10年的职工，请病假累计2个月以上的；") is False


FEES = ["200001元至500000元的部分 按1%－2%交纳", "500001元至1000000元的部分 按0.5%－1%交纳",
        "1000001元以上的部分 按0.25%－0.5%交纳"]


def test_a_sum_said_in_wan_without_its_yuan_is_money():
    assert amounts("50万到100万那档按多少交？") == (Amount(750000.0, "元", "50"),)  # the range's middle, in 元
    assert amounts("五十万到一百万的部分") == (Amount(750000.0, "元", "50"),)
    assert amounts("1.5万的案子") == (Amount(15000.0, "元", "1.5"),)
    assert amounts("10万人参加") == (Amount(100000.0, "人", "100000"),)  # a unit said is kept
    assert amounts("千万不要迟到") == ()  # no number


def test_a_range_question_is_answered_by_its_own_tier_not_the_neighbours():
    assert [bracket_fit(amounts("争议金额50万到100万那档怎么交？"), row) for row in FEES] == [False, True, False]
    assert [bracket_fit(amounts("20万到50万那一档呢？"), row) for row in FEES] == [True, False, False]
