"""The compare tab's logic: one question through the evaluation's three pipelines, and each column's Markdown.

The modes are kb.eval's own (`mode_pipeline`), and "surfaced" is kb.eval's "shown" (`shown_attachments`), so
what a stakeholder sees side by side is what the evaluation measures.
"""
from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from kb.eval.run import MODES, mode_pipeline, shown_attachments
from kb.eval.metrics import Question, load_questions
from kb.service import Service, scratch_history
from kb.turn import TurnRequest
from ui.chat.turn_view import TurnView
from ui.safe import md

OWNER = "annex-compare"  # the compare tab's turns carry this owner (in a scratch history: no session lists them)
MODE_TITLES = {
    "naive": "朴素向量 RAG",
    "keyword": "FastGPT 式关键词工作流",
    "graph": "annex-rag 图谱模式",
}
MODE_NOTES = {
    "naive": "只做向量检索；不预取附件，回答后不跳转。",
    "keyword": "检索后作答；回答后按“相关附件”行对附件名做关键词匹配再取回。",
    "graph": "混合检索 + 沿 REFERENCES 预取附件 + 回答后图谱跳转。",
}
ORDER = ("naive", "keyword", "graph")
assert set(ORDER) == set(MODES)


@dataclass
class ModeResult:
    """One mode's answer to the question, and the attachments it surfaced."""

    mode: str
    view: TurnView
    shown: set[tuple[str, str]] = field(default_factory=set)  # (doc_id, label) shown to the user
    ms: float = 0.0


@dataclass
class Comparison:
    """The three modes' results, with what the question should have surfaced, when it is a bundled question."""

    question: str
    results: list[ModeResult]
    expected: set[tuple[str, str]] | None  # (doc_id, label) of a bundled eval question; None for any other
    names: dict[tuple[str, str], str]  # (doc_id, label) → "附件12 事故应急池… · 《文档》"
    total_ms: float = 0.0

    @property
    def union(self) -> set[tuple[str, str]]:
        return set().union(*(r.shown for r in self.results))

    def missed(self, result: ModeResult) -> list[tuple[str, str]]:
        """Expected attachments the mode did not surface (none without ground truth)."""
        return sorted((self.expected or set()) - result.shown)


def expected_for(question: str, questions: Sequence[Question], service: Service) -> set[tuple[str, str]] | None:
    """The expected (doc_id, label)s when `question` is one of the bundled eval questions, else None."""
    key = _fold(question)
    match = next((q for q in questions if _fold(q.question) == key), None)
    if match is None or match.kind != "attachment":
        return None
    docs = service.read.current().documents.values()
    doc_id = next((d.id for d in docs if match.doc in (d.name, d.title, Path(d.name).stem)), None)
    return {(doc_id, label) for label in match.labels} if doc_id else None


def bundled_questions(path: Path) -> list[Question]:
    """The evaluation's questions, or none when the file is absent."""
    return load_questions(path)[0] if path.is_file() else []


def compare(service: Service, request: TurnRequest, questions: Sequence[Question] = ()) -> Comparison:
    """Ask the (already scoped) request once per mode, one after another, folding each stream into a TurnView.

    The turns go to a scratch history: a comparison is shown once, not a conversation to list, share or keep."""
    started = time.perf_counter()
    results = []
    with scratch_history(service) as scratch:
        for mode in ORDER:
            view = TurnView(request.query.strip())
            for event in list(mode_pipeline(scratch, mode).run(request)):
                view.apply(event)
            results.append(ModeResult(mode, view, shown_attachments(view, scratch), view.elapsed_ms or 0.0))
    total = (time.perf_counter() - started) * 1000
    comparison = Comparison(request.query.strip(), results, expected_for(request.query, questions, service), {},
                            total)
    comparison.names = attachment_names(service, comparison.union | (comparison.expected or set()))
    return comparison


