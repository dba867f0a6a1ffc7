"""What a source's sentences are about without saying it: their document and attachment, and for an attachment
reached along a REFERENCES edge, the sentence that cites it (kb/answer/offline.py reads a question's words against
this as well as against each sentence)."""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.answer.units import read_units, words
from kb.labels import KINDS, LABEL, make_label
from kb.search.tokens import tokenize
from kb.turn import Source

ATTACHED = frozenset(tokenize(" ".join(("附", "附带", "附有", "所附", "附列", *KINDS))))


def about_words(sources: Sequence[Source], covers: Mapping[str | tuple[str, str], str]) -> dict[int, set[str]]:
    """Per source, the words its sentences are implicitly about.

    A sentence of a source is about its document (title, cover) and its attachment (label's title). An attachment
    reached along a REFERENCES edge is also about the sentence that cites it (需要支援时，按附件9所列电话联系).
    """
    about = {
        s.n: set(words(f"{s.doc_title} {covers.get(s.doc_id, '')} {s.title or covers.get((s.doc_id, s.label), '')}"))
        for s in sources
    }
    for s in sources:
        if s.label:
            about[s.n] |= ATTACHED | words(s.label)  # "预案里附了哪些…": what is attached; "附件1里…": this one
    for s in sources:
        if not s.label:
            continue
        for other in sources:
            if other.doc_id != s.doc_id or other.label or other.prefetched:
                continue
            for text, *_ in read_units(other.text):
                if (s.via and s.via in text) or cites(text, s.label):
                    about[s.n] |= words(text)
    return about


def cites(text: str, label: str) -> bool:
    """The sentence refers to that attachment by its label (安排见附件14, 按附件十四)."""
    return any(make_label(m.group("kind"), m.group("number")) == label for m in LABEL.finditer(text))
