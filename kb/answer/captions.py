"""An attachment of several tables, each under its caption (a 附表 with one list of report elements per trade, a fee
schedule per region): a reader asked for the items of one finds the table the question names by its caption, then
the rows of that table that hold what is asked — never a row of a neighbouring table, nor an article sharing the
topic word.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.answer.shapes import Candidate
from kb.answer.units import words


def captioned_rows(weights: Mapping[str, float], candidates: Sequence[Candidate]) -> list[Candidate]:
    """The rows, among `candidates` (table rows, each with its caption as heading), of the one table whose caption
    holds question words the other captions do not (建筑业 of 建筑业…要素列表), that hold the most of the question's
    other words; [] when no one caption is named or no row of its table holds any other word."""
    captions = {c.heading for c in candidates if c.heading}
    if len(captions) < 2:
        return []
    asked = {t for t in weights if len(t) > 1}
    held = {caption: asked & words(caption) for caption in captions}
    common = set.intersection(*held.values())
    named = {caption: len(words_ - common) for caption, words_ in held.items()}
    best = max(named.values())
    chosen = [caption for caption, n in named.items() if n == best]
    if best == 0 or len(chosen) != 1:
        return []
    rest = asked - set().union(*held.values())  # what to find in the table, not where to look
    scored = [(sum(weights[t] for t in rest & words(c.text)), c) for c in candidates if c.heading == chosen[0]]
    top = max((score for score, _ in scored), default=0.0)
    if top <= 0:
        return []
    rows = [c for score, c in scored if score == top]
    return sorted(rows, key=lambda c: c.position)
