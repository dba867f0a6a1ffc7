"""Reference extraction: every mention of an attachment (详见附件11, 附件一和附件二, 所附《…》) inside one document."""
from __future__ import annotations

import bisect
import re
from typing import Mapping, Sequence

from kb.ingest.after_articles import POINTER as APPENDED
from kb.ingest.cited_documents import ExternalCitations
from kb.labels import KIND, KIND_WORD, NUMBER, SPACE, make_label, normalize_kind
from kb.model import BODY, Attachment, Reference
from kb.ingest.title_mentions import alias_references, inner_titles, shortened_title_references
from kb.text import squash

_JOIN = rf"{SPACE}(?:和|及|与|、|或|至|到|以及){SPACE}"
# 详见附件11 / 见附件4 / 附件一和附件二 / 附件五、六 / 附件1至附件3
_MENTION = re.compile(
    rf"(?P<lead>(?:详见|参见|见|按照|按|依照|依据|填写|使用)?)(?P<head>{KIND}{SPACE}(?P<number>{NUMBER}))"
    rf"(?P<tail>(?:{_JOIN}(?:{KIND_WORD}{SPACE})?{NUMBER})*)"
)
_TAIL_ITEM = re.compile(rf"(?P<join>{_JOIN})(?:(?P<kind>{KIND_WORD}){SPACE})?(?P<number>{NUMBER})")
# The kind alone names a document's single unnumbered attachment when the sentence points at it:
# 详见附件 / 按照附件 / 本办法附件 (not 安全附件, and not 附件《标题》, which the title reference covers).
_BARE = re.compile(
    rf"(?P<lead>详见|参见|见|按照|依照|依据|本(?:条例|办法|规定|细则|法|规则|预案|指南|标准|通知|决定|方案))"
    rf"(?P<head>{KIND})(?!{SPACE}(?:{NUMBER}|《))"
)
_SELF = ("本", "此")  # 本附件 / 此附件 speak of the attachment they sit in
# A standard numbers what its appendix holds by the appendix's letter (GB/T 1.1): 表A.1, 图B.2, 式（A.3）, and a
# clause cited as 见A.2 / 按A.3.1 are in 附录A / 附录B.
_ANNEX_PART = re.compile(
    r"(?:(?P<item>表|图|公式|式)\s*[（(]?|(?P<lead>详见|参见|见|按照|按|依照|依据|符合|参照)\s*)"
    r"(?<![A-Za-z0-9])(?P<letter>[A-Z])\s*[.．]\s*[0-9]+(?:\s*[.．]\s*[0-9]+)*(?![0-9A-Za-z])"
)
ANNEX = "附录"  # the kind a standard's lettered appendix has
_TITLE = re.compile(r"[《“\"](?P<title>[^《》“”\"\n]{2,60})[》”\"]")


