"""A conversation on the bundled corpus: an earlier topic never drowns a new question, a follow-up is answered as
the question it continues (retrieval and the offline answerer alike), and the chain goes on from there."""
from __future__ import annotations

import pytest

from kb.answer.prompts import NO_ANSWER
from tests.conftest import SHARED_CORPUS, needs_shared_corpus
from tests.integration.test_pipeline import turn

EXAMPLES = [  # the chat's own example questions (ui/blocks.py) and what each answer shows
    ("东岭街道有几艘冲锋舟？存放在哪里？", ("3艘", "东岭仓库")),
    ("大型餐饮企业的餐厨垃圾收运费是多少？", ("每桶55元",)),
    ("西岭街道有几艘冲锋舟？存放在哪里？", ("5艘", "西岭防汛站")),
    ("园区公共应急事故池的有效容积是多少？", ("18000",)),
]


@pytest.mark.parametrize(("question", "shown"), EXAMPLES)
def test_an_unrelated_earlier_question_does_not_change_the_answer(service, question, shown):
    first = turn(service, "青禾县人民医院有几辆负压救护车，停在哪里？")
    t = turn(service, question, conversation_id=first["conversation_id"])
    assert NO_ANSWER not in t["content"] and all(s in t["content"] for s in shown), t["content"]
    assert f"检索查询：{question}" in t["thinking"] and "负压救护车" not in t["thinking"]


def test_a_follow_up_answers_as_the_question_it_continues_and_the_next_continues_it(service):
    first = turn(service, "东岭街道有几艘冲锋舟？存放在哪里？")
    west = turn(service, "西岭街道呢？", conversation_id=first["conversation_id"])
    assert "5艘" in west["content"] and "西岭防汛站" in west["content"] and "东岭仓库" not in west["content"]
    assert "追问（省略）" in west["thinking"] and "读作“西岭街道有几艘冲锋舟？存放在哪里？”" in west["thinking"]
    vests = turn(service, "救生衣呢？", conversation_id=first["conversation_id"])
    assert "220件" in vests["content"] and "150件" not in vests["content"]  # still 西岭: the chain goes on
    stored = [m for m in service.history.messages(first["conversation_id"]) if m.role == "user"]
    assert [m.content for m in stored] == ["东岭街道有几艘冲锋舟？存放在哪里？", "西岭街道呢？", "救生衣呢？"]
    assert stored[2].extra["standalone"] == "西岭街道有几艘救生衣？存放在哪里？"


def test_a_follow_up_without_a_subject_and_one_by_pronoun(service):
    first = turn(service, "东岭中学体育馆可以安置多少人？")
    who = turn(service, "它的负责人是谁？", conversation_id=first["conversation_id"])
    assert "方志远" in who["content"] and "追问（指代）" in who["thinking"]
    pumps = turn(service, "西岭街道有几台移动排水泵？")
    where = turn(service, "存放在哪里？", conversation_id=pumps["conversation_id"])
    assert "西岭防汛站" in where["content"] and "追问（缺主语）" in where["thinking"]


def test_a_follow_up_the_corpus_cannot_answer_declines(service):
    first = turn(service, "东岭街道有几艘冲锋舟？存放在哪里？")
    t = turn(service, "无人机呢？", conversation_id=first["conversation_id"])
    assert NO_ANSWER in t["content"] and t["docs"] == [] and "冲锋舟" not in t["content"].split("\n")[-1]


# --- follow-ups on the real documents of ../shared/corpus (documents nobody here wrote) ------------------------------

