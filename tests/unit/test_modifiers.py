"""A follow-up that names another value of what the earlier question measured or ranked (那300毫升的呢？ 那一等的呢？)
asks the same of that value, the thing it modifies kept; 它/他 after "X中Y是谁" is Y, found in X."""
from __future__ import annotations

import pytest

from kb.answer.followup import ELLIPSIS, ANAPHORA, read_question
from kb.answer.modifiers import swap_modifier

TITLES = ("东岭街道防汛应急预案", "西安喜来登大酒店生产安全事故应急预案", "关于做好2024年本科生国家奖助学金评审工作的通知")


@pytest.mark.parametrize(("earlier", "question", "asked"), [
    ("东岭仓库里500毫升的矿泉水有多少箱？", "那300毫升的呢？", "东岭仓库里300毫升的矿泉水有多少箱？"),
    ("二等国家助学金是多少钱？", "那一等的呢？", "一等国家助学金是多少钱？"),
    ("二等国家助学金是多少钱？", "三等呢？", "三等国家助学金是多少钱？"),
    ("第二届立法会分区直接选举的议员有几个？", "第三届呢？", "第三届立法会分区直接选举的议员有几个？"),
])
def test_another_value_of_the_same_unit_takes_the_place_of_the_earlier_one(earlier, question, asked):
    reading = read_question(question, [earlier], TITLES)
    assert (reading.standalone, reading.how) == (asked, ELLIPSIS)


@pytest.mark.parametrize(("what", "before"), [
    ("西岭街道", "东岭街道有几艘冲锋舟？"),  # no value: the elided thing is the follow-up reader's
    ("300毫升", "东岭仓库有多少箱矿泉水？"),  # the earlier question has no value of that unit
    ("3吨", "储罐容量是500毫升吗？"),  # another unit
])
def test_a_phrase_that_is_no_value_of_the_earlier_questions_unit_is_left_alone(what, before):
    assert swap_modifier(what, before) is None


@pytest.mark.parametrize(("earlier", "question", "asked"), [
    ("喜来登酒店应急通讯录中总指挥是谁？", "它的电话是多少？", "喜来登酒店应急通讯录中总指挥的电话是多少？"),
    ("东岭街道防汛指挥部中指挥长是谁？", "他的手机号呢？", "东岭街道防汛指挥部中指挥长的手机号是多少？"),
])
def test_it_after_x_zhong_y_is_y_read_with_the_place_it_was_found_in(earlier, question, asked):
    reading = read_question(question, [earlier], TITLES)
    assert (reading.standalone, reading.how) == (asked, ANAPHORA)


@pytest.mark.parametrize(("earlier", "question", "asked"), [
    ("大型餐饮企业的餐厨垃圾收运费是多少？", "那小型的呢？", "小型餐饮企业的餐厨垃圾收运费是多少？"),
    ("大型餐饮企业的餐厨垃圾收运费是多少？", "中型呢？", "中型餐饮企业的餐厨垃圾收运费是多少？"),
    ("公办幼儿园每月的保育费是多少？", "民办的呢？", "民办幼儿园每月的保育费是多少？"),  # 的 marks a modifier
    ("国有企业职工的生活补贴标准是多少？", "那民营的呢？", "民营企业职工的生活补贴标准是多少？"),  # 国有 inside 国有企业
])
def test_an_attribute_takes_the_place_of_the_earlier_questions_attribute_of_its_kind(earlier, question, asked):
    reading = read_question(question, [earlier], TITLES)
    assert (reading.standalone, reading.how) == (asked, ELLIPSIS)


@pytest.mark.parametrize(("what", "before"), [
    ("救生衣", "东岭街道有几艘冲锋舟？"),  # a thing, written without 的: the follow-up reader's to substitute
    ("小型", "餐饮企业的餐厨垃圾收运费是多少？"),  # no attribute of that kind to replace
    ("小型", "大型和中型餐饮企业的收运费各是多少？"),  # two it could replace
])
def test_an_attribute_with_nothing_or_more_than_one_to_replace_is_left_alone(what, before):
    assert swap_modifier(what, before) is None
