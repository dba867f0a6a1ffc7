"""Evaluation: `python -m kb.eval --corpus DIR --questions FILE.jsonl [--mode graph|naive|keyword|all]
[--with-history N]`.

Ingests the corpus into a fresh temporary store (or --store), runs every question through the pipeline and
event stream the app uses (offline answerer unless ANNEX_LLM_BASE_URL is set), once per mode, prints a
per-question table and, as its last line, one JSON object with the aggregates (kb/eval/metrics.py). A question
with a "history" is asked after those questions in one conversation; --with-history N asks every question after the
N before it in the file too (before its own history).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Sequence


from kb.answer.fold import TurnFold, fold_events
from kb.answer.hop import without_block, POST_HOP
from kb.eval.baselines import KeywordPipeline, NaivePipeline
from kb.errors import AnnexError, EvalError
from kb.eval.metrics import Outcome, Problem, Question, aggregate, load_questions, score
from kb.ingest.formats import expand_paths
from kb.ingest.formats import SHOWN, SUPPORTED_EXTENSIONS
from kb.answer.pipeline import Pipeline
from kb.search.readmodels import Snapshot
from kb.progress import progress_bar
from kb.service import Service, open_service
from kb.settings import Settings, load_settings
from kb.text import fold
from kb.turn import TurnRequest

MODES: dict[str, type[Pipeline]] = {"graph": Pipeline, "naive": NaivePipeline, "keyword": KeywordPipeline}
OWNER = "annex-eval"  # conversations the evaluation leaves in a --store's history carry this owner


def main(argv: Sequence[str] | None = None) -> int:
    """Run the evaluation; returns the exit code (2 when it cannot start)."""
    parser = argparse.ArgumentParser(prog="python -m kb.eval", description="annex-rag evaluation: graph vs baselines")
    parser.add_argument("--corpus", action="append", required=True, type=Path, metavar="DIR",
                        help=f"folder of {SHOWN} documents (repeatable)")
    parser.add_argument("--questions", required=True, type=Path, metavar="FILE.jsonl")
    parser.add_argument("--mode", action="append", choices=[*MODES, "all"], default=None,
                        help="graph (the product), naive (plain vector RAG) or keyword (the FastGPT workflow); "
                             "repeatable, or 'all'; default graph")
    parser.add_argument("--store", type=Path, default=None, help="store directory (default: a fresh temporary one)")
    parser.add_argument("--library", default="eval", help="library the corpus is ingested into (default: eval)")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="write every question's outcome here")
    parser.add_argument("--with-history", type=int, default=0, metavar="N",
                        help="ask every question after the N questions before it in the file, in one conversation "
                             "(an unrelated history must not change the answer); default 0")
    args = parser.parse_args(argv)
    if args.with_history < 0:
        parser.error("--with-history must be 0 or more")
    modes = list(MODES) if "all" in (args.mode or []) else list(dict.fromkeys(args.mode or ["graph"]))
    try:
        files = _corpus_files(args.corpus)
        settings = load_settings(store_dir=args.store)
        questions, problems = _questions(args.questions, settings)
        for p in problems:
            print(f"{args.questions}:{p.line}: skipped: {p.reason}", file=sys.stderr)
        with tempfile.TemporaryDirectory(prefix="annex-eval-") as scratch:
            service = open_service(settings if args.store else replace(settings, store_dir=Path(scratch)))
            try:
                return _evaluate(service, files, questions, problems, modes, args)
            finally:
                service.close()
    except AnnexError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _corpus_files(dirs: Sequence[Path]) -> list[Path]:
    for d in dirs:
        if not d.is_dir():
            raise EvalError(f"--corpus {d} is not a folder; point it at a folder of documents.")
    files = expand_paths(dirs)
    if not files:
        raise EvalError(f"--corpus {', '.join(map(str, dirs))} holds no {'/'.join(SUPPORTED_EXTENSIONS)} files; "
                        "point it at a folder of documents.")
    return files


def _questions(path: Path, settings: Settings) -> tuple[list[Question], list[Problem]]:
    try:
        questions, problems = load_questions(path, settings.max_question_lines, settings.max_question_bytes)
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"cannot read the question file {path}: {exc}") from exc
    if not questions:
        raise EvalError(f"{path} holds no usable question; each line is a JSON object with doc, question, "
                        "attachments, answer_contains and kind.")
    return questions, problems


def _evaluate(service: Service, files: list[Path], questions: list[Question], problems: list[Problem],
              modes: list[str], args: argparse.Namespace) -> int:
    _ingest(service, files, args.library)
    snapshot = service.read.current()
    runnable, skipped = _check(questions, snapshot)
    problems = sorted([*problems, *skipped], key=lambda p: p.line)
    for p in skipped:
        print(f"{args.questions}:{p.line}: skipped: {p.reason}", file=sys.stderr)
    scope = (args.library,) if snapshot.libraries != {args.library} else ()
    results: dict[str, dict] = {}
    details: dict[str, list[dict]] = {}
    for mode in modes:
        pipeline = mode_pipeline(service, mode)
        after = f" · each after the {args.with_history} before it" if args.with_history else ""
        print(f"\n== mode {mode} · {pipeline.model_name} · {len(runnable)} questions{after}")
        print(_row("#", "kind", "doc", "ms", "shown", "reached prompt", "other", "answer"))
        outcomes = []
        for i, (q, doc_id) in enumerate(runnable):
            before = [p.question for p, _ in runnable[max(0, i - args.with_history):i]] if args.with_history else []
            outcome = _run(pipeline, service, q, doc_id, scope, [*before, *q.history])
            outcomes.append(outcome)
            print(_outcome_row(outcome, snapshot), flush=True)
        results[mode] = aggregate(outcomes, mode)
        details[mode] = [o.to_dict() for o in outcomes]
    skipped_json = [{"line": p.line, "reason": p.reason} for p in problems]
    if len(modes) > 1:
        print("\n" + _comparison(results))
    if args.json:
        args.json.write_text(json.dumps({"aggregates": results, "questions": details, "skipped": skipped_json},
                                        ensure_ascii=False, indent=1), encoding="utf-8")
    if len(modes) == 1:
        last = {**results[modes[0]], "skipped": skipped_json}
    else:
        last = {"modes": results, "questions": len(runnable), "skipped": skipped_json}
    print(json.dumps(last, ensure_ascii=False))
    return 0


def mode_pipeline(service: Service, mode: str) -> Pipeline:
    """The pipeline of one mode over an open service; graph mode is the app's own (agent mode included)."""
    base = service.pipeline
    if mode == "graph":
        return base
    return MODES[mode](service.settings, service.read, base.retriever, service.history, base.model)


