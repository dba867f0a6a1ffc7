"""A follow-up that names another value of what the earlier question measured or ranked: 那300毫升的呢？ after
东岭仓库里500毫升的矿泉水有多少箱？, 那一等的呢？ after 二等国家助学金是多少钱？.

A person who says 300毫升的 means the 矿泉水 of 300毫升, not a thing called 300毫升: the elided phrase is a modifier
(a number and its unit, a grade), and it takes the place of the earlier question's modifier of the same unit, the
thing it modified kept. So does an attribute (那小型的呢？ after 大型餐饮企业的收运费是多少？, 民营的 after 国有企业…):
a word jieba knows as one that sorts things into kinds (its part of speech b: 大型, 民营, 初级), or any word written
before 的 (公办的), takes the place of the earlier question's word of its kind — the one ending in the same character
(大型 for 小型, 民办 for 公办), else its only other such sorting word (国有 for 民营). Only a phrase of those shapes is
read so; any other elided phrase is kb/answer/followup.py's.
"""
from __future__ import annotations

import re

from kb.answer.question_words import words_of

_NUMERAL = r"(?:[0-9０-９]+(?:\.[0-9]+)?|[零〇一二两三四五六七八九十百千万]+)"
# The elided phrase: 第? a numeral, then its unit or grade of one to three characters (毫升, 等, 级, 类, 吨, 档, 届)
_VALUE = re.compile(rf"^(?P<ordinal>第)?{_NUMERAL}(?P<unit>[^\s0-9０-９零〇一二两三四五六七八九十百千万的]{{1,3}})$")


SORTING = "b"  # jieba's part of speech of a word that sorts things into kinds (区别词: 大型, 民营, 初级, 全日制 is nz)


def swap_modifier(what: str, before: str, marked: bool = False) -> str | None:
    """The earlier question with its value of the same unit replaced by `what` (500毫升 → 300毫升, 二等 → 一等), or
    its attribute of the same kind (大型 → 小型); None when `what` is neither, or the earlier question has no value
    or attribute of its kind. `marked`: the follow-up wrote 的 after `what` (那公办的呢？), as a modifier is written."""
    value = _VALUE.match(what)
    if value is None:
        return _swap_attribute(what, before, marked)
    ordinal = value.group("ordinal") or ""
    unit = re.escape(value.group("unit"))
    found = re.search(rf"{re.escape(ordinal)}{_NUMERAL}{unit}", before)
    if found is None or found.group(0) == what:
        return None
    return before[: found.start()] + what + before[found.end():]


def _swap_attribute(what: str, before: str, marked: bool) -> str | None:
    """The earlier question with its attribute of the kind of `what` replaced by it (大型 → 小型 of 大型餐饮企业…)."""
    mine = words_of(what)
    if len(mine) != 1 or len(what) < 2 or not (mine[0].flag == SORTING or marked):
        return None
    earlier = [w for w in words_of(before) if w.text != what]
    same = [w for w in earlier if len(w.text) == len(what) and w.text[-1] == what[-1]]
    spans = [(w.start, w.end) for w in same]
    if not spans and mine[0].flag == SORTING:  # 国有 of 国有企业职工, which jieba reads as one word 国有企业
        spans = [(w.start, w.end) for w in earlier if w.flag == SORTING]
        spans += [(w.start, w.start + len(what)) for w in earlier if len(w.text) > len(what)
                  and _sorts(w.text[: len(what)])]
    if len(spans) != 1:
        return None  # none, or two the follow-up could mean: the earlier question is not one to edit blindly
    start, end = spans[0]
    return before[:start] + what + before[end:]


def _sorts(text: str) -> bool:
    """jieba reads `text` as one word that sorts things into kinds."""
    mine = words_of(text)
    return len(mine) == 1 and mine[0].flag == SORTING
