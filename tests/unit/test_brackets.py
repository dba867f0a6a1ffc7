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


# A size standard's rows, flattened as kb/answer/flat_tables.py reads a table (header：cell；…): one end of a bracket
# per clause, words or signs, and cells whose unit only their column's header names.
SIZES = ["企业类型：中型企业；从业人员（人）：100人及以上，300人以下；营业收入（万元）：2000万元及以上，40000万元以下",
         "企业类型：小型企业；从业人员（人）：20及以上，100以下；营业收入（万元）：300（含）以上，2000以下",
         "企业类型：微型企业；从业人员（人）：20人以下；营业收入（万元）：300万元以下"]


def test_a_tables_cells_bound_each_end_in_words_signs_or_their_headers_unit():
    assert brackets(SIZES[0]) == (Bracket(100.0, math.inf, "人"), Bracket(20_000_000.0, math.inf, "元"),
                                  Bracket(-math.inf, 300.0, "人"), Bracket(-math.inf, 400_000_000.0, "元"))
    assert set(brackets(SIZES[1])) == {Bracket(20.0, math.inf, "人"), Bracket(-math.inf, 100.0, "人"),
                                       Bracket(3_000_000.0, math.inf, "元"), Bracket(-math.inf, 20_000_000.0, "元")}
    assert brackets("指标：从业人员；中型：300人≤X＜1000人") == (Bracket(300.0, 1000.0, "人"),)
    assert brackets("不少于20人的") == (Bracket(20.0, math.inf, "人"),)  # 不少于 bounds from below
    assert brackets("月收入不超过5000元的") == (Bracket(-math.inf, 5000.0, "元"),)  # and 不超过 from above
    assert brackets("从业人员（人）：300以下；备注：以2023年为准") == (Bracket(-math.inf, 300.0, "人"),)  # a year is no 人


def test_the_amounts_a_question_gives_pick_the_row_that_holds_them_all():
    given = amounts("我们公司有50个人，营业收入800万，算什么规模的企业？")  # 50个人 is 50 people; 800万 is money
    assert given == (Amount(50.0, "人", "50"), Amount(8_000_000.0, "元", "800"))
    assert [bracket_fit(given, row) for row in SIZES] == [False, True, False]
    assert [bracket_fit(amounts("公司150人"), row) for row in SIZES] == [True, False, False]


def test_a_bound_the_question_puts_on_its_amount_reads_just_inside_it():
    # 不到20人 / 20人以下 is the row "20人以下", not the row starting at 20; 超过100人 / 100人以上 the row above 100
    for question, row in (("不到20人的企业补贴多少", 2), ("20人以下的企业", 2), ("超过100人的", 0), ("100人以上的企业", 0)):
        assert [bracket_fit(amounts(question), r) for r in SIZES] == [i == row for i in range(3)], question
    assert amounts("不超过100人")[0].value == 100.0  # 不超过 holds the number itself


def test_a_bound_on_a_sum_steps_one_whole_unit_inside_it_as_tiers_are_written():
    # 1000元以下 / 1001元至50000元 / … / 1000001元以上: 超过100万的部分 is the last row, not the one ending at 100万
    assert [bracket_fit(amounts("超过100万的部分呢？"), row) for row in FEES] == [False, False, True]
    assert amounts("不足0.5%的")[0].value == 0.4  # a decimal steps by its last digit
