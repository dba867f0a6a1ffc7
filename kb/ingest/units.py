"""The documents an ingest builds: each main file with the pre-split attachment files that belong to it.

Files are grouped by their names alone, before any is read, so that an ingest can read, build and write a few
documents at a time instead of holding every parsed file of a large folder at once (kb/ingest/ingestor.py).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from graph.store import GraphStore
from kb.errors import ParseError
from kb.ingest.assemble import AttachmentFile
from kb.ingest.presplit import PresplitName, presplit_name
from kb.model import Document, IngestResult, ParsedFile

Progress = Callable[[int, int, str], None]  # (done, total, what) → None
Read = Callable[[Path], ParsedFile]  # a file's text (kb.ingest.parsing.parse_file with the limits), or ParseError


@dataclass
class Unit:
    """A document to build: its main file and its pre-split attachment files (read by read_unit)."""

    main: ParsedFile | None
    main_path: Path | None
    extras: dict[str, AttachmentFile]
    extra_files: list[str]
    stored: Document | None = None  # the stored parent an attachment file joins when its main file is not here
    unread: list[tuple[Path, PresplitName]] = field(default_factory=list)  # attachment files not read yet

    @property
    def files(self) -> list[str]:
        return ([str(self.main_path)] if self.main_path else []) + self.extra_files


def group_files(files: list[Path], library: str, graph: GraphStore,
                read: Read) -> tuple[list[Unit], dict[str, IngestResult]]:
    """Main documents with the pre-split attachment files that belong to them, by file name; an attachment file
    without its parent here joins the parent stored in the library. An attachment file that names no parent joins
    the one readable document of its folder (its folder's other files are read to tell, only then)."""
    errors: dict[str, IngestResult] = {}
    mains: dict[str, Unit] = {}
    by_dir: dict[Path, list[str]] = defaultdict(list)
    pending: list[tuple[Path, PresplitName]] = []
    for path in files:
        name = presplit_name(path)
        if name is None:
            mains[path.stem] = Unit(None, path, {}, [])
            by_dir[path.parent].append(path.stem)
        else:
            pending.append((path, name))
    for path, name in pending:
        stem = name.parent
        if stem is None:
            here = by_dir.get(path.parent, [])
            if len(here) > 1:  # an unreadable file beside the parent is not a parent (an upload's broken file)
                here = [main for main in here if _readable(mains[main].main_path, read)]
            stem = here[0] if len(here) == 1 else None
        if stem is not None and stem not in mains:
            stored = _stored_parent(graph, library, stem)
            if stored is not None:
                mains[stem] = Unit(None, None, {}, [], stored)
        if stem is None or stem not in mains:
            errors[str(path)] = orphan(path, stem, library)
            continue
        mains[stem].unread.append((path, name))
        mains[stem].extra_files.append(str(path))
    return list(mains.values()), errors


def read_unit(unit: Unit, library: str, graph: GraphStore, read: Read, results: dict[str, IngestResult]) -> bool:
    """Parse the unit's files; a file that cannot be read gets its error in `results`. False when nothing is left
    to build (the main file unreadable and no stored parent for its attachment files)."""
    if unit.main_path is not None:
        try:
            unit.main = read(unit.main_path)
        except ParseError as exc:
            results[str(unit.main_path)] = IngestResult(unit.main_path.name, status="error", error=str(exc))
            stem, unit.main_path = unit.main_path.stem, None
            unit.stored = _stored_parent(graph, library, stem) if unit.unread else None
            if unit.stored is None:  # its attachment files have no parent to join
                for path, _ in unit.unread:
                    results[str(path)] = orphan(path, stem, library)
                return False
    for path, name in unit.unread:
        try:
            parsed = read(path)
        except ParseError as exc:
            results[str(path)] = IngestResult(path.name, status="error", error=str(exc))
            unit.extra_files.remove(str(path))
            continue
        unit.extras[name.label] = AttachmentFile(parsed, name.kind, name.label, name.title)
    unit.unread = []
    return unit.main is not None or unit.stored is not None


def orphan(path: Path, stem: str | None, library: str) -> IngestResult:
    """The error of an attachment file whose parent is neither in this ingest nor stored."""
    reason = (
        f"attachment file whose parent document '{stem}' is not in library '{library}'; ingest the parent too."
        if stem
        else "cannot tell which document this attachment belongs to; name it '<文档名>-附件N-名称"
        f"{path.suffix}' or put it in a folder with only its parent document."
    )
    return IngestResult(path.name, status="error", error=f"{path.name}: {reason}")


def _readable(path: Path | None, read: Read) -> bool:
    try:
        return path is not None and bool(read(path))
    except ParseError:
        return False


def _stored_parent(graph: GraphStore, library: str, stem: str) -> Document | None:
    stored = graph.find_document(library, stem)
    return graph.load_document(stored.id) if stored is not None else None
