"""The VectorStore and Embedder Protocols and the hit type vector search returns."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from kb.model import Chunk, Document

BODY_COLLECTION = "annex_body"
ATTACHMENT_COLLECTION = "annex_attachments"


@dataclass(frozen=True)
class VectorHit:
    """A chunk found by vector search; score is cosine similarity in [-1, 1], higher is closer."""

    chunk_id: str
    doc_id: str
    library: str
    attachment: str  # attachment label, or "" for a body chunk
    index: int
    start: int
    end: int
    text: str
    score: float


class Embedder(Protocol):
    """Turns texts into L2-normalized vectors."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), float32, rows L2-normalized."""


class VectorStore(Protocol):
    """Chunk vectors in two collections: document bodies and attachments."""

    def upsert_documents(self, docs: Sequence[Document]) -> None:
        """Write every chunk of the documents, replacing what was stored for those document ids."""

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

    def attachment_chunks(self, doc_id: str, label: str) -> list[Chunk]:
        """One attachment's chunks from the attachment collection, in chunk order."""

    def doc_ids(self) -> set[str]:
        """Every document id that has chunks stored."""

    def chunk_counts(self) -> dict[str, int]:
        """Stored chunks per document id (both collections)."""

    def count(self) -> dict[str, int]:
        """Chunks per collection."""
