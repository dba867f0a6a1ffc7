"""BM25 over the stored word ids, in memory: a main bm25s segment and a small delta, merged in the background.

bm25s scores fast but cannot be appended to, and rebuilding it costs about a second per 30k chunks. So a write does
not rebuild it: its chunks go to a delta scored with the main segment's statistics (document count, average length,
document frequencies: the same BM25, Lucene's idf, bm25s's k1 and b), and the chunks it replaced or deleted are
masked out of the main segment. When the delta outgrows MERGE_AT chunks a background thread rebuilds the main
segment (kb/search/readmodels.py); when it outgrows the main segment itself (a bulk load) the write rebuilds it,
so a whole library loaded at once is scored exactly as bm25s scores it, and the cost of building stays linear.
Segments are immutable: a reader keeps the one it took.
"""
from __future__ import annotations

import json
import os
import shutil
import zlib
from array import array
from collections import Counter
from pathlib import Path
from typing import Mapping, Sequence

import bm25s
import numpy as np
import scipy.sparse as sp
from bm25s.selection import topk

from kb.search.keyword_index import ChunkWords

ROWS_FILE = "rows.json"  # beside bm25s's files: each main row's chunk, document, library and a checksum of its words
MERGE_AT = 2000  # delta (or masked) chunks past which the main segment is rebuilt in the background
_DEFAULTS = bm25s.BM25()
K1, B = _DEFAULTS.k1, _DEFAULTS.b  # bm25s's defaults, as the index had them before it had segments


