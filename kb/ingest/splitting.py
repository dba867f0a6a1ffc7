"""Automatic attachment splitting: find where each 附件/附录/附表 begins and ends inside a document."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.ingest.after_articles import TABLES_KIND, tables_after_articles
from kb.ingest.after_signoff import attachment_after_signoff
from kb.ingest.listed_headers import drop_closing_list, drop_listed
from kb.ingest.nested_headers import NextContent, OwnAttachments
from kb.ingest.header_lines import DECOR, FILE_NAME, HEADER, SEPARATOR, STATUS, is_header_line, is_title, is_toc_line
from kb.ingest.run_on import inline_breaks
from kb.labels import BARE_KIND, KIND, NUMBER, SPACE, make_label, normalize_kind
from kb.model import Attachment
from kb.text import unspace

# A title read from the first sentence of the paragraph below a bare header is shorter than a full title line.
MAX_SENTENCE_TITLE_CHARS = 40
# A header the run-on pass confirmed (附件2各病区疏散路线及集合点): the title may follow the number directly.
_GLUED_HEADER = re.compile(rf"^{KIND}{SPACE}(?P<number>{NUMBER})(?:{SEPARATOR})?(?P<title>.*?)\s*$")
_GLUED_UNNUMBERED = re.compile(rf"^{KIND}{SPACE}(?P<sep>[：:])?\s*(?P<title>.*?)\s*$")
# The kind alone (附件 / 附件： / 附件：标题): the header of a document's single unnumbered attachment.
# The title may follow after a space instead of a colon (附件 县级防汛物资储备定额表).
_UNNUMBERED = re.compile(rf"^{DECOR}{KIND}{SPACE}(?:(?P<sep>[：:]|\s)\s*(?P<title>.*?))?[*\s]*$")
# 附： (or 附:) on a line, the title after it or on the next line: the single attachment, marked by 附 and a colon;
# 另附： / 另附有： / 附有： (a notice appending its table "besides") mark it the same way.
# The colon makes it a marker: 附则, 附近, 附带…, ## 第九章 附则 and a sentence opening with 附 have none.
_FU_MARK = r"另?附有?"
_FU = re.compile(rf"^{DECOR}{_FU_MARK}{SPACE}[：:]\s*(?P<title>.*?)[*\s]*$")
FU_KIND = "附件"  # what 附： marks, and its label: a reader calls it the document's 附件
# After a space, a title does not open with a word that continues a sentence (附件 及其改装附件, 附件 所列物资…).
_CONTINUES = re.compile(r"^[及和与或的等由所为之中内应须均也是在按见以]")
# An attachment list: "附件：1、标题" (or "附件:" alone, entries on the next lines).
_LIST_HEAD = re.compile(rf"^{DECOR}(?:{KIND}|{_FU_MARK})\s*[：:]\s*(?P<rest>.*)$")
_LIST_ENTRY = re.compile(r"^\s*(?P<number>[0-9０-９]+)\s*[、.．。)）]\s*(?P<title>\S.*?)\s*$")
# A label that starts an entry inside one line: at the line's start or after a space, then a space or colon.
# 附件3（略）: the mark right after the number, no title.
_INLINE_LABEL = re.compile(rf"(?:^{DECOR}|(?<=\s)){KIND}{SPACE}(?P<number>{NUMBER})(?=[\s：:]|[（(]\s*(?:略|省略|从略)\s*[）)])")
# "Content left out": the marker a document prints in place of an attachment it does not reproduce.
OMITTED = re.compile(r"[（(]\s*(?:略|省略|从略)\s*[）)]|^\s*(?:略|省略|从略)\s*$")
# A sentence that opens like prose (本表由…填写。为规范…。) is not a title.
_FIRST_SENTENCE = re.compile(
    r"^(?!本|为|根据|依据|按照|依照|对|在|由|各|凡|如|若)(?P<title>[^。；;！？!?，,：:|]{2,%d})。" % MAX_SENTENCE_TITLE_CHARS
)
_NO_TITLE = frozenset({"无", "略", "（略）", "见下表", "附后"})


@dataclass(frozen=True)
class Line:
    start: int
    end: int
    text: str
    glued: bool = False  # a header found in running text (run_on): its title may follow its label unseparated


@dataclass(frozen=True)
class Split:
    """The attachments found, and the lines that are structure (headers, lists, ToC) rather than prose."""

    attachments: tuple[Attachment, ...]
    structural: tuple[tuple[int, int], ...]  # char spans that must not yield references
    listed_titles: dict[str, str]  # label → title named by an attachment list
    parts: dict[str, str] = field(default_factory=dict)  # 附表1-1 → 附件1: a header read as part of the one it sits in
    part_starts: tuple[int, ...] = ()  # where each part's header line begins: a chunk starts there
    own: dict[str, frozenset[str]] = field(default_factory=dict)  # 附件3 → {附件1, 附件2}: the labels of its own


@dataclass(frozen=True)
class _Header:
    order: int  # line index; entries of one line keep their order by start
    start: int
    end: int  # end of the header text (line end, or the end of an inline entry)
    kind: str
    title: str
    omitted: bool
    inline: bool  # an entry sharing its line with others: the attachment ends where the next entry starts


@dataclass(frozen=True)
class _Entry:
    kind: str
    number: str
    title: str
    start: int
    end: int


def lines_of(text: str, base: int = 0) -> list[Line]:
    """Every line of text with its char span (offset by base)."""
    out, pos = [], 0
    for raw in text.split("\n"):
        out.append(Line(base + pos, base + pos + len(raw), raw))
        pos += len(raw) + 1
    return out


def _reading_lines(text: str, start: int, end: int) -> list[Line]:
    """The lines a reader sees: the text's own, each cut where a list or header begins inside it (run_on), unless
    the line already reads as structure (a header line with its title, a line of entries, a closing list)."""
    lines = lines_of(text[start:end], start)
    cuts = inline_breaks(text, start, end)
    if not cuts.breaks and not cuts.headers:
        return lines
    out, i = [], 0
    for line in lines:
        inside = []
        while i < len(cuts.breaks) and cuts.breaks[i] < line.end:
            if cuts.breaks[i] > line.start:
                inside.append(cuts.breaks[i])
            i += 1
        if reads_as_structure(line):
            out.append(line)
            continue
        for begin, stop in zip([line.start, *inside], [*inside, line.end]):
            out.append(Line(begin, stop, text[begin:stop], begin in cuts.headers))
    return out


def reads_as_structure(line: Line) -> bool:
    """A line the line reader reads whole: a ToC entry, a header and its title, entries, a closing list."""
    if is_toc_line(line.text) or is_header_line(line.text) or _closing_list(line):
        return True
    entries = _inline_entries(line)
    return len(entries) > 1 or bool(entries and OMITTED.search(entries[0].title))


def split_attachments(text: str, start: int = 0, end: int | None = None) -> Split:
    """Split text[start:end] into its attachments; spans are absolute offsets in text."""
    end = len(text) if end is None else end
    lines = _reading_lines(text, start, end)
    structural: list[tuple[int, int]] = []
    listed, list_spans, list_entries = _attachment_lists(lines)
    structural.extend(list_spans)
    headers: dict[str, _Header] = {}
    header_lines: list[tuple[int, str, str]] = []  # every line read as a header, in order: (line index, label, title)
    nested: list[int] = []  # where an attachment's own attachment begins (附1 inside 附件1): a chunk starts there
    own = OwnAttachments(NextContent(lines), [(n, make_label(e.kind, e.number), e.title) for n, e in list_entries])
    in_list = {s for s, _ in list_spans}
    for i, line in enumerate(lines):
        if line.start in in_list:
            continue
        if is_toc_line(line.text):
            structural.append((line.start, line.end))
            continue
        closing = _closing_list(line)
        if closing:  # …并记录等级划定过程。附录A 标题 附录B 标题 …: the paragraph ends with the document's own list
            structural.append((closing[0].start, closing[-1].end))
            listed.update({make_label(e.kind, e.number): e.title for e in closing})
            continue
        entries = _inline_entries(line)
        if len(entries) > 1 or (entries and OMITTED.search(entries[0].title)):
            structural.append((line.start, line.end))
            if all(OMITTED.search(e.title) for e in entries):  # 附件一 …（略） 附件二 …（略）: named, left out
                for e in entries:
                    label = make_label(e.kind, e.number)
                    title = _omitted_title(e.title) or listed.get(label, "")  # 附件3（略）: titled by a list, if any
                    headers[label] = _Header(i, e.start, e.end, e.kind, title, True, True)
            else:  # 附录A 标题 附录B 标题 …: the document's own list of its attachments
                listed.update({make_label(e.kind, e.number): e.title for e in entries if is_title(e.title)})
            continue
        match = HEADER.match(line.text) or (_GLUED_HEADER.match(line.text) if line.glued else None)
        if not match:
            continue
        if FILE_NAME.search(line.text):  # 附件1.docx: a link to the file, not where the attachment begins
            structural.append((line.start, line.end))
            continue
        title = STATUS.sub("", (match.group("title") or "").strip()).strip()
        if title and not is_title(title):
            continue
        kind, number = normalize_kind(match.group("kind")), match.group("number")
        label = make_label(kind, number)
        if not title:
            earlier = headers[label].title if label in headers else ""  # a list or ToC line named it first
            below, named = _title_below(lines, i), listed.get(label, "") or earlier
            if below and named.startswith(below) and len(named) > len(below):
                below = named  # a title over two lines (重庆市领取…行为 / 举报奖励资金授权委托书): the list has it whole
            elif named and below.startswith(named):
                below = named  # 风险物质及临界量清单 序号 物质名称 …: the title runs on into the table; the list ends it
            title = below or named or _first_sentence_below(lines, i)
        if own.holds(label, re.sub(r"\s", "", match.group("kind")), title, i, headers, header_lines):  # 附件1 方案 … 附1: its own
            nested.append(line.start)
            structural.append((line.start, line.end))
            continue
        # A later header with the same label wins: the earlier one was a ToC or list line.
        headers[label] = _Header(i, line.start, line.end, kind, title, False, False)
        header_lines.append((i, label, title))
    drop_listed(lines, headers, header_lines, listed, structural)
    drop_closing_list(lines, headers, header_lines, listed, structural)
    for n, entry in list_entries:  # 附件：1．值班记录表（略）: listed, and left out, so this line is all there is
        label = make_label(entry.kind, entry.number)
        if label not in headers and OMITTED.search(entry.title):
            headers[label] = _Header(n, entry.start, entry.end, entry.kind, _omitted_title(entry.title), True, True)
    if not headers:
        headers = _unnumbered(lines, in_list, listed, structural)
    if not headers:
        signed = attachment_after_signoff([line.text for line in lines])
        if signed:  # …（见附件） / 党政办 / 8月29日 / 献血需知: …: the text below the date is the attachment
            at, title = signed
            headers[BARE_KIND] = _Header(at, lines[at].start, lines[at].end, BARE_KIND, title, False, False)
    if not headers:
        tables = tables_after_articles([line.text for line in lines])
        if tables:  # …（税额表附后）… / the last article / 车船税税额表一 / 级数 | …: the tables are the law's 附表
            at, title = tables
            headers[TABLES_KIND] = _Header(at, lines[at].start, lines[at].end, TABLES_KIND, title, False, False)
    ordered = sorted(headers.items(), key=lambda item: (item[1].order, item[1].start))
    parts = _parts(text, ordered)
    part_starts = list(nested)
    for label in parts:
        head = headers[label]
        structural.append((lines[head.order].start, lines[head.order].end))
        part_starts.append(lines[head.order].start)
    ordered = [(label, head) for label, head in ordered if label not in parts]
    attachments: list[Attachment] = []
    for n, (label, head) in enumerate(ordered):
        stop = ordered[n + 1][1].start if n + 1 < len(ordered) else end
        if head.inline:  # an entry on a shared line: it holds nothing past its line
            stop = min(stop, lines[head.order].end)
        stop = head.start + len(text[head.start : stop].rstrip())
        stop = max(stop, head.end)
        omitted = head.omitted or _content_omitted(text[head.end : stop])
        title = _unquoted(unspace(head.title))
        attachments.append(Attachment(label, head.kind, label[len(head.kind) :], title, head.start, stop, omitted))
        if not head.inline:
            structural.append((lines[head.order].start, lines[head.order].end))
    listed = {label: _unquoted(title) for label, title in listed.items()}
    owned = {label: frozenset(held) for label, held in own.own.items()}
    return Split(tuple(attachments), tuple(sorted(structural)), listed, parts, tuple(sorted(part_starts)), owned)


def _parts(text: str, ordered: list[tuple[str, _Header]]) -> dict[str, str]:
    """The headers that are parts of the attachment they sit in, as a reader reads 附件1 as holding them: another
    kind numbered under its number (附表1-1 and 附表1-2 inside 附件1, before 附件2), or any header of another kind
    under an attachment that holds nothing of its own before them (附件1 资格审查条件要求, then 附录1 … 附录5),
    up to the next header of its kind. 附件3-1 after 附件3 is an attachment of its own, as its kind says."""
    parts: dict[str, str] = {}
    parent: tuple[str, _Header] | None = None
    container = False
    for n, (label, head) in enumerate(ordered):
        number = label[len(head.kind):]
        other = parent is not None and not head.inline and head.kind != parent[1].kind
        if other and (container or ("-" in number and number.split("-")[0] == parent[0][len(parent[1].kind):])):
            parts[label] = parent[0]
            continue
        parent = (label, head)
        following = ordered[n + 1][1] if n + 1 < len(ordered) else None
        container = (not head.inline and following is not None and following.kind != head.kind
                     and not text[head.end:following.start].strip())
    return parts


def _unnumbered(
    lines: list[Line], in_list: set[int], listed: dict[str, str], structural: list[tuple[int, int]]
) -> dict[str, _Header]:
    """A document without numbered attachments may have one labelled by its kind alone (附件：, then its title).

    When the kind-alone line occurs twice (附件：矿产资源分类细目 … 附件 / 矿产资源分类细目), the first names the
    attachment and the last begins it, as with a list before numbered headers."""
    found: dict[str, _Header] = {}
    for i, line in enumerate(lines):
        match = None if line.start in in_list else (_UNNUMBERED.match(line.text) or _FU.match(line.text)
                                                    or (_GLUED_UNNUMBERED.match(line.text) if line.glued else None))
        if not match:
            continue
        kind, title = _kind_of(match), (match.group("title") or "").strip()
        if title and not is_title(title) or title.startswith(("（", "(")):
            continue  # 附件：（按顺序列明…） is a template line, not a header
        if (match.groupdict().get("sep") or "").isspace() and _CONTINUES.match(title):
            continue
        title = title or _title_below(lines, i) or listed.get(kind, "")
        if len(title) < 2 or title in _NO_TITLE or re.search(r"[：:]", title):  # 附件： / 抄送：… is a form field
            continue  # the word on a line of its own with nothing it could be the header of, or 附件：无
        if kind in found:
            earlier = found[kind]
            structural.append((lines[earlier.order].start, lines[earlier.order].end))
            title = title or earlier.title
        found[kind] = _Header(i, line.start, line.end, kind, title, False, False)
    return found if len(found) == 1 else {}


def _kind_of(match: re.Match[str]) -> str:
    """The kind a header names: 附件/附录/附表 as written, 附件 for a bare 附：."""
    kind = match.groupdict().get("kind")
    return normalize_kind(kind) if kind else FU_KIND


def _inline_entries(line: Line) -> list[_Entry]:
    """The label-and-title entries of one line (附件一 甲（略） 附件二 乙（略）); [] unless it starts with a label."""
    matches = list(_INLINE_LABEL.finditer(line.text))
    if not matches or matches[0].start() != 0:
        return []
    entries = []
    for n, match in enumerate(matches):
        stop = matches[n + 1].start() if n + 1 < len(matches) else len(line.text)
        segment = line.text[match.end() : stop]
        title = segment.strip().lstrip("：: ").rstrip("* ").strip()
        end = match.end() + len(segment.rstrip())
        begin = match.start("kind")
        kind = normalize_kind(match.group("kind"))
        entries.append(_Entry(kind, match.group("number"), title, line.start + begin, line.start + end))
    return entries


def _closing_list(line: Line) -> list[_Entry]:
    """The label-and-title entries that close a paragraph after its last sentence (…。附录A 甲 附录B 乙)."""
    cut = max(line.text.rfind("。"), line.text.rfind("；"))
    if cut < 0:
        return []
    tail = line.text[cut + 1 :]
    stripped = tail.lstrip()
    entries = _inline_entries(Line(line.start + len(line.text) - len(stripped), line.end, stripped))
    if len(entries) < 2 or not all(e.title and is_title(e.title) and not OMITTED.search(e.title) for e in entries):
        return []
    return entries


def _unquoted(title: str) -> str:
    """A title written as one quoted name (附件1：《检技通学习记录表》；) is the name: 检技通学习记录表."""
    name = title.rstrip("；;。，, ")
    if name.startswith("《") and name.endswith("》") and name.count("《") == 1:
        return name[1:-1].strip()
    return title


def _omitted_title(raw: str) -> str:
    """The title of an omitted entry: its items without the 略 marks; parts (一)(二) of one item read as one."""
    items = [item.strip() for item in OMITTED.split(raw) if item.strip()]
    stems = {re.sub(r"[（(][一二三四五六七八九十0-9]+[）)]$", "", item) for item in items}
    return stems.pop() if len(stems) == 1 else " ".join(items)


def _content_omitted(content: str) -> bool:
    """Content that is nothing but a 略 mark, or a title line that ends in one."""
    lines = [line.strip() for line in content.splitlines() if line.strip()]
    return len(lines) == 1 and bool(OMITTED.fullmatch(lines[0]))


def _title_below(lines: list[Line], i: int) -> str:
    """The title of a bare header line: the next non-empty line when it reads like a title."""
    for line in lines[i + 1 : i + 5]:
        candidate = STATUS.sub("", line.text.strip()).strip("#* ").strip()
        if not candidate:
            continue  # a blank line, or a status line alone: (资料性附录)
        if HEADER.match(line.text) or not is_title(candidate) or "|" in candidate:
            return ""
        return candidate
    return ""


def _first_sentence_below(lines: list[Line], i: int) -> str:
    """A title written as the first sentence of the paragraph below (企业风险等级划分方法。通过定量分析…)."""
    for line in lines[i + 1 : i + 4]:
        candidate = line.text.strip().strip("#* ").strip()
        if not candidate:
            continue
        match = _FIRST_SENTENCE.match(candidate)
        return match.group("title").strip() if match and not HEADER.match(line.text) else ""
    return ""


def _attachment_lists(lines: list[Line]) -> tuple[dict[str, str], list[tuple[int, int]], list[tuple[int, _Entry]]]:
    """Titles named by lists like '附件：1、… 2、…': label → title, the list's line spans, (line index, entry)."""
    titles: dict[str, str] = {}
    spans: list[tuple[int, int]] = []
    listed: list[tuple[int, _Entry]] = []
    i = 0
    while i < len(lines):
        head = _LIST_HEAD.match(lines[i].text)
        if not head:
            i += 1
            continue
        kind, rest = _kind_of(head), head.group("rest").strip()
        first = _LIST_ENTRY.match(rest) if rest else None
        if rest and not first:
            i += 1  # "附件：（按顺序列明…）" is a template line, not a list
            continue
        entries = [(i, lines[i], first, head.start("rest"))] if first else []
        j = i + 1
        while j < len(lines):
            text = lines[j].text
            entry = _LIST_ENTRY.match(text)
            if entry and is_title(entry.group("title")):
                entries.append((j, lines[j], entry, 0))
            elif text.strip():
                break
            j += 1
        if not entries:
            i += 1
            continue
        spans.append((lines[i].start, lines[i].end))
        for n, line, entry, offset in entries:
            title = entry.group("title").strip()
            titles.setdefault(make_label(kind, entry.group("number")), title)  # an attachment's own list names its own
            spans.append((line.start, line.end))
            begin = line.start + offset + entry.start("number")
            listed.append((n, _Entry(kind, entry.group("number"), title, begin, line.end)))
        i = j
    return titles, spans, listed
