"""The attachments an extractive answer names in its **相关附件** section: those its quoted lines are from, then those
they point to (详见附件4), as a reader lists what the answer rests on."""
from __future__ import annotations

from typing import Collection, Sequence

from kb.answer.shapes import Candidate
from kb.labels import LABEL, make_label
from kb.turn import Source


def attachments_used(chosen: Sequence[Candidate], sources: Sequence[Source],
                      asked: Collection[str] = ()) -> list[tuple[str, str]]:
    """Attachments whose text was quoted, then those the quoted sentences point to (详见附件4) — of those, only the
    ones the question names when it names any (附录C是什么, answered by a line listing 附录A–D, asks for C)."""
    titles = {(s.doc_id, s.label): s.title for s in sources if s.label}
    out: dict[str, str] = {}
    for c in chosen:
        if c.source.label:
            out.setdefault(c.source.label, c.source.title)
    for c in chosen:
        for match in LABEL.finditer(c.text):
            label = make_label(match.group("kind"), match.group("number"))
            if label != c.source.label and (not asked or label in asked):
                out.setdefault(label, titles.get((c.source.doc_id, label), ""))
    return list(out.items())
