"""Documents as column tables for the Kuzu store's bulk COPY, and stored rows back into Documents."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Sequence

from graph.errors import InvalidDocumentError
from graph.store import AttachmentInfo, DocumentSummary, ReferenceEdge, StoredDocument
from graph.store import attachment_node_id as attachment_id  # the attachment table's primary key
from kb.model import BODY, Attachment, Chunk, Document, Heading, Part, Reference

Columns = dict[str, list[Any]]


def _columns(*names: str) -> Columns:
    return {name: [] for name in names}


@dataclass
class Batch:
    """Every row one bulk write adds: node tables by name, and rel tables as (table, from, to, columns)."""

    libraries: list[str] = field(default_factory=list)
    documents: Columns = field(default_factory=lambda: _columns(
        "id", "library", "name", "stem", "title", "text", "content_hash", "parts", "headings", "tags",
        "dangling", "unplaced", "n_attachments", "n_chunks", "n_dangling", "source"))
    attachments: Columns = field(default_factory=lambda: _columns(
        "id", "doc_id", "label", "kind", "number", "title", "char_start", "char_end", "pos", "omitted"))
    chunks: Columns = field(default_factory=lambda: _columns(
        "id", "doc_id", "attachment", "idx", "char_start", "char_end", "text", "pos"))
    library_docs: Columns = field(default_factory=lambda: _columns("from", "to"))
    doc_attachments: Columns = field(default_factory=lambda: _columns("from", "to"))
    body_chunks: Columns = field(default_factory=lambda: _columns("from", "to"))
    attachment_chunks: Columns = field(default_factory=lambda: _columns("from", "to"))
    chunk_refs: Columns = field(default_factory=lambda: _ref_columns())
    attachment_refs: Columns = field(default_factory=lambda: _ref_columns())

    def nodes(self) -> list[tuple[str, Columns]]:
        """Node tables in load order."""
        return [("Document", self.documents), ("Attachment", self.attachments), ("Chunk", self.chunks)]

    def rels(self) -> list[tuple[str, str, str, Columns]]:
        """Rel tables with their FROM/TO pair, loaded after the nodes."""
        return [
            ("HAS_DOCUMENT", "Library", "Document", self.library_docs),
            ("HAS_ATTACHMENT", "Document", "Attachment", self.doc_attachments),
            ("HAS_CHUNK", "Document", "Chunk", self.body_chunks),
            ("HAS_CHUNK", "Attachment", "Chunk", self.attachment_chunks),
            ("REFERENCES", "Chunk", "Attachment", self.chunk_refs),
            ("REFERENCES", "Attachment", "Attachment", self.attachment_refs),
        ]


def _ref_columns() -> Columns:
    return _columns("from", "to", "label", "mention", "char_start", "char_end", "pos")


def _append(columns: Columns, *values: Any) -> None:
    for values_of, value in zip(columns.values(), values, strict=True):
        values_of.append(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _ref_record(pos: int, ref: Reference) -> list[Any]:
    return [pos, ref.label, ref.mention, ref.start, ref.end, ref.source, ref.target]


def build_batch(docs: Sequence[Document]) -> Batch:
    """Turn documents (unique ids) into column tables, checking that every label they use exists."""
    batch = Batch()
    chunk_ids: set[str] = set()
    for doc in docs:
        _add_document(batch, doc, chunk_ids)
    batch.libraries = sorted(set(batch.documents["library"]))
    return batch


def _add_document(batch: Batch, doc: Document, chunk_ids: set[str]) -> None:
    labels = [a.label for a in doc.attachments]
    if len(set(labels)) != len(labels):
        raise InvalidDocumentError(f"Document {doc.id!r} has duplicate attachment labels: {labels}.")
    owners = {BODY, *labels}
    by_owner: dict[str, list[Chunk]] = {owner: [] for owner in owners}
    for pos, chunk in enumerate(doc.chunks):
        if chunk.doc_id != doc.id or chunk.attachment not in owners:
            raise InvalidDocumentError(
                f"Chunk {chunk.id!r} of document {doc.id!r} says doc_id={chunk.doc_id!r}, "
                f"attachment={chunk.attachment!r}; it must name this document and one of {sorted(owners)}.")
        if chunk.id in chunk_ids:
            raise InvalidDocumentError(f"Chunk id {chunk.id!r} occurs twice in one write; chunk ids must be unique.")
        chunk_ids.add(chunk.id)
        by_owner[chunk.attachment].append(chunk)
        _append(batch.chunks, chunk.id, doc.id, chunk.attachment, chunk.index, chunk.start, chunk.end,
                chunk.text, pos)
        if chunk.attachment == BODY:
            _append(batch.body_chunks, doc.id, chunk.id)
        else:
            _append(batch.attachment_chunks, attachment_id(doc.id, chunk.attachment), chunk.id)
    for pos, att in enumerate(doc.attachments):
        aid = attachment_id(doc.id, att.label)
        _append(batch.attachments, aid, doc.id, att.label, att.kind, att.number, att.title, att.start, att.end, pos,
                att.omitted)
        _append(batch.doc_attachments, doc.id, aid)
    dangling, unplaced = [], []
    for pos, ref in enumerate(doc.references):
        if ref.source not in owners or (ref.target is not None and ref.target not in owners - {BODY}):
            raise InvalidDocumentError(
                f"Reference {ref.mention!r} at {ref.start} in document {doc.id!r} goes from {ref.source!r} "
                f"to {ref.target!r}; both must be attachments of the document (source may be the body '').")
        if ref.target is None:
            dangling.append(_ref_record(pos, ref))
            continue
        target = attachment_id(doc.id, ref.target)
        props = (ref.label, ref.mention, ref.start, ref.end, pos)
        holder = next((c for c in by_owner[ref.source] if c.start <= ref.start < c.end), None)
        if holder is None:  # no chunk covers the mention: keep it for the round trip, it cannot be traversed
            unplaced.append(_ref_record(pos, ref))
        else:
            _append(batch.chunk_refs, holder.id, target, *props)
        if ref.source != BODY and ref.source != ref.target:
            _append(batch.attachment_refs, attachment_id(doc.id, ref.source), target, *props)
    _append(
        batch.documents, doc.id, doc.library, doc.name, PurePath(doc.name).stem, doc.title, doc.text,
        doc.content_hash, _dumps([[p.file, p.start, p.end, p.content_hash, *([list(p.pages)] if p.pages else [])]
                                  for p in doc.parts]),
        _dumps([[h.level, h.start, h.end] for h in doc.headings]), _dumps(list(doc.tags)), _dumps(dangling),
        _dumps(unplaced), len(doc.attachments), len(doc.chunks), len(dangling), doc.source)
    _append(batch.library_docs, doc.library, doc.id)


def stored_documents(batch: Batch) -> dict[str, StoredDocument]:
    """What GraphStore.stored_documents reads back once this batch is written, from its own columns (no query).

    The rows are the ones the COPY writes, decoded as the store's reads decode them: a write tells the read models
    what it stored without reading each document back (five queries a document, ~70 ms at 92k chunks)."""
    docs = batch.documents
    summary = ("id", "library", "name", "title", "content_hash", "n_attachments", "n_chunks", "dangling", "tags",
               "source", "parts")
    out: dict[str, tuple[DocumentSummary, list, list, list]] = {
        row[0]: (decode_summary(row), [], [], []) for row in zip(*(docs[name] for name in summary))}
    chunks = batch.chunks
    for chunk_id, doc_id, owner, index, start, end, text, pos in zip(*chunks.values()):
        out[doc_id][1].append((pos, Chunk(chunk_id, doc_id, owner, index, start, end, text)))
    chunk_doc = dict(zip(chunks["id"], chunks["doc_id"]))
    refs = batch.chunk_refs
    for chunk_id, target, _, mention, start in zip(refs["from"], refs["to"], refs["label"], refs["mention"],
                                                   refs["char_start"]):
        doc_id = chunk_doc[chunk_id]
        out[doc_id][2].append(ReferenceEdge(doc_id, chunk_id, "", _label(doc_id, target), mention, start))
    labels = dict(zip(batch.attachments["id"], batch.attachments["label"]))
    owners = dict(zip(batch.attachments["id"], batch.attachments["doc_id"]))
    refs = batch.attachment_refs
    for source, target, mention, start in zip(refs["from"], refs["to"], refs["mention"], refs["char_start"]):
        doc_id = owners[source]
        out[doc_id][2].append(ReferenceEdge(doc_id, "", labels[source], labels[target], mention, start))
    atts = batch.attachments
    for aid, doc_id, label, title, omitted in zip(atts["id"], atts["doc_id"], atts["label"], atts["title"],
                                                  atts["omitted"]):
        listed = out[doc_id][0]
        out[doc_id][3].append(AttachmentInfo(doc_id, listed.title, listed.library, label, title, omitted))
    return {doc_id: StoredDocument(s, tuple(c for _, c in sorted(chunks, key=lambda pc: pc[0])), tuple(edges),
                                   tuple(attachments))
            for doc_id, (s, chunks, edges, attachments) in out.items()}


def _label(doc_id: str, attachment: str) -> str:
    """An attachment's label from its node id (attachment_id)."""
    return attachment[len(doc_id) + 1:]


