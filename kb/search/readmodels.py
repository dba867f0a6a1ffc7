"""In-memory read models over the stores (BM25, attachment catalog, graph view, documents), rebuilt after writes."""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Protocol

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphStore
from graph.view import GraphView
from kb.model import Chunk
from kb.search.indexed_text import continued_lines, indexed_texts
from kb.search.bm25 import BM25Index, IndexedChunk, TokenCache


class Writes(Protocol):
    """The writer the read models follow (kb.ingest.ingestor.Ingestor): its counter of writes and deletes."""

    generation: int  # bumped on every write or delete


@dataclass(frozen=True)
class Snapshot:
    """What the pipeline reads without touching the stores, as of one ingestor generation."""

    generation: int
    bm25: BM25Index
    catalog: AttachmentCatalog
    documents: dict[str, DocumentSummary]
    view: GraphView  # REFERENCES edges and attachment chunks: prefetch and the hop read these, not the store

    @property
    def libraries(self) -> set[str]:
        return {d.library for d in self.documents.values()}


class ReadModels:
    """Hands out the current Snapshot, rebuilding it once after each write or delete."""

    def __init__(self, graph: GraphStore, ingestor: Writes) -> None:
        self.graph = graph
        self.ingestor = ingestor
        self._snapshot: Snapshot | None = None
        self._lock = threading.Lock()
        self.tokens = TokenCache()

    def current(self) -> Snapshot:
        """The snapshot for the ingestor's current generation."""
        snapshot = self._snapshot
        if snapshot is not None and snapshot.generation == self.ingestor.generation:
            return snapshot
        with self._lock:
            generation = self.ingestor.generation
            if self._snapshot is None or self._snapshot.generation != generation:
                self._snapshot = self._build(generation)
            return self._snapshot

    def _build(self, generation: int) -> Snapshot:
        documents = {d.id: d for d in self.graph.list_documents()}
        stored = [c for c in self.graph.all_chunks() if c.doc_id in documents]
        catalog = AttachmentCatalog(self.graph.list_attachments())
        edges = self.graph.reference_edges()
        by_doc: dict[str, list[Chunk]] = {}
        for c in stored:
            by_doc.setdefault(c.doc_id, []).append(c)
        chunks = []
        for doc_id, owned in by_doc.items():
            titles = {a.label: a.title for a in catalog.of_documents([doc_id])}
            continues = continued_lines(owned)
            contexts = indexed_texts(documents[doc_id].title, owned, titles, continues)
            library = documents[doc_id].library
            chunks += [IndexedChunk(c.id, c.doc_id, library, c.attachment, c.index, c.start, c.end, c.text, context,
                                    continues[c.id])
                       for c, context in zip(owned, contexts)]
        view = GraphView(stored, edges)
        citing = frozenset(e.chunk_id for e in edges if e.chunk_id)
        return Snapshot(generation, BM25Index(chunks, self.tokens, citing), catalog, documents, view)


class Reads(Protocol):
    """What a reader of the read models calls: ReadModels, or LibraryReads restricting it."""

    graph: GraphStore

    def current(self) -> Snapshot:
        """The current snapshot."""


class LibraryReads:
    """The read models as a reader restricted to some libraries sees them: the other libraries' documents and
    attachments are not in its snapshots, so they cannot be listed, opened, resolved or walked through it."""

    def __init__(self, read: Reads, keep: Callable[[str], bool]) -> None:
        self.read = read
        self.graph = read.graph
        self.keep = keep
        self._cache: tuple[Snapshot, Snapshot] | None = None

    @classmethod
    def of(cls, read: Reads, libraries: Iterable[str]) -> LibraryReads:
        """The read models restricted to these libraries."""
        return cls(read, frozenset(libraries).__contains__)

    def current(self) -> Snapshot:
        """The current snapshot without the documents of other libraries and their attachments."""
        snapshot = self.read.current()
        cached = self._cache
        if cached is not None and cached[0] is snapshot:
            return cached[1]
        documents = {k: d for k, d in snapshot.documents.items() if self.keep(d.library)}
        kept = snapshot if len(documents) == len(snapshot.documents) else replace(
            snapshot, documents=documents, catalog=AttachmentCatalog(snapshot.catalog.of_documents(list(documents))))
        self._cache = (snapshot, kept)
        return kept
