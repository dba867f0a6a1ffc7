"""The 相关附件 section extractor on the answer variants models actually write."""
from __future__ import annotations

import pytest

from kb.answer.section import extract_section

ANSWER = "园区值班电话为029-8637-1190[1]。"


@pytest.mark.parametrize(
    ("section", "expected"),
    [
        ("**相关附件**\n- 附件2-应急指挥部成员及24小时值班电话", [("附件2", "应急指挥部成员及24小时值班电话")]),
        ("相关附件：\n附件11-应急监测方案", [("附件11", "应急监测方案")]),
        ("相关附件：附件11-应急监测方案", [("附件11", "应急监测方案")]),
        ("### 相关附件\n1. 附件4：应急物资清单\n2. 附件5：应急响应流程", [("附件4", "应急物资清单"), ("附件5", "应急响应流程")]),
        ("**相关附件：**\n* 附件十一-应急监测方案", [("附件11", "应急监测方案")]),
        ("【相关附件】\n- 附件 11 应急监测方案", [("附件11", "应急监测方案")]),
        ("**相关附件**\n- 附件2-通讯录-[6650f1a2c3](CITE)", [("附件2", "通讯录")]),
        ("**相关附件**\n- 附件2-通讯录 [1][3]", [("附件2", "通讯录")]),
        ("**相关附件**\n- 附件2-通讯录\n- 附件二：通讯录\n- 附件2", [("附件2", "通讯录")]),
        ("**相关附件**\n（1）附录B 风险物质临界量\n（2）附表一 收费标准", [("附录B", "风险物质临界量"), ("附表1", "收费标准")]),
        ("**相关附件**：附件4-应急物资清单、附件5-应急响应流程", [("附件4", "应急物资清单"), ("附件5", "应急响应流程")]),
        ("**相关附件**：附件1-厂区平面布置图、附图2-疏散路线图", [("附件1", "厂区平面布置图"), ("附图2", "疏散路线图")]),
        ("相关附件：附件1.2-检查汇总表；附件一（1）-项目申报书", [("附件1-2", "检查汇总表"), ("附件1-1", "项目申报书")]),
        ("**相关附件**\n- 应急物资清单", [(None, "应急物资清单")]),
        ("**相关附件**\n- 无", []),
        ("**相关附件**\n\n- 附件3-1：重点企业风险单元", [("附件3-1", "重点企业风险单元")]),
        ("相关附件︰\n• 附件7-信息报告表。", [("附件7", "信息报告表")]),
    ],
)
def test_section_variants(section, expected):
    lines = extract_section(f"{ANSWER}\n\n{section}\n")
    assert [(line.label, line.title) for line in lines] == expected


def test_no_section_no_lines():
    assert extract_section("值班电话见附件2。") == []


def test_the_last_section_counts_and_text_after_it_ends_it():
    answer = "**相关附件**\n- 附件1-旧\n\n正文继续。\n\n**相关附件**\n- 附件2-新\n\n以上仅供参考。"
    assert [line.label for line in extract_section(answer)] == ["附件2"]


def test_our_own_appended_block_is_never_read_back():
    answer = "**相关附件**\n- 附件2-通讯录\n\n**相关附件内容：**\n\n**附件9-别的**（《预案》）[3]\n附件9：别的"
    assert [line.label for line in extract_section(answer)] == ["附件2"]