def attachment_names(service: Service, keys: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """A readable name for each (doc_id, label)."""
    snapshot = service.read.current()
    names = {}
    for doc_id, label in keys:
        info = snapshot.catalog.get(doc_id, label)
        doc = snapshot.documents.get(doc_id)
        title = f" {info.title}" if info is not None and info.title else ""
        names[(doc_id, label)] = f"{label}{title} · 《{doc.title if doc else doc_id}》"
    return names


VERDICTS = {  # a surfaced or expected attachment, judged against the question's expected attachments
    "right": "✓ 答对",
    "missed": "✗ 漏掉",
    "wrong": "⚠ 别的文件的附件",
    "extra": "· 同一文件的其他附件",
    "found": "·",  # no ground truth: what the mode found, unjudged
}


def verdicts(comparison: Comparison, result: ModeResult) -> list[tuple[str, tuple[str, str]]]:
    """(verdict, attachment) for one column: right, missed and wrong against the expected set; else just found."""
    if comparison.expected is None:
        return [("found", k) for k in sorted(result.shown)]
    expected_docs = {doc for doc, _ in comparison.expected}
    rows = [("right" if k in result.shown else "missed", k) for k in sorted(comparison.expected)]
    for k in sorted(result.shown - comparison.expected):
        rows.append(("extra" if k[0] in expected_docs else "wrong", k))
    return rows


def lead_line(comparison: Comparison, result: ModeResult) -> str:
    """The column's verdict in one line: 答对 / 漏掉 / 找错, or how many it found without ground truth."""
    if comparison.expected is None:
        return f"找到 {len(result.shown)} 个附件（没有标准答案，不判对错）"
    counts = {v: 0 for v in VERDICTS}
    for verdict, _ in verdicts(comparison, result):
        counts[verdict] += 1
    return f"答对 {counts['right']} · 漏掉 {counts['missed']} · 找错 {counts['wrong']}"


def column_markdown(comparison: Comparison, result: ModeResult) -> str:
    """One column: the mode, its verdict, the attachments judged one by one, its answer and its citations."""
    view = result.view
    rows = [f"- {VERDICTS[v]} {md(comparison.names.get(k, k[1]))}" for v, k in verdicts(comparison, result)]
    lines = [
        f"### {MODE_TITLES[result.mode]}",
        f"<small>{MODE_NOTES[result.mode]}</small>",
        "",
        f'<div class="compare-lead">{lead_line(comparison, result)}</div>',
        "",
        f"<small>{result.ms:.0f} ms</small>",
        "",
        "**附件**" if comparison.expected is not None else "**找到的附件**",
        *(rows or ["- （无）"]),
    ]
    lines += ["", "**回答**", "", md(view.answer.strip()) or "（无回答）"]
    if view.block:
        opened = " open" if result.mode == "graph" else ""  # the column the tab is about: its attachments in view
        lines += ["", f"<details{opened}><summary>相关附件内容（{len(view.attachments)} 个附件）</summary>", "",
                  md(view.block.strip()), "", "</details>"]
    cites = [f"- 《{md(d['title'])}》 {' '.join(f'[{n}]' for n in d.get('sources', ()))}" for d in view.referenced_docs]
    lines += ["", "**引用**", *(cites or ["- （无）"])]
    return "\n".join(lines)


def summary_markdown(comparison: Comparison) -> str:
    """The line above the columns: total time, and what the columns are judged against."""
    against = ("这是评测题：每栏按题目的期望附件判定——✓ 答对、✗ 漏掉、⚠ 别的文件的附件" if comparison.expected is not None
               else "这道题不在评测题里，没有标准答案：每栏只列出找到的附件，不判对错")
    times = " · ".join(f"{MODE_TITLES[r.mode]} {r.ms:.0f} ms" for r in comparison.results)
    return f"三种模式依次回答，共 **{comparison.total_ms:.0f} ms**（{times}）。{against}。"


def surfaced_labels(comparison: Comparison) -> Mapping[str, list[str]]:
    """mode → the labels it surfaced (for tests and the summary)."""
    return {r.mode: sorted(label for _, label in r.shown) for r in comparison.results}


def _fold(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).split())
