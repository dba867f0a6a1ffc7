"""BM25 over jieba tokens (bm25s), with library and document filters."""
from __future__ import annotations

import threading
from array import array
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import bm25s
import numpy as np

from kb.search.tokens import tokenize


@dataclass(frozen=True)
class IndexedChunk:
    """What BM25 needs to know of a chunk to filter and return it."""

    chunk_id: str
    doc_id: str
    library: str
    attachment: str
    index: int
    start: int
    end: int
    text: str
    context: str = ""  # indexed before the text (kb/search/indexed_text.py); never shown
    continues: str = ""  # the table header row or list lead-in its start continues (indexed_text.continued_lines)


class BM25Index:
    """An in-memory BM25 index of every chunk; rebuilt when the stores change."""

    def __init__(
        self, chunks: Sequence[IndexedChunk], tokens: TokenCache | None = None, citing: frozenset[str] = frozenset()
    ) -> None:
        self.chunks = list(chunks)
        self.citing = citing  # ids of the chunks that hold a resolved reference to an attachment
        self._index: bm25s.BM25 | None = None
        if self.chunks:
            tokens = tokens or TokenCache()
            self._index = bm25s.BM25()
            self._index.index((tokens.ids(self.chunks), tokens.vocab), show_progress=False)
        self._libraries = np.array([c.library for c in self.chunks], dtype=object)
        self.libraries = frozenset(c.library for c in self.chunks)  # every library that holds a chunk
        self.documents = frozenset(c.doc_id for c in self.chunks)  # every document that holds a chunk
        self._docs = np.array([c.doc_id for c in self.chunks], dtype=object)
        self._continues = {c.chunk_id: c.continues for c in self.chunks if c.continues}
        self._lock = threading.Lock()  # bm25s retrieval is not documented as thread-safe

    def continued(self, chunk_id: str) -> str:
        """The line a chunk's start continues (its table's header row, its list's lead-in), or ""."""
        return self._continues.get(chunk_id, "")

    def search(
        self, query: str, k: int, libraries: Sequence[str] | None = None, doc_id: str | None = None
    ) -> list[tuple[IndexedChunk, float]]:
        """The k best chunks with a positive BM25 score, best first."""
        tokens = tokenize(query)
        if self._index is None or not tokens:
            return []
        mask = np.ones(len(self.chunks), dtype=np.float32)
        if libraries and not self.libraries <= set(libraries):  # a mask that keeps every chunk is skipped
            mask *= np.isin(self._libraries, list(libraries))
        if doc_id:
            mask *= self._docs == doc_id
        k = min(k, len(self.chunks))
        with self._lock:
            ids, scores = self._index.retrieve([tokens], k=k, show_progress=False, weight_mask=mask, n_threads=0)
        return [(self.chunks[i], float(s)) for i, s in zip(ids[0], scores[0]) if s > 0]


@lru_cache(maxsize=8192)
def _context_tokens(context: str) -> tuple[str, ...]:
    """Tokens of a chunk's context; a document's chunks share a few contexts, so they are tokenized once each."""
    return tuple(tokenize(context))


class TokenCache:
    """Chunk texts as token ids, kept across rebuilds: after a write only new or edited chunks meet jieba.

    Tokenizing is nearly all of a rebuild (about 60 s for 100k chunks); ids rather than strings keep it small.
    """

    def __init__(self) -> None:
        self.vocab: dict[str, int] = {}
        self._ids: dict[tuple[str, int], array] = {}
        self.tokenized = 0  # chunks tokenized by the last ids() call

    def ids(self, chunks: Sequence[IndexedChunk]) -> list[array]:
        """Token ids of each chunk, in order; forgets chunks that are gone."""
        kept: dict[tuple[str, int], array] = {}
        out = []
        self.tokenized = 0
        for chunk in chunks:
            key = (chunk.chunk_id, hash(chunk.text), hash(chunk.context))
            ids = self._ids.get(key)
            if ids is None:
                tokens = [*_context_tokens(chunk.context), *tokenize(chunk.text)] or [""]
                ids = array("i", [self.vocab.setdefault(t, len(self.vocab)) for t in tokens])
                self.tokenized += 1
            kept[key] = ids
            out.append(ids)
        self._ids = kept
        return out
