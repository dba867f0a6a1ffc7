"""Command line: `python -m kb ingest|stats|delete`."""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from kb.errors import AnnexError, ReservedLibrary
from kb.ingest.formats import SHOWN
from kb.ingest.ingestor import Progress
from kb.model import CLI, PRIVATE_PREFIX, IngestResult, is_private
from kb.progress import progress_bar
from kb.settings import load_settings
from kb.stores import Stores, open_stores


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code (1 when any file failed)."""
    parser = argparse.ArgumentParser(prog="python -m kb", description="annex-rag knowledge base")
    sub = parser.add_subparsers(dest="command", required=True)
    ingest = sub.add_parser("ingest", help=f"ingest {SHOWN} files or folders")
    ingest.add_argument("paths", nargs="+", type=Path)
    ingest.add_argument("--library", default=None, help="library name (default: ANNEX_DEFAULT_LIBRARY or 'demo')")
    ingest.add_argument("--json", action="store_true", help="one JSON object per file on stdout")
    stats = sub.add_parser("stats", help="count what the stores hold")
    delete = sub.add_parser("delete", help="remove a document (id or file name) from both stores")
    delete.add_argument("doc")
    delete.add_argument("--library", default=None)
    for p in (ingest, stats, delete):
        p.add_argument("--store", type=Path, default=None, help="store directory (default: ANNEX_STORE_DIR or .annex-store)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(store_dir=args.store)
        stores = open_stores(settings, bulk=args.command == "ingest")  # its vectors in a process beside
    except AnnexError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        return {"ingest": _ingest, "stats": _stats, "delete": _delete}[args.command](stores, args)
    finally:
        stores.close()


def _ingest(stores: Stores, args: argparse.Namespace) -> int:
    if args.library and is_private(args.library):
        print(f"error: --library: {ReservedLibrary(args.library, PRIVATE_PREFIX)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    fixed = stores.ingestor.reconcile()  # what an earlier crash left half-written
    results: list[IngestResult] = []
    written: dict[str, int] = {}  # doc id → chunks, of the documents written
    with progress_bar("ingest") as progress:
        for batch in stores.ingestor.ingest_batches(args.paths, args.library, _log_writes(progress), source=CLI):
            for result in batch:  # each batch as it is written; its documents are not kept
                _print_result(result, args.json)
                if result.status in ("ingested", "attached") and result.document:
                    written[result.doc_id] = len(result.document.chunks)
                results.append(replace(result, document=None))
    elapsed = time.perf_counter() - started
    chunks = sum(written.values())
    failed = sum(1 for r in results if r.error)
    repaired = set(fixed.repaired) | {r.doc_id for r in results if r.repaired and not r.error}
    print(
        f"{len(results)} files: {len(written)} documents written ({chunks} chunks), "
        f"{sum(1 for r in results if r.status == 'unchanged')} unchanged, {len(repaired)} repaired, {failed} failed "
        f"in {elapsed:.2f} s ({chunks / elapsed:.0f} chunks/s)",
        file=sys.stderr,
    )
    return 1 if failed else 0


def _print_result(result: IngestResult, as_json: bool) -> None:
    """One result line (or JSON object) on stdout."""
    if as_json:
        print(json.dumps(_as_json(result), ensure_ascii=False))
    elif result.error:
        print(f"✗ {result.error}")
    else:
        doc = result.document
        dangling = f", dangling: {', '.join(sorted({r.label for r in doc.dangling}))}" if doc and doc.dangling else ""
        pages = f", {doc.page_count} pages" if doc and result.status != "attached" and doc.page_count else ""
        print(f"{'✓' if result.status != 'unchanged' else '='} {result.file} [{result.status}] "
              f"{len(doc.attachments)} attachments, {len(doc.references)} references, {len(doc.chunks)} chunks"
              f"{pages}{dangling}")
        for note in result.notes:
            print(f"  ⚠ {result.file}: {note}")


def _log_writes(progress: Progress) -> Progress:
    """The bar, plus one stderr line per store write when stderr is not a terminal (tqdm hides the bar there),
    so a log shows how far an ingest got before it stopped."""
    if sys.stderr.isatty():
        return progress

    def log(done: int, total: int, what: str) -> None:
        progress(done, total, what)
        if what.startswith("write "):
            print(f"ingest: {what}", file=sys.stderr, flush=True)

    return log


def _as_json(result: IngestResult) -> dict:
    doc = result.document
    return {
        "file": result.file,
        "doc_id": result.doc_id,
        "status": result.status,
        "attachments": [{"label": a.label, "title": a.title} for a in doc.attachments] if doc else [],
        "references": [
            {"source": r.source or "body", "target": r.label, "mention": r.mention, "start": r.start, "end": r.end}
            for r in doc.references
            if not r.dangling
        ]
        if doc
        else [],
        "dangling": sorted({r.label for r in doc.dangling}) if doc else [],
        "error": result.error,
        "notes": list(result.notes),
    }


def _stats(stores: Stores, args: argparse.Namespace) -> int:
    counts = stores.graph.stats()
    counts.update({f"vectors_{k}": v for k, v in stores.vectors.count().items()})
    print(json.dumps(counts, ensure_ascii=False))
    return 0


def _delete(stores: Stores, args: argparse.Namespace) -> int:
    doc_id = args.doc
    library = args.library or stores.settings.default_library
    summary = stores.graph.find_document(library, args.doc)
    if summary is not None:
        doc_id = summary.id
    if not stores.ingestor.delete(doc_id):
        print(f"error: no document '{args.doc}' in library '{library}'; `python -m kb stats` lists what is stored.", file=sys.stderr)
        return 1
    print(f"deleted {args.doc} ({doc_id})")
    return 0
