"""Citations as HTML: per document, the source text around each cited span, the span and the answer's facts marked.

Every string that comes from a document (titles, labels, mentions, text) goes through `h()`; only the markup
written here is HTML.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from ui.icons import icon
from ui.library.render import library_badge
from ui.safe import clip, h

CONTEXT = 90  # characters of plain context shown before and after a cited span
MAX_MARKED = 700  # a longer cited span is shown in part; the source view shows it whole
SOURCE_CONTEXT = 300  # context around the spans in the source view
SOURCE_MAX = 8000  # characters of one source view
EMPTY = '<div class="annex-empty">提问后，这里按文档列出回答引用的原文，被引用的片段高亮显示。</div>'
PENDING = '<div class="annex-empty">检索中…</div>'

_NUMBER = re.compile(r"\d[\d\-.．:：/]*\d")
_CITE = re.compile(r"\s*\[\d+(?:\s*[,，、]\s*\d+)*\]")
_LIST = re.compile(r"^\s*(?:[-*•]|\d+[.．、])\s*")
_TABLE_ROW = re.compile(r"[^\n]*\|")
_RULE = re.compile(r"[\s|:\-]*-{3,}[\s|:\-]*")  # a Markdown table's | --- | line
_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]+")
_NOWRAP = re.compile(r"\d[\d\-－]{5,}\d")  # a phone number or a long figure: one unbreakable run


def answer_terms(answer: str) -> list[str]:
    """Strings of the answer worth marking in its sources: its quoted sentences, table values and numbers."""
    terms: set[str] = set()
    for line in answer.splitlines():
        line = _CITE.sub("", _LIST.sub("", line)).strip().strip("*")
        if len(line) >= 6:
            terms.add(line)
        for part in re.split(r"[；;]", line):
            value = re.split(r"[：:]", part)[-1].strip()
            if len(value) >= 4:
                terms.add(value)
        terms.update(n for n in _NUMBER.findall(line) if len(n) >= 3)
    return sorted(terms, key=len, reverse=True)


def how_reached(source: Mapping) -> str:
    """How a source got into the answer: search, a graph hop before the answer, or the post-answer hop."""
    if source.get("via") == "post_hop":
        return "回答后图谱跳转"
    if source.get("prefetched"):
        return f"图谱预取 · 经“{source.get('via', '')}”"
    return "检索命中附件" if source.get("label") else "检索命中"


def where(source: Mapping) -> str:
    """`[n] 附件12 事故应急池…` or `[n] 正文`, and `· 第3页` for a PDF's source."""
    label = f"{source.get('label', '')} {source.get('title', '')}".strip() or "正文"
    page = f" · {source['page']}" if source.get("page") else ""
    return f"[{source['n']}] {label}{page}"


def citation_choices(docs: Sequence[Mapping], sources: Sequence[Mapping]) -> list[tuple[str, int]]:
    """(label, n) for every cited source, document by document, for the citation selector."""
    by_n = {s["n"]: s for s in sources}
    choices = []
    for doc in docs:
        for n in doc.get("sources", ()):
            if n in by_n:
                choices.append((clip(f"{where(by_n[n])} · {doc['title']}", 80), n))
    return choices


def render_citations(
    docs: Sequence[Mapping], sources: Sequence[Mapping], texts: Mapping[str, str | None], answer: str = ""
) -> str:
    """Every referenced document with its cited spans in context."""
    if not docs:
        return EMPTY
    terms = answer_terms(answer)
    cards = [_doc_card(doc, [s for s in sources if s["doc_id"] == doc["doc_id"]], texts.get(doc["doc_id"]), terms)
             for doc in docs]
    return f'<div class="annex-cites">{"".join(cards)}</div>'


def render_source(source: Mapping | None, text: str | None, answer: str = "") -> str:
    """One cited source in full: where it comes from, how it was reached, its text with the spans marked."""
    if source is None:
        return '<div class="annex-empty">选择一条引用，查看它的原文。</div>'
    head = (f'<div class="cite-where">{h(where(source))} · 《{h(source["doc_title"])}》'
            f'<span class="cite-how">{h(how_reached(source))}</span></div>')
    spans = [tuple(s) for s in source.get("spans", ())]
    if text is None or not spans:
        body = _marked(source.get("text", ""), 0, len(source.get("text", "")), [(0, len(source.get("text", "")))],
                       answer_terms(answer))
    else:
        context = 0 if source.get("label") else SOURCE_CONTEXT  # an attachment is shown alone, not its neighbours
        lo = max(0, min(s for s, _ in spans) - context)
        hi = min(len(text), max(e for _, e in spans) + context, lo + SOURCE_MAX)
        body = _ellipsis(lo > 0) + _marked(text, lo, hi, spans, answer_terms(answer)) + _ellipsis(hi < len(text))
    return f'<div class="annex-source">{head}<div class="cite-text">{body}</div></div>'


def _doc_card(doc: Mapping, sources: Sequence[Mapping], text: str | None, terms: Sequence[str]) -> str:
    numbers = " ".join(f"[{n}]" for n in doc.get("sources", ()))
    head = (f'<header><span class="cite-title">{icon("doc")}{h(doc["title"])}</span>'
            f'<span class="cite-lib">{library_badge(doc.get("library", ""))}</span><span class="cite-nums">{h(numbers)}</span></header>')
    snippets = []
    if text is None:  # the document was deleted after the turn: show the text the turn quoted
        for s in sources:
            body = _marked(s.get("text", ""), 0, min(len(s.get("text", "")), MAX_MARKED), [(0, len(s.get("text", "")))], terms)
            snippets.append(_snippet([s], body + '<div class="cite-note">（文档已不在知识库中，显示当时引用的文本）</div>'))
    else:
        for start, end in (tuple(x) for x in doc.get("highlights", ())):
            here = [s for s in sources if any(a < end and start < b for a, b in s.get("spans", ()))]
            snippets.append(_snippet(here, _window(text, start, end, terms)))
    return f'<section class="cite-doc">{head}{"".join(snippets)}</section>'


