"""Tables read the way a person reads them: a table of labels and values as its fields, a row found by its place
(第7项), and numbers written in words matched against digits (三至五年 / 3-5年)."""
from __future__ import annotations

from kb.answer.units import read_units

PROFILE = "\n".join(["| 单位名称 | 青禾县溪畔环保科技有限公司 |", "|---|---|", "| 法定代表人 | 罗文舟 |",
                     "| 注册资本 | 伍佰万元 |"])


def rows(text: str) -> list[str]:
    return [u.text for u in read_units(text)]


def test_a_label_table_without_a_header_row_is_read_field_by_field_its_first_row_too():
    assert rows(PROFILE) == ["单位名称：青禾县溪畔环保科技有限公司", "法定代表人：罗文舟", "注册资本：伍佰万元"]


def test_a_joined_label_table_from_a_docx_or_pdf_is_read_the_same_way():
    joined = "\n".join(["单位名称 | 青禾县溪畔环保科技有限公司", "法定代表人 | 罗文舟", "成立日期： | 2016年4月18日"])
    assert rows(joined) == ["单位名称：青禾县溪畔环保科技有限公司", "法定代表人：罗文舟", "成立日期：2016年4月18日"]


def test_a_two_column_table_whose_first_row_names_its_columns_keeps_its_header():
    for head in ("| 项目 | 内容 |", "| 物资名称 | 数量 |", "| 部门 | 值班电话 |"):
        table = "\n".join([head, "|---|---|", "| 灭火器 | 24具 |", "| 应急照明灯 | 12盏 |"])
        first, second = (c.strip() for c in head.strip("|").split("|"))
        assert rows(table) == [f"{first}：灭火器；{second}：24具", f"{first}：应急照明灯；{second}：12盏"], head


def test_a_numbered_or_repeating_first_column_is_no_column_of_labels():
    numbered = "\n".join(["| 1 | 灭火器 |", "| 2 | 应急照明灯 |", "| 3 | 担架 |"])
    assert not any(r.startswith(("1：灭火器", "2：应急照明灯")) for r in rows(numbered)), rows(numbered)
    repeated = "\n".join(["| 东岭街道 | 冲锋舟 |", "| 东岭街道 | 救生衣 |", "| 西岭街道 | 抽水泵 |"])
    assert "东岭街道：救生衣" not in rows(repeated) and "西岭街道：抽水泵" not in rows(repeated), rows(repeated)
