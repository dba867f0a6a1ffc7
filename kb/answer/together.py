"""Whether the knowledge base writes two phrases in one place: what tells which earlier question a follow-up leans
on (消防服 is written beside 灭火器 in one 物资清单, not beside 司法建议书's 尾部; 西岭街道's plan writes 冲锋舟)."""
from __future__ import annotations

from typing import Callable, Sequence

from kb.answer.units import folded
from kb.search.readmodels import Snapshot

SEARCHED = 50  # chunks BM25 returns for a phrase; the ones that write it out are kept


def written_together(snapshot: Snapshot, libraries: Sequence[str] | None) -> Callable[[str, str, bool], bool]:
    """`together(a, b, document)`: one part of a document (its body, or one attachment) writes both `a` and `b`;
    with `document`, `a` names a document (its title or its text) that writes `b` anywhere."""
    def places(phrase: str, document: bool) -> set[tuple[str, str | None]]:
        key = folded(phrase.strip())
        if not key:
            return set()
        hits = snapshot.bm25.search(phrase, SEARCHED, libraries)
        found = {(c.doc_id, None if document else c.attachment) for c, _ in hits if key in folded(c.text)}
        if document:
            found |= {(d.id, None) for d in snapshot.documents.values() if key in folded(d.title)}
        return found

    def together(a: str, b: str, document: bool = False) -> bool:
        key = folded(b.strip())
        if not key:
            return False
        for doc_id, part in places(a, document):
            hits = snapshot.bm25.search(b, SEARCHED, libraries, doc_id)
            if any(key in folded(c.text) and (document or c.attachment == part) for c, _ in hits):
                return True
        return False
    return together
