"""In-memory read models over the stores (BM25, attachment catalog, graph view, documents), rebuilt after writes."""
from __future__ import annotations

import threading
from dataclasses import dataclass

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphStore
from graph.view import GraphView
from kb.search.bm25 import BM25Index, IndexedChunk, TokenCache
from kb.ingest.ingestor import Ingestor


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

    def __init__(self, graph: GraphStore, ingestor: Ingestor) -> None:
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
        chunks = [
            IndexedChunk(c.id, c.doc_id, documents[c.doc_id].library, c.attachment, c.index, c.start, c.end, c.text)
            for c in stored
        ]
        view = GraphView(stored, self.graph.reference_edges())
        catalog = AttachmentCatalog(self.graph.list_attachments())
        return Snapshot(generation, BM25Index(chunks, self.tokens), catalog, documents, view)