def decode_document(
    doc_id: str, row: Sequence[Any], attachments: Sequence[Sequence[Any]],
    chunks: Sequence[Sequence[Any]], edge_refs: Sequence[Sequence[Any]],
) -> Document:
    """Rebuild a Document from the rows of the LOAD_* queries in graph/schema.py."""
    library, name, title, text, content_hash, parts, headings, tags, dangling, unplaced, source = row
    records = [list(r) for r in edge_refs] + json.loads(dangling) + json.loads(unplaced)
    records.sort(key=lambda r: r[0])
    return Document(
        id=doc_id, library=library, name=name, title=title, text=text, content_hash=content_hash,
        parts=tuple(Part(*p[:4], tuple(p[4]) if len(p) > 4 else ()) for p in json.loads(parts)),
        attachments=tuple(Attachment(*a) for a in attachments),
        references=tuple(Reference(*r[1:]) for r in records),
        chunks=tuple(Chunk(*c[:7]) for c in sorted(chunks, key=lambda c: c[7])),
        headings=tuple(Heading(*h) for h in json.loads(headings)),
        tags=tuple(json.loads(tags)),
        source=source,
    )


def decode_summary(row: Sequence[Any]) -> DocumentSummary:
    """A DocumentSummary from a row of the _SUMMARY_COLUMNS in graph/schema.py."""
    doc_id, library, name, title, content_hash, n_attachments, n_chunks, dangling, tags, source, parts = row
    labels = dict.fromkeys(r[1] for r in json.loads(dangling))
    records = json.loads(parts)
    # (offset, page) where each page of each PDF file starts; (offset, 0) where a file without pages starts
    pages = tuple(mark for part in records for mark in (
        [(start, n) for n, start in enumerate(part[4], 1)] if len(part) > 4 else [(part[1], 0)]))
    main_pages = len(records[0][4]) if records and len(records[0]) > 4 else 0
    return DocumentSummary(
        doc_id, library, name, title, content_hash, n_attachments, n_chunks, tuple(labels), tuple(json.loads(tags)),
        source, pages, main_pages,
    )
