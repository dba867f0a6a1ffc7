"""The documents an ingest builds: each main file with the pre-split attachment files that belong to it.

Files are grouped by their names, before any is read, so that an ingest can read, build and write a few documents
at a time instead of holding every parsed file of a large folder at once (kb/ingest/ingestor.py). Only an attachment
file whose name does not tell its document has the documents of its folder read, each once, for the attachments they
name (kb/ingest/attachment_owners.py); what is kept of them is that list, not their text.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from graph.store import GraphStore
from kb.errors import ParseError
from kb.ingest.assemble import AttachmentFile
from kb.ingest.attachment_owners import Listing, listing, place
from kb.ingest.presplit import PresplitName, presplit_name
from kb.model import Document, IngestResult, ParsedFile

# How far up an attachment file with no document in its folder looks for one: a zip's 通知/附件/附件1.xlsx finds
# 通知/正文.docx one level up, 通知/附件/表格/附件1.xlsx two; further up is another matter's folder.
FOLDERS_UP = 2
# A folder above holding more documents than this is a collection (a corpus's root), not the matter a file belongs
# to: reading them all to place one stray file would parse the whole corpus twice. The file stays alone, with its note.
MAX_DOCUMENTS_ABOVE = 30
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
    notes: tuple[str, ...] = ()  # said on the main file's result line (an attachment file stored alone, and why)
    refused: str = ""  # why the main file is not ingested at all (a second file of the same name in this ingest)

    @property
    def files(self) -> list[str]:
        return ([str(self.main_path)] if self.main_path else []) + self.extra_files


def group_files(files: list[Path], library: str, graph: GraphStore, read: Read) -> list[Unit]:
    """Main documents with the pre-split attachment files that belong to them, by file name; an attachment file
    without its parent here joins the parent stored in the library. One whose name does not tell joins the one
    readable document of its folder, or the one there whose attachment list or mentions name it (its folder's
    other files are read to tell, only then); a folder without documents (附件/ beside its notice) looks to the
    nearest folders above (nearest_documents). One that no document claims alone is stored as its own document,
    with a note that says how to attach it."""
    mains: dict[str, Unit] = {}  # by stem; a second main file of a stem (通知.txt beside 通知.md) by its name
    by_dir: dict[Path, list[str]] = defaultdict(list)
    pending: list[tuple[Path, PresplitName]] = []
    alone = _Alone()
    for path in files:
        name = presplit_name(path)
        if name is None:
            if alone.refused(path):
                continue
            key = path.stem if path.stem not in mains else path.name
            mains[key] = Unit(None, path, {}, [])
            by_dir[path.parent].append(key)
        else:
            pending.append((path, name))
    unplaced: list[tuple[Path, PresplitName]] = []
    for path, name in pending:
        stem = name.parent
        if stem is not None and stem not in mains:
            stored = _stored_parent(graph, library, stem)
            if stored is not None:
                mains[stem] = Unit(None, None, {}, [], stored)
        if stem is None or stem not in mains:
            unplaced.append((path, name))
        elif not _join(mains[stem], path, name):
            alone.add(path, taken_note(name, stem))
    listings: dict[str, Listing | None] = {}  # a document's listing, read once however many files ask
    for path, name in unplaced:
        here, beside = nearest_documents(path.parent, by_dir)
        if len(here) > 1 or (here and (name.parent is not None or not beside)):
            found = {stem: known for stem in here if (known := _listing(mains[stem], listings, read)) is not None}
        else:
            found = {stem: None for stem in here}
        if len(found) == 1 and name.parent is None and beside:  # the one readable document of its folder
            owner, named = next(iter(found)), None
        else:
            placement = place(name, found)
            owner, named = placement.owner, placement.named
            if owner is None:
                alone.add(path, unplaced_note(name, placement.rivals, library, path.suffix))
                continue
        if named is not None:  # the document's own label and title for it (附件2 of its list, not the file's 附件1)
            name = replace(name, kind=named.kind, label=named.label, title=name.title or named.title)
        if not _join(mains[owner], path, name):
            alone.add(path, taken_note(name, owner))
    return [*mains.values(), *alone.units]


def nearest_documents(folder: Path, by_dir: dict[Path, list[str]]) -> tuple[list[str], bool]:
    """The documents an attachment file in `folder` is matched against: those of its folder, else those of the
    folder above and its other folders (通知/正文.docx for 通知/附件/附件1.xlsx), then one more level up; and whether
    they sit in its folder or the one holding it, where the one document there is the file's (a notice and its
    附件/ folder beside it). Further up, a document must name the file to take it."""
    if by_dir.get(folder):
        return by_dir[folder], True
    for level, above in enumerate(folder.parents[:FOLDERS_UP]):
        dirs = [d for d, stems in by_dir.items() if stems and (d == above or above in d.parents)]
        if dirs:
            here = [stem for d in dirs for stem in by_dir[d]]
            return (here, level == 0 and dirs == [above]) if len(here) <= MAX_DOCUMENTS_ABOVE else ([], False)
    return [], False


def _join(unit: Unit, path: Path, name: PresplitName) -> bool:
    """Add an attachment file to its document's unit; False when another file of it already has that label."""
    if any(other.label == name.label for _, other in unit.unread):
        return False
    unit.unread.append((path, name))
    unit.extra_files.append(str(path))
    return True


