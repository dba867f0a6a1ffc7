"""A follow-up that points into the previous answer's list by its place: 第二个呢？ 第三个的数量是多少？ 最后一个的电话呢？

A person who has just been shown a list (the units of an address book, the supplies of a list) says 第二个 for its
second item, not for anything in the question they asked before. So this reader reads the previous *answer*: its list
lines in order (a table's rows, a list's items; a caption or a heading above them is no item), and the name each item
goes by (the row's first named cell: 公安报警 of `序号：2；单位名称：公安报警；联系电话：110`). The follow-up is then
asked of that name, in the document the earlier question named.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.answer.numbers import LIST_NUMBER
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER, ATTACHMENT_SECTION

# 第二个, 第3项, 第十家, 最后一个, 最后那个: a place in a list. 条/款/章/节 are a law's articles (第十一条规定…), 类 a class
# (第二类), never a place in the answer.
_ORDINAL = re.compile(r"(?:第(?P<n>[0-9０-９一二两三四五六七八九十]{1,3})|(?P<last>最后|末尾)[一那这]?)"
                      r"(?P<measure>个|项|种|家|位|名|处|件|样|只|台|所|部(?!分))")  # 第一部分: a part of a text
_LEAD_IN = re.compile(r"^[\s，,]*(?:那么|那|还有|另外|请问|再问一下|再问)?[\s，,]*")  # what may come before the place
_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# A line of an answer's list: `- …`, `* …`, `1. …`, `1、…`, `（1）…`, its [n] citations at the end.
_LIST_LINE = re.compile(r"^\s*(?:[-*•]\s+|[0-9]{1,3}[.、．)]\s*|[（(][0-9]{1,3}[)）]\s*)(?P<item>\S.*)$")
# A line that ends on a colon introduces the lines after it (…为下列三种：): a lead-in, no item of the list
_LEADS_IN = re.compile(r"[：:]\s*$")
_CITATIONS = re.compile(r"(?:\s*\[\d+\])+\s*$")
_FIELD = re.compile(r"(?P<label>[^：:；;]{1,12})[：:](?P<value>[^；;]*)")
# A row's cell that only numbers or counts it: no name of the item
_SERIAL_LABEL = re.compile(r"^(?:序号|编号|序|No\.?|NO\.?|排序|顺序)$")
_NUMERIC = re.compile(r"^[\s0-9０-９.,，%/\-]*$")
# A plain item's name: up to its first clause mark (消防服：5件 → 消防服); past this, the item is a sentence, named whole
MAX_NAME = 24
_NAME_END = re.compile(r"[：:，,；;。（(]")
# What the rest of the follow-up asks when it asks nothing beyond the place: the item itself.
_ONLY_PLACE = re.compile(r"^(?:那么|那|还有|另外)?(?:是)?(?:的)?(?:呢|是什么|是哪个|是哪些|是谁|是哪家|是啥|有什么|指什么)?$")


@dataclass(frozen=True)
class Item:
    """One item of the previous answer's list: its line as shown, and the name it goes by."""

    line: str
    name: str


def list_items(answer: str) -> list[Item]:
    """The items of an answer's list, in order: its list lines, without the caption or heading lines among them (a
    table's rows shown as `label：value；…` fields are the items when there are any)."""
    body = answer.split(ATTACHMENT_BLOCK_HEADER, 1)[0].split(ATTACHMENT_SECTION, 1)[0]
    lines = [_CITATIONS.sub("", m.group("item")).strip() for line in body.splitlines()
             if (m := _LIST_LINE.match(line))]
    lines = [line for line in lines if line]
    items = [line for line in lines if not _LEADS_IN.search(line)]
    lines = items if items else lines  # 其直径的通用尺度为下列三种： introduces the list; its first item is （一）
    rows = [line for line in lines if _fields(line)]
    if len(rows) >= 2 and len(rows) >= len(lines) // 2:
        lines = rows  # a table's rows; the line above them (表2  外部应急通讯录) is its caption
    return [Item(line, _name(line)) for line in lines]


def place(question: str) -> re.Match | None:
    """Where the question names a place in a list (第二个), if it does: at its start, after a filler (那第二个呢？). A
    place after words of the question's own (《管制清单》第一部分包括哪些…) is a part of what it names, not of the
    previous answer."""
    found = _ORDINAL.search(question)
    if found is None or _LEAD_IN.sub("", question[: found.start()]):
        return None
    return found


def ordinal_question(question: str, answer: str, document: str = "") -> str | None:
    """The follow-up asked of the item it points to in the previous answer's list (第三个的数量是多少？ →
    应急广播的数量是多少？), with the document the earlier question named in front; None when the question names no
    place, or the answer has no item there."""
    found = place(question)
    if found is None:
        return None
    items = list_items(answer)
    at = _index(found, len(items))
    if at is None:
        return None
    item = items[at]
    rest = question[found.end():].strip().rstrip("？?。.!！ ")
    if _ONLY_PLACE.match(rest) and not question[: found.start()].strip(" 那么还有另外，,"):
        return f"{document}{item.name}"
    return question[: found.start()] + (document if document not in question else "") + item.name + question[found.end():]


def _index(found: re.Match, count: int) -> int | None:
    if found.group("last"):
        return count - 1 if count else None
    n = _number(found.group("n"))
    return n - 1 if 0 < n <= count else None


def _number(text: str) -> int:
    """第十二 → 12, 第3 → 3, 第二十 → 20."""
    if text.isdigit():
        return int(text)
    if "十" in text:
        tens, _, ones = text.partition("十")
        return (_DIGITS.get(tens, 1) if tens else 1) * 10 + (_DIGITS.get(ones, 0) if ones else 0)
    return _DIGITS.get(text, 0)


def _fields(line: str) -> list[tuple[str, str]]:
    """A row shown as fields (序号：2；单位名称：公安报警): its (label, value) pairs; none for a sentence."""
    parts = re.split(r"[；;]", line)
    if len(parts) < 2:
        return []
    out = [(m.group("label").strip(), m.group("value").strip()) for p in parts if (m := _FIELD.fullmatch(p.strip()))]
    return out if len(out) == len(parts) else []


def _name(line: str) -> str:
    """The name an item goes by: a row's first cell that is neither its serial number nor a number; a plain line up
    to its first clause mark when that is short, else the line itself."""
    fields = _fields(line)
    if fields:
        named = [v for label, v in fields if v and not _SERIAL_LABEL.match(label) and not _NUMERIC.match(v)]
        if named:
            return named[0]
    line = LIST_NUMBER.sub("", line).strip()
    head = _NAME_END.split(line, 1)[0].strip()
    return head if 0 < len(head) <= MAX_NAME else line
