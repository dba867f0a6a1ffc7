"""Ingestion: read, build and write documents a batch at a time, keeping the stores consistent."""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterator, NoReturn, Sequence

from graph.store import DocumentSummary, GraphStore
from kb.ingest.assemble import Limits, build_document, document_id, stored_parts
from kb.errors import AnnexError, IngestError
from kb.model import UNKNOWN, UPLOAD, Document, IngestResult, ParsedFile
from kb.native_memory import release_free_memory
from kb.readers_first import ReadersFirst
from kb.ingest.formats import expand_paths
from kb.ingest.parsing import parse_file
from kb.ingest.text_room import TextRoom
from kb.ingest.units import Progress, Unit, group_files, read_unit
from kb.settings import Settings
from kb.search.keyword_index import KeywordIndex
from kb.search.vectors import VectorStore

# (generation, ids of the documents written or deleted, the documents a write stored, if it knows them) → None
Listener = Callable[[int, Sequence[str], Sequence[Document], bool], None]
WRITE_BATCH = 200  # documents per store write
WRITE_CHUNKS = 10_000  # chunks per store write: a batch of long documents is written sooner
LIST_LIBRARY_AT = 50  # documents an ingest builds past which it lists the library's stored ones once


@dataclass(frozen=True)
class Reconciled:
    """What reconcile() found after a crash and put right."""

    repaired: tuple[str, ...]  # ids of stored documents whose vectors were incomplete and were written again
    orphans: tuple[str, ...]  # ids of documents absent from the graph whose vectors were deleted


