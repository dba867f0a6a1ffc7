"""A day of a schedule asked by its place (kb/answer/day_rows.py): 第二天 is the row of the second date listed."""
from __future__ import annotations

from kb.answer.day_rows import LAST, AskedDay, asked_day, day_fits

HEADER = "日期：；上午：；下午："
SCHEDULE = [(1, 4, "日期：7月14日；上午：开班仪式；下午：分组研讨", HEADER),
            (1, 5, "日期：7月14日；晚上：破冰活动", HEADER),  # a second row of the first day
            (1, 6, "日期：7月15日；上午：示范课观摩；下午：说课训练", HEADER),
            (1, 7, "日期：7月16日；上午：微格教学实训；下午：结业考核", HEADER),
            (1, 8, "报到时间为7月13日下午。", None)]  # a sentence, no row of the table


def test_a_day_is_asked_by_its_place_in_words_or_digits():
    assert asked_day("青年教师培训第二天下午干什么？") == AskedDay(2, "第二天")
    assert asked_day("第3日上午呢") == AskedDay(3, "第3日")
    assert asked_day("最后一天有什么安排") == AskedDay(LAST, "最后一天")
    assert asked_day("最后1日上午") == AskedDay(LAST, "最后1日")  # as kb/search/same_words.py writes 一天
    assert asked_day("首日几点报到") == AskedDay(1, "首日")
    assert asked_day("第十十天") is None  # no numeral
    assert asked_day("收到通知后第5日内提交") is None  # 第5日内 is a time limit, no day of a schedule
    assert asked_day("培训几天？") is None


def test_the_rows_of_the_day_asked_fit_and_the_other_days_rows_do_not():
    assert day_fits(AskedDay(1, "第一天"), SCHEDULE) == {(1, 4): True, (1, 5): True, (1, 6): False, (1, 7): False}
    assert day_fits(AskedDay(2, "第二天"), SCHEDULE) == {(1, 4): False, (1, 5): False, (1, 6): True, (1, 7): False}
    assert day_fits(AskedDay(LAST, "最后一天"), SCHEDULE)[(1, 7)] is True
    assert set(day_fits(AskedDay(5, "第五天"), SCHEDULE).values()) == {False}  # a day past the schedule: no row


def test_a_table_of_one_date_or_of_no_dates_is_no_schedule():
    one = [(2, 0, "日期：7月14日；内容：开班", HEADER), (2, 1, "日期：7月14日；内容：讲座", HEADER)]
    names = [(3, 0, "姓名：张三；电话：0571-1", "姓名：；电话："), (3, 1, "姓名：李四；电话：0571-2", "姓名：；电话：")]
    assert day_fits(AskedDay(2, "第二天"), one + names) == {}
    weekdays = [(4, 0, "时间：星期一；内容：报到", "时间：；内容："), (4, 1, "时间：星期二；内容：上课", "时间：；内容：")]
    assert day_fits(AskedDay(2, "第二天"), weekdays) == {(4, 0): False, (4, 1): True}
