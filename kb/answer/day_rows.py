"""第二天下午干什么: a schedule's table lists its days in order, so the second day is the row of the second date it
lists, as a reader of a notice's 日程安排 counts them (7月14日 / 7月15日 / 7月16日), and 最后一天 its last.

A day asked by its place picks the rows of that day in each table whose rows open on a date (or a weekday, or
第N天 itself); the rows of the other days are another day's. A day the table writes as 第二天 needs no counting,
but reads the same way.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from kb.labels import ordinal_number

# 第二天 / 第2日 / 首日 / 头一天 / 最后一天 / 最后一日: a day asked by its place in a schedule
# (read before or after kb/search/same_words.py, which writes 一天 as 1日)
_ASKED = re.compile(r"第(?P<n>[0-9一二三四五六七八九十]{1,3})(?:天|日)(?!内|起|后|前)|(?P<first>首日|头[一1](?:天|日))"
                    r"|(?P<last>最后[一1](?:天|日)|末日)")
# A row's first cell naming its day: a date (2025年7月14日, 7月14日, 7.14), a weekday, or 第N天 written out
_DAY_CELL = re.compile(r"^(?:[^：:；]{1,8}[：:])?\s*(?P<day>(?:[0-9]{4}年)?[0-9]{1,2}月[0-9]{1,2}日|[0-9]{1,2}[.．/][0-9]{1,2}"
                       r"(?![0-9])|(?:星期|周)[一二三四五六日天]|第[0-9一二三四五六七八九十]{1,3}(?:天|日))")
LAST = -1


@dataclass(frozen=True)
class AskedDay:
    number: int  # 1 for the first day, LAST for the last
    written: str  # the words the question asks it in (第二天)


def asked_day(question: str) -> AskedDay | None:
    """The day of a schedule the question asks by its place, if it asks one."""
    m = _ASKED.search(question)
    if m is None:
        return None
    if m.group("last"):
        return AskedDay(LAST, m.group(0))
    if m.group("first"):
        return AskedDay(1, m.group(0))
    number = ordinal_number(m.group("n"))  # 0 for no numeral (第十十天)
    return AskedDay(number, m.group(0)) if number > 0 else None


def day_fits(day: AskedDay, rows: Sequence[tuple[int, int, str, str | None]]) -> dict[tuple[int, int], bool]:
    """For each table row (source number, position, text, header) whose table lists days: whether it is a row of
    the day asked. A table's days are its distinct first-cell days in the order its rows list them."""
    tables: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for source, position, text, header in rows:
        if not header:
            continue
        m = _DAY_CELL.match(text)
        if m is not None:
            tables.setdefault((source, header), []).append((position, m.group("day")))
    fits: dict[tuple[int, int], bool] = {}
    for (source, _), listed in tables.items():
        days = list(dict.fromkeys(d for _, d in listed))
        if len(days) < 2:
            continue  # one date is no schedule of days
        wanted = days[-1] if day.number == LAST else days[day.number - 1] if day.number <= len(days) else None
        for position, d in listed:
            fits[(source, position)] = d == wanted
    return fits
