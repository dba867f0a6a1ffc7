"""Keep the stores in step with the bundled corpus: build on first start, re-ingest what changed, drop what left."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kb.ingest.ingestor import Progress, expand_paths
from kb.model import IngestResult
from kb.ingest.presplit import presplit_name
from kb.service import Service


@dataclass(frozen=True)
class SyncReport:
    """What a corpus sync did."""

    results: tuple[IngestResult, ...]
    removed: tuple[str, ...]  # names of stored documents whose files are gone

    @property
    def written(self) -> int:
        return sum(1 for r in self.results if r.status == "ingested")

    @property
    def errors(self) -> list[str]:
        return [r.error for r in self.results if r.error]


def sync_corpus(service: Service, corpus: Path, library: str, progress: Progress | None = None) -> SyncReport:
    """Ingest the corpus folder into a library (unchanged files are skipped) and delete documents no longer in it."""
    if not corpus.is_dir():
        return SyncReport((), ())
    files = expand_paths([corpus])
    mains = {p.name for p in files if presplit_name(p) is None}
    removed = []
    for doc in service.stores.graph.list_documents(library):
        if doc.name not in mains:
            service.stores.ingestor.delete(doc.id)
            removed.append(doc.name)
    results = service.stores.ingestor.ingest([corpus], library, progress)
    return SyncReport(tuple(results), tuple(removed))
