"""In-memory read models over the stores (keyword search, attachment catalog, graph view, documents).

Built once at start from a few bulk reads; after that each write or delete changes them by the documents it wrote
or deleted alone, on the writer's thread, and publishes a new Snapshot by swapping one reference (copy-on-write):
a reader takes whichever snapshot is current and never waits for a writer; the uploader's next question, asked
after its upload returned, sees its document.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping, Protocol, Sequence

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphStore, StoredDocument
from graph.view import GraphView
from kb.errors import AnnexError
from kb.search.bm25 import BM25Index
from kb.search.bm25_segments import Segments
from kb.model import Document
from kb.native_memory import release_free_memory
from kb.readers_first import ReadersFirst
from kb.search.keyword_index import KeywordIndex


class Writes(Protocol):
    """The writer the read models follow (kb.ingest.ingestor.Ingestor): its counter of writes and its listeners."""

    generation: int  # bumped on every write or delete
    readers: ReadersFirst  # the turns in flight, which its writes step aside for

    def subscribe(self, listener: Callable[[int, Sequence[str], Sequence[Document], bool], None]) -> None:
        """Call listener(generation, changed doc ids, the documents written if known, whether more batches of the
        same ingest follow) after each write or delete, before it returns."""


@dataclass(frozen=True)
class Snapshot:
    """What the pipeline reads without touching the stores, as of one ingestor generation."""

    generation: int
    bm25: BM25Index
    catalog: AttachmentCatalog
    documents: dict[str, DocumentSummary]
    view: GraphView  # REFERENCES edges and attachment chunks: prefetch and the hop read these, not the store
    stored: Mapping[str, StoredDocument]  # what each document contributed, so that a write replaces it alone
    continues: Mapping[str, str]  # chunk id → the line its start continues, for the chunks that continue one

    @property
    def libraries(self) -> set[str]:
        return {d.library for d in self.documents.values()}


class ReadModels:
    """Hands out the current Snapshot; the ingestor's listener replaces it after each write or delete."""

    def __init__(self, graph: GraphStore, ingestor: Writes, keywords: KeywordIndex) -> None:
        self.graph = graph
        self.ingestor = ingestor
        self.keywords = keywords
        self.readers = ingestor.readers  # a turn marks itself reading here; the ingestor's writes step aside
        self._snapshot: Snapshot | None = None
        self._stale = False  # a refresh failed: the next reader rebuilds
        self._lock = threading.Lock()  # one builder at a time; readers take it only before the first build
        self._worker: threading.Thread | None = None  # merges and saves the BM25 segments in the background
        self._saved: object = None  # the main BM25 segment last saved
        self.last_refresh_s = 0.0  # how long the last write's refresh took (kb.bench reports it)
        self._deferred = False  # more batches of an ingest follow: no merge or save until its last (_refresh)
        ingestor.subscribe(self._refresh)

    def current(self) -> Snapshot:
        """The current snapshot (built on first use)."""
        snapshot = self._snapshot
        if snapshot is not None and not self._stale:
            return snapshot
        with self._lock:
            if self._snapshot is None or self._stale:
                self._stale = False
                self._snapshot = self._build(self.ingestor.generation)
            snapshot = self._snapshot
        self._kick()
        return snapshot

    def _refresh(self, generation: int, doc_ids: Sequence[str], written: Sequence[Document] = (),
                 more: bool = False) -> None:
        """After a write or delete (on the writer's thread): replace the changed documents in a new snapshot; the
        documents a write names are taken as written, the others read back.

        While more batches of one ingest follow, the BM25 main segment is neither merged nor saved: a bulk load of
        92k chunks merged the whole library in the background after nearly every 10k-chunk batch (and saved ~70 MB
        each time), beside the next batch's own memory. Its chunks wait in the delta, which a write rebuilds into the
        main segment once it outgrows it (linear in all); the last batch starts one merge."""
        with self._lock:
            old = self._snapshot
            if old is None or self._stale:
                return  # nothing built yet: the first reader builds everything
            started = time.perf_counter()
            try:
                known = self.graph.as_stored(written)
                stored = known | self.graph.stored_documents([i for i in doc_ids if i not in known])
                self._snapshot = _replaced(old, generation, stored, doc_ids, self.keywords, more)
            except AnnexError:
                self._stale = True  # the write stands; the next reader rebuilds from the stores
                return
            self.last_refresh_s = time.perf_counter() - started
        self._deferred = more
        self._kick()

    def settle(self) -> None:
        """Wait for the background merge and save of the BM25 segments (benchmarks and tests measure after it)."""
        self._kick()  # one the last write could not start (the worker was just finishing)
        worker = self._worker
        if worker is not None:
            worker.join()

    def _kick(self) -> None:
        """Start the background worker if the BM25 main segment wants a merge or is not saved yet."""
        snapshot = self._snapshot
        if snapshot is None or self._worker is not None or self._deferred:
            return
        segments = snapshot.bm25.segments
        if segments.wants_merge or (segments.main is not None and segments.main is not self._saved):
            self._worker = threading.Thread(target=self._work, name="bm25-segments", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        """Merge (rebuild the main segment off the lock, rebase on what was written meanwhile, publish) while one
        is wanted, then save the main segment so that the next start loads it."""
        try:
            while not self._deferred:  # a batch of an ingest arrived meanwhile and more follow: its last merges
                taken = self.current().bm25.segments
                if taken.wants_merge:
                    built = Segments(taken.live, list(taken.live.values()), len(self.keywords.vocab))
                    with self._lock:
                        now = self._snapshot
                        if now is not None and not self._stale:
                            segments = built.rebased(now.bm25.segments.live, len(self.keywords.vocab))
                            self._snapshot = replace(now, bm25=now.bm25.with_segments(segments))
                    release_free_memory()  # the old main segment and the build's scratch
                    continue
                if taken.main is not None and taken.main is not self._saved:
                    taken.save(self.keywords.main_dir)
                    self._saved = taken.main
                    continue
                return
        finally:
            self._worker = None

    def _build(self, generation: int) -> Snapshot:
        documents = {d.id: d for d in self.graph.list_documents()}
        chunks: dict[str, list] = {doc_id: [] for doc_id in documents}
        edges: dict[str, list] = {doc_id: [] for doc_id in documents}
        attachments: dict[str, list] = {doc_id: [] for doc_id in documents}
        for chunk in self.graph.all_chunks():
            chunks.get(chunk.doc_id, []).append(chunk)
        for edge in self.graph.reference_edges():
            edges.get(edge.doc_id, []).append(edge)
        for attachment in self.graph.list_attachments():
            attachments.get(attachment.doc_id, []).append(attachment)
        stored = {doc_id: StoredDocument(summary, tuple(chunks[doc_id]), tuple(edges[doc_id]),
                                         tuple(attachments[doc_id]))
                  for doc_id, summary in documents.items()}
        view = GraphView((c for s in stored.values() for c in s.chunks), (e for s in stored.values() for e in s.edges))
        rows = [row for row in self.keywords.chunks() if row.doc_id in documents]
        continues = {row.chunk_id: row.continues for row in rows if row.continues}
        live = {row.chunk_id: row for row in rows}
        segments = Segments.load(self.keywords.main_dir, live, len(self.keywords.vocab))
        if segments is None:
            segments = Segments(live, rows, len(self.keywords.vocab))
        else:
            self._saved = segments.main
        return _snapshot(generation, stored, documents, view, continues, segments, self.keywords)


def _replaced(old: Snapshot, generation: int, written: Mapping[str, StoredDocument], doc_ids: Iterable[str],
              keywords: KeywordIndex, more: bool = False) -> Snapshot:
    """The snapshot after these documents were written (present in `written`) or deleted (absent); `more`: further
    batches of the same ingest follow."""
    changed = set(doc_ids)
    stored = {k: v for k, v in old.stored.items() if k not in changed} | dict(written)
    documents = {k: v for k, v in old.documents.items() if k not in changed} | {k: v.summary for k, v in written.items()}
    view = old.view.replaced(changed, (c for s in written.values() for c in s.chunks),
                             (e for s in written.values() for e in s.edges))
    gone = {c.id for doc_id in changed if doc_id in old.stored for c in old.stored[doc_id].chunks}
    continues = {k: v for k, v in old.continues.items() if k not in gone} if gone else dict(old.continues)
    rows = keywords.chunks(list(written))
    continues.update((row.chunk_id, row.continues) for row in rows if row.continues)
    segments = old.bm25.segments.replaced(sorted(gone), rows, len(keywords.vocab), more)
    return _snapshot(generation, stored, documents, view, continues, segments, keywords)


def _snapshot(generation: int, stored: Mapping[str, StoredDocument], documents: dict[str, DocumentSummary],
              view: GraphView, continues: Mapping[str, str], segments: Segments, keywords: KeywordIndex) -> Snapshot:
    """A snapshot over these documents; the catalog keeps the store's order (library, name, id, position)."""
    order = sorted(documents.values(), key=lambda d: (d.library, d.name, d.id))
    catalog = AttachmentCatalog([a for d in order for a in stored[d.id].attachments])
    citing = frozenset(e.chunk_id for s in stored.values() for e in s.edges if e.chunk_id)
    libraries = frozenset(d.library for d in documents.values() if d.chunks)
    library_of = {doc_id: d.library for doc_id, d in documents.items()}.get
    bm25 = BM25Index(segments, keywords.vocab, view, library_of, libraries, citing, continues)
    return Snapshot(generation, bm25, catalog, documents, view, stored, continues)


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
