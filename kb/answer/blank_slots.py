"""A template's sentence with the space for its value left open: 租金单价为＿＿元/M²/月, 于＿＿＿＿年＿＿月＿＿日前支付.

A contract template or a model notice writes each clause whole but leaves its values to whoever fills it in: a run of
underscores (＿＿, ____), of full-width spaces (　　), or an empty pair of brackets (（    ）). A reader asked 租金单价是多少
looks at what the clause writes right after 单价 and finds the blank: the template does not give the value, however
well the clause matches the question. A value the clause does write (逾期按日万分之五计) still answers, blanks
elsewhere in it notwithstanding.
"""
from __future__ import annotations

import re
from typing import Iterable

# The space a filler completes: two or more underscores or full-width spaces, three ASCII spaces inside a line, or
# brackets holding nothing but spaces.
BLANK = r"(?:[＿_]{2,}|　{2,}|(?<=\S) {3,}(?=\S)|[（(][ 　]{2,}[)）])"
# What may stand between the word asked and its value: a few characters of the clause (…单价为, …费用标准是：, 每),
# never a clause's end.
_LEAD = r"[^，。；,;！？!?\n]{0,4}?(?:为|是|：|:|按|每|共|计|合计|约)?\s*"
_SLOT = re.compile(_LEAD + BLANK)
MIN_WORD_CHARS = 2  # a single character (费, 元) is too common to locate the value asked


def leaves_blank(text: str, asked: Iterable[str]) -> bool:
    """The sentence writes a word the question asks the value of, and right after it the space a filler completes,
    with no value written after any of those words."""
    blank = False
    for word in {w for w in asked if len(w) >= MIN_WORD_CHARS}:
        for match in re.finditer(re.escape(word), text):
            if _SLOT.match(text, match.end()):
                blank = True
            elif _gives_value(text, match.end()):
                return False
    return blank


_VALUE = re.compile(r"[^，。；,;！？!?\n]{0,6}?[0-9０-９一二三四五六七八九十百千万]")


def _gives_value(text: str, at: int) -> bool:
    """A number follows the word within its clause (单价为35元): the clause gives that value."""
    return bool(_VALUE.match(text, at)) and not _SLOT.match(text, at)
