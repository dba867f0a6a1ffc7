"""Prefetch, before the answer: follow REFERENCES from the retrieved chunks to the attachments they cite."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from graph.resolve import AttachmentCatalog
from graph.store import GraphPath, GraphReads, PathStep, attachment_node_id
from kb.model import Chunk, Hit

TRUNCATED = "\n…（附件内容超出预取字数上限，已截断）"


@dataclass(frozen=True)
class Prefetched:
    """An attachment put into the prompt: whole, or cut at the budget."""

    doc_id: str
    label: str
    title: str
    chunks: tuple[Chunk, ...]
    text: str
    hops: int  # 0: found by search itself; 1: cited by a retrieved chunk; 2: cited by such an attachment
    via: str  # mention on the last edge, e.g. 详见附件11
    truncated: bool = False


@dataclass(frozen=True)
class PrefetchResult:
    attachments: tuple[Prefetched, ...]
    paths: tuple[GraphPath, ...]


def attachment_text(chunks: Sequence[Chunk]) -> str:
    """An attachment's chunks joined in order (a line break where the source had a gap)."""
    parts: list[str] = []
    previous_end = None
    for chunk in chunks:
        if previous_end is not None:
            parts.append("" if chunk.start == previous_end else "\n")
        parts.append(chunk.text)
        previous_end = chunk.end
    return "".join(parts)


# The documents a question's own label is looked up in: those of its best hits (附件6是什么 asks of the document
# retrieval found; two plans of one template found together both have an 附件6, and a question naming neither asks
# of both), not every document among its twenty hits, most of which have an 附件1.
ASKED_DOCS_FROM = 5  # best hits whose documents are asked
ASKED_DOCS = 2  # documents at most


def prefetch(
    graph: GraphReads, catalog: AttachmentCatalog, hits: Sequence[Hit], hops: int, budget: int,
    asked: Sequence[str] = (),
) -> PrefetchResult:
    """Attachments the question names by label (`asked`: 附件6 of 附件6是什么) in the documents of its best hits, then
    those reached from the hits (search hits in attachments first), their content under a char budget."""
    order: dict[tuple[str, str], tuple[int, int, str]] = {}  # (doc, label) → (hops, hit rank, mention)
    paths: list[GraphPath] = []
    rank = {h.chunk_id: i for i, h in enumerate(hits)}
    documents = list(dict.fromkeys(h.doc_id for h in hits[:ASKED_DOCS_FROM]))[:ASKED_DOCS]
    for label in asked:  # the hop the question itself makes: a document's 附件6 is its node, found by key
        for doc_id in documents:
            if catalog.get(doc_id, label) is not None:
                order.setdefault((doc_id, label), (0, -1, label))
                paths.append(GraphPath((PathStep("question", "question", f"问题·{label}"),
                                        _attachment_step(catalog, doc_id, label, label)), "question"))
    for i, hit in enumerate(hits):
        if hit.attachment:
            order.setdefault((hit.doc_id, hit.attachment), (0, i, ""))
            paths.append(GraphPath((_chunk_step(hit.chunk_id, hit.doc_id, hit.attachment, hit.index),
                                    _attachment_step(catalog, hit.doc_id, hit.attachment, "")), "search"))
    found = graph.attachment_paths([h.chunk_id for h in hits], hops) if hops > 0 else []
    hit_by_id = {h.chunk_id: h for h in hits}
    for path in found:
        hit = hit_by_id[path.chunk_id]
        key = (path.doc_id, path.labels[-1])
        candidate = (len(path.labels), rank[path.chunk_id], path.mentions[-1])
        if key not in order or candidate < order[key]:
            order[key] = candidate
        steps = [_chunk_step(hit.chunk_id, hit.doc_id, hit.attachment, hit.index)]
        steps += [_attachment_step(catalog, path.doc_id, label, mention) for label, mention in zip(path.labels, path.mentions)]
        paths.append(GraphPath(tuple(steps), "prefetch"))
    ranked = sorted(order.items(), key=lambda item: item[1][:2])
    contents = graph.attachments_chunks([key for key, _ in ranked]) if ranked else {}
    out: list[Prefetched] = []
    left = budget
    for (doc_id, label), (n_hops, _, mention) in ranked:
        chunks = contents.get((doc_id, label), [])
        if not chunks or left <= 0:
            continue
        text = attachment_text(chunks)
        info = catalog.get(doc_id, label)
        truncated = len(text) > left
        if truncated:
            text = text[:left] + TRUNCATED
        left -= len(text)
        out.append(Prefetched(doc_id, label, info.title if info else "", tuple(chunks), text, n_hops, mention, truncated))
    return PrefetchResult(tuple(out), tuple(paths))


def _chunk_step(chunk_id: str, doc_id: str, owner: str, index: int) -> PathStep:
    where = owner or "正文"
    return PathStep("chunk", chunk_id, f"{where} 片段{index + 1}", doc_id)


def _attachment_step(catalog: AttachmentCatalog, doc_id: str, label: str, mention: str) -> PathStep:
    info = catalog.get(doc_id, label)
    return PathStep("attachment", attachment_node_id(doc_id, label), f"{label} {info.title}" if info else label, doc_id, mention)
