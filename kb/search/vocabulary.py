"""The keyword store's vocabulary (word → id), read from its SQLite table, not held in memory.

Held as a dict it was the serving process's largest single Python object after the chunks: 418k words, 57 MB at
92k chunks, for lookups that are a question's ten words or one document's few thousand. SQLite's unique index on
`words.word` answers those in microseconds, so only the count of words lives here.

Ids are given in order (0, 1, 2, …) and never change or come back: a stored chunk's ids stay valid. A writer's new
words get their ids before its transaction commits (`assign`) and are forgotten if it rolls back (`forget`); a
reader sees only committed words (its own connection, WAL), which every reader of the BM25 segments already allows
for: an id past what a segment knows scores nothing there.
"""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Iterable, Sequence

from kb.errors import KeywordIndexError

BATCH = 900  # words per `IN (…)` lookup, under SQLite's smallest default limit on bound parameters (999)


class Vocabulary:
    """Word ids as stored in the `words` table of the keyword store at `path`."""

    def __init__(self, path: Path, writer: sqlite3.Connection) -> None:
        self.path = path
        self._writer = writer  # the keyword store's connection; used only by its single writer
        try:
            self._reader = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._committed = writer.execute("SELECT COALESCE(MAX(id) + 1, 0) FROM words").fetchone()[0]
        except sqlite3.Error as exc:
            raise KeywordIndexError(f"Could not read the vocabulary of {self.path}: {exc}") from exc
        self._read_lock = threading.Lock()
        self._new: dict[str, int] = {}  # words the write in progress added, not committed yet

    def __len__(self) -> int:
        """How many ids are given (committed or in the write in progress): one past the largest."""
        return self._committed + len(self._new)

    def known(self, words: Iterable[str]) -> list[int]:
        """The ids of the words the committed vocabulary holds, in their order, repeats kept (a query's words)."""
        words = list(words)
        with self._read_lock:
            found = _lookup(self._reader, set(words), self.path)
        return [found[w] for w in words if w in found]

    def assign(self, words: Iterable[str]) -> dict[str, int]:
        """Every word's id, a new word getting the next one (the writer's: `new_words` holds what to insert)."""
        wanted = set(words)
        ids = _lookup(self._writer, wanted - self._new.keys(), self.path)
        for word in sorted(wanted - ids.keys() - self._new.keys()):  # sorted: the same ids for the same writes
            self._new[word] = len(self)
        return ids | {w: self._new[w] for w in wanted if w in self._new}

    def new_words(self) -> list[tuple[int, str]]:
        """The rows the write in progress adds to the `words` table."""
        return [(i, w) for w, i in self._new.items()]

    def committed(self) -> None:
        """The write's transaction committed: its words are the vocabulary's."""
        self._committed = len(self)
        self._new.clear()

    def forget(self) -> None:
        """The write's transaction rolled back: its words and ids are given again by the next."""
        self._new.clear()

    def close(self) -> None:
        with self._read_lock:
            self._reader.close()


def _lookup(db: sqlite3.Connection, words: set[str], path: Path) -> dict[str, int]:
    ordered: Sequence[str] = sorted(words)
    found: dict[str, int] = {}
    try:
        for at in range(0, len(ordered), BATCH):
            batch = ordered[at:at + BATCH]
            marks = ",".join("?" * len(batch))
            found.update(db.execute(f"SELECT word, id FROM words WHERE word IN ({marks})", batch))
    except sqlite3.Error as exc:
        raise KeywordIndexError(f"Could not read the vocabulary of {path}: {exc}") from exc
    return found
