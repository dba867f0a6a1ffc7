"""A persistent cache of passage vectors by chunk text, so an unchanged corpus is never embedded twice."""
from __future__ import annotations

import hashlib
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np


from kb.errors import EmbeddingCacheError
from kb.search.vectors import Embedder

_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    embedder TEXT NOT NULL,
    dim INTEGER NOT NULL,
    kind TEXT NOT NULL,
    sha1 BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (embedder, dim, kind, sha1)
) WITHOUT ROWID
"""
_LOOKUP = 500  # keys per SELECT ... IN (...), well under SQLite's parameter limit
_WRITE_EVERY = 64  # texts embedded between two writes (≈ 15 s of e5 on 2 cores)
_KIND = "passage"  # only passages are cached: each question is new, and would otherwise sit on disk


class CachedEmbedder:
    """An Embedder whose passage vectors are kept in SQLite, keyed by embedder, width, kind and sha1(text).

    Vectors come back bit for bit as the model gave them; only texts never seen by this model reach it.
    """

    cache_key = ""  # already cached: never wrap twice

    def __init__(self, inner: Embedder, path: Path) -> None:
        if not inner.cache_key:
            raise ValueError(f"embedder {inner.name!r} has no cache_key; it is not meant to be cached.")
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.path = path
        self._lock = threading.Lock()  # one connection, shared by the app's worker threads
        with self._errors("open"):
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, timeout=30, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
            self._db.commit()

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Straight to the model."""
        return self.inner.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Cached vectors for texts seen before; the model embeds the rest, each distinct text once."""
        if isinstance(texts, str):
            raise TypeError("embed_passages() takes a sequence of texts, not one str; wrap it in a list.")
        keys = [hashlib.sha1(text.encode("utf-8", "surrogatepass")).digest() for text in texts]
        found = self._lookup(set(keys))
        missing = {key: text for key, text in zip(keys, texts) if key not in found}
        todo = list(missing.items())
        for lo in range(0, len(todo), _WRITE_EVERY):  # an interrupted ingest keeps what it has embedded
            part = todo[lo : lo + _WRITE_EVERY]
            new = dict(zip((key for key, _ in part), self.inner.embed_passages([text for _, text in part])))
            self._store(new)
            found.update(new)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, key in enumerate(keys):
            out[row] = found[key]
        return out

    def count(self) -> int:
        """Vectors cached for this embedder."""
        with self._lock, self._errors("count"):
            (count,) = self._db.execute(
                "SELECT count(*) FROM vectors WHERE embedder = ? AND dim = ? AND kind = ?", self._scope()
            ).fetchone()
        return int(count)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _lookup(self, keys: set[bytes]) -> dict[bytes, np.ndarray]:
        found: dict[bytes, np.ndarray] = {}
        ordered = sorted(keys)
        with self._lock, self._errors("read"):
            for lo in range(0, len(ordered), _LOOKUP):
                part = ordered[lo : lo + _LOOKUP]
                rows = self._db.execute(
                    "SELECT sha1, vector FROM vectors WHERE embedder = ? AND dim = ? AND kind = ? "
                    f"AND sha1 IN ({','.join('?' * len(part))})",
                    (*self._scope(), *part),
                )
                for key, blob in rows:
                    found[key] = np.frombuffer(blob, dtype=np.float32)
        for vector in found.values():
            if vector.shape != (self.dim,):
                raise EmbeddingCacheError(
                    f"The embedding cache {self.path} holds a vector of {vector.shape[0]} values where "
                    f"{self.name!r} gives {self.dim}: the file is damaged. Delete it (it is only a cache)."
                )
        return found

    def _store(self, vectors: dict[bytes, np.ndarray]) -> None:
        rows = (
            (*self._scope(), key, np.ascontiguousarray(vector, dtype=np.float32).tobytes())
            for key, vector in vectors.items()
        )
        with self._lock, self._errors("write"):
            with self._db:  # one transaction
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)", rows)

    def _scope(self) -> tuple[str, int, str]:
        return (self.inner.cache_key, self.dim, _KIND)

    @contextmanager
    def _errors(self, action: str) -> Iterator[None]:
        """Turn sqlite3's errors into EmbeddingCacheError naming the file and the fix."""
        try:
            yield
        except (sqlite3.Error, OSError) as exc:
            raise EmbeddingCacheError(
                f"Could not {action} the embedding cache {self.path}: {type(exc).__name__}: {exc}. Check that its "
                "folder is writable (ANNEX_EMBEDDING_CACHE), or delete the file: it is only a cache."
            ) from exc


def with_cache(embedder: Embedder, path: Path) -> Embedder:
    """The embedder behind a passage cache at path, or as it is when it is not worth caching (hash)."""
    return CachedEmbedder(embedder, path) if embedder.cache_key else embedder

