"""大型企业每名职工补贴多少, asked of a table that lists 中型企业, 小型企业 and 微型企业: the sources write the kind
the question names by its modifier (企业) in other kinds only, so they say nothing of the one asked, however well
the other kinds' rows match the rest of the question. A reader declines; quoting the 中型 row would be a wrong fact.
"""
from __future__ import annotations

import re
from typing import Sequence

from kb.answer.phrases import QUESTION_WORD
from kb.answer.question_words import words_of

MIN_SIBLINGS = 2  # kinds written beside the one asked for: two make a list of kinds, one may be a mere mention
_HAN = re.compile(r"[\u4e00-\u9fff]{2,3}")


def missing_kind(question: str, texts: Sequence[str]) -> str:
    """The modifier of the question's `modifier + head` phrase that the texts never write but write two or more
    siblings of (the head after the same ending with another first character: 中型企业, 小型企业 for 大型企业); ""."""
    words = words_of(question)
    for w, head in zip(words, words[1:]):
        if head.start != w.end or not _HAN.fullmatch(w.text) or not _HAN.fullmatch(head.text) \
                or QUESTION_WORD.search(w.text):  # 第几类易制毒 asks which kind; it names none
            continue
        if any(w.text in t for t in texts):
            continue
        sibling = re.compile(rf"([\u4e00-\u9fff]){re.escape(w.text[1:] + head.text)}")
        kinds = {m.group(1) for t in texts for m in sibling.finditer(t)} - {w.text[0]}
        if len(kinds) >= MIN_SIBLINGS:
            return w.text
    return ""
