"""KuzuGraphStore: the GraphStore on embedded Kuzu or LadybugDB, written in bulk with COPY."""
from __future__ import annotations

import threading
import warnings
from contextlib import contextmanager
from pathlib import Path
from sys import intern
from typing import Any, Callable, Iterator, Sequence

import pyarrow as pa

from graph import schema as cypher
from graph.engine import load_engine
from graph.errors import GraphOpenError, GraphQueryError, GraphStoreError, GraphWriteError
from graph.kuzu_tables import (Batch, Columns, attachment_id, build_batch, decode_document, decode_summary,
                               stored_documents)
from graph.ranking import rank_paths
from graph.store import AttachmentInfo, AttachmentPath, DocumentSummary, ReferenceEdge, StoredDocument
from kb.model import Chunk, Document

DB_FILE = "graph.db"  # Kuzu keeps a database in one file (plus a .wal), so it lives inside `path`


class KuzuGraphStore:
    """Documents, attachments, chunks and REFERENCES edges in one embedded database under `path`."""

    def __init__(self, path: Path, engine: str = "kuzu", buffer_pool_mb: int = 0) -> None:
        self.engine = engine
        self.path = Path(path)
        self._module = load_engine(engine)
        self._write_lock = threading.Lock()
        self._gate = ReadGate()
        self._readers_lock = threading.Lock()
        self._readers: list[Any] = []
        self._local = threading.local()
        self._closed = False
        self.path.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._module.Database(str(self.path / DB_FILE), buffer_pool_size=buffer_pool_mb << 20)
        except RuntimeError as exc:
            raise GraphOpenError(
                f"Could not open the {engine} graph database in {self.path}: {exc}. If another annex-rag process "
                f"uses this store, stop it or point ANNEX_STORE_DIR elsewhere; if the files were written by another "
                f"engine or version, delete {self.path} and rebuild it from data/."
            ) from exc
        with self._write_lock:
            conn = self._module.Connection(self._db)
            try:
                for ddl in cypher.SCHEMA:
                    conn.execute(ddl)
            except RuntimeError as exc:
                raise GraphOpenError(f"Could not create the graph schema in {self.path}: {exc}") from exc
            finally:
                conn.close()

    def __enter__(self) -> KuzuGraphStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def upsert_documents(self, docs: Sequence[Document]) -> None:
        """Write documents, replacing stored ones with the same id: one delete and one COPY per table."""
        unique = list({doc.id: doc for doc in docs}.values())  # the last copy of a repeated id wins
        if not unique:
            return
        batch = build_batch(unique)
        ids = [doc.id for doc in unique]

        def write(conn: Any) -> None:
            stored = [row[0] for row in conn.execute(cypher.EXISTING_DOCUMENTS, {"ids": ids}).get_all()]
            if stored:
                _delete(conn, stored)
            _load(conn, batch)
            if stored:  # a replaced document may have moved to another library
                conn.execute(cypher.DELETE_EMPTY_LIBRARIES)

        self._transaction(write)

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document with its attachments, chunks and edges; False if it was not stored."""
        found: list[bool] = []

        def write(conn: Any) -> None:
            found.append(bool(conn.execute(cypher.EXISTING_DOCUMENTS, {"ids": [doc_id]}).get_all()))
            if found[0]:
                _delete(conn, [doc_id])
                conn.execute(cypher.DELETE_EMPTY_LIBRARIES)

        self._transaction(write)
        return found[0]

    def load_document(self, doc_id: str) -> Document | None:
        """Rebuild the stored Document, equal to what was written, or None; read from one snapshot."""
        params = {"id": doc_id}
        if not self._read(cypher.CONTENT_HASH, params):  # absent (every first ingest asks): one lookup, not four
            return None
        row, attachments, chunks, refs = self._read_snapshot(
            [(cypher.LOAD_DOCUMENT, params), (cypher.LOAD_ATTACHMENTS, params), (cypher.LOAD_CHUNKS, params),
             (cypher.LOAD_REFERENCES, params)]
        )
        return decode_document(doc_id, row[0], attachments, chunks, refs) if row else None

    def content_hash(self, doc_id: str) -> str | None:
        """The stored content hash of a document, or None if absent."""
        rows = self._read(cypher.CONTENT_HASH, {"id": doc_id})
        return rows[0][0] if rows else None

    def list_documents(self, library: str | None = None) -> list[DocumentSummary]:
        """Documents of one library (or all), ordered by library then name."""
        if library is None:
            return [decode_summary(row) for row in self._read(cypher.LIST_ALL)]
        rows = self._read(cypher.LIST_LIBRARY, {"library": library})
        return [decode_summary(row) for row in rows]

    def find_document(self, library: str, name: str) -> DocumentSummary | None:
        """A document of a library by file name or stem; an exact file name wins over a stem."""
        rows = self._read(cypher.FIND_DOCUMENT, {"library": library, "name": name})
        return decode_summary(rows[0]) if rows else None

    def attachment_paths(self, chunk_ids: Sequence[str], hops: int = 2) -> list[AttachmentPath]:
        """Every acyclic REFERENCES path of 1..hops steps from the chunks, one per chunk and label sequence."""
        if hops < 0:
            raise ValueError(f"hops must not be negative, got {hops}")
        ids = list(dict.fromkeys(chunk_ids))
        if hops == 0 or not ids:
            return []
        order = {chunk_id: i for i, chunk_id in enumerate(ids)}
        rows = self._read(cypher.attachment_paths_query(hops), {"ids": ids})
        return rank_paths(
            (order[chunk_id], AttachmentPath(chunk_id, doc_id, (*inner, last), tuple(mentions)), tuple(starts))
            for chunk_id, doc_id, inner, last, mentions, starts in rows
            if len({*inner, last}) == len(inner) + 1  # Kuzu's ACYCLIC lets the end node repeat an inner one
        )

    def attachments_chunks(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], list[Chunk]]:
        """The chunks, in order, of several (doc_id, label) attachments in one read; [] for one without any."""
        ids = {attachment_id(doc_id, label): (doc_id, label) for doc_id, label in keys}
        out: dict[tuple[str, str], list[Chunk]] = {key: [] for key in ids.values()}
        for row in self._read(cypher.ATTACHMENTS_CHUNKS, {"ids": list(ids)}):
            out[ids[row[0]]].append(Chunk(*row[1:8]))
        return out

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The stored chunks among these ids, in the order asked."""
        found = {row[0]: Chunk(*row[:7]) for row in self._read(cypher.CHUNKS_BY_ID, {"ids": list(chunk_ids)})}
        return [found[i] for i in chunk_ids if i in found]

    def all_chunks(self) -> list[Chunk]:
        """Every chunk (for the BM25 index), in document and chunk order."""
        rows = self._read(cypher.ALL_CHUNKS, bulk=True)
        rows.sort(key=lambda row: (row[1], row[7]))  # doc_id, pos
        # One string a document and a label, not one a chunk: the read models hold every chunk (~10 MB at 92k).
        return [Chunk(c, intern(d), intern(a), *rest) for c, d, a, *rest in (row[:7] for row in rows)]

    def reference_edges(self) -> list[ReferenceEdge]:
        """Every traversable REFERENCES edge, from chunks and from attachments, read from one snapshot."""
        rows = self._read_snapshot([(cypher.CHUNK_REFERENCES, {}), (cypher.ATTACHMENT_REFERENCES, {})], bulk=True)
        return [ReferenceEdge(*row) for part in rows for row in part]

    def list_attachments(self) -> list[AttachmentInfo]:
        """Every attachment with its document's title and library."""
        return [AttachmentInfo(*row) for row in self._read(cypher.LIST_ATTACHMENTS, bulk=True)]

    def stored_documents(self, doc_ids: Sequence[str]) -> dict[str, StoredDocument]:
        """These documents' listing rows, chunks, edges and attachments, each read from one snapshot."""
        out = {}
        for doc_id in dict.fromkeys(doc_ids):
            params = {"id": doc_id}
            summary, chunks, from_chunks, from_attachments, attachments = self._read_snapshot([
                (cypher.SUMMARY, params), (cypher.LOAD_CHUNKS, params), (cypher.DOCUMENT_CHUNK_REFERENCES, params),
                (cypher.DOCUMENT_ATTACHMENT_REFERENCES, params), (cypher.DOCUMENT_ATTACHMENTS, params),
            ])
            if summary:
                out[doc_id] = StoredDocument(
                    decode_summary(summary[0]),
                    tuple(Chunk(*row[:7]) for row in sorted(chunks, key=lambda row: row[7])),
                    tuple(ReferenceEdge(*row) for row in [*from_chunks, *from_attachments]),
                    tuple(AttachmentInfo(*row) for row in attachments),
                )
        return out

    def as_stored(self, docs: Sequence[Document]) -> dict[str, StoredDocument]:
        """What stored_documents() reads back once these documents are written, computed from them (no read)."""
        unique = list({doc.id: doc for doc in docs}.values())
        return stored_documents(build_batch(unique)) if unique else {}

    def document_text(self, doc_id: str) -> str | None:
        """The full text of a document, or None."""
        rows = self._read(cypher.DOCUMENT_TEXT, {"id": doc_id})
        return rows[0][0] if rows else None

    def stats(self) -> dict[str, int]:
        """Counts of libraries, documents, attachments, chunks, traversable references and dangling ones."""
        counts = self._read_snapshot([(query, {}) for query in cypher.STATS.values()])
        return {name: int(rows[0][0]) for name, rows in zip(cypher.STATS, counts)}

    def close(self) -> None:
        """Close every connection and the database; later calls raise GraphStoreError."""
        with self._write_lock:
            if self._closed:
                return
            self._closed = True
            with self._gate.hold(), self._readers_lock:
                for conn in self._readers:
                    conn.close()
                self._readers.clear()
                self._db.close()

    def _transaction(self, write: Callable[[Any], None]) -> None:
        """Run `write` in one transaction under the write lock, on a connection of its own."""
        with self._write_lock:
            self._check_open()
            # A fresh connection per write: both engines keep every frame a connection has COPYed alive until
            # the connection closes, and closing an uncommitted connection rolls its transaction back.
            conn = self._module.Connection(self._db)
            try:
                conn.execute("BEGIN TRANSACTION")
                write(conn)
                with self._gate.hold():
                    conn.execute("COMMIT")
            except RuntimeError as exc:
                raise GraphWriteError(
                    f"Writing to the {self.engine} graph in {self.path} failed and was rolled back: {exc}"
                ) from exc
            finally:
                conn.close()

    def _read(self, query: str, params: dict[str, Any] | None = None, bulk: bool = False) -> list[list[Any]]:
        try:
            with self._gate.read():
                return _rows(self._reader().execute(query, params or {}), bulk)
        except RuntimeError as exc:
            raise GraphQueryError(f"A {self.engine} graph query on {self.path} failed: {exc}{_hint(exc)}") from exc

    def _read_snapshot(self, reads: list[tuple[str, dict[str, Any]]], bulk: bool = False) -> list[list[list[Any]]]:
        """Several queries in one read-only transaction, so a concurrent write cannot tear the result."""
        with self._gate.read():
            conn = self._reader()
            try:
                conn.execute("BEGIN TRANSACTION READ ONLY")
                results = [_rows(conn.execute(query, params), bulk) for query, params in reads]
                conn.execute("COMMIT")
            except RuntimeError as exc:
                self._drop_reader(conn)  # closing it ends whatever transaction the failure left open
                raise GraphQueryError(f"A {self.engine} graph query on {self.path} failed: {exc}{_hint(exc)}") from exc
        return results

    def _reader(self) -> Any:
        """This thread's read connection, opened on first use."""
        self._check_open()
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._module.Connection(self._db)
            self._local.conn = conn
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def _drop_reader(self, conn: Any) -> None:
        with self._readers_lock:
            self._readers.remove(conn)
        self._local.conn = None
        conn.close()

    def _check_open(self) -> None:
        if self._closed:
            raise GraphStoreError(f"The graph store in {self.path} is closed; open a new KuzuGraphStore.")


