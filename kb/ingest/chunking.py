"""Chunking with char offsets: sentence-aware, capped, and never across an attachment boundary."""
from __future__ import annotations

import re
from typing import Iterator, Sequence

from kb.model import BODY, Attachment, Chunk
from kb.text import ENUMERATED, INTRODUCES

_MARK_CHARS = 8  # an enumeration mark's characters, its leading space included
_LIST_LOOKBACK = 1  # the line before an item is its lead-in or the item before it
# A sentence ends after Chinese or Western end punctuation, or at a line break.
_SENTENCE_END = re.compile(r"[。！？；!?;]+[”’」』）)]*|\n+")


def chunk_document(
    doc_id: str, text: str, attachments: Sequence[Attachment], target: int = 400, cap: int = 800,
    breaks: Sequence[int] = (),
) -> tuple[Chunk, ...]:
    """Chunks of the body (the text outside attachments) then of each attachment, in order; a chunk starts at each
    of `breaks` (the header of a part an attachment holds: 附录3 inside 附件1), so a part's first chunk carries its
    header as the part's own attachment would."""
    chunks: list[Chunk] = []
    ordered = sorted(attachments, key=lambda a: a.start)
    body_spans, pos = [], 0
    for att in ordered:
        if att.start > pos:
            body_spans.append((pos, att.start))
        pos = max(pos, att.end)
    if pos < len(text):
        body_spans.append((pos, len(text)))
    owners = [(BODY, body_spans)] + [(a.label, _cut((a.start, a.end), breaks)) for a in ordered]
    for owner, spans in owners:
        index = 0
        for span_start, span_end in spans:
            for start, end in _pieces(text, span_start, span_end, target, cap):
                chunks.append(Chunk(chunk_id(doc_id, owner, index), doc_id, owner, index, start, end, text[start:end]))
                index += 1
    return tuple(chunks)


def _cut(span: tuple[int, int], breaks: Sequence[int]) -> list[tuple[int, int]]:
    """The span cut at the breaks inside it."""
    inside = [b for b in sorted(breaks) if span[0] < b < span[1]]
    return list(zip([span[0], *inside], [*inside, span[1]]))


def chunk_id(doc_id: str, owner: str, index: int) -> str:
    """Stable id of a chunk: document, owner (attachment label or 'body') and position."""
    return f"{doc_id}:{owner or 'body'}:{index}"


def _pieces(text: str, start: int, end: int, target: int, cap: int) -> Iterator[tuple[int, int]]:
    """Spans of at most cap chars that close at a sentence end once past target, whitespace trimmed."""
    chunk_start = None
    chunk_end = start
    for s_start, s_end in _sentences(text, start, end):
        if chunk_start is None:
            chunk_start = s_start
        elif s_end - chunk_start > cap or (chunk_end - chunk_start >= target
                                          and not _inside_list(text, chunk_start, chunk_end, s_start)):
            yield from _trimmed(text, chunk_start, chunk_end)
            chunk_start = s_start
        while s_end - chunk_start > cap:  # a sentence longer than cap: cut it hard
            yield from _trimmed(text, chunk_start, chunk_start + cap)
            chunk_start += cap
        chunk_end = s_end
    if chunk_start is not None:
        yield from _trimmed(text, chunk_start, chunk_end)


def _inside_list(text: str, chunk_start: int, chunk_end: int, at: int) -> bool:
    """The sentence at `at` goes on a list the chunk holds: it opens an item (（二）, 3.) of a list whose lead-in (…：)
    or earlier items the chunk holds, so the chunk closes after the list, not inside it (up to its cap): an article
    and its items are one unit, and (二) read apart from 有下列情形之一的： says nothing."""
    if not ENUMERATED.match(text[at:at + _MARK_CHARS]):
        return False
    lines = [line.strip() for line in text[chunk_start:chunk_end].split("\n") if line.strip()]
    return any(INTRODUCES.search(line) or ENUMERATED.match(line) for line in lines[-_LIST_LOOKBACK:])


def _sentences(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for match in _SENTENCE_END.finditer(text, start, end):
        if match.end() > pos:
            yield pos, match.end()
            pos = match.end()
    if pos < end:
        yield pos, end


def _trimmed(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        lead = len(piece) - len(piece.lstrip())
        yield start + lead, start + lead + len(stripped)
