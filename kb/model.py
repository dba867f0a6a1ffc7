"""Plain frozen dataclasses that flow between ingestion stages and into the stores."""
from __future__ import annotations

from dataclasses import dataclass, field

BODY = ""  # attachment label of a chunk that belongs to the document body
CELL_SEPARATOR = " | "  # between the cells of a table row, in a document's text

# Where a document came from. The start-up sync (kb/ingest/sync.py) removes or replaces only CORPUS documents.
CORPUS = "corpus"  # brought in by the sync from ANNEX_CORPUS_DIR
UPLOAD = "upload"  # uploaded over HTTP or in the UI
CLI = "cli"  # `python -m kb ingest`
UNKNOWN = ""  # stored before provenance was recorded

PRIVATE_PREFIX = "session-"  # a visitor's private library (kb/session_libraries.py); no shared library starts so


def is_private(library: str) -> bool:
    """Whether a library id is a visitor's private library."""
    return library.startswith(PRIVATE_PREFIX)


@dataclass(frozen=True)
class Heading:
    """A heading kept from the source (docx heading style or Markdown #), as a char span of the text."""

    level: int
    start: int
    end: int


@dataclass(frozen=True)
class Part:
    """One source file inside a document: the main file, or a pre-split attachment file appended to it."""

    file: str
    start: int
    end: int
    content_hash: str
    pages: tuple[int, ...] = ()  # a PDF's page starts, as offsets in the document's text; () when unpaged


@dataclass(frozen=True)
class ParsedFile:
    """A file read into exact text; every later char span points into `text`."""

    file: str  # file name, e.g. "应急预案.docx"
    path: str
    text: str
    content_hash: str
    headings: tuple[Heading, ...] = ()
    tags: tuple[str, ...] = ()
    pages: tuple[int, ...] = ()  # a PDF's page starts: offset in `text` where page n+1 begins; () when unpaged
    notes: tuple[str, ...] = ()  # what the reader could not read, said on the file's result line


@dataclass(frozen=True)
class Attachment:
    """An attachment of a document: label = kind + normalized number (附件11, 附件3-1, 附录B, 附表2)."""

    label: str
    kind: str  # 附件 / 附录 / 附表
    number: str
    title: str
    start: int  # char span in the parent document's text, header line included
    end: int
    omitted: bool = False  # the document names it but left its content out (（略）): it exists, holds nothing

@dataclass(frozen=True)
class Reference:
    """A mention of an attachment inside one document; `target` is None when the attachment does not exist."""

    label: str  # normalized label that was mentioned (附件4)
    mention: str  # exact text of the mention (详见附件4 / 《环境保护税税目税额表》)
    start: int
    end: int
    source: str  # label of the attachment the mention sits in, or BODY
    target: str | None  # label of the existing attachment, None when dangling

    @property
    def dangling(self) -> bool:
        return self.target is None


@dataclass(frozen=True)
class Chunk:
    """A retrievable span of a document; never crosses an attachment boundary."""

    id: str
    doc_id: str
    attachment: str  # attachment label, or BODY
    index: int  # order within its owner (the body or one attachment)
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Document:
    """One ingested document with everything derived from it, ready for the stores."""

    id: str
    library: str
    name: str  # main file name
    title: str
    text: str
    content_hash: str  # hash over all parts; unchanged hash means nothing to do
    parts: tuple[Part, ...]
    attachments: tuple[Attachment, ...]
    references: tuple[Reference, ...]
    chunks: tuple[Chunk, ...]
    headings: tuple[Heading, ...] = ()
    tags: tuple[str, ...] = ()
    source: str = UPLOAD  # CORPUS, UPLOAD, CLI or UNKNOWN; not part of content_hash

    @property
    def dangling(self) -> tuple[Reference, ...]:
        return tuple(r for r in self.references if r.dangling)

    def attachment(self, label: str) -> Attachment | None:
        return next((a for a in self.attachments if a.label == label), None)

    @property
    def page_count(self) -> int:
        """Pages of the main file (0 when it is not paged)."""
        return len(self.parts[0].pages) if self.parts else 0


@dataclass(frozen=True)
class IngestResult:
    """What happened to one file of a batch: a document written, skipped as unchanged, or an error."""

    file: str
    doc_id: str | None = None
    status: str = "ingested"  # ingested | unchanged | error | attached | kept (left to its uploader by the sync)
    error: str | None = None
    document: Document | None = field(default=None, repr=False)
    repaired: bool = False  # written again because a crash had left its vectors incomplete
    notes: tuple[str, ...] = ()  # what could not be read (a scanned page without OCR), said on the result line


@dataclass(frozen=True)
class Hit:
    """A retrieved chunk with its scores; `score` is the relative relevance the threshold applies to."""

    chunk_id: str
    doc_id: str
    library: str
    attachment: str  # label, or "" for a body chunk
    index: int
    start: int
    end: int
    text: str
    score: float
    vector_score: float | None = None
    bm25_score: float | None = None
    rerank_score: float | None = None
    expanded: bool = False  # added by context expansion, not by search
    continues: str = ""  # the table header row or list lead-in the chunk's start continues
