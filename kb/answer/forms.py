"""A form read as a person filling it in reads it: its fields (label, then the space for the value), not rows under
a header.

A table whose first row sets a label beside an empty cell (| 报告单位 |  | 报告编号 |  |) is no table with a header: a
header names every column. Its rows are fields in pairs, label then value; a field left blank is written `label：`,
as the paper form shows it (乙方：, 甲方代表签字：). A blank field names what to fill in; it holds no value, so it
answers a question about the form (需要填写哪些信息, 需要盖手印吗) and never one that asks for the value (乙方是谁).
"""
from __future__ import annotations

import re
from typing import Sequence

from kb.search.tokens import tokenize

# A line of blank fields only: each a short label and its colon with nothing after it (乙方：, 甲方代表签字：
# 乙方代表签字：, 报告单位：；报告编号：), or a label and a placeholder the filler completes (年 月 日, ××, ＿＿).
# A box to tick and its option (□是 □否, ☐男 ☐女) is a placeholder too: the filler ticks one.
_PLACEHOLDER = r"(?:[\s_＿…\.·×xX]|年|月|日|时|分|[□☐]\s*[^\s□☐：:；;，,。]{0,6})*"
_BLANK = re.compile(rf"^(?:\s*[^：:。；;，,！？!?\s][^：:。；;，,！？!?]{{0,15}}[：:]{_PLACEHOLDER}[；;]?)+$")


def is_form_row(cells: list[str]) -> bool:
    """The row sets a label beside the empty cell for its value: a form's fields, not a table's header."""
    return any(a and not b for a, b in zip(cells, cells[1:])) and sum(1 for c in cells if c) >= 1


def form_fields(cells: list[str]) -> str:
    """A form's row as its fields, in pairs (label, value): `报告单位：；报告编号：`, `报告时间：年 月 日 时 分`; a
    row of one cell (事故简要说明, 命令内容：) as it stands."""
    filled = [c for c in cells if c]
    if len(cells) == 1:
        return cells[0]
    fields = []
    for label, value in zip(cells[::2], [*cells[1::2], ""]):
        if label:
            fields.append(f"{label.rstrip('：:')}：{value}")
    return "；".join(fields)


def is_blank(text: str) -> bool:
    """The line is blank fields only (乙方：): it names what to fill in and holds no value."""
    return bool(_BLANK.match(text.strip()))


# A blank field is where one writes: what a question asks of it with these verbs (还要写什么, 要填什么) it holds
WRITING = frozenset("写 填 填写 填报 写上 填上".split())


# A field on a line of its own or in a form's row: a short label, its colon, its value up to the next field
# (甲方：西安新兴紫楹台酒店有限公司; 报告单位：            报告人：            联系电话：). A run of spaces between fields
# is taken whole, from its first space (?<!\s) and never given back (+): begun anywhere inside it, as before, a
# line of 1,000 spaces cost 4 s (cubic) in an answer's every candidate line.
_FIELD = re.compile(r"(?:^|[；;]|(?<!\s)\s{2,}+)\s*+(?P<label>[^：:。；;，,！？!?\s][^：:。；;，,！？!?]{0,11}?)[：:]"
                    r"(?P<value>[^：:；;]*?)(?=$|[；;]|(?<!\s)\s{2,}+[^：:；;\s]{1,12}[：:])")
# The words a form adds to a person's field: 乙方代表*签字* is where 乙方代表 is given.
SIGNING = frozenset("签字 签名 盖章 签章 签署".split())


def fields(text: str) -> list[tuple[str, str]]:
    """The (label, value) fields the line holds, the value "" when blank (乙方： → [('乙方', '')])."""
    return [(m.group("label").strip(), _filled(m.group("value"))) for m in _FIELD.finditer(text.strip())]


def fills(text: str, field: set[str]) -> bool:
    """The line gives a value under a label named for the field asked (酒店地址：西安灞桥区柳雪路1006号 for 详细地址是什么:
    its label ends in 地址), not a line that only speaks of that field (讲清事故单位和详细地址)."""
    return any(value and tokenize(label) and tokenize(label)[-1] in field for label, value in fields(text))


def _filled(value: str) -> str:
    return "" if re.fullmatch(_PLACEHOLDER, value) else value.strip()


def left_blank(units: Sequence[tuple], phrase: str, excluded: set[str]) -> bool:
    """A form's field is what the question asks for (乙方 of 互救协议的乙方是哪家单位, and of 互救协议乙方: the words the
    phrase ends in; 乙方代表签字 for 乙方代表), it is blank, and no line of the documents the question may mean fills it in."""
    asked = [t for t in tokenize(phrase) if len(t) > 1]
    if not asked:
        return False
    blank = filled = False
    for source, _, text, *_ in units:
        if source.doc_id in excluded or "：" not in text and ":" not in text:
            continue
        for label, value in fields(text):
            named = [t for t in tokenize(label) if t not in SIGNING]
            if named and asked[-len(named):] == named:
                filled, blank = filled or bool(value), blank or not value
    return blank and not filled
