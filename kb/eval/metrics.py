"""Evaluation data: the question file, what one turn showed the user, and the aggregate scores."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from kb.labels import parse_label, parse_unnumbered_label
from graph.store import attachment_node_id
from kb.answer.hop import without_block
from kb.answer.sources import declines
from kb.text import squash

KINDS = ("attachment", "body", "unanswerable")


@dataclass(frozen=True)
class Question:
    """One line of the question file."""

    line: int
    question: str
    kind: str
    doc: str = ""
    attachments: tuple[str, ...] = ()  # as written: 附件4：应急物资清单
    labels: tuple[str, ...] = ()  # normalized: 附件4
    answer_contains: tuple[str, ...] = ()
    history: tuple[str, ...] = ()  # earlier user questions of the same conversation, asked first, in order


@dataclass(frozen=True)
class Problem:
    """A question line that could not be used, and why."""

    line: int
    reason: str


@dataclass
class Outcome:
    """What one question's turn showed the user, scored."""

    question: Question
    doc_id: str | None
    ms: float
    shown: set[tuple[str, str]] = field(default_factory=set)  # (doc_id, label) whose content the user saw
    prompted: set[tuple[str, str]] = field(default_factory=set)  # (doc_id, label) among the answerer's sources
    found: tuple[str, ...] = ()  # expected labels that were shown
    missing: tuple[str, ...] = ()  # expected labels that were not
    reached: tuple[str, ...] = ()  # expected labels that reached the prompt (retrieved or prefetched)
    other: int = 0  # shown attachments of other documents
    contains_ok: bool | None = None
    absent: tuple[str, ...] = ()  # answer strings not in what was shown
    unanswerable_ok: bool | None = None
    answer: str = ""
    history: tuple[str, ...] = ()  # the questions actually asked before it in its conversation

    def to_dict(self) -> dict:
        q = self.question
        return {
            "line": q.line, "kind": q.kind, "doc": q.doc, "question": q.question, "history": list(self.history), "ms": round(self.ms, 1),
            "expected": list(q.labels), "found": list(self.found), "missing": list(self.missing),
            "reached_prompt": list(self.reached),
            "other_docs_attachments": self.other,
            "shown": sorted(attachment_node_id(d, label) for d, label in self.shown),
            "prompted": sorted(attachment_node_id(d, label) for d, label in self.prompted),
            "answer_contains_ok": self.contains_ok, "absent": list(self.absent),
            "unanswerable_ok": self.unanswerable_ok, "answer": self.answer,
        }


def load_questions(path: Path) -> tuple[list[Question], list[Problem]]:
    """The usable questions of a JSON-lines file, and one Problem per line that is not (blank lines skipped)."""
    questions: list[Question] = []
    problems: list[Problem] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            questions.append(parse_question(number, json.loads(raw)))
        except json.JSONDecodeError as exc:
            problems.append(Problem(number, f"not JSON ({exc.msg} at column {exc.colno})"))
        except ValueError as exc:
            problems.append(Problem(number, str(exc)))
    return questions, problems


def parse_question(line: int, data: object) -> Question:
    """A Question from one decoded line; raises ValueError naming the bad field. Unknown fields are ignored."""
    if not isinstance(data, dict):
        raise ValueError(f"a line must be a JSON object, got {type(data).__name__}")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("'question' must be a non-empty string")
    kind = data.get("kind", "attachment")
    if kind not in KINDS:
        raise ValueError(f"'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
    doc = data.get("doc", "")
    if not isinstance(doc, str):
        raise ValueError("'doc' must be a file name")
    attachments = _strings(data, "attachments")
    labels = []
    for written in attachments:
        label = parse_label(written) or parse_unnumbered_label(written)  # 附件：<title> is the one unnumbered
        if label is None:
            raise ValueError(
                f"attachment {written!r} does not start with a label such as 附件4, 附录B or 附表2 "
                "(or 附件：<title> for a document's single unnumbered attachment)")
        labels.append(label)
    contains = _strings(data, "answer_contains")
    if kind == "attachment" and not labels:
        raise ValueError("an attachment question needs 'attachments'")
    if kind != "unanswerable" and not doc:
        raise ValueError(f"a {kind} question needs 'doc'")
    labels = list(dict.fromkeys(labels))
    history = _strings(data, "history")
    if not all(h.strip() for h in history):
        raise ValueError("'history' must list non-empty questions")
    return Question(line, question.strip(), kind, doc, tuple(attachments), tuple(labels), tuple(contains),
                    tuple(h.strip() for h in history))


def _strings(data: dict, key: str) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"'{key}' must be a list of strings")
    return value


def score(outcome: Outcome, shown_text: str) -> Outcome:
    """Fill in the scores of an outcome from what the user was shown (answer + attachments block)."""
    q = outcome.question
    if q.kind == "attachment" and outcome.doc_id is not None:
        own = {label for doc_id, label in outcome.shown if doc_id == outcome.doc_id}
        outcome.found = tuple(label for label in q.labels if label in own)
        outcome.missing = tuple(label for label in q.labels if label not in own)
        outcome.other = sum(1 for doc_id, _ in outcome.shown if doc_id != outcome.doc_id)
        prompted = {label for doc_id, label in outcome.prompted if doc_id == outcome.doc_id}
        outcome.reached = tuple(label for label in q.labels if label in prompted)
    refused = declines(shown_text)
    if q.kind in ("attachment", "body"):
        seen = _fold(shown_text)
        outcome.absent = tuple(s for s in q.answer_contains if _fold(s) not in seen)
        outcome.contains_ok = not outcome.absent and not refused  # text quoted beside a decline is not an answer
    else:
        outcome.unanswerable_ok = refused
    return outcome


def _fold(text: str) -> str:
    return squash(text)


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0-100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def aggregate(outcomes: Sequence[Outcome], mode: str) -> dict:
    """The aggregate scores of one mode (fractions rounded to 3 places; None where no question applies)."""
    by_kind = {kind: [o for o in outcomes if o.question.kind == kind] for kind in KINDS}
    result = {"mode": mode, "questions": len(outcomes), **_scores(outcomes)}
    result["by_kind"] = {
        kind: {"questions": len(group), **{k: v for k, v in _scores(group).items() if v is not None}}
        for kind, group in by_kind.items()
        if group
    }
    ms = [o.ms for o in outcomes]
    result["p50_ms"] = round(percentile(ms, 50), 1)
    result["p95_ms"] = round(percentile(ms, 95), 1)
    return result


def _scores(outcomes: Sequence[Outcome]) -> dict:
    scored = [o for o in outcomes if o.question.kind == "attachment" and o.doc_id is not None]
    expected = sum(len(o.question.labels) for o in scored)
    shown = sum(len(o.shown) for o in scored)
    contains = [o.contains_ok for o in outcomes if o.contains_ok is not None]
    unanswerable = [o.unanswerable_ok for o in outcomes if o.unanswerable_ok is not None]
    return {
        "attachment_recall": _ratio(sum(len(o.found) for o in scored), expected),
        "reached_prompt": _ratio(sum(len(o.reached) for o in scored), expected),
        "attachment_precision": _ratio(sum(len(o.shown) - o.other for o in scored), shown),
        "answer_contains": _ratio(sum(contains), len(contains)),
        "unanswerable_ok": _ratio(sum(unanswerable), len(unanswerable)),
    }


def _ratio(part: float, whole: float) -> float | None:
    return round(part / whole, 3) if whole else None
