"""Post-answer resolution: map each 相关附件 line to an attachment node, with no model call.

Tiers: the documents the answer cites, then the documents of all its references, then the whole library.
Within a tier: the exact label, then title containment, then a fuzzy title match (rapidfuzz) above a
threshold. Outside the cited documents, a label that names attachments in several documents (two plans from
one template) resolves only when the title tells them apart: a guess across documents is worse than an
honest miss.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Sequence

from rapidfuzz import fuzz, process

from graph.store import AttachmentInfo

FUZZY_THRESHOLD = 70.0  # rapidfuzz ratio (0-100) a title must reach to count as the same attachment
_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)


@dataclass(frozen=True)
class Resolution:
    """Which attachment a line names, and how it was matched (exact_label | title | fuzzy)."""

    attachment: AttachmentInfo
    match: str
    score: float = 100.0


def resolve_line(
    label: str | None,
    title: str,
    tiers: Sequence[Sequence[AttachmentInfo]],
    threshold: float = FUZZY_THRESHOLD,
) -> Resolution | None:
    """Resolve one section line tier by tier (cited documents, referenced documents, library); None when nothing fits.

    In the first tier the documents are in the order the answer cites them, and a tie goes to the first.
    """
    for i, tier in enumerate(tiers):
        found = _resolve_in(label, title, tier, threshold, ordered=i == 0)
        if found is not None:
            return found
    return None


def _resolve_in(
    label: str | None, title: str, candidates: Sequence[AttachmentInfo], threshold: float, ordered: bool
) -> Resolution | None:
    if not candidates:
        return None
    wanted = _norm(title)
    if label:
        same = [c for c in candidates if c.label == label]
        if len(same) == 1:
            return Resolution(same[0], "exact_label")
        if len(same) > 1 and wanted:
            titled = [c for c in same if _contains(wanted, _norm(c.title))]
            if len({c.doc_id for c in titled}) == 1:
                return Resolution(titled[0], "exact_label")
        if same and ordered:
            return Resolution(same[0], "exact_label")  # the document the answer cites first
        if same:
            return None  # one label in several documents and nothing to tell them apart
    if len(wanted) < 2:
        return None
    contained = [c for c in candidates if _contains(wanted, _norm(c.title))]
    if len({c.doc_id for c in contained}) == 1 or (contained and ordered):
        first = [c for c in contained if c.doc_id == contained[0].doc_id]
        return Resolution(max(first, key=lambda c: len(c.title)), "title")
    if contained:
        return None
    best = process.extractOne(wanted, [_norm(c.title) for c in candidates], scorer=fuzz.ratio, score_cutoff=threshold)
    if best is None:
        return None
    _, score, index = best
    return Resolution(candidates[index], "fuzzy", float(score))


def _contains(a: str, b: str) -> bool:
    return len(a) >= 2 and len(b) >= 2 and (a in b or b in a)


def _norm(text: str) -> str:
    return _NOISE.sub("", unicodedata.normalize("NFKC", text)).lower()


class AttachmentCatalog:
    """Every attachment of the stores, indexed by document and library, for resolution without a query."""

    def __init__(self, attachments: Sequence[AttachmentInfo]) -> None:
        self.attachments = list(attachments)
        self._by_doc: dict[str, list[AttachmentInfo]] = {}
        self._by_library: dict[str, list[AttachmentInfo]] = {}
        for a in self.attachments:
            self._by_doc.setdefault(a.doc_id, []).append(a)
            self._by_library.setdefault(a.library, []).append(a)

    def of_documents(self, doc_ids: Sequence[str]) -> list[AttachmentInfo]:
        """The attachments of these documents, documents in the order given."""
        return [a for doc_id in dict.fromkeys(doc_ids) for a in self._by_doc.get(doc_id, ())]

    def of_libraries(self, libraries: Sequence[str] | None) -> list[AttachmentInfo]:
        """The attachments of these libraries (all when None or empty)."""
        if not libraries:
            return self.attachments
        return [a for library in libraries for a in self._by_library.get(library, ())]

    def get(self, doc_id: str, label: str) -> AttachmentInfo | None:
        return next((a for a in self._by_doc.get(doc_id, ()) if a.label == label), None)
