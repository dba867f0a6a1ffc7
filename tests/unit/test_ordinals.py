"""A follow-up that names a place in the previous answer's list (第二个呢？) is asked of that item."""
from __future__ import annotations

import pytest

from kb.answer.followup import ORDINAL, read_question
from kb.answer.ordinals import list_items, ordinal_question, place

# The offline answer to 紫楹台酒店的外部应急通讯录里有哪些单位？ (its table's caption first, then the rows as fields)
UNITS = """（离线抽取模式：以下句子摘自知识库原文，未经大模型改写。）

- 表2  外部应急通讯录 [8]
- 序号：1；单位名称：医疗救护/空军军医大学唐都医院；联系电话：120/029-84777777；备注：社会救援单位 [8]
- 序号：2；单位名称：公安报警；联系电话：110；备注：政府部门 [8]
- 序号：3；单位名称：火警；联系电话：119 [8]

**相关附件**
- 附件5-有关应急部门、机构或人员的联系方式
"""
# A model's answer: a numbered list of sentences
STEPS = """发生火灾时应按以下步骤处置：
1. 立即拨打119报警，说明起火地点 [2]
2. 组织人员沿疏散通道撤离 [2]
3. 使用灭火器扑救初起火灾 [3]
"""
TITLES = ("西安新兴紫楹台酒店有限公司生产安全事故应急预案 紫楹台酒店", "西安喜来登大酒店生产安全事故应急预案")


def test_the_items_of_an_answer_are_its_rows_without_the_caption_or_the_attachment_section():
    items = list_items(UNITS)
    assert [i.name for i in items] == ["医疗救护/空军军医大学唐都医院", "公安报警", "火警"]
    assert items[1].line == "序号：2；单位名称：公安报警；联系电话：110；备注：政府部门"


def test_the_items_of_a_numbered_list_are_named_by_their_first_clause():
    assert [i.name for i in list_items(STEPS)] == ["立即拨打119报警", "组织人员沿疏散通道撤离", "使用灭火器扑救初起火灾"]


@pytest.mark.parametrize(("question", "asked"), [
    ("第二个呢？", "公安报警"),
    ("第三个的电话是多少？", "火警的电话是多少？"),
    ("最后一个的电话是多少？", "火警的电话是多少？"),
    ("那第1家的备注是什么？", "那医疗救护/空军军医大学唐都医院的备注是什么？"),
])
def test_a_place_in_the_list_is_read_as_its_item(question, asked):
    assert ordinal_question(question, UNITS) == asked


@pytest.mark.parametrize("question", [
    "第五个的电话是多少？",  # the list has three items
    "第十一条规定禁止倾倒的废弃物有哪些？",  # a law's article, no place in a list
    "第二类包括哪些？",  # a class
    "火警的电话是多少？",
])
def test_no_place_or_no_such_item_is_no_ordinal_question(question):
    assert ordinal_question(question, UNITS) is None


def test_a_follow_up_by_place_is_asked_of_the_item_in_the_document_the_earlier_question_named():
    before = "紫楹台酒店的外部应急通讯录里有哪些单位？"
    reading = read_question("第三个的电话是多少？", [before], TITLES, answer=UNITS)
    assert reading.how == ORDINAL and reading.continues == before
    assert reading.standalone == "紫楹台火警的电话是多少？"  # 酒店 is in both titles: 紫楹台 names the plan


def test_without_the_previous_answer_a_place_is_read_as_before():
    reading = read_question("第二类呢？", ["危险废物分为几类？第二类包括哪些？"], TITLES, answer=UNITS)
    assert reading.how != ORDINAL


def test_a_place_after_words_of_the_question_s_own_is_no_place_in_the_previous_answer():
    # 第一部分 of a list the question names; 第二个仓库 of a place the question names: neither points into the answer
    assert place("《管制清单》第一部分包括哪些导弹和运载系统？") is None
    assert place("西岭街道第二个仓库在哪？") is None
    assert place("第一部分有哪些？") is None
    assert all(place(q) for q in ("第二个呢？", "那第三个的数量是多少？", "请问最后一个的电话呢？"))


# The offline answer to 悬挂的国徽直径有哪几种？: the article's lead-in (ending on a colon), then its items
SIZES = """（离线抽取模式：以下句子摘自知识库原文，未经大模型改写。）

- 第十六条 悬挂的国徽由国家指定的企业统一制作，其直径的通用尺度为下列三种： [1]
- （一）一百厘米； [1]
- （二）八十厘米； [1]
- （三）六十厘米。 [1]
"""


def test_a_line_that_introduces_the_list_is_no_item_of_it():
    items = list_items(SIZES)
    assert [i.line for i in items] == ["（一）一百厘米；", "（二）八十厘米；", "（三）六十厘米。"]
    assert "八十厘米" in ordinal_question("第二种是多少厘米？", SIZES)
