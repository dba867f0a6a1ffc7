"""How one unit of a source meets what the question asks: the words it holds of it, the count it gives, the title it
only names — the checks the offline answerer's scoring pass (kb/answer/offline.py) makes of every unit."""
from __future__ import annotations

import re
from typing import Collection, Sequence

from kb.answer.numbers import LIST_NUMBER, counts, has_number, measured
from kb.answer.forms import WRITING, is_blank
from kb.answer.units import folded, names_own_form, words
from kb.labels import KIND_WORD
from kb.search.tokens import is_dictionary_word
from kb.turn import Source

TITLE_CREDIT = 0.5  # share of credit for question words found only in what the source is implicitly about
MIN_TITLE_PREFIX = 8  # characters of an attachment title that a longer list line must begin with to be its title
_LIST_HEAD = re.compile(rf"^\s*{KIND_WORD}\s*[：:]\s*")


def speaks_of(needed: set[str], held: frozenset[str] | set[str], names: set[str]) -> bool:
    """The unit speaks of what the question asks about: it holds every word of it, or the person it names (组长朱雯的
    电话: a contact line 朱雯 177… writes the name without the role)."""
    return needed <= held or bool(needed & names & held)


def counted(text: str, header: str | None, tokens: frozenset[str], needed: list[set[str]], measure: str) -> bool:
    """The unit gives its number as a count of what the question counts: right beside it (委员共800人), as a table
    row's own number (a row is one record: its number is what it names), or in the measure asked for (一式4份)."""
    if needed and (has_number(text) and any(n <= tokens for n in needed) if header else counts(text, needed)):
        return True
    return bool(measure) and measured(text, measure)


def real_words(needed: list[set[str]], sources: Sequence[Source]) -> list[set[str]]:
    """What is counted, without the words jieba made up from the question's characters (多少日内要付 → 内要) that no
    source writes either: they name nothing. A dictionary word no source writes (在编) still rules sentences out."""
    made_up = {w for words in needed for w in words if not is_dictionary_word(w)}
    if not made_up:
        return needed
    unwritten = {w for w in made_up if not any(w in folded(s.text) for s in sources)}
    kept = [words - unwritten for words in needed]
    return [words for words in kept if words]


# The column a table's items stand in: 要素名称, 项目名称, 物资名称 — the kind noun, then the word for a name
_NAME_COLUMN = re.compile(r"(?:名称|名)?")


# The words for the items of a record a report or a form asks for: 统计报告要填哪些信息 asks for its 要素 (字段, 栏目)
DATA_ITEMS = frozenset("信息 要素 字段 栏目 数据项".split())


def names_column(kind: str, header: str | None) -> bool:
    """A column of the table is the kind of thing the question asks for (哪些要素 and a column 要素名称 or 要素; 哪些
    信息 and a column of a report's 要素): the table's rows are the items of that kind, and a sentence elsewhere
    that shares the question's topic lists none."""
    kinds = DATA_ITEMS if kind in DATA_ITEMS else {kind}
    return bool(header) and any(cell.startswith(k) and _NAME_COLUMN.fullmatch(cell[len(k):])
                                for cell in header.split() for k in kinds)


def names_attachment(text: str, titles: set[str]) -> bool:
    """The line is an attachment's title (an item of the document's list of attachments), or begins with one whose
    title runs on over two lines (重庆市领取…违法违规行为 / 举报奖励资金授权委托书)."""
    line = LIST_NUMBER.sub("", _LIST_HEAD.sub("", text)).strip()  # 附件：1．…审批表: the list's first line too
    return line in titles or any(len(t) >= MIN_TITLE_PREFIX and line.startswith(t) for t in titles)


def char_share(word: str, text: str, around: frozenset[str]) -> float:
    """The share of a word's characters that the text holds; one only in what the text is about counts half
    (按紫楹, jieba's cut of 按紫楹台酒店…, against 紫楹台 of the plan's cover)."""
    return sum(1.0 if ch in text else TITLE_CREDIT if ch in around else 0.0 for ch in word) / len(word)


def quotes(term: str, text: str) -> bool:
    return any(f"{a}{term}{b}" in text for a, b in ("“”", '""', "「」", "『』", "《》"))


def form_words(text: str, source: Source, asked: Collection[str]) -> frozenset[str]:
    """What a form's line says without writing it: the form it sits in, for a note that calls it 此文书 or 本表 (the
    attachment's title words), and the writing a blank field is there for (写/填 of 还要写什么)."""
    own = words(source.title) if source.label and source.title and names_own_form(text, source.title) else frozenset()
    return own | (WRITING & frozenset(asked)) if is_blank(text) else own
