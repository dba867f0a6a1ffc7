"""A follow-up that names another value of what the earlier question measured or ranked: 那300毫升的呢？ after
东岭仓库里500毫升的矿泉水有多少箱？, 那一等的呢？ after 二等国家助学金是多少钱？.

A person who says 300毫升的 means the 矿泉水 of 300毫升, not a thing called 300毫升: the elided phrase is a modifier
(a number and its unit, a grade), and it takes the place of the earlier question's modifier of the same unit, the
thing it modified kept. Only a phrase of that shape is read so; any other elided phrase is kb/answer/followup.py's.
"""
from __future__ import annotations

import re

_NUMERAL = r"(?:[0-9０-９]+(?:\.[0-9]+)?|[零〇一二两三四五六七八九十百千万]+)"
# The elided phrase: 第? a numeral, then its unit or grade of one to three characters (毫升, 等, 级, 类, 吨, 档, 届)
_VALUE = re.compile(rf"^(?P<ordinal>第)?{_NUMERAL}(?P<unit>[^\s0-9０-９零〇一二两三四五六七八九十百千万的]{{1,3}})$")


def swap_modifier(what: str, before: str) -> str | None:
    """The earlier question with its value of the same unit replaced by `what` (500毫升 → 300毫升, 二等 → 一等); None
    when `what` is no value with a unit, or the earlier question has no value of that unit."""
    value = _VALUE.match(what)
    if value is None:
        return None
    ordinal = value.group("ordinal") or ""
    unit = re.escape(value.group("unit"))
    found = re.search(rf"{re.escape(ordinal)}{_NUMERAL}{unit}", before)
    if found is None or found.group(0) == what:
        return None
    return before[: found.start()] + what + before[found.end():]
