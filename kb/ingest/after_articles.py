"""The tables a law keeps after its last article, without any 附件/附表 label: …（税额表附后）… / 第三十条 本法自…施行。
/ 车船税税额表一（…） / 级数 | … .

A law whose article says its table is "附后" (appended after) and whose text, past its last article, goes on with a
caption over a table is carrying that table as its attachment: a reader who follows 附后 turns to the end and reads
it there. Nothing else after a law's last article could be what 附后 names, and a law says nothing after it.
"""
from __future__ import annotations

import re
from typing import Sequence

from kb.ingest.header_lines import is_title
from kb.model import CELL_SEPARATOR

TABLES_KIND = "附表"  # what the law appends is tables: read as its 附表, the kind a law gives a table it carries
_ARTICLE = re.compile(r"^\s*第[一二三四五六七八九十百千零〇0-9０-９]+条")
# 税额表附后, 收费标准表附后: the thing the article sends the reader to the end for, by its own name
POINTER = re.compile(r"(?P<noun>[\u4e00-\u9fff]{1,12}?(?:表|清单|目录|名录))附后")


def tables_after_articles(lines: Sequence[str]) -> tuple[int, str] | None:
    """(line index, title) of the tables after a law's last article that an article points at with 附后, else None;
    the title is the law's own name for them (税额表 of 税额表附后)."""
    texts = [line.strip() for line in lines]
    articles = [i for i, text in enumerate(texts) if _ARTICLE.match(text)]
    if not articles:
        return None
    nouns = [m.group("noun") for text in texts[: articles[-1] + 1] for m in POINTER.finditer(text)]
    if not nouns:
        return None
    shown = [i for i in range(articles[-1] + 1, len(texts)) if texts[i]]
    for n, i in enumerate(shown):
        if CELL_SEPARATOR in texts[i]:
            return None  # a table with no caption above it: the article's own table
        following = shown[n + 1] if n + 1 < len(shown) else None
        if following is not None and CELL_SEPARATOR in texts[following] and is_title(texts[i]):
            return i, _shortest_name(nouns)
    return None


def _shortest_name(nouns: list[str]) -> str:
    """The name the articles give the tables, as short as they write it (税额表 of 的税额表附后), the first one."""
    return min(nouns, key=len)
