"""Attachments that arrive as their own files: 附件XX-名称.docx, <文档名>-附件XX-名称.docx, <文档名>附件XX.docx."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kb.labels import KIND, NUMBER, make_label, normalize_kind

# 附件1-名称 / <文档名>-附件1-名称 / <文档名>附件1 / <文档名>（附件1：名称） / 附件：名称 (a single unnumbered one). A name
# needs its number or its title after the kind: 附件管理办法 and 国家标准附录 are documents.
_NAME = re.compile(
    rf"^(?:(?P<parent>.+?)\s*(?:[-_—－]\s*|(?P<open>[（(])\s*)?)??{KIND}\s*(?P<number>{NUMBER})?"
    rf"(?:\s*[)）]\s*$|(?:\s*[-_—－：:、.．\s]+\s*(?P<title>.+?))?\s*$)"
)
_CLOSE = re.compile(r"\s*[)）]$")


@dataclass(frozen=True)
class PresplitName:
    """What a pre-split attachment's file name says: its parent (if named), label and title."""

    parent: str | None  # stem of the parent document, when the name carries it
    kind: str
    label: str
    title: str


def presplit_name(path: Path | str) -> PresplitName | None:
    """Parse a pre-split attachment's file name, or None when the file is an ordinary document."""
    stem = Path(path).stem
    match = _NAME.match(stem)
    if not match or not (match.group("number") or match.group("title")):
        return None
    kind = normalize_kind(match.group("kind"))
    title = (match.group("title") or "").strip()
    return PresplitName(
        parent=match.group("parent"),
        kind=kind,
        label=make_label(kind, match.group("number") or ""),
        title=_CLOSE.sub("", title) if match.group("open") else title,
    )
