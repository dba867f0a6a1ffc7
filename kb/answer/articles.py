"""A law's article asked for by its number (第五条讲什么, 第12条规定了什么): the article itself answers.

A reader asked what 第五条 of a regulation says turns to the line that opens with 第五条 and reads it to the next
article; the lines that merely cite 第五条 or 第十五条 (依照本条例第十五条…) say something else. Only a question that asks
what the article says is read so: 违反第十五条的怎么处罚 asks for the article that punishes it, which cites it.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from kb.answer.shapes import Candidate
from kb.labels import ordinal_number

_NUMERAL = r"[0-9０-９]{1,3}|[零〇一二两三四五六七八九十百]{1,5}"
# 第五条讲什么, 第5条规定了什么, 第十二条的内容, 第三条是怎么写的, 第八条说的是啥: the article's number, then only what
# asks what it says, to the question's end (第十一条规定禁止倾倒的废弃物有哪些 asks for the list it names)
_ASKS = re.compile(rf"第(?P<n>{_NUMERAL})条\s*(?:的|里|中)?\s*(?:(?:讲|说|规定|写)(?:了|的)?(?:是)?(?:什么|啥)(?:内容)?"
                   r"|(?:主要|具体)?内容(?:是什么|是啥|有哪些)?|是什么|是啥|是怎么(?:说|规定|写)的|怎么(?:说|规定|写)的?)"
                   r"\s*[？?。!！]*\s*$")
# the line that opens an article (Markdown's heading marks and spaces aside): 第五条 海洋倾倒区…, **第五条**　…
_OPENS = re.compile(rf"^[\s#*]*第(?P<n>{_NUMERAL})条(?![之])")
_NEXT = re.compile(rf"^[\s#*]*第(?:{_NUMERAL})[条章节编](?![之])")  # the next article, or a chapter, ends it
MAX_LINES = 12  # lines of one article quoted: its sentence and its items


def asked_article(question: str) -> int | None:
    """The number of the article the question asks the content of, or None."""
    found = _ASKS.search(question)
    return ordinal_number(found.group("n")) if found else None


def article_lines(number: int, units: Sequence[tuple], named: Mapping[str, float],
                  excluded: set[str]) -> list[Candidate]:
    """The article's lines, from the one that opens it to the next article, in the document the question names most
    (of the documents that hold that article); empty when no source opens it."""
    opening = [i for i, (source, _, text, *_) in enumerate(units)
               if source.doc_id not in excluded and (m := _OPENS.match(text)) and ordinal_number(m.group("n")) == number]
    if not opening:
        return []
    start = max(opening, key=lambda i: (named.get(units[i][0].doc_id, 0.0), -i))
    source = units[start][0]
    out = []
    for i in range(start, min(len(units), start + MAX_LINES)):
        unit_source, position, text, _, lead, heading = units[i]
        if unit_source is not source or (i > start and _NEXT.match(text)):
            break
        out.append(Candidate(source, text, 1.0, position, i > start, True, lead, heading))
    return out