class Ingestor:
    """Writes documents into the graph and vector stores, one batch at a time, keeping them consistent."""

    def __init__(self, settings: Settings, graph: GraphStore, vectors: VectorStore, keywords: KeywordIndex) -> None:
        self.settings = settings
        self.graph = graph
        self.vectors = vectors
        self.keywords = keywords
        self._lock = threading.Lock()
        self.readers = ReadersFirst()  # turns in flight: each vector step of a write waits for them first
        self.generation = 0  # bumped on every write or delete, so readers know to refresh their indexes
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        """Call `listener` after each write or delete, on the writer's thread, before the write returns.

        The read models follow the stores this way: the uploader's next question sees its document, and no reader
        waits for the refresh (kb/search/readmodels.py)."""
        self._listeners.append(listener)

    def _publish(self, doc_ids: Sequence[str], written: Sequence[Document] = (), more: bool = False) -> None:
        """Bump the generation and tell the listeners which documents changed (under the write lock); `written`: the
        documents a write stored, so that a listener need not read them back; `more`: further batches of the same
        ingest follow (a listener may leave work that the whole ingest needs once, such as a merge, to the last)."""
        self.generation += 1
        for listener in self._listeners:
            listener(self.generation, doc_ids, written, more)

    def ingest(
        self,
        paths: Sequence[Path | str],
        library: str | None = None,
        progress: Progress | None = None,
        tags: Sequence[str] = (),
        source: str = UPLOAD,
        keep_others: bool = False,
        text_room: TextRoom | None = None,
    ) -> list[IngestResult]:
        """Ingest files and directories into a library, with optional extra tags; one result per file.

        `source` is recorded with each document (kb.model.CORPUS, UPLOAD, CLI). With `keep_others`, a file whose
        document is stored from another source is left as it is (status "kept"): the start-up sync uses it so that
        it never replaces what a user uploaded. A document is unchanged only when its stored content hash and
        source match and the vector store holds exactly its chunks; one whose vectors a crash left incomplete is
        written again (repaired=True). With `text_room` (a visitor's upload), a file whose extracted text would
        pass the room left is refused on its result line: a small .docx or .xlsx may expand to far more text.
        """
        files = expand_paths(paths)
        results: dict[str, IngestResult] = {}
        for batch in self._stream(files, library, progress, tags, source, keep_others, text_room):
            results.update(batch)
        order = {str(p): i for i, p in enumerate(files)}
        return [results[k] for k in sorted(results, key=lambda k: order.get(k, len(order)))]

    def ingest_batches(
        self, paths: Sequence[Path | str], library: str | None = None, progress: Progress | None = None, *,
        source: str = UPLOAD, keep_others: bool = False,
    ) -> Iterator[list[IngestResult]]:
        """ingest(), one write batch at a time: the results of each batch as soon as it is written.

        A caller that drops each batch's documents holds a few documents at a time, not the whole folder (the
        benchmark's 92k chunks: every parsed file and built document held until the end was 2 GB)."""
        for batch in self._stream(expand_paths(paths), library, progress, (), source, keep_others):
            yield list(batch.values())

    def _stream(
        self, files: list[Path], library: str | None, progress: Progress | None, tags: Sequence[str], source: str,
        keep_others: bool, text_room: TextRoom | None = None,
    ) -> Iterator[dict[str, IngestResult]]:
        """Read, build and write the files' documents WRITE_BATCH documents (or WRITE_CHUNKS chunks) at a time;
        yields each batch's results by file path."""
        library = library or self.settings.default_library
        total = len(files) * 2
        max_bytes, max_ocr = self.settings.max_file_bytes, self.settings.max_ocr_pages
        units = group_files(files, library, self.graph, lambda path: parse_file(path, max_bytes, None, max_ocr))
        stored = self._stored_lookup(library, len(units))
        results: dict[str, IngestResult] = {}
        built: list[tuple[Unit, Document]] = []
        pending: _Begun | None = None  # the batch written last, its graph commit waiting for its vectors
        done = 0
        for n, unit in enumerate(units):
            names = unit.files  # before reading: a file that cannot be read leaves the unit
            if progress:
                progress(done, total, f"parse {Path(names[0]).name}")

            def read(path: Path) -> ParsedFile:
                one = parse_file(path, max_bytes, _page_progress(progress, done, total, path.name), max_ocr)
                if text_room is not None:
                    text_room.take(one)
                return one

            if read_unit(unit, library, self.graph, read, results):
                try:
                    built.append((unit, replace(self._build(unit, library, tags), source=source)))
                except AnnexError as exc:
                    for name in unit.files:
                        results[name] = IngestResult(Path(name).name, status="error", error=str(exc))
            done += len(names)
            last = n == len(units) - 1
            if last or len(built) >= WRITE_BATCH or sum(len(d.chunks) for _, d in built) >= WRITE_CHUNKS:
                changed = self._changed(built, stored, source, keep_others, results)
                begun = None
                if changed:
                    if progress:
                        progress(done, total, f"write {len(changed)} documents")
                    begun = self._begin_or_fail(changed, results)
                if begun is None:
                    yield results
                else:  # the batch before commits only now: its vectors were written while this one was built
                    if pending is not None:
                        yield self._commit_or_fail(pending, more=True)
                    pending = begun
                results, built = {}, []
        if pending is not None:
            yield self._commit_or_fail(pending, more=False)
        if progress:
            progress(total, total, "done")

    def _begin_or_fail(self, changed: list[tuple[Unit, Document]],
                       results: dict[str, IngestResult]) -> _Begun | None:
        """Begin the batch's write; on failure its files' results say why and nothing is pending."""
        try:
            return _Begun(changed, results, self._begin([d for _, d in changed]))
        except AnnexError as exc:
            _failed(changed, results, exc)
            return None

    def _commit_or_fail(self, begun: _Begun, more: bool) -> dict[str, IngestResult]:
        """Commit a begun batch; its results, which say why for each file when it failed."""
        try:
            self._commit([d for _, d in begun.changed], begun.wait, more)
        except AnnexError as exc:
            _failed(begun.changed, begun.results, exc)
        # Every write hands back what it freed (kb/native_memory.py), an upload's too: at 92k chunks, 16
        # one-document uploads left 1,250 MB resident without, 1,187 MB with; 3-20 ms a call, outside the GIL.
        release_free_memory()
        return begun.results

    def write(self, docs: Sequence[Document], more: bool = False) -> None:
        """Replace these documents in both stores; on failure restore what was stored before. `more`: this is not
        the last batch of an ingest (the listeners hear it).

        The vectors are written first and the graph last, in one transaction: a document's graph node (with its
        content hash) is the commit marker. A crash before that commit leaves the graph as it was and vectors
        that do not match it, which the next ingest of the file or reconcile() repairs.
        """
        self._commit(docs, self._begin(docs), more)

    def _begin(self, docs: Sequence[Document]) -> Callable[[], None]:
        """The first half of write(): the vectors sent (written by the time the returned wait() returns) and the
        keywords written. A vector store in another process writes them while this one goes on."""
        with self._lock:
            try:
                wait = self.vectors.begin_upsert(docs, self.readers)
                self.keywords.upsert_documents(docs)
            except AnnexError as exc:
                self._undo(docs, exc)
        return wait

    def _commit(self, docs: Sequence[Document], wait: Callable[[], None], more: bool) -> None:
        """The second half of write(): once the vectors are written, the graph, whose nodes mark the commit."""
        with self._lock:
            try:
                wait()
                self.graph.upsert_documents(docs)
            except AnnexError as exc:
                self._undo(docs, exc)
            self._publish([d.id for d in docs], docs, more)

    def _undo(self, docs: Sequence[Document], exc: AnnexError) -> NoReturn:
        """Put back the vectors and keywords stored before a write that failed, and raise what stopped it."""
        names = ", ".join(d.name for d in docs)
        try:
            self._restore_vectors([d.id for d in docs])
        except AnnexError as again:
            raise IngestError(names, f"not written ({exc}), and the old vectors could not be restored "
                              f"({again}); the next start or re-ingest repairs them") from exc
        finally:
            self._publish([d.id for d in docs])
        raise IngestError(names, f"not written, stores left as they were: {exc}") from exc

    def reconcile(self) -> Reconciled:
        """Make the stores agree after a crash: one scan of each, then repair what disagrees.

        Vectors of documents the graph does not hold are deleted; a stored document whose vectors are not exactly
        its chunks of its stored version gets its vectors written again from the graph.
        """
        with self._lock:
            versions = self.vectors.chunk_versions()
            stored = self.graph.list_documents()
            known = {d.id for d in stored}
            orphans = tuple(doc_id for doc_id in versions if doc_id not in known)
            for doc_id in orphans:
                self.vectors.delete_document(doc_id)
            broken = tuple(d.id for d in stored if not _whole(versions.get(d.id, {}), d))
            self._restore_vectors(broken)
            if orphans or broken:
                self._publish([*orphans, *broken])
        self.reconcile_keywords()
        return Reconciled(broken, orphans)

    def reconcile_keywords(self) -> int:
        """Make the keyword index hold exactly the graph's documents (a crash between commits, a new store, or an
        index written before this one existed); returns how many documents were indexed again or dropped."""
        with self._lock:
            held = self.keywords.versions()
            stored = {d.id: d.content_hash for d in self.graph.list_documents()}
            orphans = [doc_id for doc_id in held if doc_id not in stored]
            missing = [doc_id for doc_id, content_hash in stored.items() if held.get(doc_id) != content_hash]
            self.keywords.delete_documents(orphans)
            self._restore_vectors(missing, vectors=False)
            if orphans or missing:
                self._publish([*orphans, *missing])
        return len(orphans) + len(missing)

    def _restore_vectors(self, doc_ids: Sequence[str], vectors: bool = True) -> None:
        """Make the vectors and keywords of these documents match the graph again (deleted where it has none)."""
        for i in range(0, len(doc_ids), WRITE_BATCH):
            batch = doc_ids[i : i + WRITE_BATCH]
            stored = [doc for doc_id in batch if (doc := self.graph.load_document(doc_id)) is not None]
            loaded = {doc.id for doc in stored}
            gone = [doc_id for doc_id in batch if doc_id not in loaded]
            self.keywords.delete_documents(gone)
            self.keywords.upsert_documents(stored)
            if vectors:
                for doc_id in gone:
                    self.vectors.delete_document(doc_id)
                self.vectors.upsert_documents(stored)

    def _stored_lookup(self, library: str, units: int) -> Callable[[Document], DocumentSummary | None]:
        """How an ingest of `units` documents finds a built document's stored summary: a small one asks the graph
        for each (one upload need not decode the summaries of a library of thousands, ~60 ms of the GIL at 2,000
        documents), a bulk one lists the library once."""
        if units > LIST_LIBRARY_AT:
            listed = {d.id: d for d in self.graph.list_documents(library)}
            return lambda doc: listed.get(doc.id)

        def one(doc: Document) -> DocumentSummary | None:
            found = self.graph.find_document(library, doc.name)
            return found if found is not None and found.id == doc.id else None

        return one

    def _changed(
        self, documents: list[tuple[Unit, Document]], stored: Callable[[Document], DocumentSummary | None],
        source: str,
        keep_others: bool, results: dict[str, IngestResult],
    ) -> list[tuple[Unit, Document]]:
        """Record a result for every built document; return those to write (new, edited, re-owned or repaired)."""
        olds = {doc.id: stored(doc) for _, doc in documents}
        # Only a stored document can be unchanged, so only those are asked for: a vector store in another process
        # answers after the write it is busy with, and a new document would wait for it for nothing.
        held = [doc_id for doc_id, old in olds.items() if old is not None]
        versions = self.vectors.chunk_versions(held) if held else {}
        changed = []
        for unit, doc in documents:
            old = olds[doc.id]
            if keep_others and old is not None and not _owned(old, doc, source):
                self._record(results, unit, doc, "kept")
                continue
            same = old is not None and old.content_hash == doc.content_hash and old.source == source
            whole = old is not None and _whole(versions.get(doc.id, {}), old)
            if same and whole:
                self._record(results, unit, doc, "unchanged")
                continue
            self._record(results, unit, doc, "ingested", repaired=same)
            changed.append((unit, doc))
        return changed

    def delete(self, doc_id: str) -> bool:
        """Remove a document from both stores; False if it was not stored."""
        with self._lock:
            found = self.graph.delete_document(doc_id)
            self.readers.step()
            removed = self.vectors.delete_document(doc_id)
            words = self.keywords.delete_documents([doc_id])
            if found or removed or words:  # deleting what is not stored changes nothing a reader sees
                self._publish([doc_id])
                release_free_memory()
        return found or removed > 0

    def _build(self, unit: Unit, library: str, tags: Sequence[str]) -> Document:
        main = unit.main
        extras = dict(unit.extras)
        stored = unit.stored if unit.stored is not None else (
            self.graph.load_document(document_id(library, main.file)) if main is not None else None
        )
        # A stored document is read back from its parts when attachment files join it (a late 附件3 for a parent
        # stored alone) or when it already carries some (re-ingesting the parent keeps them).
        if stored is not None and (main is None or len(stored.parts) > 1):
            if not stored.parts:
                names = ", ".join(Path(name).name for name in unit.extra_files)
                raise IngestError(names, f"its parent document '{stored.name}' was stored without its source parts, "
                                  "so the attachment cannot join it; upload the parent together with its attachment "
                                  "files.")
            stored_main, stored_extras = stored_parts(stored)
            main = main or stored_main
            for extra in stored_extras:
                extras.setdefault(extra.label, extra)
        if main is None:  # the parent was deleted between grouping and building
            names = ", ".join(Path(name).name for name in unit.extra_files)
            raise IngestError(names, "its parent document is no longer stored; upload the parent together with its "
                              "attachment files.")
        limits = Limits(self.settings.max_attachments, self.settings.max_references, self.settings.parse_seconds)
        return build_document(
            library, main, list(extras.values()), self.settings.chunk_target, self.settings.chunk_max, tags, limits
        )

    @staticmethod
    def _record(
        results: dict[str, IngestResult], unit: Unit, doc: Document, status: str, repaired: bool = False
    ) -> None:
        if unit.main_path is not None:
            results[str(unit.main_path)] = IngestResult(doc.name, doc.id, status, document=doc, repaired=repaired,
                                                        notes=(*unit.notes, *(unit.main.notes if unit.main else ())))
        notes = {Path(name).name: extra.parsed.notes for extra in unit.extras.values() for name in unit.extra_files
                 if Path(name).name == extra.parsed.file}
        for name in unit.extra_files:
            results[name] = IngestResult(
                Path(name).name, doc.id, "attached" if status == "ingested" else status, document=doc,
                repaired=repaired, notes=notes.get(Path(name).name, ()),
            )