def _rows(result: Any, bulk: bool) -> list[Any]:
    """A query's rows; `bulk` fetches them as Arrow columns: a whole table in one call, not a Python call per row
    (all chunks at ~92k: about 0.5 s instead of 4)."""
    if not bulk:
        return result.get_all()
    table = result.get_as_arrow()
    return [list(row) for row in zip(*(column.to_pylist() for column in table.columns))]


def _hint(exc: RuntimeError) -> str:
    """The fix for a full buffer pool, which the engine's message does not name."""
    if "buffer pool is full" in str(exc).lower():
        return "; give the graph engine a larger page cache (ANNEX_GRAPH_BUFFER_POOL_MB)"
    return ""


# Rows of a write (every table's together) up to which it creates them one by one rather than COPYing them: COPY's
# commit into a rel table costs ~0.1 s whatever the rows, creating them ~1 ms per 100; past this, COPY's bulk load
# wins (a write batch of the benchmark's ingest: 200 documents, ~20,000 rows).
CREATE_ROWS = 2000


def _delete(conn: Any, doc_ids: list[str]) -> None:
    for statement in cypher.DELETE_DOCUMENTS:
        conn.execute(statement, {"ids": doc_ids})


def _load(conn: Any, batch: Batch) -> None:
    conn.execute(cypher.MERGE_LIBRARIES, {"libraries": batch.libraries})
    tables = [(table, "", "", columns) for table, columns in batch.nodes()] + batch.rels()
    create = sum(_count(columns) for *_, columns in tables) <= CREATE_ROWS  # a small write: an upload, a delete's redo
    for table, src, dst, columns in tables:
        if _count(columns):
            _write_rows(conn, table, columns, src, dst, create)


