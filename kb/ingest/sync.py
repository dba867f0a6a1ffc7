"""Keep the stores in step with the bundled corpus: build on first start, re-ingest what changed, drop what left.

The sync owns only the documents it brought in (source CORPUS): an upload or a CLI ingest into the default library
is never removed or replaced by it, even when it has the name of a corpus file. Before syncing, the stores are
reconciled, so whatever a crash left half-written is repaired at start.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from kb.ingest.formats import expand_paths
from kb.ingest.ingestor import Ingestor, Progress
from kb.model import CORPUS, IngestResult


@dataclass(frozen=True)
class SyncReport:
    """What a corpus sync did."""

    results: tuple[IngestResult, ...]
    removed: tuple[str, ...]  # names of corpus documents whose files are gone (or joined their parent document)
    repaired: int = 0  # stored documents whose vectors a crash had left incomplete, written again
    orphans: int = 0  # documents whose vectors outlived a crash without their graph node, vectors deleted

    @property
    def written(self) -> int:
        return sum(1 for r in self.results if r.status == "ingested" and not r.repaired)

    @property
    def kept(self) -> tuple[str, ...]:
        """Corpus files left alone because a user's document of the same name is stored in their place."""
        return tuple(r.file for r in self.results if r.status == "kept")

    @property
    def errors(self) -> list[str]:
        return [r.error for r in self.results if r.error]

    def summary(self) -> str:
        """The start-up log line's counts."""
        kept = f", {len(self.kept)} corpus files skipped (a user's document has the name)" if self.kept else ""
        return (f"{self.written} documents built, {len(self.removed)} removed, {self.repaired} repaired"
                f"{kept}, {len(self.errors)} errors")


def sync_corpus(ingestor: Ingestor, corpus: Path, library: str, progress: Progress | None = None) -> SyncReport:
    """Repair what a crash left, then ingest the corpus folder into a library (unchanged files are skipped) and
    delete the corpus documents no longer in it: a file gone, or an attachment file stored alone that now joins
    its document."""
    fixed = ingestor.reconcile()
    if not corpus.is_dir():
        return SyncReport((), (), len(fixed.repaired), len(fixed.orphans))
    files = {p.name for p in expand_paths([corpus])}
    removed = []
    for doc in ingestor.graph.list_documents(library):
        if doc.source == CORPUS and doc.name not in files:
            ingestor.delete(doc.id)
            removed.append(doc.name)
    results = [replace(r, document=None)  # a large corpus's documents are not held until the sync ends
               for batch in ingestor.ingest_batches([corpus], library, progress, source=CORPUS, keep_others=True)
               for r in batch]
    removed.extend(_drop_joined(ingestor, library, results))
    repaired = len(fixed.repaired) + sum(1 for r in results if r.repaired and r.status == "ingested")
    return SyncReport(tuple(results), tuple(removed), repaired, len(fixed.orphans))


def _drop_joined(ingestor: Ingestor, library: str, results: list[IngestResult]) -> list[str]:
    """Delete the corpus documents that an attachment file stored alone became and that this sync joined to its
    parent (its notice came, or now names it): the file's result names the parent, not the file's own document.
    A file still stored alone keeps its document, so an unchanged corpus is left as it is."""
    joined = {r.file: r.doc_id for r in results if r.status in ("attached", "unchanged") and r.doc_id}
    removed = []
    for doc in ingestor.graph.list_documents(library):
        if doc.source == CORPUS and joined.get(doc.name, doc.id) != doc.id:
            ingestor.delete(doc.id)
            removed.append(doc.name)
    return removed