@dataclass(frozen=True)
class _Begun:
    """A batch whose write has begun: its documents (with their units), its files' results, and the wait for its
    vectors."""

    changed: list[tuple[Unit, Document]]
    results: dict[str, IngestResult]
    wait: Callable[[], None]


def _failed(changed: list[tuple[Unit, Document]], results: dict[str, IngestResult], exc: AnnexError) -> None:
    """Every file of a batch that was not written says why."""
    for unit, doc in changed:
        for name in unit.files:
            results[name] = IngestResult(Path(name).name, doc.id, "error", str(exc))


def _page_progress(progress: Progress | None, done: int, total: int, name: str):
    """Per-page progress of one file's OCR, shown as the parse step of that file."""
    if progress is None:
        return None
    return lambda page, pages: progress(done, total, f"OCR {name} 第{page}/{pages}页")


def _whole(versions: dict[str, int], stored: DocumentSummary) -> bool:
    """Whether the vectors (chunks per content hash) are exactly the stored document's chunks, no more, no less."""
    return versions == ({stored.content_hash: stored.chunks} if stored.chunks else {})


def _owned(stored: DocumentSummary, doc: Document, source: str) -> bool:
    """Whether an ingest from `source` may replace this stored document when told to keep others' documents.

    A document stored before provenance was recorded is taken over only if it holds exactly this content.
    """
    return stored.source == source or (stored.source == UNKNOWN and stored.content_hash == doc.content_hash)
