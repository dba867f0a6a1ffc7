"""What a chunk is indexed with besides its text (vectors and BM25): where it sits, so that a search finds it."""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.model import CELL_SEPARATOR, Chunk
from kb.text import ListReader


def indexed_texts(doc_title: str, chunks: Sequence[Chunk], titles: Mapping[str, str],
                  continues: Mapping[str, str] | None = None) -> list[str]:
    """The context each chunk is indexed with (vectors and BM25): document title, attachment label and title, and
    the line the chunk continues (its table's header row, its list's lead-in). The chunk's own text and span stay
    the source's.

    `titles` maps attachment labels to their titles; chunks are one document's, in any order. `continues` is
    continued_lines(chunks) when the caller has it already.
    """
    headers = continued_lines(chunks) if continues is None else continues
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
            table = header if header and CELL_SEPARATOR in lines[0] and lines[0] != header else ""
            leads = []
            for line in lines:
                header = (header or line) if CELL_SEPARATOR in line else None
                leads.append(lists.read(line))
            out[chunk.id] = table or next((lead for line, lead in zip(lines, leads) if line), "")
    return out
