"""The table a body sentence sends the reader to by its title (具体税率、税额的确定，依照本条例所附《印花税税目税率表》执行),
when that attachment came without its content: asked for a value the table holds (借款合同的税率是多少), a reader finds
the sentence, turns to the table, finds only its title — and says which table the document cites and that it is
empty, quoting the sentence that cites it, instead of a bare decline.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from graph.resolve import AttachmentCatalog
from graph.store import DocumentSummary, GraphReads
from kb.answer.gaps import Gap, gap_of
from kb.answer.units import folded, read_units, words
from kb.search.tokens import tokenize
from kb.turn import Source

_TITLED = re.compile(r"《(?P<title>[^》]{2,60})》")


@dataclass(frozen=True)
class CitedGap:
    """A body sentence that cites an attachment by its title, and that attachment's gap."""

    source: Source
    sentence: str
    gap: Gap


def cited_gaps(question: str, sources: Sequence[Source], documents: dict[str, DocumentSummary],
               catalog: AttachmentCatalog, graph: GraphReads) -> list[CitedGap]:
    """The body sentences of the sources that cite, by title, an attachment of their document holding nothing, and
    that speak of what the question asks (税率 of …税率是多少 in 具体税率…依照…《…税率表》执行): the best retrieved
    first, one per attachment."""
    asked = {t for t in tokenize(question) if len(t) > 1}
    found: dict[tuple[str, str], CitedGap] = {}
    for s in sources:
        if s.label or s.doc_id not in documents:
            continue
        by_title = {folded(a.title): a for a in catalog.of_documents([s.doc_id]) if a.title}
        for unit in read_units(s.text, s.preamble):
            for m in _TITLED.finditer(unit.text):
                info = by_title.get(folded(m.group("title")))
                if info is None or (s.doc_id, info.label) in found:
                    continue
                said = words(unit.text) - words(s.doc_title)
                if not asked & said:
                    continue  # the sentence cites the table, but not for what the question asks
                chunks = graph.attachments_chunks([(s.doc_id, info.label)]).get((s.doc_id, info.label), [])
                gap = gap_of(documents[s.doc_id], info.label, info, chunks)
                if gap is not None:
                    found[(s.doc_id, info.label)] = CitedGap(s, unit.text.strip(), gap)
    return list(found.values())
