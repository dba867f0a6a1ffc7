"""An attachment of several tables, each under its caption (a 附表 with one list of report elements per trade, a fee
schedule per region): a reader asked for the items of one finds the table the question names by its caption, then
the rows of that table that hold what is asked — never a row of a neighbouring table, nor an article sharing the
topic word.
"""
from __future__ import annotations

from typing import Mapping, Sequence

from kb.answer.question import Asks
from kb.answer.shapes import Candidate
from kb.answer.unit_match import DATA_ITEMS, names_column
from kb.answer.units import words


def named_caption(weights: Mapping[str, float], candidates: Sequence[Candidate]) -> str | None:
    """Of the captions the candidate rows stand under (two at least), the one that holds question words the others do
    not (建筑业 of 建筑业…要素列表, 日间 of 收费表一（日间停车适用）); None when none or several do."""
    captions = {c.heading for c in candidates if c.heading}
    if len(captions) < 2:
        return None
    asked = {t for t in weights if len(t) > 1}
    held = {caption: asked & words(caption) for caption in captions}
    common = set.intersection(*held.values())
    named = {caption: len(found - common) for caption, found in held.items()}
    best = max(named.values())
    chosen = [caption for caption, n in named.items() if n == best]
    return chosen[0] if best and len(chosen) == 1 else None


def captioned_rows(weights: Mapping[str, float], candidates: Sequence[Candidate]) -> list[Candidate]:
    """The rows, among `candidates` (table rows, each with its caption as heading), of the one table whose caption
    the question names (named_caption), that hold the most of the question's other words; [] when no one caption is
    named or no row of its table holds any other word."""
    caption = named_caption(weights, candidates)
    if caption is None:
        return []
    asked = {t for t in weights if len(t) > 1}
    where = set().union(*(words(c.heading) for c in candidates if c.heading))
    rest = asked - where  # what to find in the table, not where to look
    scored = [(sum(weights[t] for t in rest & words(c.text)), c) for c in candidates if c.heading == caption]
    top = max((score for score, _ in scored), default=0.0)
    if top <= 0:
        return []
    rows = [c for score, c in scored if score == top]
    return sorted(rows, key=lambda c: c.position)


def in_named_table(weights: Mapping[str, float], candidates: list[Candidate], units: Sequence[tuple]) -> list[Candidate]:
    """The candidates without the rows of the tables beside the one the question names by its caption (日间停车3小时
    of a fee table per time of day: not the row of the night table that holds 3小时 too); `units` are the
    scoring pass's (source, position, text, header, …), a table row's header not empty."""
    rows = {(source.n, position) for source, position, _, header, *_ in units if header}
    tabled = [c for c in candidates if (c.source.n, c.position) in rows]
    caption = named_caption(weights, tabled)
    if caption is None:
        return candidates
    return [c for c in candidates if not ((c.source.n, c.position) in rows and c.heading and c.heading != caption)]


def item_columns(wants: Asks, kinds: set[str], weights: Mapping[str, float], units: Sequence[tuple]) -> set[str]:
    """The kind nouns the question asks items of that name a column of tables under two captions or more: 哪些要素
    and a 附表 whose lists (one per trade) have a column 要素名称 — its rows are the 要素, and an article on the same
    topic names none; 需要填项目负责人信息吗 of the same 附表 asks whether a row is there. One table of them is scored
    as any line is (a pointer's rows, its caption's words)."""
    asked = kinds if wants.list else DATA_ITEMS & set(weights) if wants.whether else set()
    columns = {k for k in asked if any(names_column(k, u[3]) for u in units)}
    captions = {u[5] for u in units if u[5] and any(names_column(k, u[3]) for k in columns)}
    return columns if len(captions) >= 2 else set()
