"""The baselines the evaluation and the benchmark compare the graph with, as Pipeline subclasses.

- NaivePipeline: plain vector RAG on the same stores: vector search only, no graph before or after the answer.
- KeywordPipeline: the FastGPT attachment workflow. No prefetch; the answer's **相关附件** section lists the
  attachments the chunks it relied on mention (label only: a model that sees "见附件12" knows no title); after
  the answer each line is keyword-matched (contains, either way) against the attachment names ("附件4-应急物资
  清单") across the whole library, and the first match's chunks are fetched from the attachment collection,
  one line at a time, and appended in the same block as the graph hop's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from graph.resolve import Resolution
from graph.store import AttachmentInfo, DocumentSummary, GraphReads
from kb.answer.hop import HopResult, assemble_hop
from kb.model import Chunk
from kb.answer.pipeline import Pipeline
from graph.prefetch import PrefetchResult
from kb.answer.prompts import ATTACHMENT_SECTION
from kb.search.readmodels import Snapshot
from kb.search.vectors import VectorStore
from kb.ingest.references import extract_references
from kb.answer.section import SectionLine, extract_section
from kb.answer.sources import cited_numbers
from kb.text import squash
from kb.turn import Hit, Source, TurnRequest

NO_PREFETCH = PrefetchResult((), ())
NO_HOP = HopResult((), "", (), ())


class NaivePipeline(Pipeline):
    """Plain vector RAG: vector search only (no BM25), no prefetch, no post-answer hop."""

    def validate(self, request: TurnRequest) -> TurnRequest:
        return replace(super().validate(request), enable_hybrid_search=False)

    follows_references = False

    def prefetch(self, snapshot: Snapshot, hits: list[Hit], request: TurnRequest,
                 asked: tuple[str, ...] = ()) -> PrefetchResult:
        return NO_PREFETCH  # a question's own 附件6 is the graph's to resolve too

    def hop(self, answer: str, snapshot: Snapshot, sources: list[Source], request: TurnRequest) -> HopResult:
        return NO_HOP

    def offline_answer(self, question: str, sources: list[Source], context: str) -> str:
        """The extractive answer alone: which attachments exist and hold content is the graph's knowledge."""
        return self.extract(question, sources, context)


class KeywordPipeline(Pipeline):
    """The FastGPT attachment workflow: no prefetch; a keyword match per 相关附件 line, then a fetch per line."""

    follows_references = False

    def prefetch(self, snapshot: Snapshot, hits: list[Hit], request: TurnRequest,
                 asked: tuple[str, ...] = ()) -> PrefetchResult:
        return NO_PREFETCH  # a question's own 附件6 is the graph's to resolve too

    def hop(self, answer: str, snapshot: Snapshot, sources: list[Source], request: TurnRequest) -> HopResult:
        names = attachment_names(snapshot.catalog.of_libraries(list(request.library_ids) or None))
        return keyword_hop(answer, names, self.retriever.vectors, snapshot.view, sources, snapshot.documents)

    def offline_answer(self, question: str, sources: list[Source], context: str) -> str:
        """The offline answer with its 相关附件 section as the workflow's model would write it."""
        text = self.extract(question, sources, context)  # no attachment-state check: that is the graph's
        if ATTACHMENT_SECTION not in text:
            return text
        answer = text.split(ATTACHMENT_SECTION)[0].rstrip()
        labels = mentioned_labels(answer, sources)
        section = "\n".join(f"- {label}" for label in labels) or "- 无"
        return f"{answer}\n\n{ATTACHMENT_SECTION}\n{section}\n"


def mentioned_labels(answer: str, sources: Sequence[Source]) -> list[str]:
    """The attachments the cited sources are or mention (详见附件4, 附件五、六), in order of appearance."""
    by_n = {s.n: s for s in sources}
    cited = [by_n[n] for n in cited_numbers(answer) if n in by_n]
    labels: dict[str, None] = {}
    for source in cited:
        if source.label:
            labels.setdefault(source.label, None)
        for ref in extract_references(source.text, ()):
            labels.setdefault(ref.label, None)
    return list(labels)


def attachment_names(attachments: Sequence[AttachmentInfo]) -> list[tuple[str, AttachmentInfo]]:
    """The attachment collection's names as the workflow matches them: '附件4-应急物资清单'."""
    return [(_norm(f"{a.label}-{a.title}" if a.title else a.label), a) for a in attachments]


def keyword_hop(
    answer: str,
    names: Sequence[tuple[str, AttachmentInfo]],
    collection: VectorStore,
    view: GraphReads,
    sources: Sequence[Source],
    documents: Mapping[str, DocumentSummary],
) -> HopResult:
    """For each 相关附件 line: the first name that contains it or that it contains, then that attachment's chunks
    (their ids from the attachment collection, their text from the read models, as a hit's)."""
    lines = extract_section(answer)
    if not lines:
        return NO_HOP
    resolved: list[tuple[SectionLine, Resolution | None]] = []
    contents: dict[tuple[str, str], list[Chunk]] = {}
    for line in lines:
        keyword = _norm(line.text)
        found = next((a for name, a in names if keyword and (keyword in name or name in keyword)), None)
        if found is None:
            resolved.append((line, None))
            continue
        key = (found.doc_id, found.label)
        if key in contents:
            continue
        contents[key] = view.chunks_by_id(collection.attachment_chunk_ids(found.doc_id, found.label))
        resolved.append((line, Resolution(found, "keyword")))
    return assemble_hop(resolved, contents, sources, documents)


def _norm(text: str) -> str:
    return squash(text)