class _Alone:
    """The files of an ingest that become documents of their own (main files, attachment files no document takes)
    and those refused because another of them has the file name: a document is its library and file name, so the
    later would replace the other. An attachment file that joins its document is known by that document and its
    label, so two notices' 附件/附件1 报名表.xlsx are not rivals."""

    def __init__(self) -> None:
        self.units: list[Unit] = []
        self._first_of_name: dict[str, Path] = {}

    def refused(self, path: Path) -> bool:
        """Whether `path` is refused for its name (its refusal is then among the units); else its name is taken."""
        first = self._first_of_name.setdefault(path.name, path)
        if first != path:
            self.units.append(Unit(None, path, {}, [], refused=same_name_error(path, first)))
        return first != path

    def add(self, path: Path, note: str) -> None:
        """An attachment file stored as its own document, with the note saying why."""
        if not self.refused(path):
            self.units.append(Unit(None, path, {}, [], notes=(note,)))


def _listing(unit: Unit, listings: dict[str, Listing | None], read: Read) -> Listing | None:
    """The unit's main file as attachment files are matched to it, or None when it cannot be read (an upload's
    broken file is no attachment's parent)."""
    path = unit.main_path
    if path is None:
        return None
    key = str(path)
    if key not in listings:
        try:
            listings[key] = listing(read(path))
        except ParseError:
            listings[key] = None
    return listings[key]


def read_unit(unit: Unit, library: str, graph: GraphStore, read: Read, results: dict[str, IngestResult]) -> bool:
    """Parse the unit's files; a file that cannot be read gets its error in `results`. False when nothing is left
    to build (the main file unreadable and no stored parent for its attachment files)."""
    if unit.refused:
        results[str(unit.main_path)] = IngestResult(unit.main_path.name, status="error", error=unit.refused)
        return False
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


def unplaced_note(name: PresplitName, rivals: Sequence[str], library: str, suffix: str) -> str:
    """What an attachment file stored as its own document says (in the users' language, as the other result notes
    do): why it was not attached, and how to attach it."""
    what = f"{name.label}{'“' + name.title + '”' if name.title else ''}"
    if rivals:
        why = f"{'、'.join(f'“{r}”' for r in rivals)}都列有{what}，无法判断它属于哪一份"
    elif name.parent is not None:
        why = f"它的主文档“{name.parent}”不在这次上传中，也不在库“{library}”里"
    else:
        why = f"同批上传的文档都没有列出{what}"
    return (f"未并入附件：{why}，已作为单独的文档入库。要把它并入所属文档，请只把它和所属文档一起上传（或放在同一个"
            f"文件夹里），或把它改名为“<文档名>-{name.label}-{name.title or '名称'}{suffix}”后重新上传，再删除这份单独的"
            "文档。")


def same_name_error(path: Path, first: Path) -> str:
    """Why a second file of one name in one ingest is not stored: a document is known by its library and file
    name, so it would replace the first; the user renames one (in the users' language, as the notes are)."""
    return (f"{path.parent.name}/{path.name}：这次入库里已有同名文件 {first.parent.name}/{first.name}，同一个库里"
            "文件名相同的文档会互相覆盖，所以这个文件没有入库；"
            "请把其中一个改名后再上传，或把它们放进不同的库。")


def taken_note(name: PresplitName, owner: str) -> str:
    return (f"未并入附件：同批上传的另一个文件已是“{owner}”的{name.label}，已作为单独的文档入库；请给每个附件文件"
            "各自的附件编号后重新上传。")


def orphan(path: Path, stem: str, library: str) -> IngestResult:
    """The error of an attachment file whose parent could not be read and is not stored either."""
    reason = f"attachment file whose parent document '{stem}' is not in library '{library}'; ingest the parent too."
    return IngestResult(path.name, status="error", error=f"{path.name}: {reason}")


def _stored_parent(graph: GraphStore, library: str, stem: str) -> Document | None:
    stored = graph.find_document(library, stem)
    return graph.load_document(stored.id) if stored is not None else None
