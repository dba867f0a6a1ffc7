"""GraphView: the graph's REFERENCES edges and attachment chunks in memory, for prefetch and the post-answer hop.

Built with the other read models at start and changed by the written or deleted documents alone after each write
(replaced(): a copy of the maps, so a reader holding the old view keeps it whole; kb/search/readmodels.py), it
answers the three reads a turn makes — attachment_paths, attachments_chunks, chunks_by_id — with the same results as the store, without a query.
Measured at ~92k chunks on Kuzu 0.11: a primary-key lookup costs ~0.3 ms, `UNWIND $ids … {id: i}` plans a
hash join over a full Chunk scan (~28 ms for 20 ids), and `c.id IN $ids` scans too (~9 ms for 1 id, ~26 ms
for 20 with 2 hops); the view answers in microseconds. The store stays the source of truth.
"""
from __future__ import annotations

import re
from typing import Iterable, Iterator, Sequence

from graph.ranking import FoundPath, rank_paths
from graph.prefetch import attachment_text
from graph.store import AttachmentPath, ReferenceEdge
from kb.model import Chunk

_Step = tuple[str, str, int]
COVER_CHARS = 200
_SENTENCE_PUNCT = re.compile(r"[。；;！？!?，,]")  # (target label, mention, char start)


class GraphView:
    """Read-only, in-memory copy of the chunks and traversable REFERENCES edges of the graph store."""

    def __init__(self, chunks: Iterable[Chunk], edges: Iterable[ReferenceEdge]) -> None:
        self._chunks: dict[str, Chunk] = {}
        self._owned: dict[tuple[str, str], list[Chunk]] = {}
        self._first: dict[str, Chunk] = {}  # each document's first body chunk
        self._from_chunk: dict[str, list[_Step]] = {}
        self._from_attachment: dict[tuple[str, str], list[_Step]] = {}
        self._of_document: dict[str, list[str]] = {}  # doc_id → ids of its chunks
        self._add(chunks, edges)

    def replaced(self, doc_ids: Iterable[str], chunks: Iterable[Chunk], edges: Iterable[ReferenceEdge]) -> GraphView:
        """A new view without these documents' old chunks and edges and with the given ones; this view is unchanged."""
        gone = set(doc_ids)
        view = GraphView((), ())
        view._chunks, view._first, view._from_chunk = dict(self._chunks), dict(self._first), dict(self._from_chunk)
        view._of_document = dict(self._of_document)
        view._owned = {k: v for k, v in self._owned.items() if k[0] not in gone}
        view._from_attachment = {k: v for k, v in self._from_attachment.items() if k[0] not in gone}
        for doc_id in gone:
            view._first.pop(doc_id, None)
            for chunk_id in view._of_document.pop(doc_id, ()):
                del view._chunks[chunk_id]
                view._from_chunk.pop(chunk_id, None)
        view._add(chunks, edges)
        return view

    def _add(self, chunks: Iterable[Chunk], edges: Iterable[ReferenceEdge]) -> None:
        owners = set()
        for chunk in chunks:
            self._chunks[chunk.id] = chunk
            self._of_document.setdefault(chunk.doc_id, []).append(chunk.id)
            if not chunk.attachment and chunk.index == 0:
                self._first[chunk.doc_id] = chunk
            if chunk.attachment:
                key = (chunk.doc_id, chunk.attachment)
                self._owned.setdefault(key, []).append(chunk)
                owners.add(key)
        for key in owners:
            self._owned[key].sort(key=lambda c: c.index)
        for e in edges:
            step = (e.target, e.mention, e.start)
            if e.chunk_id:
                self._from_chunk.setdefault(e.chunk_id, []).append(step)
            else:
                self._from_attachment.setdefault((e.doc_id, e.source), []).append(step)

    @property
    def size(self) -> int:
        """Chunks in the view."""
        return len(self._chunks)

    def attachment_paths(self, chunk_ids: Sequence[str], hops: int = 2) -> list[AttachmentPath]:
        """Every acyclic REFERENCES path of 1..hops steps from the chunks (GraphStore.attachment_paths)."""
        if hops < 0:
            raise ValueError(f"hops must not be negative, got {hops}")
        return rank_paths(self._walk(chunk_ids, hops))

    def _walk(self, chunk_ids: Sequence[str], hops: int) -> Iterator[FoundPath]:
        """Every acyclic path of 1..hops steps from each known chunk, with what ranks it."""
        for order, chunk_id in enumerate(dict.fromkeys(chunk_ids)):
            chunk = self._chunks.get(chunk_id)
            if chunk is None or hops == 0:
                continue
            stack = [((label,), (mention,), (start,)) for label, mention, start in self._from_chunk.get(chunk_id, ())]
            while stack:
                labels, mentions, starts = stack.pop()
                yield order, AttachmentPath(chunk_id, chunk.doc_id, labels, mentions), starts
                if len(labels) < hops:
                    for label, mention, start in self._from_attachment.get((chunk.doc_id, labels[-1]), ()):
                        if label not in labels:
                            stack.append(((*labels, label), (*mentions, mention), (*starts, start)))

    def attachments_chunks(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], list[Chunk]]:
        """The chunks, in order, of several (doc_id, label) attachments (GraphStore.attachments_chunks)."""
        return {key: list(self._owned.get(key, ())) for key in keys}

    def cover(self, doc_id: str) -> str:
        """A document's opening lines before its first sentence (title, issuer, number): what all of it is about."""
        chunk = self._first.get(doc_id)
        if chunk is None:
            return ""
        lines = []
        for line in chunk.text.split("\n"):
            if _SENTENCE_PUNCT.search(line) or sum(map(len, lines)) > COVER_CHARS:
                break
            lines.append(line.strip())
        return " ".join(line for line in lines if line)

    def body_text(self, doc_id: str) -> str:
        """A document's body (its text without its attachments), its chunks joined in order."""
        chunks = [self._chunks[i] for i in self._of_document.get(doc_id, ()) if not self._chunks[i].attachment]
        return attachment_text(sorted(chunks, key=lambda c: c.index))

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The known chunks among these ids, in the order asked (GraphStore.chunks_by_id)."""
        return [self._chunks[i] for i in chunk_ids if i in self._chunks]
