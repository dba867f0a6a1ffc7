"""Citations as HTML: per document, the source text around each cited span, the span and the answer's facts marked.

Every string that comes from a document (titles, labels, mentions, text) goes through `h()`; only the markup
written here is HTML.
"""
from __future__ import annotations

import re
from typing import Mapping, Sequence

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
    head = (f'<header><span class="cite-title">📄 {h(doc["title"])}</span>'
            f'<span class="cite-lib">{h(doc.get("library", ""))}</span><span class="cite-nums">{h(numbers)}</span></header>')
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
    """text[lo:hi] escaped, cited spans in <mark class="cite-span">, answer facts inside them in <mark class="cite-fact">."""
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
    out, i = [], 0
    while i < len(level):
        j = i
        while j < len(level) and level[j] == level[i]:
            j += 1
        piece = h(text[lo + i : lo + j])
        out.append(piece if level[i] == 0 else f'<mark class="{("cite-span", "cite-fact")[level[i] - 1]}">{piece}</mark>')
        i = j
    return "".join(out)