def _snippet(sources: Sequence[Mapping], body: str) -> str:
    labels = "；".join(f'{h(where(s))} <span class="cite-how">{h(how_reached(s))}</span>' for s in sources)
    return f'<div class="cite-snippet"><div class="cite-where">{labels}</div><div class="cite-text">{body}</div></div>'


def _window(text: str, start: int, end: int, terms: Sequence[str]) -> str:
    """The cited span (cut to MAX_MARKED around the first marked fact) with CONTEXT characters either side."""
    shown_start, shown_end = start, end
    if end - start > MAX_MARKED:
        first = min((i for t in terms if (i := text.find(t, start, end)) >= 0), default=start)
        shown_start = max(start, min(first - MAX_MARKED // 3, end - MAX_MARKED))
        shown_end = shown_start + MAX_MARKED
    lo = _context_start(text, shown_start)
    hi = _context_end(text, shown_end)
    note = ""
    if (shown_start, shown_end) != (start, end):
        note = f'<div class="cite-note">（此处引用共 {end - start} 字，只显示一部分；在下方“查看来源”中看全文）</div>'
    return _ellipsis(lo > 0) + _marked(text, lo, hi, [(start, end)], terms) + _ellipsis(hi < len(text)) + note


def _context_start(text: str, start: int) -> int:
    lo = max(0, start - CONTEXT)
    newline = text.rfind("\n", lo, start)
    return newline + 1 if newline >= 0 else lo


def _context_end(text: str, end: int) -> int:
    hi = min(len(text), end + CONTEXT)
    newline = text.find("\n", end, hi)
    return newline if newline >= 0 else hi


def _ellipsis(show: bool) -> str:
    return '<span class="cite-gap">…</span>' if show else ""


def _marked(text: str, lo: int, hi: int, spans: Sequence[tuple[int, int]], terms: Sequence[str]) -> str:
    """text[lo:hi] escaped, cited spans in <mark class="cite-span">, answer facts inside them in <mark class="cite-fact">.

    Read as a person reads it: Markdown table rows become a table, a `#` heading a bold line.
    """
    level = [0] * (hi - lo)
    for start, end in spans:
        for i in range(max(start, lo), min(end, hi)):
            level[i - lo] = 1
    for term in terms:
        i = text.find(term, lo, hi)
        while i >= 0:
            if all(level[k - lo] for k in range(i, i + len(term))):
                for k in range(i, i + len(term)):
                    level[k - lo] = 2
            i = text.find(term, i + len(term), hi)
    return _layout(text, lo, hi, level)


def _layout(text: str, lo: int, hi: int, level: Sequence[int]) -> str:
    """The lines of text[lo:hi]: runs of table rows as one <table>, headings bold, the rest as they are."""
    out: list[str] = []
    rows: list[tuple[int, int]] = []
    start = lo
    while start <= hi:
        end = text.find("\n", start, hi)
        end = hi if end < 0 else end
        if _TABLE_ROW.match(text, start, end) and text.count("|", start, end) >= 2:
            if not _RULE.fullmatch(text, start, end):
                rows.append((start, end))
        else:
            if rows:
                out.append(_table(text, lo, rows, level))
                rows = []
            heading = _HEADING.match(text, start, end)
            if heading:
                out.append(f'<span class="cite-h">{_pieces(text, lo, heading.end(), end, level)}</span>')
            else:
                out.append(_pieces(text, lo, start, end, level) + ("\n" if end < hi else ""))
        start = end + 1
    if rows:
        out.append(_table(text, lo, rows, level))
    return "".join(out)


def _table(text: str, lo: int, rows: Sequence[tuple[int, int]], level: Sequence[int]) -> str:
    """Table rows (`a | b | c`, with or without outer pipes) as an HTML table, each cell marked."""
    body = []
    for start, end in rows:
        cells, a = [], start
        for b in [*(m.start() for m in re.finditer(r"\|", text[start:end])), end - start]:
            cells.append((a, start + b))
            a = start + b + 1
        if cells and not text[cells[0][0]:cells[0][1]].strip() and len(cells) > 1:
            cells = cells[1:]  # a leading pipe
        if cells and not text[cells[-1][0]:cells[-1][1]].strip() and len(cells) > 1:
            cells = cells[:-1]  # a trailing pipe
        body.append("<tr>" + "".join(f"<td>{_pieces(text, lo, *_strip(text, a, b), level)}</td>" for a, b in cells)
                    + "</tr>")
    return f'<div class="cite-table-wrap"><table class="cite-table">{"".join(body)}</table></div>'


def _strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _pieces(text: str, lo: int, a: int, b: int, level: Sequence[int]) -> str:
    """text[a:b] escaped, in runs of one mark level; phone numbers and other long numbers never wrap."""
    out, i = [], a
    while i < b:
        j = i
        while j < b and level[j - lo] == level[i - lo]:
            j += 1
        piece = _NOWRAP.sub(r'<span class="annex-nowrap">\g<0></span>', h(text[i:j]))
        out.append(piece if level[i - lo] == 0 else
                   f'<mark class="{("cite-span", "cite-fact")[level[i - lo] - 1]}">{piece}</mark>')
        i = j
    return "".join(out)
