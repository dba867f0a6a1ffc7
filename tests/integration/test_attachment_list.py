"""Asked which attachments a document has, the graph's catalog answers: a pre-split plan's body lists none."""
from __future__ import annotations

from kb.answer.attachment_list import asks_attachment_list
from tests.integration.test_pipeline import turn


def test_a_presplit_plans_attachments_are_listed_from_the_catalog(service):
    # 滨江物流园's attachments are separate files: its body cites 附件5 and 附件2 but lists none of them
    t = turn(service, "滨江物流园的应急预案有哪些附件？")
    assert "共有 5 个附件" in t["content"], t["content"]
    assert "- 附件2：危险货物运输车辆清单" in t["content"] and "- 附件5：应急物资及装备清单" in t["content"]
    assert "附件1" in {item.label for item in t["attachments"]}


def test_a_question_about_one_attachment_or_its_content_is_no_list_question():
    assert asks_attachment_list("东岭街道防汛应急预案有几个附件？") and asks_attachment_list("通知附了什么材料？")
    assert not asks_attachment_list("附件3里有什么？") and not asks_attachment_list("报名表在哪个附件里？")
    assert not asks_attachment_list("附件里说了啥？") and not asks_attachment_list("预案里附了哪些平面图和疏散图？")


def test_a_guides_appendices_are_counted_as_appendices(real):
    t = turn(real, "风险评估指南有哪些附录？", library_ids=("real",))
    assert "共有 4 个附录" in t["content"] and "- 附录B：突发环境事件风险物质及临界量清单" in t["content"], t["content"]


def test_an_answer_about_one_named_appendix_brings_only_that_one(real):
    # the guide's contents line names 附录A–D; the question asks for C, and the hop brings C alone
    t = turn(real, "风险评估指南附录C是什么？", library_ids=("real",))
    section = t["content"].split("**相关附件**", 1)[1].split("**相关附件内容", 1)[0]
    assert "附录C" in section and "附录A" not in section and "附录D" not in section, t["content"]
    assert {item.label for item in t["attachments"] if item.resolved} == {"附录C"}
