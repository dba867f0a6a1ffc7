"""Reference extraction: every mention of an attachment (详见附件11, 附件一和附件二, 所附《…》) inside one document."""
from __future__ import annotations

import bisect
import re
from typing import Sequence

from kb.labels import KIND, NUMBER, make_label
from kb.model import BODY, Attachment, Reference
from kb.text import squash

_JOIN = r"\s*(?:和|及|与|、|或|至|到|以及)\s*"
# 详见附件11 / 见附件4 / 附件一和附件二 / 附件五、六 / 附件1至附件3
_MENTION = re.compile(
    rf"(?P<lead>(?:详见|参见|见|按照|按|依照|依据|填写|使用)?)(?P<head>{KIND}\s*(?P<number>{NUMBER}))"
    rf"(?P<tail>(?:{_JOIN}(?:(?:附件|附录|附表)\s*)?{NUMBER})*)"
)
_TAIL_ITEM = re.compile(rf"(?P<join>{_JOIN})(?:(?P<kind>附件|附录|附表)\s*)?(?P<number>{NUMBER})")
_SELF = ("本", "此")  # 本附件 / 此附件 speak of the attachment they sit in
_TITLE = re.compile(r"[《“\"](?P<title>[^《》“”\"\n]{2,60})[》”\"]")


def extract_references(
    text: str,
    attachments: Sequence[Attachment],
    skip_spans: Sequence[tuple[int, int]] = (),
    start: int = 0,
) -> tuple[Reference, ...]:
    """All references in text[start:], ordered by position; dangling ones have target None."""
    labels = {a.label for a in attachments}
    owner = _Owner(attachments)
    skip = _Spans(skip_spans)
    found: list[Reference] = []
    for match in _MENTION.finditer(text, start):
        at = match.start("head")
        if skip.covers(at) or text[max(0, at - 1) : at] in _SELF:
            continue
        source = owner.of(at)
        mention = match.group(0)
        for label in _labels_of(match):
            if label == source:
                continue  # an attachment naming itself
            found.append(
                Reference(label, mention, match.start(), match.end(), source, label if label in labels else None)
            )
    by_title = {_norm(a.title): a.label for a in attachments if a.title}
    for match in _TITLE.finditer(text, start):
        label = by_title.get(_norm(match.group("title")))
        if label is None or skip.covers(match.start()):
            continue
        source = owner.of(match.start())
        if label != source:
            found.append(Reference(label, match.group(0), match.start(), match.end(), source, label))
    found.sort(key=lambda r: (r.start, r.label))
    return tuple(found)


def _labels_of(match: re.Match[str]) -> list[str]:
    """The labels one mention names, ranges (附件1至附件3) expanded."""
    kind = match.group("kind")
    labels = [make_label(kind, match.group("number"))]
    for item in _TAIL_ITEM.finditer(match.group("tail")):
        kind = item.group("kind") or kind
        label = make_label(kind, item.group("number"))
        previous = labels[-1]
        if item.group("join").strip() in ("至", "到") and _is_int(previous, kind) and _is_int(label, kind):
            low, high = int(previous[len(kind) :]), int(label[len(kind) :])
            labels.extend(f"{kind}{n}" for n in range(low + 1, min(high, low + 50)))
        labels.append(label)
    return list(dict.fromkeys(labels))


def _is_int(label: str, kind: str) -> bool:
    return label.startswith(kind) and label[len(kind) :].isdigit()


def _norm(title: str) -> str:
    return squash(title)


class _Owner:
    """Which attachment (or the body) a char offset falls in."""

    def __init__(self, attachments: Sequence[Attachment]) -> None:
        ordered = sorted(attachments, key=lambda a: a.start)
        self._starts = [a.start for a in ordered]
        self._items = ordered

    def of(self, pos: int) -> str:
        i = bisect.bisect_right(self._starts, pos) - 1
        if i >= 0 and pos < self._items[i].end:
            return self._items[i].label
        return BODY


class _Spans:
    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        self._spans = sorted(spans)
        self._starts = [s for s, _ in self._spans]

    def covers(self, pos: int) -> bool:
        i = bisect.bisect_right(self._starts, pos) - 1
        return i >= 0 and pos < self._spans[i][1]
