"""What a chunk is indexed with besides its text (vectors and BM25): where it sits, so that a search finds it."""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.model import CELL_SEPARATOR, Chunk
from kb.text import ListReader


def indexed_texts(doc_title: str, chunks: Sequence[Chunk], titles: Mapping[str, str]) -> list[str]:
    """The context each chunk is indexed with (vectors and BM25): document title, attachment label and title, and
    the line the chunk continues (its table's header row, its list's lead-in). The chunk's own text and span stay
    the source's.

    `titles` maps attachment labels to their titles; chunks are one document's, in any order.
    """
    headers = continued_lines(chunks)
    out = []
    for chunk in chunks:
        owner = f"{chunk.attachment} {titles.get(chunk.attachment, '')}".strip() if chunk.attachment else ""
        out.append("\n".join(part for part in (" ".join(p for p in (doc_title, owner) if p), headers[chunk.id]) if part))
    return out


def continued_lines(chunks: Sequence[Chunk]) -> dict[str, str]:
    """For each chunk, the line its start continues: the header row of the table it starts inside, or the lead-in of
    the enumerated list it starts inside (按照以下标准给予一次性资金奖励： when it opens at （五）); else "".

    A chunk boundary falls anywhere: its first rows or items mean what they say only under that line.
    """
    out: dict[str, str] = {}
    by_owner: dict[str, list[Chunk]] = {}
    for chunk in chunks:
        by_owner.setdefault(chunk.attachment, []).append(chunk)
    for owned in by_owner.values():
        header: str | None = None
        lists = ListReader()
        for chunk in sorted(owned, key=lambda c: c.index):
            lines = [line.strip() for line in chunk.text.split("\n")]
            if header and CELL_SEPARATOR in lines[0] and lines[0] != header:
                out[chunk.id] = header
            out.setdefault(chunk.id, "")
            opened = False
            for line in lines:
                header = (header or line) if CELL_SEPARATOR in line else None
                under = lists.read(line)
                if line and not opened:
                    opened = True
                    out[chunk.id] = out[chunk.id] or under
    return out
