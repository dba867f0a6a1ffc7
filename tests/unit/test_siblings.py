"""A kind the question names that the sources list siblings of, never it (kb/answer/siblings.py)."""
from __future__ import annotations

from kb.answer.siblings import missing_kind

SIZES = ["企业规模：中型企业；每名参保职工补贴（元）：500", "企业规模：小型企业；每名参保职工补贴（元）：800",
         "企业规模：微型企业；每名参保职工补贴（元）：1000"]


def test_a_kind_of_which_only_siblings_are_written_is_missing():
    assert missing_kind("大型企业每名职工补贴多少？", SIZES) == "大型"
    assert missing_kind("小型企业每名职工补贴多少？", SIZES) == ""  # written
    assert missing_kind("大型企业补贴多少？", SIZES[:1]) == ""  # one other kind is a mention, not a list of kinds
    assert missing_kind("大型企业补贴多少？", ["中型活动", "小型活动"]) == ""  # siblings of another head
    assert missing_kind("第几类易制毒？", ["第一类易制毒", "第二类易制毒", "第三类易制毒"]) == ""  # asks which kind
