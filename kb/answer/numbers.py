"""Numbers in a source's sentences as an answer to 多少/几: which numbers answer (not a list item's, an attachment's
or an article's), and whether one stands at what the question counts or in the measure it asks for."""
from __future__ import annotations

import re
from typing import Sequence

from kb.answer.question import word_spans
from kb.labels import LABEL
from kb.search.tokens import MEASURE_WORDS

LIST_NUMBER = re.compile(r"^\s*(?:[0-9０-９]+|[一二三四五六七八九十]+)\s*[、.．)）]\s*")
_ORDINAL = re.compile(r"第[0-9０-９零〇一二两三四五六七八九十百千]+")
# A Chinese numeral read from its run's start (the lookbehind): tried from every character of a long run of numerals
# not followed by a measure, the search would be quadratic in the run.
_NUMBER = re.compile(rf"[0-9０-９]|(?<![零〇一二两三四五六七八九十百千万])[零〇一二两三四五六七八九十百千万]+"
                     rf"(?:[{MEASURE_WORDS}]|米|公里|吨|公斤|千克|升)")
COUNTED_REACH = 6  # characters between what is counted and its number


def has_number(text: str) -> bool:
    """A number that could answer: not a list item's number (3．), an attachment's (见附件3) nor an ordinal (第八十八条)."""
    return bool(_NUMBER.search(plain_numbers(text)))


def plain_numbers(text: str) -> str:
    """The text without the numbers that answer no 多少: list numbers, attachment labels, ordinals (第N条, 第十二届)."""
    return _ORDINAL.sub("第", LABEL.sub("", LIST_NUMBER.sub("", text)))


def counts(text: str, needed: Sequence[set[str]]) -> bool:
    """The sentence puts a number right after (or before) a word of what the question counts (委员共800人, 800名委员,
    选举委员会共1200人), the number a quantity, not an ordinal (常务委员会第五次会议)."""
    plain = plain_numbers(text)
    wanted = {w for words in needed for w in words}
    for word, start, end in word_spans(plain):
        if any(w in word for w in wanted) and (
                _NUMBER.search(plain[end:end + COUNTED_REACH]) or _NUMBER.search(plain[max(0, start - 3):start])):
            return True
    return False


def measured(text: str, measure: str) -> bool:
    """The sentence gives a number in the measure the question asks for (一式几份 → 一式4份)."""
    return bool(re.search(rf"[0-9０-９零〇一二两三四五六七八九十百千万]\s*[{re.escape(measure)}]", plain_numbers(text)))


# An amount of money as documents write it: 8000元, 3.5万元, 一百元, 人民币200元, 50美元
_MONEY = re.compile(r"[0-9０-９零〇一二两三四五六七八九十百千万]\s*(?:[万亿]?元|美元|港元|欧元|角)")


def gives_money(text: str) -> bool:
    """The sentence gives an amount of money (每生每年8000元): what a 多少钱 asks for."""
    return bool(_MONEY.search(plain_numbers(text)))
