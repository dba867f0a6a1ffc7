"""Build a Document from its parsed files: split attachments, link references, cut chunks."""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Sequence

from kb.ingest.splitting import split_attachments
from kb.ingest.chunking import chunk_document
from kb.errors import ParseError
from kb.model import Attachment, Document, ParsedFile, Part
from kb.ingest.references import extract_references
from kb.ingest.titles import document_title

PART_SEPARATOR = "\n\n"
# How annex-rag reads a file into attachments, references and chunks. Raise it whenever the same file would be read
# differently (splitting, linking, chunking, parsing): a document's hash includes it, so the start-up sync reads the
# bundled corpus again and a user's re-upload of the same file is read anew instead of found "unchanged".
READING_VERSION = 14


@dataclass(frozen=True)
class AttachmentFile:
    """A pre-split attachment file and the label its name gives it."""

    parsed: ParsedFile
    kind: str
    label: str
    title: str


def document_id(library: str, name: str) -> str:
    """Stable id of a document: its library and main file name."""
    return hashlib.sha1(f"{library}\x00{name}".encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Limits:
    """What reading one document may cost (ANNEX_MAX_ATTACHMENTS, ANNEX_MAX_REFERENCES, ANNEX_PARSE_SECONDS)."""

    attachments: int = 500
    references: int = 20000
    seconds: float = 60.0  # 0: no limit

    def check_time(self, file: str, began: float, step: str) -> None:
        """Refuse the file once reading it has taken longer than the limit (checked between steps)."""
        spent = time.monotonic() - began
        if self.seconds and spent > self.seconds:
            raise ParseError(file, f"reading it took {spent:.0f} s at {step}, over the ANNEX_PARSE_SECONDS limit of "
                             f"{self.seconds:g} s; split the file or raise ANNEX_PARSE_SECONDS.")

    def check_count(self, file: str, what: str, count: int, limit: int, variable: str) -> None:
        if count > limit:
            raise ParseError(file, f"it holds {count} {what}, over the {variable} limit of {limit}; split the file "
                             f"or raise {variable}.")


def build_document(
    library: str,
    main: ParsedFile,
    extras: Sequence[AttachmentFile] = (),
    target: int = 400,
    cap: int = 800,
    tags: Sequence[str] = (),
    limits: Limits = Limits(),
) -> Document:
    """The whole document: main text, then each pre-split attachment file appended as one attachment.

    `tags` given at ingest join the file's own (docx keywords, Markdown front matter). A document past one of
    `limits` raises ParseError naming the limit and its setting.
    """
    began = time.monotonic()
    doc_id = document_id(library, main.file)
    text = main.text
    parts = [Part(main.file, 0, len(main.text), main.content_hash, main.pages)]
    split = split_attachments(text)
    limits.check_time(main.file, began, "splitting its attachments")
    sent = {extra.label for extra in extras}
    # A file sent with a label is that attachment: what the text holds under the label is its list entry (附件1：
    # 值班表 closing a notice, a list's last line with the sign-off under it) or a copy. That text stays in the
    # document, read with what comes before it, so neither text is lost (the file was skipped for it before).
    attachments = [a for a in split.attachments if a.label not in sent]
    structural = list(split.structural)
    nested = dict(split.parts)  # 附表1-1 → 附件1: a table read as part of the attachment it sits in
    breaks = list(split.part_starts)
    for extra in sorted(extras, key=lambda e: _label_order(e.label)):
        start = len(text) + len(PART_SEPARATOR)
        text = text + PART_SEPARATOR + extra.parsed.text
        end = start + len(extra.parsed.text.rstrip())
        parts.append(Part(extra.parsed.file, start, start + len(extra.parsed.text), extra.parsed.content_hash,
                          tuple(start + p for p in extra.parsed.pages)))
        title = extra.title or _first_line(extra.parsed.text)
        attachments.append(Attachment(extra.label, extra.kind, extra.label[len(extra.kind) :], title, start, end))
        first = split_attachments(text, start, start + len(extra.parsed.text))
        structural.extend(s for s in first.structural if s[0] == start)
        nested.update((label, extra.label) for label in first.parts)
        breaks.extend(first.part_starts)
    limits.check_count(main.file, "attachments", len(attachments), limits.attachments, "ANNEX_MAX_ATTACHMENTS")
    limits.check_time(main.file, began, "its attachment files")
    title = document_title(main, min((a.start for a in split.attachments), default=None))
    references = extract_references(text, attachments, structural, document_title=title, parts=nested,
                                     listed=split.listed_titles, own=split.own)
    limits.check_count(main.file, "references", len(references), limits.references, "ANNEX_MAX_REFERENCES")
    limits.check_time(main.file, began, "linking its references")
    chunks = chunk_document(doc_id, text, attachments, target, cap, breaks)
    limits.check_time(main.file, began, "chunking")
    all_tags = tuple(dict.fromkeys([*main.tags, *tags]))
    digest = hashlib.sha256("\x00".join([f"reading {READING_VERSION}", *(p.content_hash for p in parts), *all_tags])
                            .encode("utf-8")).hexdigest()
    return Document(
        id=doc_id,
        library=library,
        name=main.file,
        title=title,
        text=text,
        content_hash=digest,
        parts=tuple(parts),
        attachments=tuple(attachments),
        references=references,
        chunks=chunks,
        headings=main.headings,
        tags=all_tags,
    )


def stored_parts(doc: Document) -> tuple[ParsedFile, list[AttachmentFile]]:
    """Recover the main file and the pre-split attachment files of a stored document."""
    main_part = doc.parts[0]
    main = ParsedFile(
        file=main_part.file,
        path=main_part.file,
        text=doc.text[main_part.start : main_part.end],
        content_hash=main_part.content_hash,
        headings=tuple(h for h in doc.headings if h.end <= main_part.end),
        tags=doc.tags,
        pages=main_part.pages,
    )
    extras = []
    for part in doc.parts[1:]:
        att = next(a for a in doc.attachments if a.start == part.start)
        parsed = ParsedFile(part.file, part.file, doc.text[part.start : part.end], part.content_hash,
                            pages=tuple(p - part.start for p in part.pages))
        extras.append(AttachmentFile(parsed, att.kind, att.label, att.title))
    return main, extras


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "")[:60]


def _label_order(label: str) -> tuple:
    kind, number = label[:2], label[2:]
    return kind, tuple(int(p) if p.isdigit() else ord(p[0]) if p else -1 for p in number.split("-")), number
