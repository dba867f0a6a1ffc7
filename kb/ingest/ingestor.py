"""Ingestion: parse a batch of files, group pre-split attachments with their parents, write both stores."""
from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from graph.store import GraphStore
from kb.ingest.assemble import AttachmentFile, build_document, document_id, stored_parts
from kb.errors import AnnexError, IngestError, ParseError
from kb.model import Document, IngestResult, ParsedFile
from kb.ingest.parsing import SUPPORTED_EXTENSIONS, parse_file
from kb.ingest.presplit import PresplitName, presplit_name
from kb.settings import Settings
from kb.search.vectors import VectorStore

Progress = Callable[[int, int, str], None]  # (done, total, what) → None
WRITE_BATCH = 200  # documents per store write


@dataclass
class _Unit:
    """A document to build: its main file and its pre-split attachment files."""

    main: ParsedFile | None
    main_path: Path | None
    extras: dict[str, AttachmentFile]
    extra_files: list[str]
    stored: Document | None = None


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files named directly, plus the supported files under named directories (hidden ones skipped)."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and p.suffix.lower() in SUPPORTED_EXTENSIONS
                and not any(part.startswith((".", "~$")) for part in p.relative_to(path).parts)
            )
        else:
            out.append(path)
    return out


class Ingestor:
    """Writes documents into the graph and vector stores, one batch at a time, keeping them consistent."""

    def __init__(self, settings: Settings, graph: GraphStore, vectors: VectorStore) -> None:
        self.settings = settings
        self.graph = graph
        self.vectors = vectors
        self._lock = threading.Lock()
        self.generation = 0  # bumped on every write or delete, so readers know to refresh their indexes

    def ingest(
        self,
        paths: Sequence[Path | str],
        library: str | None = None,
        progress: Progress | None = None,
        tags: Sequence[str] = (),
    ) -> list[IngestResult]:
        """Ingest files and directories into a library, with optional extra tags; one result per file."""
        library = library or self.settings.default_library
        files = expand_paths(paths)
        results: dict[str, IngestResult] = {}
        parsed: list[tuple[Path, ParsedFile]] = []
        for n, path in enumerate(files):
            if progress:
                progress(n, len(files) * 2, f"parse {path.name}")
            try:
                parsed.append((path, parse_file(path, self.settings.max_file_bytes)))
            except ParseError as exc:
                results[str(path)] = IngestResult(path.name, status="error", error=str(exc))
        units, unit_errors = self._group(parsed, library)
        results.update(unit_errors)
        documents: list[tuple[_Unit, Document]] = []
        for unit in units:
            try:
                documents.append((unit, self._build(unit, library, tags)))
            except AnnexError as exc:
                for name in self._files_of(unit):
                    results[name] = IngestResult(Path(name).name, status="error", error=str(exc))
        changed = [(u, d) for u, d in documents if self.graph.content_hash(d.id) != d.content_hash]
        unchanged_ids = {d.id for _, d in documents} - {d.id for _, d in changed}
        for unit, doc in documents:
            status = "unchanged" if doc.id in unchanged_ids else "ingested"
            self._record(results, unit, doc, status)
        for i in range(0, len(changed), WRITE_BATCH):
            batch = changed[i : i + WRITE_BATCH]
            if progress:
                progress(len(files) + i * len(files) // max(1, len(changed)), len(files) * 2, f"write {len(batch)} documents")
            try:
                self.write([d for _, d in batch])
            except AnnexError as exc:
                for unit, doc in batch:
                    for name in self._files_of(unit):
                        results[name] = IngestResult(Path(name).name, doc.id, "error", str(exc))
        if progress:
            progress(len(files) * 2, len(files) * 2, "done")
        order = {str(p): i for i, p in enumerate(files)}
        return [results[k] for k in sorted(results, key=lambda k: order.get(k, len(order)))]

    def write(self, docs: Sequence[Document]) -> None:
        """Replace these documents in both stores; on failure restore what was stored before."""
        with self._lock:
            previous = [old for d in docs if (old := self.graph.load_document(d.id)) is not None]
            try:
                self.graph.upsert_documents(docs)
                self.vectors.upsert_documents(docs)
            except AnnexError as exc:
                self.generation += 1
                for doc in docs:
                    self.graph.delete_document(doc.id)
                    self.vectors.delete_document(doc.id)
                if previous:
                    self.graph.upsert_documents(previous)
                    self.vectors.upsert_documents(previous)
                raise IngestError(", ".join(d.name for d in docs), f"not written, stores left as they were: {exc}") from exc
            self.generation += 1

    def delete(self, doc_id: str) -> bool:
        """Remove a document from both stores; False if it was not stored."""
        with self._lock:
            found = self.graph.delete_document(doc_id)
            removed = self.vectors.delete_document(doc_id)
            self.generation += 1
        return found or removed > 0

    def _group(self, parsed: list[tuple[Path, ParsedFile]], library: str) -> tuple[list[_Unit], dict[str, IngestResult]]:
        """Main documents with the pre-split attachment files that belong to them."""
        errors: dict[str, IngestResult] = {}
        mains: dict[str, _Unit] = {}
        by_dir: dict[Path, list[str]] = defaultdict(list)
        pending: list[tuple[Path, ParsedFile, PresplitName]] = []
        for path, pf in parsed:
            name = presplit_name(path)
            if name is None:
                mains[Path(pf.file).stem] = _Unit(pf, path, {}, [])
                by_dir[path.parent].append(Path(pf.file).stem)
            else:
                pending.append((path, pf, name))
        for path, pf, name in pending:
            stem = name.parent
            if stem is None and len(by_dir.get(path.parent, [])) == 1:
                stem = by_dir[path.parent][0]
            if stem is not None and stem not in mains:
                stored = self.graph.find_document(library, stem)
                if stored is not None:
                    mains[stem] = _Unit(None, None, {}, [], self.graph.load_document(stored.id))
            if stem is None or stem not in mains:
                reason = (
                    f"attachment file whose parent document '{stem}' is not in library '{library}'; ingest the parent too."
                    if stem
                    else "cannot tell which document this attachment belongs to; name it '<文档名>-附件N-名称"
                    f"{path.suffix}' or put it in a folder with only its parent document."
                )
                errors[str(path)] = IngestResult(pf.file, status="error", error=f"{pf.file}: {reason}")
                continue
            mains[stem].extras[name.label] = AttachmentFile(pf, name.kind, name.label, name.title)
            mains[stem].extra_files.append(str(path))
        return list(mains.values()), errors

    def _build(self, unit: _Unit, library: str, tags: Sequence[str]) -> Document:
        main = unit.main
        extras = dict(unit.extras)
        stored = unit.stored if unit.stored is not None else (
            self.graph.load_document(document_id(library, main.file)) if main is not None else None
        )
        if stored is not None and len(stored.parts) > 1:
            stored_main, stored_extras = stored_parts(stored)
            main = main or stored_main
            for extra in stored_extras:
                extras.setdefault(extra.label, extra)
        assert main is not None
        return build_document(
            library, main, list(extras.values()), self.settings.chunk_target, self.settings.chunk_max, tags
        )

    @staticmethod
    def _files_of(unit: _Unit) -> list[str]:
        return ([str(unit.main_path)] if unit.main_path else []) + unit.extra_files

    @staticmethod
    def _record(results: dict[str, IngestResult], unit: _Unit, doc: Document, status: str) -> None:
        if unit.main_path is not None:
            results[str(unit.main_path)] = IngestResult(doc.name, doc.id, status, document=doc)
        for name in unit.extra_files:
            results[name] = IngestResult(Path(name).name, doc.id, "attached" if status == "ingested" else status, document=doc)
