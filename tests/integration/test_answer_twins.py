"""Twin plans of one template, end to end (real Kuzu and Chroma): the plan whose attachment holds the answer answers,
not the twin whose table was lost, and a question naming one plan by its cover is not answered from the other."""
from __future__ import annotations

import pytest

from kb.answer.prompts import NO_ANSWER
from tests.integration.test_answerer import _served, ask

PLAN = "\n".join([
    "{cover}",
    "生产安全事故应急预案",
    "",
    "一、物资装备保障",
    "酒店应配备一定的应急物资装备和防护用品，应急物资配备明细见附件4。",
    "",
    "附件4：应急物资清单",
    "{rows}",
])
TWINS = {
    "甲酒店预案.txt": PLAN.format(cover="西安甲子酒店有限公司", rows=""),  # the table was lost: its title only
    "乙酒店预案.txt": PLAN.format(cover="西安乙丑酒店有限公司", rows="\n".join([
        "| 序号 | 应急物资 | 数量 | 单位 | 存放地点 |",
        "| 1 | 消火栓 | 118 | 个 | 酒店内 |",
        "| 2 | 灭火器 | 360 | 具 | 酒店内 |",
        "| 3 | 消防服 | 5 | 件 | 一楼大厅 |",
    ])),
}


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    yield from _served(tmp_path_factory, TWINS, "hotels")


def test_a_question_naming_no_plan_is_answered_by_the_plan_whose_attachment_holds_content(twins):
    t = ask(twins, "正文说“应急物资配备明细见附件4”，酒店一共配备了多少具灭火器？")
    assert "360" in t["quoted"] and "只有标题" not in t["answer"], t["answer"]


def test_a_plan_named_by_its_cover_is_not_answered_from_its_twin(twins):
    t = ask(twins, "乙丑酒店的消防服存放在哪里？")
    assert "一楼大厅" in t["quoted"], t["answer"]
    t = ask(twins, "甲子酒店的消防服存放在哪里？")
    assert "一楼大厅" not in t["quoted"], t["answer"]
