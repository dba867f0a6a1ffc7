"""What a line that begins an attachment looks like (附录A 术语, 附件1：名单, 附 录 E（资料性）示例), what a
table-of-contents entry naming one looks like, and what reads as a title rather than a sentence."""
from __future__ import annotations

import re

from kb.labels import KIND, NUMBER, SPACE

MAX_TITLE_CHARS = 60
# Decoration around a header line: Markdown heading marks, bold, list bullets.
DECOR = r"[#*\s>]*"
SEPARATOR = r"(?:\**\s*[：:、.．\-－—–_]+\s*|\**\s+)"
# A standard's appendix says whether it binds before its title: 附录A / (规范性附录) / 标题, or on one line.
_STATUS_WORDS = r"(?:规范性|资料性|标准的|提示的|参考性?|补充|推荐性?)"
STATUS = re.compile(rf"^[#*\s]*[（(]\s*{_STATUS_WORDS}\s*(?:附录|附件|件)?\s*[）)]\s*")
# 附录A 术语, 附件1：名单; 附 录 E（资料性）示例: the status right after the label, the title after it.
# A colon after the kind only when the number stands alone after it (附件：1. / 标题 on the next line, the list's form
# written as each attachment's header): 附件：1．标题 on one line is an entry of the list.
_COLON = rf"(?:{SPACE}[：:](?={SPACE}{NUMBER}{SPACE}[.．、]?[*\s]*$))?"
HEADER = re.compile(
    rf"^{DECOR}{KIND}{_COLON}{SPACE}(?P<number>{NUMBER})(?:(?:{SEPARATOR}|(?=[（(]\s*{_STATUS_WORDS}))(?P<title>.*?))?[*\s]*$"
)
# Table-of-contents entry: a tab, dot leaders (two, or one …) or a wide gap, then a page number. Read from the line's
# end by string methods: a pattern anchored at $ and searched from every start is cubic on a long run of spaces.
_LEADERS = ".·…"
# A line that ends in a file's name (附件1.docx, 附件2：报名表.xls): a page's download link to an attachment the text does
# not hold, not where one begins.
FILE_NAME = re.compile(r"\.(?:docx?|xlsx?|et|wps|pdf|pptx?|zip|rar|7z|txt|csv|jpe?g|png)\s*$", re.I)
_SENTENCE_PUNCT = re.compile(r"[。；;！？!?，,]")


def is_toc_line(line: str) -> bool:
    """A table-of-contents entry naming an attachment (附件4：应急物资清单<TAB>98)."""
    entry = _toc_entry(line)
    return entry is not None and bool(HEADER.match(entry))


def _toc_entry(line: str) -> str | None:
    """The line without its leader and page number, or None when it does not end in one."""
    stripped = line.rstrip()
    page = len(stripped)
    while page and stripped[page - 1].isdecimal():
        page -= 1
    if page == len(stripped):
        return None
    before = stripped[:page]
    entry = before.rstrip()
    gap = before[len(entry) :]
    dotted = entry.rstrip(_LEADERS)
    leaders = entry[len(dotted) :]
    if "\t" in gap or len(gap) >= 2 or len(leaders) >= 2 or leaders == "…":
        return dotted
    return None


def is_header_line(line: str) -> bool:
    """A line that would start an attachment (附件2-应急通讯录, a bare 附件4)."""
    match = HEADER.match(line)
    return bool(match) and (not match.group("title") or is_title(match.group("title").strip()))


def is_title(title: str) -> bool:
    """Short enough for a title, with no sentence mark, and not a table row."""
    return len(title) <= MAX_TITLE_CHARS and not _SENTENCE_PUNCT.search(title) and not title.startswith("|")