def runnable(questions: list[Question], snapshot: Snapshot) -> tuple[list[tuple[Question, str | None]], list[Problem]]:
    """Each question with its document id, or a Problem when its doc or an expected label is not in the corpus."""
    return _check(questions, snapshot)


def run_question(pipeline: Pipeline, service: Service, q: Question, doc_id: str | None,
                 scope: tuple[str, ...]) -> Outcome:
    """One question's turn (after its history, in one conversation), scored by what it showed the user."""
    return _run(pipeline, service, q, doc_id, scope, q.history)


def _ingest(service: Service, files: list[Path], library: str) -> None:
    started = time.perf_counter()
    with progress_bar("ingest") as progress:
        results = service.stores.ingestor.ingest(files, library, progress)
    for r in results:
        if r.error:
            print(f"ingest: ✗ {r.error}", file=sys.stderr)
    if not any(r.doc_id for r in results if not r.error):
        raise EvalError("no document of the corpus could be ingested (see the errors above).")
    docs = {r.doc_id for r in results if r.doc_id and not r.error}
    elapsed = time.perf_counter() - started
    print(f"ingest: {len(results)} files → {len(docs)} documents in {elapsed:.1f} s", file=sys.stderr)


def _check(questions: list[Question], snapshot: Snapshot) -> tuple[list[tuple[Question, str | None]], list[Problem]]:
    """Each question with its document id, or a Problem when its doc or an expected label is not in the corpus."""
    names: dict[str, str] = {}
    for d in snapshot.documents.values():
        for key in (d.title, Path(d.name).stem, d.name):  # later keys win: the file name is the surest
            names[_key(key)] = d.id
    runnable, problems = [], []
    for q in questions:
        doc_id = names.get(_key(q.doc)) if q.doc else None
        if q.doc and doc_id is None and q.kind != "unanswerable":
            problems.append(Problem(q.line, f"doc {q.doc!r} is not in the corpus"))
            continue
        missing = [label for label in q.labels if doc_id and snapshot.catalog.get(doc_id, label) is None]
        if missing:
            problems.append(Problem(q.line, f"doc {q.doc!r} has no {', '.join(missing)}"))
            continue
        runnable.append((q, doc_id))
    return runnable, problems


