"""Automatic attachment splitting: find where each 附件/附录/附表 begins and ends inside a document."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.labels import KIND, NUMBER, make_label
from kb.model import Attachment

MAX_TITLE_CHARS = 60
# Decoration around a header line: Markdown heading marks, bold, list bullets.
_DECOR = r"[#*\s>]*"
_SEPARATOR = r"(?:\**\s*[：:、.．\-－—–_]+\s*|\**\s+)"
_HEADER = re.compile(rf"^{_DECOR}{KIND}\s*(?P<number>{NUMBER})(?:{_SEPARATOR}(?P<title>.*?))?[*\s]*$")
# Table-of-contents entry: a tab, dot leaders or a wide gap, then a page number.
_TOC_TAIL = re.compile(r"(?:\t|[.·…]{2,}|\s{2,}|…)\s*\d+\s*$")
# An attachment list: "附件：1、标题" (or "附件:" alone, entries on the next lines).
_LIST_HEAD = re.compile(rf"^{_DECOR}{KIND}\s*[：:]\s*(?P<rest>.*)$")
_LIST_ENTRY = re.compile(r"^\s*(?P<number>[0-9０-９]+)\s*[、.．。)）]\s*(?P<title>\S.*?)\s*$")
_SENTENCE_PUNCT = re.compile(r"[。；;！？!?，,]")


@dataclass(frozen=True)
class Line:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Split:
    """The attachments found, and the lines that are structure (headers, lists, ToC) rather than prose."""

    attachments: tuple[Attachment, ...]
    structural: tuple[tuple[int, int], ...]  # char spans that must not yield references
    listed_titles: dict[str, str]  # label → title named by an attachment list


def lines_of(text: str, base: int = 0) -> list[Line]:
    """Every line of text with its char span (offset by base)."""
    out, pos = [], 0
    for raw in text.split("\n"):
        out.append(Line(base + pos, base + pos + len(raw), raw))
        pos += len(raw) + 1
    return out


def split_attachments(text: str, start: int = 0, end: int | None = None) -> Split:
    """Split text[start:end] into its attachments; spans are absolute offsets in text."""
    end = len(text) if end is None else end
    lines = lines_of(text[start:end], start)
    structural: list[tuple[int, int]] = []
    listed, list_spans = _attachment_lists(lines)
    structural.extend(list_spans)
    headers: dict[str, tuple[int, Line, str, str, str]] = {}
    in_list = {s for s, _ in list_spans}
    for i, line in enumerate(lines):
        if line.start in in_list:
            continue
        if is_toc_line(line.text):
            structural.append((line.start, line.end))
            continue
        match = _HEADER.match(line.text)
        if not match:
            continue
        title = (match.group("title") or "").strip()
        if title and not _is_title(title):
            continue
        kind, number = match.group("kind"), match.group("number")
        label = make_label(kind, number)
        if not title:
            title = _title_below(lines, i) or listed.get(label, "")
        # A later header with the same label wins: the earlier one was a ToC or list line.
        headers[label] = (i, line, kind, number, title)
    ordered = sorted(headers.items(), key=lambda item: item[1][0])
    attachments: list[Attachment] = []
    for n, (label, (i, line, kind, number, title)) in enumerate(ordered):
        stop = ordered[n + 1][1][1].start if n + 1 < len(ordered) else end
        stop = start + len(text[start:stop].rstrip()) if stop > line.start else stop
        stop = max(stop, line.end)
        attachments.append(Attachment(label, kind, label[len(kind):], title, line.start, stop))
        structural.append((line.start, line.end))
    return Split(tuple(attachments), tuple(sorted(structural)), listed)


def is_toc_line(line: str) -> bool:
    """A table-of-contents entry naming an attachment (附件4：应急物资清单<TAB>98)."""
    return bool(_TOC_TAIL.search(line) and _HEADER.match(_TOC_TAIL.sub("", line)))


def is_header_line(line: str) -> bool:
    """A line that would start an attachment (附件2-应急通讯录, a bare 附件4)."""
    match = _HEADER.match(line)
    return bool(match) and (not match.group("title") or _is_title(match.group("title").strip()))


def _is_title(title: str) -> bool:
    return len(title) <= MAX_TITLE_CHARS and not _SENTENCE_PUNCT.search(title) and not title.startswith("|")


def _title_below(lines: list[Line], i: int) -> str:
    """The title of a bare header line: the next non-empty line when it reads like a title."""
    for line in lines[i + 1 : i + 4]:
        candidate = line.text.strip().strip("#* ").strip()
        if not candidate:
            continue
        if _HEADER.match(line.text) or not _is_title(candidate) or "|" in candidate:
            return ""
        return candidate
    return ""


def _attachment_lists(lines: list[Line]) -> tuple[dict[str, str], list[tuple[int, int]]]:
    """Titles named by lists like '附件：1、… 2、…'; returns label → title and the list's line spans."""
    titles: dict[str, str] = {}
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        head = _LIST_HEAD.match(lines[i].text)
        if not head:
            i += 1
            continue
        kind, rest = head.group("kind"), head.group("rest").strip()
        first = _LIST_ENTRY.match(rest) if rest else None
        if rest and not first:
            i += 1  # "附件：（按顺序列明…）" is a template line, not a list
            continue
        entries = [(lines[i], first)] if first else []
        j = i + 1
        while j < len(lines):
            text = lines[j].text
            entry = _LIST_ENTRY.match(text)
            if entry and _is_title(entry.group("title")):
                entries.append((lines[j], entry))
            elif text.strip():
                break
            j += 1
        if not entries:
            i += 1
            continue
        spans.append((lines[i].start, lines[i].end))
        for line, entry in entries:
            titles[make_label(kind, entry.group("number"))] = entry.group("title").strip()
            spans.append((line.start, line.end))
        i = j
    return titles, spans
