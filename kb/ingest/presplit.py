"""Attachments that arrive as their own files: 附件XX-名称.docx or <文档名>-附件XX-名称.docx."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from kb.labels import KIND, NUMBER, make_label, normalize_kind

_NAME = re.compile(
    rf"^(?:(?P<parent>.+?)\s*[-_—－]\s*)?{KIND}\s*(?P<number>{NUMBER})(?:\s*[-_—－：:\s]+\s*(?P<title>.+?))?\s*$"
)


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
    if not match:
        return None
    kind = normalize_kind(match.group("kind"))
    return PresplitName(
        parent=match.group("parent"),
        kind=kind,
        label=make_label(kind, match.group("number")),
        title=(match.group("title") or "").strip(),
    )
