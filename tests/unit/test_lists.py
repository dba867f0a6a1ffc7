"""A list read as a careful person reads it: its items under the sentence that introduced them, even when a chunk
boundary falls inside the list (kb/answer/units.py, kb/search/indexed_text.py, the offline answerer)."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.answer.units import read_units
from kb.model import Chunk
from kb.search.indexed_text import continued_lines, indexed_texts
from kb.turn import Source

SIZES = "\n\n".join([
    "（二）五星之位置与画法如下：",
    "甲、先将旗面对分为四个相等的长方形。",
    "（三）国旗之通用尺度定为如下五种，各界酌情选用：",
    "甲、长288公分，高192公分。",
    "乙、长240公分，高160公分。",
    "丙、长192公分，高128公分。",
    "国旗制法图案",
])


def test_an_enumerated_line_carries_the_lead_in_of_its_list():
    units = {u.text: u.lead for u in read_units(SIZES)}
    assert units["甲、长288公分，高192公分。"] == "（三）国旗之通用尺度定为如下五种，各界酌情选用："
    assert units["丙、长192公分，高128公分。"] == "（三）国旗之通用尺度定为如下五种，各界酌情选用："
    assert units["甲、先将旗面对分为四个相等的长方形。"] == "（二）五星之位置与画法如下："
    assert units["国旗制法图案"] == ""  # a line without an enumeration mark ends the list
    assert units["（三）国旗之通用尺度定为如下五种，各界酌情选用："] == ""


def test_a_heading_ends_a_list():
    units = {u.text: u.lead for u in read_units("办理程序如下：\n1．受理\n## 第三章\n2．本章另有规定")}
    assert units["1．受理"] == "办理程序如下："
    assert units["2．本章另有规定"] == ""


def test_a_text_read_after_its_preamble_returns_its_own_units_only():
    units = read_units("（五）罚款金额在500万元以上的，按150000元奖励。", "按照以下标准给予一次性资金奖励：")
    assert [(u.text, u.lead) for u in units] == [("（五）罚款金额在500万元以上的，按150000元奖励。",
                                                  "按照以下标准给予一次性资金奖励：")]
    rows = read_units("| 张三 | 029-1 |", "| 姓名 | 电话 |")
    assert [(u.text, u.header) for u in rows] == [("姓名：张三；电话：029-1", "姓名 电话")]


def chunk(index: int, text: str) -> Chunk:
    return Chunk(f"c{index}", "d1", "", index, 0, len(text), text)


def test_a_chunk_cut_inside_a_list_or_a_table_continues_its_lead_in_or_header_row():
    chunks = [
        chunk(0, "第七条 按照以下标准给予一次性资金奖励：\n（一）罚款金额在15万元以下的，按1500元奖励；"),
        chunk(1, "（五）罚款金额在500万元以上的，按150000元奖励。\n第八条 联系方式如下。\n| 姓名 | 电话 |\n| 张三 | 1 |"),
        chunk(2, "| 李四 | 2 |\n第九条 本细则自印发之日起施行。"),
        chunk(3, "1．本条不在任何列表中"),
    ]
    assert continued_lines(chunks) == {"c0": "", "c1": "第七条 按照以下标准给予一次性资金奖励：",
                                       "c2": "| 姓名 | 电话 |", "c3": ""}
    assert indexed_texts("举报奖励实施细则", chunks, {})[1] == "举报奖励实施细则\n第七条 按照以下标准给予一次性资金奖励："


def flag_source(text: str, preamble: str = "") -> Source:
    return Source(1, "d2", "国旗法", "lib", "附件", "国旗制法说明", text, ((0, len(text)),), ("c9",), 1.0,
                  preamble=preamble)


def test_the_answer_quotes_the_items_that_answer_under_their_lead_in():
    chosen = ExtractiveAnswerer().select_parts("国旗的通用尺度中最大的一种长、高各是多少？", [flag_source(SIZES)])
    quoted = [c.text for c in chosen]
    assert quoted[0] == "（三）国旗之通用尺度定为如下五种，各界酌情选用："
    assert "甲、长288公分，高192公分。" in quoted, quoted


def test_a_chunk_that_opens_inside_a_list_is_read_under_the_lead_in_it_continues():
    lead = "第七条 举报奖励对符合奖励条件的举报人，按照以下标准给予一次性资金奖励："
    first = Source(1, "d3", "举报奖励实施细则", "lib", "", "",
                   f"{lead}\n（一）罚款金额在15万元以下的，按1500元奖励；\n（二）罚款金额在15万元以上的，50万元以下的，按罚款金额的1%奖励；",
                   ((0, 90),), ("c0",), 1.0)
    second = Source(2, "d3", "举报奖励实施细则", "lib", "", "",
                    "（四）罚款金额在200万元以上的，500万元以下的，按罚款金额的3%奖励；\n（五）罚款金额在500万元以上的，按150000元奖励。",
                    ((90, 160),), ("c1",), 0.9, preamble=lead)
    chosen = ExtractiveAnswerer().select_parts("罚款金额在500万元以上的案件，举报人奖励多少？", [first, second])
    assert any("150000元" in c.text for c in chosen), [c.text for c in chosen]
