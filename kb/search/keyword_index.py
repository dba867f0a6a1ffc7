"""The keyword store: each chunk's words as ids, tokenized once when it is written, kept in SQLite beside the graph.

Tokenizing is most of what BM25 costs (jieba, even through jieba-rs); it happens here, once per chunk, in the write
that stores the chunk. A start reads the ids back instead of tokenizing the library again, and a write adds or
removes one document's rows. The BM25 index itself lives in memory (kb/search/bm25_segments.py).
"""
from __future__ import annotations

import sqlite3
import threading
from array import array
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from sys import intern
from typing import Iterable, Iterator, Sequence

from kb.errors import KeywordIndexError
from kb.model import Document
from kb.search.indexed_text import continued_lines, indexed_texts
from kb.search.tokens import tokenize
from kb.search.vocabulary import Vocabulary

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS words (id INTEGER PRIMARY KEY, word TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS documents (doc_id TEXT PRIMARY KEY, content_hash TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS chunks (chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL, library TEXT NOT NULL, "
    "pos INTEGER NOT NULL, ids BLOB NOT NULL, continues TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS chunks_of_document ON chunks (doc_id)",
)
_COLUMNS = "chunk_id, doc_id, library, pos, ids, continues"


@dataclass(frozen=True)
class ChunkWords:
    """One chunk's indexed words: its context's (title, attachment, continued line), then its own, as word ids."""

    chunk_id: str
    doc_id: str
    library: str
    pos: int  # its place in its document's chunks
    ids: array  # array('i'); never empty: a chunk without words holds the id of ""
    continues: str = ""  # the line its start continues (kb/search/indexed_text.py continued_lines), or ""


def chunk_words(doc: Document) -> tuple[list[list[str]], dict[str, str]]:
    """Each chunk's indexed words, in chunk order, and the line each chunk continues."""
    titles = {a.label: a.title for a in doc.attachments}
    continues = continued_lines(doc.chunks)
    contexts = indexed_texts(doc.title, doc.chunks, titles, continues)
    words: dict[str, list[str]] = {}  # a document's chunks share their few contexts (title, attachment, header)
    return [(words.get(context) or words.setdefault(context, tokenize(context))) + tokenize(chunk.text) or [""]
            for chunk, context in zip(doc.chunks, contexts)], continues


class KeywordIndex:
    """Word ids of every stored chunk, in one SQLite file; the vocabulary only grows (ids stay valid)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            for ddl in _SCHEMA:
                self._db.execute(ddl)
            self.vocab = Vocabulary(self.path, self._db)  # grows; readers share it
        except sqlite3.Error as exc:
            raise KeywordIndexError(
                f"Could not open the keyword store {self.path}: {exc}. Delete the file: the next start rebuilds it "
                f"from the graph store."
            ) from exc

    @property
    def main_dir(self) -> Path:
        """Where the BM25 main segment built over these words is saved (kb/search/bm25_segments.py)."""
        return self.path.with_name(self.path.stem + "-bm25")

    def versions(self) -> dict[str, str]:
        """The content hash of each document the store holds (to compare with the graph after a crash)."""
        with self._lock:
            return dict(self._db.execute("SELECT doc_id, content_hash FROM documents"))

    def upsert_documents(self, docs: Sequence[Document]) -> None:
        """Replace the rows of these documents, tokenizing each chunk once."""
        latest = {doc.id: doc for doc in docs}
        read = [(doc, *chunk_words(doc)) for doc in latest.values()]  # tokenizing: outside the lock
        with self._write("index", len(latest)) as db:
            ids = self.vocab.assign(w for _, words, _ in read for chunk in words for w in chunk)
            rows = [(chunk.id, doc.id, doc.library, pos, array("i", [ids[w] for w in chunk_ids]).tobytes(),
                     continues[chunk.id])
                    for doc, words, continues in read for pos, (chunk, chunk_ids) in enumerate(zip(doc.chunks, words))]
            db.executemany("DELETE FROM chunks WHERE doc_id = ?", [(i,) for i in latest])
            db.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?)", rows)
            db.executemany("INSERT OR REPLACE INTO documents VALUES (?, ?)",
                           [(i, d.content_hash) for i, d in latest.items()])

    def delete_documents(self, doc_ids: Sequence[str]) -> int:
        """Remove the rows of these documents; returns how many of them the store held."""
        with self._write("delete", len(doc_ids)) as db:
            held = sum(db.execute("DELETE FROM documents WHERE doc_id = ?", (i,)).rowcount for i in doc_ids)
            db.executemany("DELETE FROM chunks WHERE doc_id = ?", [(i,) for i in doc_ids])
        return held

    def chunks(self, doc_ids: Iterable[str] | None = None) -> list[ChunkWords]:
        """The rows of these documents (all when None), in document and chunk order."""
        with self._lock:
            try:
                if doc_ids is None:
                    rows = self._db.execute(f"SELECT {_COLUMNS} FROM chunks ORDER BY doc_id, pos")
                    # one string a document and a library, not one a chunk (~13 MB at 92k chunks)
                    return [ChunkWords(c, intern(d), intern(lib), pos, _array(ids), more)
                            for c, d, lib, pos, ids, more in rows]
                out = []
                for doc_id in doc_ids:
                    rows = self._db.execute(
                        f"SELECT {_COLUMNS} FROM chunks WHERE doc_id = ? ORDER BY pos", (doc_id,))
                    out += [ChunkWords(c, d, lib, pos, _array(ids), more) for c, d, lib, pos, ids, more in rows]
                return out
            except sqlite3.Error as exc:
                raise KeywordIndexError(f"Could not read the keyword store {self.path}: {exc}") from exc

    def close(self) -> None:
        with self._lock:
            self.vocab.close()
            self._db.close()

    @contextmanager
    def _write(self, what: str, n: int) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock, with the new words; on failure the new words are forgotten again."""
        with self._lock:
            try:
                self._db.execute("BEGIN")
                yield self._db
                self._db.executemany("INSERT INTO words VALUES (?, ?)", self.vocab.new_words())
                self._db.execute("COMMIT")
                self.vocab.committed()
            except sqlite3.Error as exc:
                self._rollback()
                raise KeywordIndexError(f"Could not {what} {n} documents in {self.path}: {exc}") from exc
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        self._db.execute("ROLLBACK")
        self.vocab.forget()


def _array(blob: bytes) -> array:
    ids = array("i")
    ids.frombytes(blob)
    return ids
