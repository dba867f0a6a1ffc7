"""Attachment headers inside running text: where a document without line breaks (a notice copied out of a web page,
a database string, a PDF pasted as one paragraph) starts its list and each attachment, as offsets to break lines at.

A careful reader of `…特此公告。附件：1、网络投票程序及要求2、授权委托书格式…附件一：网络投票程序及要求一、采用…`
sees the list announce two attachments, and the first begin where `附件一：` is followed by the title the list gave
it; `详见附件一。` names it and begins nothing. Without a list, a run of headers 附件1… 附件2… each followed by a
title-like phrase and some content is the document's attachments. The line reader then reads each piece as a line."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.ingest.run_on_titles import TITLE_CHARS, end_of_line, end_of_title, title_word_end
from kb.labels import BARE_KIND, KIND, KIND_WORD, NUMBER, SPACE, make_label, normalize_kind, normalize_number

# Shared with its listed title, a header's opening confirms it (授权委托书格式 listed, 附件二：授权委托书兹全权委托…):
# at least this many chars and at least half the listed title.
MIN_SHARED = 4
# A header may spell its listed title with a few more chars (应急物资储备清单 listed, 附件2：应急物资储备清单表).
TITLE_SLACK = 4
# A header: the label, then a separator or the title right after it (附件一网络投票程序及要求 matches a list only).
_HEAD = re.compile(rf"{KIND}{SPACE}(?P<number>{NUMBER})(?P<sep>{SPACE}[：:、.．\-－—–]{SPACE}|[ \t\u3000]+)?")
# The kind alone (附件：, 附表：, 附：), marking a document's single attachment; 附件 glued to a title it repeats.
_ALONE = re.compile(rf"(?:(?P<kind>{KIND_WORD})|附(?={SPACE}[：:]))(?!{SPACE}(?:{NUMBER}|《))(?P<colon>{SPACE}[：:])?{SPACE}")
# A list of the document's attachments: 附件：1、…, 附表：1. …, 附：1、…
_LIST_HEAD = re.compile(rf"(?:{KIND}|附){SPACE}[：:]{SPACE}(?=[0-9０-９]{{1,3}}{SPACE}[、.．)）])")
# An entry's number: not a digit of a longer number (2024年, 12、) nor a decimal (2.5米).
_MARK = re.compile(r"(?<![0-9０-９.．])(?P<n>[0-9０-９]{1,3})[ \t\u3000]*[、.．)）](?![0-9０-９])")
# Where a listed title ends without the next number: a sentence mark, a line break, or the first header.
_ENTRY_STOP = re.compile(r"[。；;！？!?，,\s]|(?P<header>" + KIND_WORD + ")" + SPACE + r"[0-9０-９一二三四五六七八九十A-Z]")
_BETWEEN_ENTRIES = re.compile(r"[；;，,。\s]*")
# A label glued to words that go on with the sentence (附件一的杀虫剂, 附件2所列物资, 附表二规定的格式) is a mention.
_GLUED_PROSE = re.compile(r"[的所及和与或等之]|规定|列明|中的|执行|填写")
_COLON = re.compile(r"[：:]")
# Words right before a label that make it a mention (详见附件一：…, 按附件2：…填写, 附件1和附件2：…).
_REFERS = re.compile(r"(?:(?<!意)见|按照?|依照|参照|依据|根据|参阅|填写|填报|报送|和|及|与|或|、|至|《|“|\")[ \t\u3000]*$")
# A run's first header follows the end of a sentence, a space or a closing bracket: not a word of the sentence.
_SENTENCE_END = re.compile(r"(?:^|[。！？!?；;”」』）)\s])$")
MENTION_WINDOW = 4  # chars before a label read for _REFERS / _SENTENCE_END


@dataclass(frozen=True)
class _Listed:
    title: str
    mark: int  # where the entry's number starts
    begin: int  # where its title starts
    end: int  # where its title ends, as far as the list alone tells
    open: bool  # the title runs on into the text after it (no space or sentence mark): its header tells the end


@dataclass(frozen=True)
class _List:
    kind: str
    start: int
    entries: dict[str, _Listed]  # label → entry
    labelled: bool = False  # entries are labels and titles (附录A 甲 附录B 乙), read by the line reader as one line

    @property
    def end(self) -> int:
        return max(e.end for e in self.entries.values())


@dataclass(frozen=True)
class _Candidate:
    label: str
    kind: str
    number: str
    start: int  # where the label starts
    title_start: int  # after the separator
    separated: bool


@dataclass(frozen=True)
class _Found:
    label: str
    start: int
    title_start: int
    title_end: int


@dataclass(frozen=True)
class Cuts:
    """Where lines begin for a reader inside text that runs on, and which of them begin a header."""

    breaks: tuple[int, ...]  # sorted offsets, none at a line's start
    headers: frozenset[int]  # offsets (breaks or line starts) where a confirmed header begins


def inline_breaks(text: str, start: int = 0, end: int | None = None) -> Cuts:
    """Where a line begins for the reader inside text[start:end] though no line break is there."""
    end = len(text) if end is None else end
    lists = _lists(text, start, end)
    candidates = _candidates(text, start, end)
    breaks: set[int] = set()
    heads: set[int] = set()
    confirmed: dict[int, list[_Found]] = {}  # id of the list → the headers that carry its titles
    for kind in dict.fromkeys(c.kind for c in candidates):
        of_kind = [c for c in candidates if c.kind == kind]
        runs, titled = _runs(text, start, end, of_kind)
        # A run of nothing but headers (附录A 甲 附录B 乙, closing a paragraph) is the document's list of them.
        labelled = [_List(kind, run[0].start, {f.label: _Listed(text[f.title_start : f.title_end], f.start,
                                                                 f.title_start, f.title_end, False) for f in run}, True)
                    for run in runs if not _with_content(text, run[-1].start, run[:-1])
                    and all(f.title_end > f.title_start for f in run)]
        headers: list[_Found] = []
        for lst in [*(lst for lst in lists if lst.kind == kind), *labelled]:
            headers = _listed_headers(text, end, of_kind, lst)
            if headers:
                confirmed[id(lst)] = headers
                break
        if not headers:
            with_content = [run for run in runs if 2 * _with_content(text, end, run) >= len(run)]
            headers = with_content[-1] if with_content else [f for f in titled if _closes_line(text, start, end, f)]
        for found in headers:
            breaks.update(_header_breaks(text, end, found))
            heads.add(found.start)
        for lst in labelled:
            breaks.update(_list_breaks(text, end, lst, confirmed.get(id(lst), [])))
    for lst in lists:
        breaks.update(_list_breaks(text, end, lst, confirmed.get(id(lst), [])))
    if not heads:
        for found in _unnumbered(text, start, end):
            breaks.update(_header_breaks(text, end, found))
            heads.add(found.start)
    return Cuts(tuple(sorted(b for b in breaks if start < b < end and text[b - 1] != "\n")), frozenset(heads))


def _unnumbered(text: str, start: int, end: int) -> list[_Found]:
    """A single attachment marked by its kind alone after a sentence (…施行。附件：导弹及相关物项…清单一、前言…):
    the first such title is the attachment's, and where the kind and that title recur later (附件：矿产资源分类细目
    附件矿产资源分类细目(一)…), the list named it and the later one begins it."""
    named: list[_Found] = []
    for match in _ALONE.finditer(text, start, end):
        at = match.start()
        if named:
            first = named[0]
            title = text[first.title_start : first.title_end]
            if text.startswith(title, match.end()) and at >= first.title_end:
                named.append(_Found(first.label, at, match.end(), match.end() + len(title)))
            continue
        if not match.group("colon") or _LIST_HEAD.match(text, at) or _mentioned(text, at):
            continue
        if not _opens_sentence(text, start, at) and not _at_line_start(text, start, at):
            continue
        limit = end_of_line(text, match.end(), end, TITLE_CHARS + 1)
        title_end = end_of_title(text, match.end(), limit, named=False)
        if title_end is not None and _has_content(text, title_end, end):
            kind = normalize_kind(match.group("kind")) if match.group("kind") else BARE_KIND
            named.append(_Found(kind, at, match.end(), title_end))
    return named[:1] + named[-1:] if len(named) > 1 else named


def _lists(text: str, start: int, end: int) -> list[_List]:
    """Every numbered list of attachments, its entries glued (1、甲2、乙) or on lines of their own."""
    found = []
    for head in _LIST_HEAD.finditer(text, start, end):
        entries = _entries(text, head.end(), end)
        if entries:
            kind = normalize_kind(head.group("kind")) if head.group("kind") else BARE_KIND
            found.append(_List(kind, head.start(), {make_label(kind, n): e for n, e in entries}))
    return found


def _entries(text: str, pos: int, end: int) -> list[tuple[str, _Listed]]:
    """The entries 1、… 2、… from pos, each title up to the next number, a space, a sentence mark or a header."""
    entries: list[tuple[str, _Listed]] = []
    mark = _MARK.match(text, pos, end)
    expected = 1
    while mark and _entry_number(mark) == expected:
        begin = mark.end()
        window = min(end, begin + TITLE_CHARS + 1)
        stop = _ENTRY_STOP.search(text, begin, window)
        limit = stop.start() if stop else window
        following = next((m for m in _MARK.finditer(text, begin + 1, limit) if _entry_number(m) == expected + 1),
                         None)
        if following:
            title_end, after, is_open = following.start(), following, False
        else:
            title_end = limit
            closed = bool(stop) and not stop.group("header")
            after = _MARK.match(text, _BETWEEN_ENTRIES.match(text, limit, end).end(), end) if closed else None
            is_open = not closed and window < end
        title_end = begin + len(text[begin:title_end].rstrip())
        if title_end - begin < 2:
            break
        entries.append((mark.group("n"), _Listed(text[begin:title_end], mark.start(), begin, title_end, is_open)))
        mark, expected = after, expected + 1
    return entries


def _entry_number(mark: re.Match[str]) -> int:
    return int(normalize_number(mark.group("n")))


def _candidates(text: str, start: int, end: int) -> list[_Candidate]:
    """Every label that could begin an attachment (附件一：, 附件2 , 附录A：), mentions among them."""
    found = []
    for match in _HEAD.finditer(text, start, end):
        kind = normalize_kind(match.group("kind"))
        number = match.group("number")
        found.append(_Candidate(make_label(kind, number), kind, number, match.start(), match.end(),
                                bool(match.group("sep"))))
    return found


def _listed_headers(text: str, end: int, candidates: list[_Candidate], lst: _List) -> list[_Found]:
    """Each listed attachment's header: the first label after the list (and after the header before it) that
    carries the listed title."""
    headers: list[_Found] = []
    after = lst.end
    pending = [(label, entry) for label, entry in lst.entries.items()]
    for cand in candidates:
        if not pending or cand.start < after or _mentioned(text, cand.start):
            continue
        for n, (label, entry) in enumerate(pending):
            title_end = _listed_title_end(text, end, cand.title_start, entry) if cand.label == label else None
            if title_end is not None:
                headers.append(_Found(label, cand.start, cand.title_start, title_end))
                after, pending = title_end, pending[n + 1 :]
                break
    return headers


def _listed_title_end(text: str, end: int, at: int, entry: _Listed) -> int | None:
    """Where the title at `at` ends when it is the listed title (or opens with enough of it), else None."""
    line_end = end_of_line(text, at, end, TITLE_CHARS + TITLE_SLACK)
    written = text[at:line_end]
    if written.startswith(entry.title):
        return at + len(entry.title)
    shared = len(_common_prefix(written, entry.title))
    if shared < MIN_SHARED or (not entry.open and 2 * shared < len(entry.title)):
        return None
    own = end_of_title(text, at, line_end)
    if own is not None and at + shared <= own <= at + len(entry.title) + TITLE_SLACK and not entry.open:
        return own
    return at + shared


def _runs(text: str, start: int, end: int, candidates: list[_Candidate]) -> tuple[list[list[_Found]], list[_Found]]:
    """Runs of headers numbered 1, 2, 3… (or A, B…) each with a title, and every titled label found.

    A label glued to its title (附件1禁止倾倒的物质一、…) counts only after a sentence end or right after the header
    before it; a label at a line's start that is not the run's next header ends the run: the line reader's own
    header (## 附录A) stands between, so a later label (在附录 B 中…) does not continue a list above it."""
    titled: list[_Found] = []
    runs: list[list[_Found]] = []
    for cand in candidates:
        last = runs[-1][-1] if runs and runs[-1] else None
        found = _titled(text, start, end, cand, last)
        if found:
            titled.append(found)
        number = cand.label[len(cand.kind) :]
        if found and number in ("1", "A") and _opens_sentence(text, start, cand.start):
            runs.append([found])
        elif found and last and _follows(last.label, cand.label):
            runs[-1].append(found)
        elif runs and _at_line_start(text, start, cand.start):
            runs.append([])  # the run is over
    return [run for run in runs if len(run) > 1], titled


def _titled(text: str, start: int, end: int, cand: _Candidate, last: _Found | None) -> _Found | None:
    """The candidate as a header with its title, or None when it reads as a mention or has no title."""
    if _mentioned(text, cand.start):
        return None
    limit = end_of_line(text, cand.title_start, end, TITLE_CHARS + 1)
    if cand.separated:
        title_end = end_of_title(text, cand.title_start, limit)
        if title_end is None and _COLON.search(text, cand.start, cand.title_start):
            title_end = cand.title_start  # 附件8：事故废水三级防控体系一级防控：…: a header whose title is not told
    elif (_opens_sentence(text, start, cand.start) or (last and last.title_end == cand.start)) \
            and not _GLUED_PROSE.match(text, cand.title_start):
        # Glued, a title ends at a word that names what titles name only where the run expects this header.
        title_end = end_of_title(text, cand.title_start, limit, named=bool(last and _follows(last.label, cand.label)))
    else:
        return None
    return _Found(cand.label, cand.start, cand.title_start, title_end) if title_end is not None else None


def _with_content(text: str, end: int, run: list[_Found]) -> int:
    """How many headers of a run have content before the next (a header alone is an attachment whose table was
    lost; a run of nothing but headers is a list of them)."""
    stops = [found.start for found in run[1:]] + [end]
    return sum(_has_content(text, found.title_end, stop) for found, stop in zip(run, stops))


def _at_line_start(text: str, start: int, at: int) -> bool:
    """Only a heading's marks (## , **) between the line's start and `at`."""
    begin = max(start, at - MENTION_WINDOW)
    newline = text.rfind("\n", begin, at)
    lead = text[newline + 1 if newline >= 0 else begin : at]
    return (newline >= 0 or begin == start) and not lead.strip("#*> \t\u3000")


def _kind_of(label: str) -> str:
    return label[:2]


def _closes_line(text: str, start: int, end: int, found: _Found) -> bool:
    """A header after a sentence end whose title runs to the line's end, with more lines below it."""
    at_line_end = found.title_end == end or text[found.title_end] == "\n"
    if found.title_end == found.title_start:
        return False
    before = text[max(start, found.start - MENTION_WINDOW) : found.start]
    mid_line = found.start > start and text[found.start - 1] != "\n"
    return (at_line_end and mid_line and bool(re.search(r"[。！？!?；;]\s*$", before))
            and _has_content(text, found.title_end, end))


def _follows(previous: str, label: str) -> bool:
    """label is the next after previous: 附件2 after 附件1, 附件3-1 after 附件3, 附件4 after 附件3-2, 附录B after 附录A."""
    kind = _kind_of(label)
    if _kind_of(previous) != kind:
        return False
    prev, number = previous[len(kind) :].split("-"), label[len(kind) :].split("-")
    if all(p.isdigit() for p in prev + number):
        a, b = [int(p) for p in prev], [int(p) for p in number]
        return b == [a[0] + 1] or b == [a[0], 1] or (len(a) == len(b) == 2 and b == [a[0], a[1] + 1])
    return len(prev) == len(number) == 1 and len(prev[0]) == len(number[0]) == 1 and prev[0].isalpha() \
        and ord(number[0]) == ord(prev[0]) + 1


def _has_content(text: str, start: int, end: int) -> bool:
    return bool(text[start:end].strip())


def _mentioned(text: str, at: int) -> bool:
    return bool(_REFERS.search(text[max(0, at - MENTION_WINDOW) : at]))


def _opens_sentence(text: str, start: int, at: int) -> bool:
    return at == start or bool(_SENTENCE_END.search(text[max(start, at - 1) : at]))


def _common_prefix(a: str, b: str) -> str:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return a[:n]


def _header_breaks(text: str, end: int, found: _Found) -> list[int]:
    """Before the header (unless it opens its line), and after its title when content follows on its line: a line
    the line reader reads as a header with its title is never cut (splitting keeps such lines whole)."""
    out = [] if _at_line_start(text, 0, found.start) else [found.start]  # ## 附件：… keeps its heading marks
    line_end = end_of_line(text, found.title_end, end, TITLE_CHARS + 1)
    if text[found.title_end : line_end].strip():
        out.append(found.title_end)
    return out


def _list_breaks(text: str, end: int, lst: _List, headers: list[_Found]) -> list[int]:
    """Before the list and each entry, and after the last title when the text runs on past it."""
    out = [lst.start]
    if not lst.labelled:
        out.extend(e.mark for e in list(lst.entries.values())[1:])  # the first shares the list's line
    label, last = list(lst.entries.items())[-1]
    if not last.open:
        return [*out, last.end]
    header = next((h for h in headers if h.label == label), None)
    if header is None:
        return out
    shared = header.title_end - header.title_start
    runs_to = last.end if 0 < last.end - (last.begin + shared) <= TITLE_SLACK else last.begin + shared
    # the list may name it a little more fully, with a word titles end in (授权委托书格式 listed, 附件二：授权委托书)
    word = title_word_end(text, runs_to)
    return [*out, word if word is not None and word - runs_to <= TITLE_SLACK else runs_to]
