"""A contract template's clause whose value is left for the filler (单价为＿＿元) does not answer 单价是多少; a clause
that writes its value (按日万分之五) still does, blanks elsewhere in it notwithstanding."""
from __future__ import annotations

import pytest

from kb.answer.blank_slots import leaves_blank
from kb.answer.offline import ExtractiveAnswerer
from kb.answer.prompts import OFFLINE_NO_ANSWER
from kb.turn import Source

LEASE = "\n".join([
    "房屋租赁合同（示范文本）",
    "第三条 租金及支付方式",
    "3.1 该房屋月租金单价为＿＿＿元/平方米，月租金合计＿＿＿＿元（大写：人民币＿＿＿＿＿＿）。",
    "3.2 租金按每＿＿个月为一期支付，承租方应在＿＿＿＿年＿＿月＿＿日前支付第一期租金。",
    "3.3 承租方逾期支付租金的，每逾期一日，应按欠付金额的万分之五向出租方支付违约金。",
    "第四条 押金",
    "4.1 押金金额为____元，合同期满无违约的，出租方于退租后10个工作日内无息退还。",
    "第五条 物业管理",
    "5.1 物业服务费由承租方承担，收费标准为每月每平方米3.5元。",
])


def _source(text: str) -> Source:
    return Source(1, "lease", "房屋租赁合同（示范文本）", "lib", "", "", text, ((0, len(text)),), ("c1",), 1.0)


@pytest.mark.parametrize("text, asked", [
    ("该房屋月租金单价为＿＿＿元/平方米", ["租金", "单价"]),
    ("押金金额为____元，合同期满无违约的", ["押金", "金额"]),
    ("联系人：　　　　联系电话：　　　　", ["联系人"]),
    ("签约日期（      ）", ["签约日期"]),
])
def test_a_word_followed_by_the_fillers_space_leaves_the_value_blank(text, asked):
    assert leaves_blank(text, asked)


@pytest.mark.parametrize("text, asked", [
    ("应在＿＿＿＿年＿＿月＿＿日前支付，逾期按欠付金额的万分之五支付违约金", ["违约金"]),
    ("收费标准为每月每平方米3.5元，租金单价为＿＿元", ["收费标准"]),
    ("每逾期一日，应按欠付金额的万分之五向出租方支付违约金", ["违约金", "金额"]),
])
def test_a_value_written_after_the_word_is_no_blank(text, asked):
    assert not leaves_blank(text, asked)


@pytest.mark.parametrize("question", ["租金单价是多少？", "押金是多少钱？"])
def test_the_template_does_not_give_a_value_it_leaves_blank(question):
    assert ExtractiveAnswerer().answer(question, [_source(LEASE)]) == OFFLINE_NO_ANSWER


@pytest.mark.parametrize("question, value", [
    ("物业服务费每平方米多少钱？", "3.5元"),
    ("逾期交租金的违约金按多少算？", "万分之五"),
])
def test_the_values_the_template_writes_still_answer(question, value):
    answer = ExtractiveAnswerer().answer(question, [_source(LEASE)])
    assert value in answer
