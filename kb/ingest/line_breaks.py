"""Line breaks a text lost (a notice pasted from a web page, a database string field, a page saved as one paragraph):
where a reader sees a new line inside a line that runs numbered sections together, put one back.

A careful reader of `…现将有关会议事项提示公告如下：一、召开会议基本情况（一）会议召集人：…（七）现场会议召开地点：…
319会议室二、会议审议事项1、审议公司《2014年度董事会报告》。2、…` sees section 二 begin after 319会议室 although no
break is there: the sections 一、二、三、 numbered in order, each after the text of the one before, are paragraphs. Such a
line is read as lines: a break before each section, before each point of the lists inside them (（一）（二）, 1、2、,
（1）（2）, 1）2）) numbered in order, and where the run-on attachment reader (kb/ingest/run_on.py) finds the
document's list of attachments and each attachment's header. A line that runs no sections together is left as it is:
an inline list inside one sentence (包括：（一）…；（二）…) is the sentence's."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.ingest.run_on import inline_breaks
from kb.ingest.splitting import Line, reads_as_structure
from kb.labels import normalize_number

# A section's number: 一、 (not 第一、, 其一、, nor the 一 of 十一、 read alone).
SECTION = re.compile(r"(?<![第其之零〇一二两三四五六七八九十百])(?P<n>[一二三四五六七八九十]{1,3})、")
# The points inside a section, each numbered in its own style.
POINTS = (
    re.compile(r"[（(](?P<n>[一二三四五六七八九十]{1,3})[)）]"),
    re.compile(r"(?<![0-9０-９.．/\-－—～~A-Za-z])(?P<n>[0-9]{1,2})[、．.](?![0-9０-９])"),
    re.compile(r"[（(](?P<n>[0-9]{1,2})[)）]"),
    re.compile(r"(?<![0-9０-９（(A-Za-z])(?P<n>[0-9]{1,2})[)）]"),
)
# What a numbered item holds before the next number: 一、二、三级 is a count, not three sections.
MIN_ITEM_CHARS = 2
# A run numbered from 1 that does not open after a sentence end may still be a list when it runs this long
# (二、会议审议事项1、审议…。2、审议…。3、…: the points follow the section's title with no mark between).
MIN_UNOPENED_RUN = 3
# Where an item opens: the line's start, after a sentence end, a colon or a closing bracket, or after the title of the
# section it opens (三、现场股东大会登记方法（一）登记方法：…): a short phrase with no sentence mark since a known break.
_OPENS = frozenset("。；;：:！？!?）)」』”\"")
_SENTENCE_MARK = re.compile(r"[。；;！？!?，,：:]")
MAX_TITLE_CHARS = 30


@dataclass(frozen=True)
class _Mark:
    at: int  # offset in the line
    number: int
    end: int  # after the mark


def restore_line_breaks(text: str) -> str:
    """The text with a line break put back wherever a line runs numbered sections together; other lines unchanged."""
    out, changed = [], False
    for line in text.split("\n"):
        cuts = _breaks(line)
        changed = changed or bool(cuts)
        out.append("\n".join(line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)])) if cuts else line)
    return "\n".join(out) if changed else text


def _breaks(line: str) -> list[int]:
    """Where the reader sees lines begin inside one line of text; [] when it runs no sections together or reads as
    structure whole (附件一 甲（略） 附件二 乙（略）: the document's list of what it left out)."""
    glued = any(at > 0 for at in _runs(line, SECTION, set()))
    if not glued and "附" not in line[1:] or reads_as_structure(Line(0, len(line), line)):
        return []  # (the cheap look first: most lines hold neither)
    cuts = inline_breaks(line)
    attachments = set(cuts.breaks)
    sections = _runs(line, SECTION, attachments)
    if not glued and not cuts.headers - {0}:
        return []
    found = set(sections) | attachments
    for style in POINTS:
        found.update(_runs(line, style, found))
    return sorted(at for at in found if 0 < at < len(line) and not line[:at].endswith("\n"))


def _runs(line: str, style: re.Pattern[str], starts: set[int]) -> list[int]:
    """Where each item of each run of `style` begins: numbers 1, 2, 3… in order, each after some text, the run
    opening where an item may open (a line's start, a sentence end, a colon, a known break) or running long."""
    runs: list[list[_Mark]] = []
    for mark in _marks(line, style):
        last = runs[-1][-1] if runs else None
        if last is not None and mark.number == last.number + 1 and mark.at - last.end >= MIN_ITEM_CHARS:
            runs[-1].append(mark)
        elif mark.number == 1:
            runs.append([mark])
    found = []
    for run in runs:
        first = run[0].at
        opens = first == 0 or first in starts or line[first - 1] in _OPENS or line[first - 1].isspace() \
            or _after_title(line, first, starts)
        if len(run) >= 2 and (opens or len(run) >= MIN_UNOPENED_RUN):
            found.extend(mark.at for mark in run)
    return found


def _after_title(line: str, at: int, starts: set[int]) -> bool:
    """Whether the text from the last known break before `at` is a title: short, no sentence mark."""
    begin = max((s for s in starts if s < at), default=None)
    return begin is not None and at - begin <= MAX_TITLE_CHARS and not _SENTENCE_MARK.search(line, begin, at)


def _marks(line: str, style: re.Pattern[str]) -> list[_Mark]:
    marks = []
    for match in style.finditer(line):
        number = normalize_number(match.group("n"))
        if number.isdigit():
            marks.append(_Mark(match.start(), int(number), match.end()))
    return marks
