"""Numbered sources for the prompt, the prompt messages, and citations aggregated per document."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from graph.store import DocumentSummary
from graph.prefetch import Prefetched
from kb.answer.prompts import (
    NO_REFERENCES, REFERENCE_ATTACHMENT_WHERE, REFERENCE_CONTINUES, REFERENCE_HEADER, REFERENCE_VIA, SYSTEM_PROMPT,
    USER_PROMPT,
)
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER
from kb.turn import Hit, ReferencedDoc, Source, merge_spans

_CITATION = re.compile(r"\[(\d+(?:\s*[,，、]\s*\d+)*)\]")
# How an answer says the knowledge base does not hold the answer (the offline answerer says NO_ANSWER).
NOT_IN_KB = re.compile(r"没有找到|未找到|没有检索到|未检索到|没有相关|无法回答|不包含|没有提供|未提供|没有提及|未提及")


def build_sources(
    hits: Sequence[Hit], prefetched: Sequence[Prefetched], documents: dict[str, DocumentSummary]
) -> list[Source]:
    """Retrieved chunks first (neighbours merged into their hit), then the prefetched attachments whole.

    A hit inside an attachment that is prefetched whole is not repeated as a chunk of its own.
    """
    whole = {(p.doc_id, p.label): p for p in prefetched if not p.truncated}
    sources: list[Source] = []
    attachment_scores: dict[tuple[str, str], float] = {}
    for hit in hits:
        key = (hit.doc_id, hit.attachment)
        if hit.attachment and key in whole:
            attachment_scores[key] = max(attachment_scores.get(key, 0.0), hit.score)
            continue
        doc = documents.get(hit.doc_id)
        previous = sources[-1] if sources else None
        if hit.expanded and previous and previous.doc_id == hit.doc_id and previous.label == hit.attachment:
            sources[-1] = _extend(previous, hit)
            continue
        sources.append(Source(
            n=len(sources) + 1, doc_id=hit.doc_id, doc_title=doc.title if doc else hit.doc_id, library=hit.library,
            label=hit.attachment, title="", text=hit.text, spans=((hit.start, hit.end),), chunk_ids=(hit.chunk_id,),
            score=hit.score, preamble=hit.continues, page=doc.page_label([(hit.start, hit.end)]) if doc else "",
        ))
    for p in prefetched:
        doc = documents.get(p.doc_id)
        sources.append(Source(
            n=len(sources) + 1, doc_id=p.doc_id, doc_title=doc.title if doc else p.doc_id,
            library=doc.library if doc else "", label=p.label, title=p.title, text=p.text,
            spans=merge_spans([(c.start, c.end) for c in p.chunks]), chunk_ids=tuple(c.id for c in p.chunks),
            score=attachment_scores.get((p.doc_id, p.label), 0.0), prefetched=p.hops > 0, via=p.via,
            page=doc.page_label([(c.start, c.end) for c in p.chunks]) if doc else "",
        ))
    return sources


def _extend(source: Source, hit: Hit) -> Source:
    before = hit.end <= source.spans[0][0]
    text = hit.text + "\n" + source.text if before else source.text + "\n" + hit.text
    return replace(source, text=text, spans=merge_spans([*source.spans, (hit.start, hit.end)]),
                   chunk_ids=(*source.chunk_ids, hit.chunk_id), preamble=hit.continues if before else source.preamble)


def format_sources(sources: Sequence[Source]) -> str:
    """The numbered references block of the prompt."""
    if not sources:
        return NO_REFERENCES
    blocks = []
    for s in sources:
        where = REFERENCE_ATTACHMENT_WHERE.format(label=s.label, title=s.title) if s.label else ""
        header = REFERENCE_HEADER.format(n=s.n, doc_title=s.doc_title, where=where)
        if s.via:
            header += REFERENCE_VIA.format(mention=s.via)
        if s.preamble:
            header += "\n" + REFERENCE_CONTINUES.format(line=s.preamble)
        blocks.append(f"{header}\n{s.text}")
    return "\n\n".join(blocks)


def build_messages(question: str, sources: Sequence[Source], history: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    """System prompt, earlier turns, then the references and the question."""
    messages = [{"role": "system", "content": SYSTEM_PROMPT}]
    messages += [{"role": role, "content": content} for role, content in history]
    messages.append({"role": "user", "content": USER_PROMPT.format(references=format_sources(sources), question=question)})
    return messages


def cited_numbers(answer: str) -> list[int]:
    """The [n] numbers an answer cites, in order of first use."""
    numbers: dict[int, None] = {}
    for match in _CITATION.finditer(answer):
        for part in re.split(r"[,，、]", match.group(1)):
            numbers.setdefault(int(part.strip()), None)
    return list(numbers)


def declines(answer: str) -> bool:
    """Whether the answer says the knowledge base does not hold the answer in a line of its own words: one that
    cites no source (a quoted sentence of a law may well say 未提供). The answer's attachment block aside."""
    lines = answer.split(ATTACHMENT_BLOCK_HEADER, 1)[0].splitlines()
    return any(NOT_IN_KB.search(line) and not cited_numbers(line) for line in lines)


def referenced_docs(answer: str, sources: Sequence[Source], extra: Sequence[Source] = ()) -> list[ReferencedDoc]:
    """Per document: the cited sources' spans merged; every source counts when the answer cites none."""
    by_n = {s.n: s for s in sources}
    cited = [by_n[n] for n in cited_numbers(answer) if n in by_n] or list(sources)
    chosen = cited + [s for s in extra if s not in cited]
    docs: dict[str, list[Source]] = {}
    for s in chosen:
        docs.setdefault(s.doc_id, []).append(s)
    return [
        ReferencedDoc(
            doc_id=doc_id, title=group[0].doc_title, library=group[0].library, score=max(s.score for s in group),
            highlights=merge_spans([span for s in group for span in s.spans]),
            chunk_ids=tuple(dict.fromkeys(c for s in group for c in s.chunk_ids)), sources=tuple(s.n for s in group),
        )
        for doc_id, group in docs.items()
    ]
