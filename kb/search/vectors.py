"""The VectorStore and Embedder Protocols and the hit type vector search returns."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol, Sequence

import numpy as np

from kb.model import Document
from kb.readers_first import ReadersFirst

BODY_COLLECTION = "annex_body"
ATTACHMENT_COLLECTION = "annex_attachments"


@dataclass(frozen=True)
class VectorHit:
    """A chunk found by vector search, without its text (the read models hold it); score is cosine similarity in
    [-1, 1], higher is closer."""

    chunk_id: str
    doc_id: str
    library: str
    attachment: str  # attachment label, or "" for a body chunk
    index: int
    start: int
    end: int
    score: float


class Embedder(Protocol):
    """Turns texts into L2-normalized vectors; a question and a stored chunk may be embedded differently
    (e5 prefixes them with `query: ` and `passage: `), so the store says which one it is embedding."""

    name: str  # what ANNEX_EMBEDDING names; persisted with each collection
    dim: int
    cache_key: str  # identifies the vectors for the passage cache (model and version); "" = not worth caching

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of search texts: shape (len(texts), dim), float32, rows L2-normalized."""

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of stored chunks: shape (len(texts), dim), float32, rows L2-normalized."""


class VectorStore(Protocol):
    """Chunk vectors in two collections: document bodies and attachments."""

    def upsert_documents(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> None:
        """Write every chunk of the documents, replacing what was stored for those document ids; with `readers`,
        each step that holds the interpreter first waits for the turns in flight (kb/readers_first.py)."""

    def begin_upsert(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> Callable[[], None]:
        """upsert_documents(), started: the returned wait() returns once the chunks are written or raises what
        stopped them. A store in this process writes before returning; one in another (kb/search/vector_process.py)
        writes while the caller goes on."""

    def delete_document(self, doc_id: str) -> int:
        """Remove every chunk of a document from both collections; returns how many were removed."""

    def query(
        self,
        text: str,
        k: int,
        libraries: Sequence[str] | None = None,
        doc_id: str | None = None,
        collections: Sequence[str] = (BODY_COLLECTION, ATTACHMENT_COLLECTION),
    ) -> list[VectorHit]:
        """The k closest chunks across the collections, best first, filtered by library and document."""

    def nearest(self, text: str, k: int, libraries: Sequence[str] | None = None,
                doc_id: str | None = None) -> list[tuple[str, float]]:
        """query() over both collections without the metadata: the k closest chunk ids and their cosine similarity,
        best first. A reader that holds every chunk's metadata already (the read models) places them itself; the
        metadata read costs more than the search (~5 of ~7 ms of CPU a collection at 92k chunks)."""

    def attachment_chunk_ids(self, doc_id: str, label: str) -> list[str]:
        """The ids of one attachment's chunks in the attachment collection, in chunk order."""

    def doc_ids(self) -> set[str]:
        """Every document id that has chunks stored."""

    def chunk_counts(self) -> dict[str, int]:
        """Stored chunks per document id (both collections)."""

    def chunk_versions(self, doc_ids: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
        """Stored chunks per document id and content hash, of every document or only of `doc_ids` (one scan)."""

    def count(self) -> dict[str, int]:
        """Chunks per collection."""

    def close(self) -> None:
        """Finish what was sent and let go of the store."""
