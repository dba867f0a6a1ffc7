"""A row or an item asked for by its place, as a reader counts it: 第7项, 表里第三行, 序号为9的, 第十个.

A table with a 序号 column is counted by it (序号：7 is the seventh row, wherever the table was cut); a table without
one by its rows, in order; a numbered list by its numbers (7．, 七、, （七）). The words of the place (第三行, 项) are
no words a row holds: they say where to look, not what to find. A law's 第十条第三项 is an article's item, found by
its article (kb/answer/offline.py's words), so a question that names an article or a clause asks no place here.
"""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

from kb.answer.shapes import Candidate
from kb.labels import ordinal_number

# A unit at the place asked answers when it matches the question this share as well as the best unit: a row of the
# table the question names (its caption's words are the best unit's too), not a 7th row of some other list. Set by
# tests/unit/test_table_reading.py's tables; no question of the dev or demo set asks by place (0 of 84, 0 of 90).
PLACE_SHARE = 0.5
_NUMERAL = r"[0-9０-９]{1,3}|[零〇一二两三四五六七八九十百]{1,4}"
_TIMES = "工作日|月|季度|星期|周|小时|年|阶段"  # 第一个工作日, 第三个季度: a time, not a place in a list
# 第7项, 第三行, 第十个, 序号为9(的), 序号是12, 编号9: a place among rows or items; 条/款/章/节/类/部分/次/届 are
# a law's articles, a class, a part, a session: never a row's place.
_PLACE = re.compile(rf"第(?P<n>{_NUMERAL})(?:项|行|个(?!{_TIMES})|种|位|名|家|处|件|台|所)"
                    rf"|(?:序号|序列号|排序)(?:为|是|等于)?(?P<serial>{_NUMERAL})(?![0-9０-９])")
_ARTICLE = re.compile(rf"第(?:{_NUMERAL})[条款章节]")
# A row's serial field, as a table row is read (序号：7；物资名称：…)
_SERIAL_FIELD = re.compile(r"^(?:序号|编号|序|No\.?|NO\.?)[：:]\s*(?P<n>[0-9０-９]{1,4})(?:[；;]|$)")
# A numbered line: 7．, 7、, 7), (7), 七、, （七）
_NUMBERED = re.compile(r"^\s*(?:[（(]\s*(?P<a>[0-9０-９]{1,3}|[一二三四五六七八九十]{1,4})\s*[)）]"
                       r"|(?P<b>[0-9０-９]{1,3}|[一二三四五六七八九十]{1,4})\s*[、.．)）](?![0-9０-９]))")


class Place(NamedTuple):
    number: int  # the place counted from 1
    rest: str  # the question without its place: its words are what to find (第三行, 项 are where to look)


def asked_place(question: str) -> Place | None:
    """The place the question asks for (第7项是什么 → 7), or None; none in a question that names a law's article."""
    found = _PLACE.search(question)
    if found is None or _ARTICLE.search(question):
        return None
    number = ordinal_number(found.group("n") or found.group("serial"))
    if number < 1:
        return None
    return Place(number, f"{question[: found.start()]} {question[found.end():]}")


def places(units: Sequence[tuple]) -> dict[tuple[int, int], int]:
    """Each unit's place, by (source n, unit position): a row's serial number, else its row within its table (the
    rows read under one header in a run), else a numbered line's number."""
    out: dict[tuple[int, int], int] = {}
    run_header, count, last = None, 0, None
    for source, position, text, header, *_ in units:
        key = (source.n, position)
        if header:  # a table row read under its header
            same_run = header == run_header and last == (source.n, position - 1)
            # a passage that opens inside a table (its preamble the header row) holds none of its first rows
            count = (count + 1 if count else 0) if same_run else int(not (position == 0 and source.preamble))
            run_header, last = header, key
        else:
            run_header, count, last = None, 0, None
        serial = _SERIAL_FIELD.match(text.strip())
        numbered = _NUMBERED.match(text)
        if serial:
            out[key] = ordinal_number(serial.group("n"))
        elif header and count:
            out[key] = count
        elif numbered:
            out[key] = ordinal_number(numbered.group("a") or numbered.group("b"))
    return out


def at_place(place: Place, units: Sequence[tuple], candidates: Sequence[Candidate]) -> list[Candidate]:
    """The row or item at the place asked: the best-matching unit there, else the one at that place after the best
    unit in its source (报送要求的第二项: the heading matches, its second item holds no word of the question)."""
    at = places(units)
    chosen = next((c for c in candidates if at.get((c.source.n, c.position)) == place.number
                   and c.coverage >= candidates[0].coverage * PLACE_SHARE), None)
    if chosen is not None:
        return [chosen]
    best = candidates[0]
    return next(([Candidate(s, text, best.coverage, i, True, False, lead, heading)]
                 for s, i, text, _, lead, heading in units
                 if s.n == best.source.n and i >= best.position and at.get((s.n, i)) == place.number), [])