@needs_shared_corpus
@pytest.mark.parametrize(("earlier", "question", "shown"), [
    ("企业突发环境事件风险评估中，甲醛的临界量是多少吨？", "那氨呢？", ["氨 7664-41-7 7.5"]),
    ("金刚石和石墨属于哪一类矿产？", "那矿泉水和二氧化碳气呢？", ["水气矿产"]),  # a coordinated phrase for another
    ("争议金额在1000元以下的部分，仲裁案件受理费是多少？", "1000001元以上的部分呢？", ["按0.25%－0.5%交纳"]),
    ("紫楹台酒店共有多少个消火栓？", "灭火器呢？", ["360"]),
    ("西安喜来登大酒店的应急救援指挥部下设几个应急救援小组？", "紫楹台酒店呢？", ["5个应急救援小组"]),  # named by its cover
    ("酒店发生人员受伤需要外部医疗救护时，应联系哪家医院？", "电话是多少？", ["029-84777777"]),
    ("铅及其化合物的废弃物属于海洋倾废管理条例哪个附件？", "它向海洋倾倒需要什么许可证？", ["铅及其化合物"]),
    ("企业突发环境事件风险评估中，甲醛的临界量是多少吨？", "该清单一共规定了多少种化学物质？", ["310 种（类）"]),
])
def test_a_follow_up_on_real_documents_answers_as_the_question_it_continues(real, earlier, question, shown):
    first = turn(real, earlier)
    t = turn(real, question, conversation_id=first["conversation_id"])
    assert "追问" in t["thinking"] and all(s in t["content"] for s in shown), t["content"]


@pytest.mark.parametrize(("first", "between", "question", "shown", "not_shown"), [
    ("东岭街道有几艘冲锋舟？存放在哪里？", "医院配置了多少具消防过滤式自救呼吸器？", "西岭街道呢？", ("5艘", "西岭防汛站"),
     "东岭仓库"),
    ("东岭街道有几艘冲锋舟？存放在哪里？", "转移ICU患者时每名危重患者至少由几名医护人员护送？", "救生衣呢？",
     ("150件", "东岭仓库"), "220件"),
    # the question between names a document too, but asks about its own subject: nothing of it is 西岭街道's
    ("东岭街道有几艘冲锋舟？存放在哪里？", "餐厨垃圾如何处理？", "西岭街道呢？", ("5艘", "西岭防汛站"), "东岭仓库"),
    ("西岭街道防汛站在哪里？", "餐厨垃圾如何处理？", "它的电话呢？", ("0571-86502188",), "餐厨垃圾"),
])
def test_a_follow_up_leans_on_the_question_it_continues_past_an_unrelated_one(service, first, between, question,
                                                                              shown, not_shown):
    opened = turn(service, first)
    turn(service, between, conversation_id=opened["conversation_id"])
    t = turn(service, question, conversation_id=opened["conversation_id"])
    assert all(s in t["content"] for s in shown) and not_shown not in t["content"], t["content"]
    assert f"接前第 2 问“{first}”" in t["thinking"]


@needs_shared_corpus
def test_a_follow_up_on_a_real_table_leans_past_a_question_on_another_document(real):
    first = turn(real, "紫楹台酒店的灭火器存放在哪里？")
    turn(real, "司法建议书的尾部包括哪些内容？", conversation_id=first["conversation_id"])
    t = turn(real, "消防服呢？", conversation_id=first["conversation_id"])
    assert "消防服" in t["content"] and "一楼大厅" in t["content"], t["content"]


@needs_shared_corpus
@pytest.mark.parametrize(("earlier", "question", "shown", "not_shown"), [
    ("紫楹台酒店应急物资清单里有哪些物资？", "第三个的数量是多少？", "应急物资：应急广播；数量：186", "消火栓"),
    ("紫楹台酒店的外部应急通讯录里有哪些单位？", "第二个呢？", "单位名称：公安报警；联系电话：110", "火警"),
])
def test_a_follow_up_by_place_answers_for_that_item_of_the_previous_answer(real, earlier, question, shown, not_shown):
    first = turn(real, earlier)
    t = turn(real, question, conversation_id=first["conversation_id"])
    assert "追问（序数指代）" in t["thinking"], t["thinking"]
    assert shown in t["content"] and not_shown not in t["content"].split("**相关附件**")[0], t["content"]
