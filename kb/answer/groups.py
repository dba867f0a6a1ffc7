"""The group a list question names inside an attachment, when the body only speaks about that group.

Asked 第三类危险物品包括哪些 of a law whose articles regulate 第三类危险物品 again and again and whose 附表 lists the goods
by class, a reader turns to the table and reads the rows of 第三类: the articles name the class, the attachment's list
is what the class is. So with a catalogue's heading and its entries (二、扩展服务 / (一)…；(二)…) and a lead-in and its
items (二、学生在考试期禁止从事的工作范围：). The articles hold the question's words as often as the list does, or more
(the attachment's title carries the rest), so they score higher; what tells them apart is that the list's head is
named by the question and has members under it, while an article is one sentence that has none.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Collection, Mapping, Sequence

from kb.answer.shapes import MAX_LIST_ITEMS, Candidate, owned
from kb.answer.units import Unit, read_units, words
from kb.text import INTRODUCES, opens_inline

QUESTION_WEIGHT = 1.0  # a word of the question itself (earlier turns' words weigh less: kb/answer/offline.py)
MIN_MEMBERS = 2  # one row or entry is a record, not a group
_BOOK_TITLE = re.compile(r"《([^》]{2,40})》")
_FIELDS, _LABEL = "；", "："  # a table row read as 类别：第三类；序号：1；品种：… (kb/answer/units.py)


def named_group(candidates: Sequence[Candidate], weights: Mapping[str, float],
                about: Mapping[int, Collection[str]], aside: Sequence[Candidate] = ()) -> list[Candidate]:
    """The members of the attachment group the list question names (a heading's entries, a lead-in's items, a
    table's rows by one column's value), when the best candidate is a body sentence that is no list itself; `about`
    is what each source is about (its document's and its attachment's titles). `aside` are the units kept aside for
    not writing the word of what is counted (哪些岗位 of a list of 作业): a group head among them may still be named."""
    best = candidates[0]
    if best.source.label or best.item or best.lead or opens_inline(best.text) or INTRODUCES.search(best.text):
        return []  # the best is the attachment's own line, or a list of the body: kb/answer/shapes.py reads it
    # 服务分类的具体划分在本办法所附的《服务分类目录》中列出: the reader turns there, however it scores
    pointed = _pointed(best)
    asked = [t for t, w in weights.items() if w >= QUESTION_WEIGHT]
    # the words of the question the best sentence does not speak of (考试期 of 考试期…哪些工作不能安排, where the
    # best article speaks of 实习期): a sentence about another case of the category
    unspoken = [t for t in asked if len(t) > 1 and not _holds(best, t, about)]
    for c in [*candidates, *sorted(aside, key=lambda c: -c.coverage)]:
        there = c.source.doc_id == best.source.doc_id and c.source.title in pointed
        # the head with what its attachment is about holds the whole question (第三类 + 危险物品的分类目录), or what
        # the best sentence leaves unspoken
        whole = all(_holds(c, t, about) for t in asked) or (unspoken and all(_holds(c, t, about) for t in unspoken))
        if c.source.label and (there or whole) and (members := _members(c, weights)):
            return members
    return []


def _holds(c: Candidate, word: str, about: Mapping[int, Collection[str]]) -> bool:
    return word in words(c.text) or word in about.get(c.source.n, ())


def _pointed(sentence: Candidate) -> set[str]:
    """The attachment titles a body sentence names in book-title marks (所附的《…目录》), which it points the reader to."""
    return {t.strip() for t in _BOOK_TITLE.findall(sentence.text)}


def _members(head: Candidate, weights: Mapping[str, float]) -> list[Candidate]:
    """The group `head` heads, when the question names it: every word of the head is the question's or its
    attachment's title's (二、扩展服务; 二、学生在考试期禁止从事的工作范围： under the title 学生禁止从事的工作范围)."""
    units = read_units(head.source.text, head.source.preamble)
    if head.item and _row(units, head):
        return _rows_of(units, head, weights)
    if not _named(head.text, weights, head.source.title):
        return []
    entries = owned(head, weights, itself=True)
    if len(entries) > MIN_MEMBERS:  # the heading and at least two entries
        return entries
    items = [Candidate(head.source, u.text, head.coverage, i, True, head.focused)
             for i, u in enumerate(units) if u.lead == head.text.strip()]
    return [replace(head, item=False), *items[:MAX_LIST_ITEMS]] if len(items) >= MIN_MEMBERS else []


def _row(units: Sequence[Unit], head: Candidate) -> bool:
    return head.position < len(units) and bool(units[head.position].header)


def _rows_of(units: Sequence[Unit], row: Candidate, weights: Mapping[str, float]) -> list[Candidate]:
    """The rows of `row`'s table that share the column value the question names (类别：第三类 of 第三类…包括哪些):
    the value's every word is the question's, and other rows of the table hold another value there."""
    header = units[row.position].header
    rows = [(i, u) for i, u in enumerate(units) if u.header == header]
    for field in row.text.split(_FIELDS):
        label, _, value = field.partition(_LABEL)
        named = [t for t in words(value) if len(t) > 1]
        if not label or not named or not all(t in weights for t in named):
            continue
        members = [(i, u) for i, u in rows if field in u.text.split(_FIELDS)]
        if MIN_MEMBERS <= len(members) < len(rows):
            return [Candidate(row.source, u.text, row.coverage, i, True, row.focused, "", u.heading)
                    for i, u in members][:MAX_LIST_ITEMS]
    return []


def _named(head: str, weights: Mapping[str, float], title: str) -> bool:
    """Every word of the head (of two characters or more) is a word of the question or of the attachment's title,
    and one at least is the question's: the head names what is asked, and nothing else."""
    named = [t for t in words(head) if len(t) > 1]
    title_words = words(title)
    return (bool(named) and all(t in weights or t in title_words for t in named)
            and any(t in weights for t in named))
