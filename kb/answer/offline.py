"""The offline default answerer: picks the source sentences that best answer the question and cites them."""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from kb.ingest.splitting import is_header_line, is_toc_line
from kb.labels import LABEL, make_label
from kb.ingest.parsing import CELL_SEPARATOR
from kb.answer.prompts import ATTACHMENT_SECTION, NO_ANSWER, OFFLINE_LABEL
from kb.search.tokens import tokenize
from kb.turn import Source

MIN_COVERAGE = 0.45  # share of the question's (idf-weighted) words a sentence must hold to count as an answer
MAX_SENTENCES = 4
TITLE_CREDIT = 0.5  # share of credit for question words found only in the source's document/attachment title
_SENTENCE = re.compile(r"[^。！？；!?;\n]+[。！？；!?;]?")


@dataclass(frozen=True)
class _Candidate:
    source: Source
    text: str
    coverage: float


class ExtractiveAnswerer:
    """Deterministic, no model: the answer is sentences of the sources, each cited [n]."""

    name = "离线抽取模式（offline extractive）"
    offline = True

    def answer(self, question: str, sources: Sequence[Source], context: str = "") -> str:
        """An answer with [n] citations and a **相关附件** section, or NO_ANSWER."""
        chosen = self.select(question, sources, context)
        if not chosen:
            return f"{OFFLINE_LABEL}\n\n{NO_ANSWER}"
        lines = [f"- {c.text.strip()} [{c.source.n}]" for c in chosen]
        attachments = _attachments_used(chosen, sources)
        section = "\n".join(f"- {label}-{title}" if title else f"- {label}" for label, title in attachments) or "- 无"
        return f"{OFFLINE_LABEL}\n\n" + "\n".join(lines) + f"\n\n{ATTACHMENT_SECTION}\n{section}\n"

    def select(self, question: str, sources: Sequence[Source], context: str = "") -> list[_Candidate]:
        """The best sentences, best first; empty when none covers enough of the question."""
        weights = Counter({t: 1.0 for t in tokenize(question)})
        for token in tokenize(context):
            weights[token] = max(weights[token], 0.5)  # earlier turns count, less than the question
        if not weights or not sources:
            return []
        sentences = [(s, text) for s in sources for text in _units(s.text) if text.strip() != s.doc_title]
        token_sets = [set(tokenize(text)) for _, text in sentences]
        # A sentence of a source is implicitly about its document and attachment: their title words half count.
        titles = {s.n: set(tokenize(f"{s.doc_title} {s.title}")) for s in sources}
        df = Counter(t for tokens in token_sets for t in tokens if t in weights)
        n = len(sentences)
        idf = {t: math.log(1 + (n + 1) / (df[t] + 0.5)) for t in weights}
        total = sum(weights[t] * idf[t] for t in weights)
        candidates = []
        for (source, text), tokens in zip(sentences, token_sets):
            own = sum(weights[t] * idf[t] for t in weights if t in tokens) / total
            implied = sum(weights[t] * idf[t] for t in weights if t in titles[source.n] and t not in tokens) / total
            coverage = own + TITLE_CREDIT * implied
            if coverage >= MIN_COVERAGE and own > 0:
                candidates.append(_Candidate(source, text, round(coverage, 6)))
        candidates.sort(key=lambda c: (-c.coverage, c.source.n))
        if not candidates:
            return []
        best = candidates[0].coverage
        out: list[_Candidate] = []
        seen: set[str] = set()
        home = candidates[0].source.doc_id
        for c in candidates:
            key = c.text.strip()
            # Quote one document, unless another matches (nearly) as well: two plans from one template
            # answer the same question with different facts.
            floor = best * (0.75 if c.source.doc_id == home else 0.95)
            if c.coverage >= floor and key not in seen and len(out) < MAX_SENTENCES:
                seen.add(key)
                out.append(c)
        return out


def _units(text: str) -> list[str]:
    """The answerable units of a source: sentences, and table rows read as 'column：value' with their header."""
    units: list[str] = []
    header: list[str] | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or is_toc_line(line) or is_header_line(stripped):
            header = None
            continue
        if CELL_SEPARATOR in stripped:
            cells = [c.strip() for c in stripped.split(CELL_SEPARATOR.strip())]
            if header is None:
                header = cells
                continue
            if len(cells) == len(header):
                units.append("；".join(f"{h}：{v}" for h, v in zip(header, cells) if v and h != v))
                continue
        header = None
        units.extend(m.group(0) for m in _SENTENCE.finditer(stripped) if m.group(0).strip())
    return units


def _attachments_used(chosen: Sequence[_Candidate], sources: Sequence[Source]) -> list[tuple[str, str]]:
    """Attachments whose text was quoted, then those the quoted sentences point to (详见附件4)."""
    titles = {(s.doc_id, s.label): s.title for s in sources if s.label}
    out: dict[str, str] = {}
    for c in chosen:
        if c.source.label:
            out.setdefault(c.source.label, c.source.title)
    for c in chosen:
        for match in LABEL.finditer(c.text):
            label = make_label(match.group("kind"), match.group("number"))
            if label != c.source.label:
                out.setdefault(label, titles.get((c.source.doc_id, label), ""))
    return list(out.items())