class Segments:
    """Every live chunk's words: `main` scored by bm25s, `delta` by the same formula with the main's statistics."""

    def __init__(self, live: Mapping[str, ChunkWords], main_rows: Sequence[ChunkWords], vocab_size: int,
                 main: bm25s.BM25 | None = None, avgdl: float = 0.0) -> None:
        self.live = dict(live)  # chunk_id → its words, as the snapshot holds them
        self.main_rows = tuple(sorted(main_rows, key=lambda r: (r.doc_id, r.pos)))  # the store's order: ties as before
        self._main_at = {row.chunk_id: i for i, row in enumerate(self.main_rows)}
        self._main = main
        self._avgdl = avgdl
        if self.main_rows and main is None:
            self._main = bm25s.BM25()
            ids = [row.ids for row in self.main_rows]
            self._main.index((ids, {str(i): i for i in range(max(vocab_size, 1))}), create_empty_token=False,
                             show_progress=False)
            _forget_vocab(self._main)
            self._avgdl = float(np.mean([len(i) for i in ids]))
        self._df = np.diff(self._main.scores["indptr"]) if self._main is not None else np.zeros(0, dtype=np.int64)
        self._vocab = len(self._df)  # words the main segment knows (ids below this)
        self._libraries, self._library_codes = _codes(row.library for row in self.main_rows)
        self._docs, self._doc_codes = _codes(row.doc_id for row in self.main_rows)
        self._alive = np.ones(len(self.main_rows), dtype=np.float32)
        self.delta: tuple[ChunkWords, ...] = ()
        self._delta_matrix: sp.csr_matrix | None = None
        self._delta_avgdl = 0.0  # the length the delta is scored by when there is no main segment yet

    @property
    def main(self) -> bm25s.BM25 | None:
        """The main segment (shared by every Segments rebased on it)."""
        return self._main

    @property
    def wants_merge(self) -> bool:
        """Whether enough has changed since the main segment was built to rebuild it in the background."""
        return len(self.delta) + int(len(self.main_rows) - self._alive.sum()) >= MERGE_AT

    def replaced(self, removed: Sequence[str], added: Sequence[ChunkWords], vocab_size: int,
                 more: bool = False) -> Segments:
        """New segments without the `removed` chunk ids and with `added`; rebuilt whole when the delta would
        outgrow the main segment (a bulk load's last batch), else the change goes to the delta. `more`: further
        batches of the same ingest follow, so the rebuild waits for its last (see rebased)."""
        gone = set(removed)
        live = {k: v for k, v in self.live.items() if k not in gone} if gone else dict(self.live)
        live.update((row.chunk_id, row) for row in added)
        return self.rebased(live, vocab_size, more)

    def rebased(self, live: Mapping[str, ChunkWords], vocab_size: int, more: bool = False) -> Segments:
        """Segments holding `live`, this main segment kept: what differs from it goes to the delta.

        The main segment is rebuilt when the delta outgrows it, except while more batches of one ingest follow:
        a 92k-chunk load in ten batches rebuilt 9k, 27k and 64k chunks on the way (5.4 s of its write's time) only to
        rebuild all 92k after its last. Until then the delta is scored with the main segment's statistics, as any
        delta is, and each write scores only its own chunks (rescoring the whole delta was 2.8 s over that load)."""
        delta = [row for chunk_id, row in live.items() if self._main_row(chunk_id) is not row]
        if len(delta) > len(self.main_rows) and not more:
            return Segments(live, list(live.values()), vocab_size)
        out = object.__new__(Segments)
        out.__dict__.update(self.__dict__)  # the main segment is shared
        out.live = dict(live)
        out._alive = np.array([1.0 if live.get(row.chunk_id) is row else 0.0 for row in self.main_rows],
                              dtype=np.float32) if self.main_rows else self._alive
        out.delta = tuple(delta)
        out._delta_matrix, out._delta_avgdl = self._grown_matrix(delta, vocab_size)
        return out

    def _grown_matrix(self, delta: Sequence[ChunkWords], vocab_size: int) -> tuple[sp.csr_matrix, float]:
        """The score matrix of `delta` (rows in its order) and the length it was scored by: the rows of this
        delta that stay are taken as they are (the same main segment gives them the same scores), the rest scored."""
        held = {row.chunk_id: i for i, row in enumerate(self.delta)}
        kept = [held.get(row.chunk_id, -1) for row in delta]
        kept = [i if i >= 0 and self.delta[i] is row else -1 for i, row in zip(kept, delta)]
        fresh = [row for i, row in zip(kept, delta) if i < 0]
        avgdl = self._avgdl or self._delta_avgdl or float(np.mean([len(r.ids) for r in fresh] or [1]))
        width = max(vocab_size, self._vocab, 1)
        blocks = [self._score_matrix(fresh, width, avgdl)]
        if self._delta_matrix is not None and self.delta:
            old = self._delta_matrix  # the vocabulary only grows: its columns stay valid in the wider matrix
            blocks.insert(0, sp.csr_matrix((old.data, old.indices, old.indptr), shape=(old.shape[0], width)))
        combined = sp.vstack(blocks, format="csr") if len(blocks) > 1 else blocks[0]
        first_fresh = combined.shape[0] - len(fresh)
        order, n = [], 0
        for i in kept:
            order.append(i if i >= 0 else first_fresh + n)
            n += i < 0
        order_at = np.asarray(order, dtype=np.int64)
        if np.array_equal(order_at, np.arange(len(order_at))):  # a bulk load's: the old rows, then the new
            return combined, avgdl
        return combined[order_at], avgdl

    def save(self, folder: Path) -> None:
        """Write the main segment (bm25s's own files) and what identifies its rows, replacing what was there."""
        if self._main is None:
            return
        temporary = folder.with_name(folder.name + ".tmp")
        shutil.rmtree(temporary, ignore_errors=True)
        self._main.save(str(temporary))
        rows = [(r.chunk_id, r.doc_id, r.library, r.pos, zlib.crc32(r.ids.tobytes())) for r in self.main_rows]
        (temporary / ROWS_FILE).write_text(json.dumps({"avgdl": self._avgdl, "rows": rows}), encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(temporary, folder)

    @classmethod
    def load(cls, folder: Path, live: Mapping[str, ChunkWords], vocab_size: int) -> Segments | None:
        """The main segment saved in `folder` (memory-mapped), with `live`: rows that changed since go to the
        delta; None when nothing usable was saved there."""
        try:
            meta = json.loads((folder / ROWS_FILE).read_text(encoding="utf-8"))
            main = bm25s.BM25.load(str(folder), mmap=True, load_vocab=False)
        except (OSError, ValueError, KeyError):
            return None  # absent, or written by another version: built again from the stored words
        rows = []
        for chunk_id, doc_id, library, pos, crc in meta["rows"]:
            row = live.get(chunk_id)
            same = row is not None and row.library == library and zlib.crc32(row.ids.tobytes()) == crc
            rows.append(row if same else ChunkWords(chunk_id, doc_id, library, pos, array("i")))
        segments = cls(live, rows, vocab_size, main, float(meta["avgdl"]))
        return segments.rebased(live, vocab_size)

    def search(
        self, query: Sequence[int], k: int, libraries: Sequence[str] | None = None, doc_id: str | None = None
    ) -> list[tuple[str, float]]:
        """The ids of the k best chunks with a positive score, best first, and their scores."""
        found: list[tuple[str, float]] = []
        if self._main is not None:
            known = [i for i in query if i < self._vocab]
            mask = self._alive
            if libraries:
                mask = mask * np.isin(self._library_codes, [self._libraries[x] for x in libraries if x in self._libraries])
            if doc_id:
                mask = mask * (self._doc_codes == self._docs.get(doc_id, -1))
            if known:
                scores = self._main.get_scores_from_ids(known, weight_mask=mask)
                top_scores, top = topk(scores, min(k, len(scores)), sorted=True)
                found += [(self.main_rows[i].chunk_id, float(s)) for i, s in zip(top, top_scores) if s > 0]
        if self.delta and query:
            matrix = self._delta_matrix
            counts = Counter(query)
            vector = np.zeros(matrix.shape[1], dtype=np.float32)
            for i, n in counts.items():
                if i < len(vector):
                    vector[i] = n
            scores = matrix @ vector
            if libraries or doc_id:
                scores *= np.array([(not libraries or row.library in libraries) and (not doc_id or row.doc_id == doc_id)
                                    for row in self.delta], dtype=np.float32)
            found += [(self.delta[i].chunk_id, float(scores[i])) for i in np.argsort(-scores, kind="stable")[:k]
                      if scores[i] > 0]
        found.sort(key=lambda pair: -pair[1])  # stable: the main segment's order first on ties
        return found[:k]

    def _main_row(self, chunk_id: str) -> ChunkWords | None:
        at = self._main_at.get(chunk_id)
        return None if at is None else self.main_rows[at]

    def _score_matrix(self, rows: Sequence[ChunkWords], width: int, avgdl: float) -> sp.csr_matrix:
        """Each delta chunk's BM25 weight per word (rows × vocabulary), with the main segment's statistics."""
        n = len(self.main_rows)
        data, columns, pointers = [], [], [0]
        for row in rows:
            counts = Counter(row.ids)
            words = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
            tf = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
            df = np.where(words < len(self._df), self._df[np.minimum(words, max(len(self._df) - 1, 0))], 0) \
                if len(self._df) else np.zeros(len(words))
            idf = np.log(1 + (n - df + 0.5) / (df + 0.5))
            data.append(idf * tf / (K1 * ((1 - B) + B * len(row.ids) / avgdl) + tf))
            columns.append(words)
            pointers.append(pointers[-1] + len(words))
        if not rows:
            return sp.csr_matrix((0, width), dtype=np.float32)
        return sp.csr_matrix((np.concatenate(data).astype(np.float32), np.concatenate(columns), np.array(pointers)),
                             shape=(len(rows), width))


def _forget_vocab(main: bm25s.BM25) -> None:
    """Drop bm25s's vocabulary: it maps word strings to ids for its own tokenizer, and the words here are ids already
    (the keyword store's), so it is an {"0": 0, …} of every word ever indexed: 69 MB at 92k chunks, and a JSON file of
    it written with every save. Scoring by ids (get_scores_from_ids) never reads it."""
    main.vocab_dict = {}
    main.unique_token_ids_set = set()


def _codes(values) -> tuple[dict[str, int], np.ndarray]:
    """Small integer codes of the values (a library, a document), so a filter is one vectorised comparison."""
    codes: dict[str, int] = {}
    array = np.fromiter((codes.setdefault(v, len(codes)) for v in values), dtype=np.int32)
    return codes, array
