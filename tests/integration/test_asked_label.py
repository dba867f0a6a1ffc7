"""A question that names an attachment by its label (附件6是什么) is answered by that attachment, found in the graph by
key before the answer: the body never cites 附件6, so no reference leads there (graph/prefetch.py)."""
from __future__ import annotations

from kb.labels import asked_labels
from tests.integration.test_pipeline import turn

SHERATON = "zh_plan_sheraton_xian_2024.txt"


def test_the_labels_a_question_names_are_read_normalized():
    assert asked_labels("附件六、附录C是什么？") == ("附件6", "附录C")
    assert asked_labels("喜来登预案附件6里有哪些表") == ("附件6",) and asked_labels("有哪些附件？") == ()


def test_an_attachment_asked_by_its_label_is_fetched_and_quoted(real):
    t = turn(real, "喜来登预案附件6是什么？", library_ids=("real",))
    assert "事故信息发布表" in t["content"] and "预案衔接" not in t["content"], t["content"]  # not 附件3's lines
    asked = [p for p in t["paths"] if p.stage == "question"]
    assert [step.label for step in asked[0].steps] == ["问题·附件6", "附件6 格式文本"]


def test_the_nth_of_a_listed_set_of_attachments_is_that_attachment(real):
    listed = turn(real, "喜来登预案有哪些附件？", library_ids=("real",))
    assert "《西安喜来登大酒店生产安全事故应急预案》共有 8 个附件" in listed["content"], listed["content"]  # not its twin's
    assert "- 附件6：格式文本" in listed["content"]
    t = turn(real, "第六个是什么？", library_ids=("real",), conversation_id=listed["conversation_id"])
    assert "事故信息发布表" in t["content"], t["content"]