def _key(name: str) -> str:
    return fold(name).strip()


def _run(pipeline: Pipeline, service: Service, q: Question, doc_id: str | None, scope: tuple[str, ...],
         history: Sequence[str] = ()) -> Outcome:
    """One turn through the event stream, asked after `history` in the same conversation, and what it showed the
    user; the earlier turns' answers are whatever the product gives, and only the last turn is timed and scored."""
    conversation: str | None = None
    for earlier in history:
        conversation = fold_events(pipeline.run(
            TurnRequest(earlier, library_ids=scope, owner=OWNER, conversation_id=conversation))).conversation_id
    started = time.perf_counter()
    turn = fold_events(pipeline.run(TurnRequest(q.question, library_ids=scope, owner=OWNER,
                                                conversation_id=conversation)))
    ms = (time.perf_counter() - started) * 1000
    shown = shown_attachments(turn, service)
    answer = without_block(turn.content)
    prompted = prompted_attachments(service, turn.conversation_id)
    return score(Outcome(q, doc_id, ms, shown, prompted, answer=answer, history=tuple(history)), turn.content)


def shown_attachments(turn: TurnFold, service: Service) -> set[tuple[str, str]]:
    """(doc_id, label) of every attachment whose content a turn showed the user: in the hop's block, or referenced."""
    shown = {(item["doc_id"], item["label"]) for item in turn.attachments if item["resolved"]}
    # the answer's references: cited chunks and prefetched attachments
    ids = [cid for doc in turn.referenced_docs for cid in doc["chunk_ids"]]
    shown.update((c.doc_id, c.attachment) for c in service.stores.graph.chunks_by_id(ids) if c.attachment)
    return shown


def prompted_attachments(service: Service, conversation_id: str) -> set[tuple[str, str]]:
    """(doc_id, label) of the attachments among the sources the answerer saw: retrieved chunks or prefetched.

    The stored answer keeps every source of the turn; the ones the post-answer hop added came after the answer.
    """
    answer = service.history.messages(conversation_id)[-1]
    return {(s["doc_id"], s["label"]) for s in answer.extra.get("sources", [])
            if s["label"] and s.get("via") != POST_HOP}


def _outcome_row(o: Outcome, snapshot: Snapshot) -> str:
    q = o.question
    doc = snapshot.documents[o.doc_id].title if o.doc_id else q.doc or "—"
    if q.kind == "attachment":
        marks = " ".join([*(f"{label}✓" for label in o.found), *(f"{label}✗" for label in o.missing)])
        prompt = " ".join(f"{label}{'✓' if label in o.reached else '✗'}" for label in q.labels)
        other = str(o.other)
    else:
        marks, prompt, other = "", "", ""
    if q.kind == "unanswerable":
        verdict = "declined ✓" if o.unanswerable_ok else "answered ✗"
    else:
        verdict = "✓" if o.contains_ok else "✗ missing " + "、".join(o.absent)
    return _row(str(q.line), q.kind, doc, f"{o.ms:.0f}", marks, prompt, other, verdict)


def _comparison(results: dict[str, dict]) -> str:
    keys = ("attachment_recall", "reached_prompt", "attachment_precision", "answer_contains", "unanswerable_ok", "p50_ms", "p95_ms")
    lines = ["| mode | " + " | ".join(keys) + " |", "|---" * (len(keys) + 1) + "|"]
    for mode, r in results.items():
        lines.append(f"| {mode} | " + " | ".join("—" if r[k] is None else str(r[k]) for k in keys) + " |")
    return "\n".join(lines)


_WIDTHS = (4, 12, 26, 6, 20, 16, 5, 0)


def _row(*cells: str) -> str:
    return "  ".join(_pad(c, w) for c, w in zip(cells, _WIDTHS)).rstrip()


def _pad(text: str, width: int) -> str:
    """Cut and pad to a display width (CJK characters take two columns)."""
    if not width:
        return text
    out, used = [], 0
    for ch in text:
        w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        if used + w > width:
            break
        out.append(ch)
        used += w
    return "".join(out) + " " * (width - used)


if __name__ == "__main__":
    sys.exit(main())
