"""The GraphStore Protocol: the few graph operations ingestion and the answer pipeline call."""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Protocol, Sequence

from kb.model import Chunk, Document


def attachment_node_id(doc_id: str, label: str) -> str:
    """The id of an attachment node in the store, the view and graph paths; labels repeat across documents."""
    return f"{doc_id}:{label}"


@dataclass(frozen=True)
class PathStep:
    """One node of a graph path, for the paths panel."""

    kind: str  # chunk | attachment | answer | question
    id: str
    label: str
    doc_id: str = ""
    mention: str = ""  # the mention on the edge that led to this node


@dataclass(frozen=True)
class GraphPath:
    """chunk → attachment → attachment, or answer → attachment for the post-answer hop."""

    steps: tuple[PathStep, ...]
    stage: str  # question | prefetch | search | post_hop


@dataclass(frozen=True)
class DocumentSummary:
    """One row of a library listing."""

    id: str
    library: str
    name: str
    title: str
    content_hash: str
    attachments: int
    chunks: int
    dangling: tuple[str, ...]  # labels of attachments referenced but missing
    tags: tuple[str, ...] = ()
    source: str = ""  # where the document came from: kb.model.CORPUS, UPLOAD, CLI, or "" if not recorded
    # (offset, page): where each page of each PDF file of the document starts in its text, and (offset, 0) where a
    # file without pages starts; () when none of its files is a PDF
    pages: tuple[tuple[int, int], ...] = ()
    page_count: int = 0  # pages of its main file (0 when it is not a PDF)

    def page_label(self, spans: Sequence[tuple[int, int]]) -> str:
        """`第3页` or `第3-4页` for char spans of the text, "" where the text has no pages."""
        if not any(page for _, page in self.pages) or not spans:
            return ""
        offsets = [offset for offset, _ in self.pages]
        first = self.pages[max(0, bisect.bisect_right(offsets, min(s for s, _ in spans)) - 1)][1]
        last = self.pages[max(0, bisect.bisect_right(offsets, max(e for _, e in spans) - 1) - 1)][1]
        if not first:
            return ""
        return f"第{first}页" if last in (first, 0) else f"第{first}-{last}页"


@dataclass(frozen=True)
class AttachmentPath:
    """A path found by traversal: a chunk, then the attachments reached through REFERENCES, in order."""

    chunk_id: str
    doc_id: str
    labels: tuple[str, ...]  # e.g. ("附件3", "附件5") for chunk → 附件3 → 附件5
    mentions: tuple[str, ...]  # mention text of each hop


@dataclass(frozen=True)
class ReferenceEdge:
    """A traversable REFERENCES edge: from a chunk (chunk_id set) or from an attachment (source set)."""

    doc_id: str
    chunk_id: str  # the chunk holding the mention, "" for an attachment→attachment edge
    source: str  # label of the attachment the edge leaves, "" for a chunk→attachment edge
    target: str  # label of the attachment it reaches
    mention: str
    start: int  # char offset of the mention


@dataclass(frozen=True)
class AttachmentInfo:
    """An attachment as listed for resolution and display."""

    doc_id: str
    doc_title: str
    library: str
    label: str
    title: str
    omitted: bool = False  # named by the document, content left out (（略）)


@dataclass(frozen=True)
class StoredDocument:
    """What the read models hold of one stored document: its listing row, chunks, traversable edges, attachments."""

    summary: DocumentSummary
    chunks: tuple[Chunk, ...]  # in chunk order within each owner
    edges: tuple[ReferenceEdge, ...]
    attachments: tuple[AttachmentInfo, ...]  # in document order


class GraphReads(Protocol):
    """The reads a turn makes (prefetch, the hop); the GraphStore and the in-memory graph/view.py answer them alike."""

    def attachment_paths(self, chunk_ids: Sequence[str], hops: int = 2) -> list[AttachmentPath]:
        """Every REFERENCES path of 1..hops steps from the given chunks to attachments."""

    def attachments_chunks(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], list[Chunk]]:
        """The chunks, in order, of several (doc_id, label) attachments."""

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks among these ids, in the order asked."""


class GraphStore(GraphReads, Protocol):
    """Documents, attachments, chunks and the references between them (and the turn's reads, GraphReads)."""

    engine: str  # "kuzu" or "ladybug"

    def upsert_documents(self, docs: Sequence[Document]) -> None:
        """Write documents, replacing any stored document with the same id (bulk COPY, serialized)."""

    def delete_document(self, doc_id: str) -> bool:
        """Remove a document with its attachments, chunks and edges; False if it was not stored."""

    def load_document(self, doc_id: str) -> Document | None:
        """Rebuild the stored Document (equal to what was written), or None."""

    def content_hash(self, doc_id: str) -> str | None:
        """The stored content hash of a document, or None if absent."""

    def list_documents(self, library: str | None = None) -> list[DocumentSummary]:
        """Documents of one library (or all), ordered by library then name."""

    def find_document(self, library: str, name: str) -> DocumentSummary | None:
        """A document of a library by its file name or its stem (name without extension)."""

    def all_chunks(self) -> list[Chunk]:
        """Every chunk (for the BM25 index), in document and chunk order."""

    def reference_edges(self) -> list[ReferenceEdge]:
        """Every traversable REFERENCES edge (for the in-memory graph view of graph/view.py)."""

    def list_attachments(self) -> list[AttachmentInfo]:
        """Every attachment with its document's title and library, by library, document and position."""

    def stored_documents(self, doc_ids: Sequence[str]) -> dict[str, StoredDocument]:
        """These documents' rows of list_documents, all_chunks, reference_edges and list_attachments (absent ones
        left out): what a write changed, read without scanning the store."""

    def as_stored(self, docs: Sequence[Document]) -> dict[str, StoredDocument]:
        """What stored_documents() returns for these documents once they are written, computed without a read (the
        last copy of a repeated id wins, as in upsert_documents)."""

    def document_text(self, doc_id: str) -> str | None:
        """The full text of a document (its char spans point into it), or None."""

    def stats(self) -> dict[str, int]:
        """Counts of libraries, documents, attachments, chunks, references and dangling references."""

    def close(self) -> None:
        """Release the database."""
