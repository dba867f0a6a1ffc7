"""Which documents a question names, and which it rules out: a reader asked about 西岭街道's plan reads no sentence
of 东岭街道's, its template twin, and one asked about a plan the knowledge base does not have reads none at all."""
from __future__ import annotations

import re
from typing import Mapping, Sequence

from kb.answer.units import folded, words
from kb.search.tokens import tokenize
from kb.turn import Source

_CLAUSE = re.compile(r"[，。？！?!,、；;：:\s]")
# A name the question gives holds at most this many words the title lacks between two of the title's words
# (绿洲化工园区*地震*应急预案); farther apart they are two mentions (紫楹台酒店的应急预案与哪个上级政府预案相衔接),
# and reading them as one name declined 2 of 84 dev questions.
NAME_GAP = 1


def title_scores(sources: Sequence[Source], weights: Mapping[str, float], idf: Mapping[str, float]) -> dict[str, float]:
    """Per document, how much of the question its title holds (西岭街道… is about 西岭街道防汛应急预案)."""
    score: dict[str, float] = {}
    for s in sources:
        if s.doc_id not in score:
            title = words(s.doc_title)
            score[s.doc_id] = sum(weights[t] * idf[t] for t in weights if t in title)
    return score


def not_named(sources: Sequence[Source], weights: Mapping[str, float], held: Mapping[str, set[str]],
              covers: Mapping[str | tuple[str, str], str]) -> set[str]:
    """The documents the question rules out: it names another by a word of that one's name — its title or its cover
    (西安新兴紫楹台酒店有限公司 above a plan titled 生产安全事故应急预案) — that this one neither bears in its name nor
    uses in its text or its attachments' titles (西岭街道… rules out 东岭街道防汛应急预案, its template twin)."""
    titles = {s.doc_id: words(f"{s.doc_title} {covers.get(s.doc_id, '')}") for s in sources}
    # a number is no name (工作了25年: 25 in another law's cover date 2018年1月25日 names nothing)
    naming = {t for t in weights if len(t) > 1 and not t.isdigit() and any(t in title for title in titles.values())}
    return {doc_id for doc_id, title in titles.items()
            if any(t not in title and t not in held.get(doc_id, set()) for t in naming)}


def misnamed_documents(question: str, sources: Sequence[Source], present: set[str]) -> set[str]:
    """The documents the question names with a word their title lacks and no source holds (绿洲化工园区*地震*应急预案
    when the plan is 绿洲化工园区突发环境事件应急预案): it asks about a document the knowledge base does not have. A
    word the title holds shortened (一中 of 第一中学) names it."""
    clauses = [tokenize(c) for c in _CLAUSE.split(question)]
    out = set()
    for s in sources:
        title = words(s.doc_title)
        for tokens in clauses:
            inside = [i for i, t in enumerate(tokens) if t in title]
            for a, b in zip(inside, inside[1:]):
                if b - a - 1 > NAME_GAP or folded(s.doc_title).find(tokens[a]) > folded(s.doc_title).find(tokens[b]):
                    continue  # not one name: 应急预案|与哪个上级政府|预案 speaks of two plans, 预案|中提到的|应急物资 of
                    # the plan and its supplies (a name keeps the title's order)
                if any(len(t) > 1 and t not in title and t not in present and not abbreviates(t, s.doc_title)
                       for t in tokens[a + 1 : b]):
                    out.add(s.doc_id)
    return out


def abbreviates(word: str, title: str) -> bool:
    """The word is the title's words cut short, its characters taken in order (一中 in 绍兴*一中* of 绍兴市第一中学,
    as a reader shortens a name)."""
    rest = iter(title)
    return all(ch in rest for ch in word)