def _count(columns: Columns) -> int:
    return len(next(iter(columns.values())))


def _write_rows(conn: Any, table: str, columns: Columns, src: str, dst: str, create: bool) -> None:
    if create:
        names = tuple(columns)
        records = [dict(zip(names, values)) for values in zip(*columns.values())]
        statement = cypher.create_statement(table, names, src, dst)
        if not src:
            conn.execute(statement, {"rows": records})
            return
        with warnings.catch_warnings():  # both engines call prepare() deprecated, yet execute(str) plans every call
            warnings.simplefilter("ignore", DeprecationWarning)
            prepared = conn.prepare(statement)  # planned once: 50 edges 100-200 ms unprepared, 46 ms prepared
        for record in records:  # one edge a statement: its ends are found by the primary-key index
            record["from_id"], record["to_id"] = record.pop("from"), record.pop("to")
            conn.execute(prepared, record)
        return
    # Build the Arrow table right here: ladybug 0.22 segfaults when one frame object is COPYed twice into a table.
    conn.execute(cypher.copy_statement(table, src, dst), {"frame": pa.table(columns)})


class ReadGate:
    """Reads run side by side; a committing write holds new reads back until it is done."""

    # Kuzu checkpoints on commit and waits for every open transaction; a steady stream of reads made that
    # time out ("Timeout waiting for active transactions to leave the system before checkpointing").

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._reads = 0
        self._held = False

    @contextmanager
    def read(self) -> Iterator[None]:
        """Enter as a reader; waits while a write holds the gate."""
        with self._cond:
            self._cond.wait_for(lambda: not self._held)
            self._reads += 1
        try:
            yield
        finally:
            with self._cond:
                self._reads -= 1
                self._cond.notify_all()

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Stop new reads, wait for running ones to finish, and let reads in again on exit (one holder at a time)."""
        with self._cond:
            self._held = True
            self._cond.wait_for(lambda: self._reads == 0)
        try:
            yield
        finally:
            with self._cond:
                self._held = False
                self._cond.notify_all()
