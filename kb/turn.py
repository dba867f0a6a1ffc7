"""Plain data of one question-answer turn: the request, retrieved hits, numbered sources, hop results."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from graph.store import GraphPath, PathStep
from kb.model import Hit

__all__ = ["RANGES", "AttachmentItem", "GraphPath", "Hit", "PathStep", "ReferencedDoc", "Source", "TurnRequest", "TurnResult",
           "merge_spans"]

# Each knob's allowed range, defined once: the pipeline checks it, the API and the settings panel show it.
RANGES: dict[str, tuple[float, float]] = {"top_k": (1, 200), "threshold": (0.0, 1.0), "hops": (0, 5),
                                          "history_turns": (0, 20)}
MAX_LIBRARY_IDS = 100  # more (distinct or not) is not a request a person makes; refused


@dataclass(frozen=True)
class TurnRequest:
    """One question and the knobs of the knowledge-service design (its defaults)."""

    query: str
    conversation_id: str | None = None
    library_ids: tuple[str, ...] = ()  # empty: every library
    document_id: str | None = None
    top_k: int = 20
    threshold: float = 0.7  # relative relevance in [0, 1]: see kb/search/retrieval.py
    enable_hybrid_search: bool = True
    enable_rerank: bool = False
    enable_context_expansion: bool = False
    think: bool = False
    history_turns: int = 3
    hops: int = 2
    owner: str = ""  # who the conversation belongs to (a UI session); "" for API callers


@dataclass(frozen=True)
class Source:
    """A numbered reference the model sees: retrieved chunks of one place, or a prefetched attachment."""

    n: int
    doc_id: str
    doc_title: str
    library: str
    label: str  # attachment label, or "" for the body
    title: str  # attachment title, or ""
    text: str
    spans: tuple[tuple[int, int], ...]  # char spans in the document text
    chunk_ids: tuple[str, ...]
    score: float
    prefetched: bool = False  # reached through REFERENCES rather than by search
    via: str = ""  # the mention that led here, for prefetched attachments
    preamble: str = ""  # the table header row or list lead-in its text continues (a chunk cut inside one)
    page: str = ""  # 第3页 / 第3-4页 where its spans sit in a PDF, "" otherwise


@dataclass(frozen=True)
class AttachmentItem:
    """One line of the post-answer hop: resolved to an attachment, or not."""

    line: str
    label: str | None
    resolved: bool
    doc_id: str = ""
    doc_title: str = ""
    title: str = ""
    match: str = ""  # exact_label | title | fuzzy | ""
    chunk_ids: tuple[str, ...] = ()
    content: str = ""
    spans: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ReferencedDoc:
    """Citations aggregated per document, with merged highlight ranges."""

    doc_id: str
    title: str
    library: str
    score: float
    highlights: tuple[tuple[int, int], ...]
    chunk_ids: tuple[str, ...] = ()
    sources: tuple[int, ...] = ()  # the [n] numbers that point into this document


def merge_spans(spans: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted, overlapping or touching spans merged."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return tuple((s, e) for s, e in merged)


@dataclass
class TurnResult:
    """Everything one turn produced, collected from its events (for the JSON API and evaluation)."""

    conversation_id: str = ""
    user_message_id: str = ""
    assistant_message_id: str = ""
    answer: str = ""
    thinking: str = ""
    referenced_docs: list[dict] = field(default_factory=list)
    graph_paths: list[dict] = field(default_factory=list)
    attachments: list[dict] = field(default_factory=list)
    token_usage: dict | None = None
    errors: list[str] = field(default_factory=list)
    sources: list[dict] = field(default_factory=list)