def extract_references(
    text: str,
    attachments: Sequence[Attachment],
    skip_spans: Sequence[tuple[int, int]] = (),
    start: int = 0,
    document_title: str = "",
    parts: Mapping[str, str] | None = None,
    listed: Mapping[str, str] | None = None,
    own: Mapping[str, frozenset[str]] | None = None,
) -> tuple[Reference, ...]:
    """All references in text[start:], ordered by position; dangling ones have target None.

    `document_title` keeps 《<this document>》附录B the document's own rather than a cited one's. `parts` maps a
    label read as part of another attachment to it (附表1-2 → 附件1): a mention of the part leads to the whole.
    `listed` maps labels to the titles the document's own list gives them: a title listed for an attachment the
    text does not hold names that missing one, never another that shares its words. `own` maps an attachment to
    the labels of the attachments it carries itself (a plan's own 附件1 … 附件3, numbered again inside it): there a
    mention of 附件2 names the plan's own, part of it, not the document's 附件2."""
    labels = {a.label for a in attachments}
    within = dict(parts or {})
    owner = _Owner(attachments)
    skip = _Spans(skip_spans)
    own_titles = {_norm(t) for t in [*(a.title for a in attachments), *(listed or {}).values()] if t}
    external = ExternalCitations(text, own_titles, document_title)
    found: list[Reference] = []
    for match in _MENTION.finditer(text, start):
        at = match.start("head")
        kind = normalize_kind(match.group("kind"))
        if skip.covers(at) or text[max(0, at - 1) : at] in _SELF or external.quotes(at, owner.span(at), kind):
            continue
        source = owner.of(at)
        mention = match.group(0)
        for label in _labels_of(match):
            if label in (own or {}).get(source, ()):
                continue  # the attachment's own, inside it
            target = label if label in labels else within.get(label)
            if source in (label, target):
                continue  # an attachment naming itself, or a table of its own
            found.append(Reference(label, mention, match.start(), match.end(), source, target))
    for match in _BARE.finditer(text, start):
        label = normalize_kind(match.group("kind"))
        at = match.start("head")
        if skip.covers(at) or owner.of(at) == label:
            continue
        if label in labels:
            found.append(Reference(label, match.group(0), match.start(), match.end(), owner.of(at), label))
        elif match.group("lead").startswith("本") and not any(a.kind == label for a in attachments):
            # 本办法附录所列…, and no 附录 attached: the document cites its attachment, which is not there
            found.append(Reference(label, match.group(0), match.start(), match.end(), owner.of(at), None))
    for match in _ANNEX_PART.finditer(text, start):
        label, at = make_label(ANNEX, match.group("letter")), match.start("letter")
        source = owner.of(at)
        if label in labels and label != source and not skip.covers(at) \
                and not external.quotes(match.start(), owner.span(at), ANNEX):
            found.append(Reference(label, match.group(0), match.start(), match.end(), source, label))
    # a title the document's list gives an attachment that is there names it as its header's title does (学员推荐表
    # listed, 附件2：/ 绍兴市…学员推荐表 at the header)
    present = {_norm(title): label for label, title in (listed or {}).items() if title and label in labels}
    by_title = {**present, **inner_titles(text, attachments), **{_norm(a.title): a.label for a in attachments if a.title}}
    for match in _TITLE.finditer(text, start):
        label = by_title.get(_norm(match.group("title")))
        if label is None or skip.covers(match.start()):
            continue
        source = owner.of(match.start())
        if label != source:
            found.append(Reference(label, match.group(0), match.start(), match.end(), source, label))
    for match in APPENDED.finditer(text, start):  # 税额表附后: the tables after the law's last article, by its name
        label = by_title.get(_norm(match.group("noun")))
        source = owner.of(match.start())
        if label is not None and label != source and not skip.covers(match.start()):
            found.append(Reference(label, match.group(0), match.start(), match.end(), source, label))
    taken = _Spans([(r.start, r.end) for r in found])
    aliases = list(alias_references(text, found, start))
    # A title written out beside its label (汛情信息报告表的格式见附件10) is one mention of it, not two.
    named = {(label, sentence_of(text, r.start)) for r in found if (label := r.target)}
    absent = {label: title for label, title in (listed or {}).items() if label not in labels and label not in within}
    titles = [t for t in shortened_title_references(text, attachments, absent) if (t[0], sentence_of(text, t[1])) not in named]
    for label, begin, stop in [*aliases, *titles]:
        source = owner.of(begin)
        if begin >= start and label != source and not skip.covers(begin) and not taken.overlaps(begin, stop):
            found.append(Reference(label, text[begin:stop], begin, stop, source, label))
    found.sort(key=lambda r: (r.start, r.label))
    return tuple(found)


_SENTENCE_ENDS = "。；;！!？?\n"


def sentence_of(text: str, pos: int) -> int:
    """Where the sentence holding pos begins (after the last 。；！？ or line break before it, 1,000 chars back at most)."""
    begin = max(0, pos - 1000)
    return max(begin, max(text.rfind(end, begin, pos) + 1 for end in _SENTENCE_ENDS))


def _labels_of(match: re.Match[str]) -> list[str]:
    """The labels one mention names, ranges (附件1至附件3) expanded."""
    kind = normalize_kind(match.group("kind"))
    labels = [make_label(kind, match.group("number"))]
    for item in _TAIL_ITEM.finditer(match.group("tail")):
        kind = normalize_kind(item.group("kind")) if item.group("kind") else kind
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

    def span(self, pos: int) -> tuple[int, int]:
        """Where the owner of pos begins, and where the next attachment begins (or None → end of text)."""
        i = bisect.bisect_right(self._starts, pos) - 1
        if i >= 0 and pos < self._items[i].end:
            return self._items[i].start, self._items[i].end
        begin = self._items[i].end if i >= 0 else 0
        stop = self._starts[i + 1] if i + 1 < len(self._starts) else 1 << 62
        return begin, stop


class _Spans:
    def __init__(self, spans: Sequence[tuple[int, int]]) -> None:
        self._spans = sorted(spans)
        self._starts = [s for s, _ in self._spans]

    def covers(self, pos: int) -> bool:
        i = bisect.bisect_right(self._starts, pos) - 1
        return i >= 0 and pos < self._spans[i][1]

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self._starts, end) - 1
        return any(s < end and start < e for s, e in self._spans[max(0, i - 8) : i + 1])
