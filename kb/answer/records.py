"""A table row is one record: the question picks it by the value it names, and a row naming another value of that
kind is another record, however many of the question's other words it shares.

Asked `小型餐饮企业的餐厨垃圾收运费是多少？` of a price table whose rows are 大型 / 中型 / 小型餐饮企业, a reader quotes the
小型 row. The other rows hold every other word of the question (餐饮企业, 收运费 in its header), so they score nearly as
well and would be quoted beside it; what tells them apart is the one word the question gives and they replace with a
word of its kind — 中型 for 小型: the same length, the same last character, the head that says what kind of value it
is (型, 等, 级, 类, 档). A row that merely lacks a word (救生衣 beside 冲锋舟 of 冲锋舟和救生衣各有多少) names no other
value and stays.
"""
from __future__ import annotations

from typing import Collection, Sequence

from kb.answer.shapes import Candidate
from kb.answer.units import folded, words

MIN_KIND_WORD = 2  # characters of a word whose last one says its kind (大型, 一等); one character says nothing


def one_record(chosen: Sequence[Candidate], asked: Collection[str]) -> list[Candidate]:
    """The chosen units without the rows of the best row's table that name another value of a word the question
    picked the best row by (中型餐饮企业 when the question and the best row say 小型)."""
    if not chosen or not chosen[0].item:
        return list(chosen)
    best = chosen[0]
    best_words = words(best.text)
    picked = [t for t in asked if len(t) >= MIN_KIND_WORD and t in folded(best.text)]
    return [c for c in chosen if c is best or not (c.item and c.source.n == best.source.n)
            or not any(_replaces(t, c.text, best_words) for t in picked)]


def _replaces(word: str, text: str, best_words: frozenset[str]) -> bool:
    """The row does not write `word` and writes another of its kind that the best row does not (中型 for 小型)."""
    if word in folded(text):
        return False
    return any(len(t) == len(word) and t[-1] == word[-1] and t != word and t not in best_words for t in words(text))
