"""The attachment a notice appends after its sign-off without a label: …（见附件）… / 党政办 / 8月29日 / 献血需知: / ….

A short notice that points at 附件 (unnumbered) and closes with its issuer and date often carries that attachment
as the text below the date, headed by its title alone. A reader takes that text for the attachment the notice
pointed at: nothing else in the notice could be it, and a notice says nothing after its date."""
from __future__ import annotations

import re
from typing import Sequence

from kb.ingest.header_lines import FILE_NAME, HEADER, is_title

_NUMERAL = "0-9０-９〇零一二三四五六七八九十"
# The sign-off's date alone on its line: 2022年10月19日, 8月29日, 二〇一一年十月二十六日.
DATE_LINE = re.compile(rf"^(?:[{_NUMERAL}]{{2,4}}\s*年\s*)?[{_NUMERAL}]{{1,2}}\s*月\s*[{_NUMERAL}]{{1,3}}\s*日$")
# 见附件 / 详见附件 / （附件） not followed by a number or a quoted title: the single unnumbered attachment.
_POINTS = re.compile(rf"(?:见|详见|参见|[（(])附\s*件(?![\s{_NUMERAL}A-Za-zＡ-Ｚ《])")
# What a notice's closing block holds after its date: the copy list and the printing note are no attachment.
_CLOSING = ("抄送", "印发", "主题词", "（此件", "(此件")
MIN_LINES = 2  # a title and at least one line of content


def attachment_after_signoff(lines: Sequence[str]) -> tuple[int, str] | None:
    """(line index, title) of the unlabelled attachment below a pointing notice's date line, else None."""
    pointed = None
    for i, line in enumerate(lines):
        text = line.strip()
        if pointed is None:
            if _POINTS.search(text):
                pointed = i
            continue
        if not DATE_LINE.match(text):
            continue
        rest = [(j, lines[j].strip()) for j in range(i + 1, len(lines)) if lines[j].strip()]
        if len(rest) < MIN_LINES:
            return None
        at, head = rest[0]
        title = head.rstrip("：: ").strip("#* ")
        if head.startswith(_CLOSING) or HEADER.match(head) or FILE_NAME.search(head):
            return None  # the copy list, or a labelled line: a header the splitter declined, a link to a file
        if not title or not is_title(title):
            return None
        return at, title
    return None


MAX_SIGNOFF_LINES = 3  # issuer, date, and at most one more (a department, a seal's note)
MAX_SIGNOFF_CHARS = 30


def is_signoff(lines: Sequence[str]) -> bool:
    """The lines are nothing but a sign-off: a few short lines (the issuer) that end in a date line."""
    texts = [line.strip() for line in lines if line.strip()]
    return (bool(texts) and len(texts) <= MAX_SIGNOFF_LINES and bool(DATE_LINE.match(texts[-1]))
            and all(len(t) <= MAX_SIGNOFF_CHARS and not re.search(r"[。；;，,]", t) for t in texts))
