"""In-memory read models over the stores (BM25, attachment catalog, graph view, documents), rebuilt after writes."""
from __future__ import annotations

import threading
from dataclasses import dataclass

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphStore
from graph.view import GraphView
from kb.ingest.chunking import indexed_texts
from kb.model import Chunk
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
        catalog = AttachmentCatalog(self.graph.list_attachments())
        edges = self.graph.reference_edges()
        by_doc: dict[str, list[Chunk]] = {}
        for c in stored:
            by_doc.setdefault(c.doc_id, []).append(c)
        chunks = []
        for doc_id, owned in by_doc.items():
            titles = {a.label: a.title for a in catalog.of_documents([doc_id])}
            contexts = indexed_texts(documents[doc_id].title, owned, titles)
            library = documents[doc_id].library
            chunks += [IndexedChunk(c.id, c.doc_id, library, c.attachment, c.index, c.start, c.end, c.text, context)
                       for c, context in zip(owned, contexts)]
        view = GraphView(stored, edges)
        citing = frozenset(e.chunk_id for e in edges if e.chunk_id)
        return Snapshot(generation, BM25Index(chunks, self.tokens, citing), catalog, documents, view)
