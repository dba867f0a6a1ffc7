"""What a chunk is indexed with besides its text (vectors and BM25): where it sits, so that a search finds it."""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.model import CELL_SEPARATOR, Chunk


def indexed_texts(doc_title: str, chunks: Sequence[Chunk], titles: Mapping[str, str]) -> list[str]:
    """The context each chunk is indexed with (vectors and BM25): document title, attachment label and title, and
    the header row of the table the chunk continues. The chunk's own text and span stay the source's.

    `titles` maps attachment labels to their titles; chunks are one document's, in any order.
    """
    headers = _table_headers(chunks)
    out = []
    for chunk in chunks:
        owner = f"{chunk.attachment} {titles.get(chunk.attachment, '')}".strip() if chunk.attachment else ""
        out.append("\n".join(part for part in (" ".join(p for p in (doc_title, owner) if p), headers[chunk.id]) if part))
    return out


def _table_headers(chunks: Sequence[Chunk]) -> dict[str, str]:
    """For each chunk that starts inside a table, that table's header row (its first row); else ""."""
    headers: dict[str, str] = {}
    by_owner: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_owner.setdefault(chunk.attachment, []).append(chunk)
    for owned in by_owner.values():
        header: str | None = None
        for chunk in sorted(owned, key=lambda c: c.index):
            lines = chunk.text.split("\n")
            headers[chunk.id] = header if header and CELL_SEPARATOR in lines[0] and lines[0].strip() != header else ""
            for line in lines:
                if CELL_SEPARATOR in line:
                    header = header or line.strip()
                else:
                    header = None
    return headers
