"""The post-answer attachment hop: the answer's 相关附件 lines resolved to attachments and appended whole."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from graph.resolve import AttachmentCatalog, Resolution, resolve_line
from graph.store import DocumentSummary, GraphReads, attachment_node_id
from kb.model import Chunk
from graph.prefetch import attachment_text
from kb.answer.prompts import ATTACHMENT_BLOCK_HEADER, ATTACHMENT_ITEM, ATTACHMENT_MISSING
from kb.answer.section import SectionLine, extract_section
from kb.answer.sources import cited_numbers
from kb.turn import AttachmentItem, GraphPath, PathStep, Source, merge_spans


POST_HOP = "post_hop"  # Source.via of an attachment the post-answer hop added (the answerer never saw it)

def without_block(text: str) -> str:
    """The answer before the hop's block: the block is annex-rag's own, never the model's words."""
    return text.split(ATTACHMENT_BLOCK_HEADER, 1)[0].removesuffix("\n\n")


@dataclass(frozen=True)
class HopResult:
    items: tuple[AttachmentItem, ...]
    block: str  # the **相关附件内容：** block appended to the answer, "" when the section names nothing
    sources: tuple[Source, ...]  # the resolved attachments as numbered sources (existing numbers reused)
    paths: tuple[GraphPath, ...]


def post_answer_hop(
    answer: str,
    graph: GraphReads,
    catalog: AttachmentCatalog,
    sources: Sequence[Source],
    libraries: Sequence[str] | None,
    documents: Mapping[str, DocumentSummary],
) -> HopResult:
    """Extract, resolve (reference documents first, then the library), fetch in chunk order, format; `documents`
    give an attachment's pages (第3页) where its document is a PDF."""
    lines = extract_section(answer)
    if not lines:
        return HopResult((), "", (), ())
    by_n = {s.n: s for s in sources}
    cited = catalog.of_documents([by_n[n].doc_id for n in cited_numbers(answer) if n in by_n])
    tiers = (cited, catalog.of_documents([s.doc_id for s in sources]), catalog.of_libraries(libraries))
    resolved: list[tuple[SectionLine, Resolution | None]] = []
    seen: set[tuple[str, str]] = set()
    for line in lines:
        found = resolve_line(line.label, line.title, tiers)
        if found is not None:
            key = (found.attachment.doc_id, found.attachment.label)
            if key in seen:
                continue  # two lines naming one attachment: it appears once
            seen.add(key)
        resolved.append((line, found))
    keys = [(f.attachment.doc_id, f.attachment.label) for _, f in resolved if f is not None]
    contents = graph.attachments_chunks(keys) if keys else {}
    return assemble_hop(resolved, contents, sources, documents)


def assemble_hop(
    resolved: Sequence[tuple[SectionLine, Resolution | None]],
    contents: dict[tuple[str, str], list[Chunk]],
    sources: Sequence[Source],
    documents: Mapping[str, DocumentSummary],
) -> HopResult:
    """The items, the appended block, the sources and the paths of resolved lines and their fetched chunks."""
    existing = {(s.doc_id, s.label): s for s in sources if s.label and s.title}
    next_n = max((s.n for s in sources), default=0) + 1
    items: list[AttachmentItem] = []
    hop_sources: list[Source] = []
    paths: list[GraphPath] = []
    blocks: list[str] = []
    for line, found in resolved:
        label = line.label or line.text
        chunks = contents.get((found.attachment.doc_id, found.attachment.label), []) if found else []
        if not found or not chunks:
            items.append(AttachmentItem(line.text, line.label, False))
            blocks.append(ATTACHMENT_MISSING.format(label=label))
            continue
        info = found.attachment
        text = attachment_text(chunks)
        spans = merge_spans([(c.start, c.end) for c in chunks])
        source = existing.get((info.doc_id, info.label))
        if source is None:
            doc = documents.get(info.doc_id)
            source = Source(next_n, info.doc_id, info.doc_title, info.library, info.label, info.title, text, spans,
                            tuple(c.id for c in chunks), 0.0, prefetched=False, via=POST_HOP,
                            page=doc.page_label(spans) if doc else "")
            next_n += 1
        hop_sources.append(source)
        items.append(AttachmentItem(line.text, info.label, True, info.doc_id, info.doc_title, info.title, found.match,
                                    tuple(c.id for c in chunks), text, spans))
        blocks.append(ATTACHMENT_ITEM.format(label=info.label, title=info.title, doc_title=info.doc_title,
                                             page=source.page, cite=source.n) + "\n" + text)
        paths.append(GraphPath((PathStep("answer", "answer", "回答·相关附件"),
                                PathStep("attachment", attachment_node_id(info.doc_id, info.label), f"{info.label} {info.title}",
                                         info.doc_id, line.text)), "post_hop"))
    block = ATTACHMENT_BLOCK_HEADER + "\n\n" + "\n\n".join(blocks)
    return HopResult(tuple(items), block, tuple(hop_sources), tuple(paths))
