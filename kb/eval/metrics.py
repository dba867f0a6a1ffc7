"""Evaluation data: the question file, what one turn showed the user, and the aggregate scores."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Sequence

from kb.labels import parse_label, parse_unnumbered_label
from graph.store import attachment_node_id
from kb.answer.hop import without_block
from kb.answer.sources import declines
from kb.text import squash

KINDS = ("attachment", "body", "unanswerable")
# What one question file may cost to read (the defaults of ANNEX_MAX_QUESTION_LINES and ANNEX_MAX_QUESTION_FILE_MB).
MAX_QUESTION_LINES = 2000
MAX_QUESTION_BYTES = 5 * 1024 * 1024
MAX_LINE_BYTES = 20 * 1024  # a question line is a short JSON object; a longer line is that line's problem
MAX_PROBLEMS = 50  # problems listed one by one; the rest are counted
SKIP_CHUNK = 64 * 1024  # bytes read at a time past an over-long line
SHOWN_CHARS = 60  # of a bad value quoted in a problem's reason


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


def load_questions(
    path: Path, max_lines: int = MAX_QUESTION_LINES, max_bytes: int = MAX_QUESTION_BYTES
) -> tuple[list[Question], list[Problem]]:
    """The usable questions of a JSON-lines file, and the Problems of the lines that are not (blank lines skipped).

    The file is read line by line, so memory follows the questions kept, never the file: a line over
    MAX_LINE_BYTES is that line's problem, lines past `max_lines` or `max_bytes` are skipped as one problem, and
    past MAX_PROBLEMS problems only their count is kept (ANNEX_MAX_QUESTION_LINES, ANNEX_MAX_QUESTION_FILE_MB).
    """
    questions: list[Question] = []
    problems = _Problems()
    read = 0
    with path.open("rb") as stream:
        number = 0
        while True:
            raw = stream.readline(MAX_LINE_BYTES + 1)
            if not raw:
                break
            number += 1
            if number > max_lines or read + len(raw) > max_bytes:
                cap = (f"ANNEX_MAX_QUESTION_LINES={max_lines} lines" if number > max_lines
                       else f"ANNEX_MAX_QUESTION_FILE_MB={max_bytes / 1024 / 1024:g} MB")
                problems.skipped(Problem(number, f"this line and the rest of the file were skipped: the question "
                                                 f"file is over its limit of {cap}; split the file."))
                break
            read += len(raw)
            if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                read += _skip_line(stream, max_bytes - read)
                problems.add(Problem(number, f"the line is over {MAX_LINE_BYTES // 1024} KB; a question line is a "
                                             "short JSON object, shorten it."))
                continue
            try:
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                problems.add(Problem(number, f"not UTF-8 (byte {exc.start + 1}); save the file as UTF-8"))
                continue
            if not text.strip():
                continue
            try:
                questions.append(parse_question(number, json.loads(text)))
            except json.JSONDecodeError as exc:
                problems.add(Problem(number, f"not JSON ({exc.msg} at column {exc.colno})"))
            except RecursionError:
                problems.add(Problem(number, "the JSON is nested too deeply; a question line is a flat object"))
            except ValueError as exc:
                problems.add(Problem(number, str(exc)))
    return questions, problems.listed()


class _Problems:
    """The first MAX_PROBLEMS problems of a file, then only how many more there were."""

    def __init__(self) -> None:
        self.kept: list[Problem] = []
        self.more = 0
        self.first_more = 0
        self.last: Problem | None = None

    def add(self, problem: Problem) -> None:
        if len(self.kept) < MAX_PROBLEMS:
            self.kept.append(problem)
            return
        self.more += 1
        self.first_more = self.first_more or problem.line

    def skipped(self, problem: Problem) -> None:
        self.last = problem

    def listed(self) -> list[Problem]:
        out = list(self.kept)
        if self.more:
            out.append(Problem(self.first_more, f"{self.more} more lines from here on could not be used; only the "
                                                f"first {MAX_PROBLEMS} problems are listed one by one"))
        return out + ([self.last] if self.last else [])


def _skip_line(stream: BinaryIO, budget: int) -> int:
    """Read past the rest of an over-long line without keeping it (or until past `budget` bytes); how many bytes
    were skipped."""
    skipped = 0
    while skipped <= budget:
        piece = stream.readline(SKIP_CHUNK)
        skipped += len(piece)
        if not piece or piece.endswith(b"\n"):
            return skipped
    return skipped


def _shown(value: object) -> str:
    """A value quoted in a problem's reason, cut short: a reason never carries a line's bulk."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "…"


def parse_question(line: int, data: object) -> Question:
    """A Question from one decoded line; raises ValueError naming the bad field. Unknown fields are ignored."""
    if not isinstance(data, dict):
        raise ValueError(f"a line must be a JSON object, got {type(data).__name__}")
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise ValueError("'question' must be a non-empty string")
    kind = data.get("kind", "attachment")
    if kind not in KINDS:
        raise ValueError(f"'kind' must be one of {', '.join(KINDS)}, got {_shown(kind)}")
    doc = data.get("doc", "")
    if not isinstance(doc, str):
        raise ValueError("'doc' must be a file name")
    attachments = _strings(data, "attachments")
    labels = []
    for written in attachments:
        label = parse_label(written) or parse_unnumbered_label(written)  # 附件：<title> is the one unnumbered
        if label is None:
            raise ValueError(
                f"attachment {_shown(written)} does not start with a label such as 附件4, 附录B or 附表2 "
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
