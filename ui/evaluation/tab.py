"""The evaluation (评测) tab: kb.eval's three modes over the running service's corpus, from the browser.

It asks the bundled questions (data/questions.jsonl) or an uploaded file of the same JSON-lines format of the
stores the app already holds — no second ingest — through kb.eval's own pipelines and scoring. A run sees what
the visitor's chat sees (SessionLibraries.scope: the shared libraries and the session's own), so a question
naming another visitor's document is "not in the corpus" like any unknown one; its turns go to a scratch history
removed when the run ends, never to the conversations; at most MAX_QUESTIONS questions run. The uploaded question
file and the CSV download (which quotes the visitor's questions and answers) are the session's: deleted when its
tab closes, the CSV also when a new one replaces it.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import gradio as gr
import pandas as pd
from gradio.utils import get_upload_folder

from kb.errors import AnnexError
from kb.eval.run import MODES, mode_pipeline, run_question, runnable
from kb.eval.metrics import Outcome, Problem, Question, aggregate, load_questions
from kb.search.readmodels import LibraryReads
from kb.service import Service, scratch_history
from kb.turn import TurnRequest
from graph.store import attachment_node_id
from ui.compare.run import attachment_names
from ui.uploaded import SessionUploads, UploadedFile
from ui.evaluation.frames import (ALL, FAIL, KIND_NAMES, PASS, chart, column_widths, display_frame, empty_chart,
                                  filter_frame, mode_name, outcomes_frame, summary_frame)
from ui.safe import error, md

ProgressFn = Callable[..., object]
EMPTY = "点 **运行评测**：三种模式依次回答每道题，完成后这里给出汇总表、比例图和逐题结果（可按模式、题型、结果筛选，下载 CSV）。"
MAX_QUESTIONS = 200  # per run of the tab: each costs three turns; `python -m kb.eval` runs any number
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula


@dataclass
class EvalRun:
    """What one run of the tab produced."""

    aggregates: dict[str, dict]
    outcomes: dict[str, list[Outcome]]
    problems: list[Problem] = field(default_factory=list)
    questions: int = 0


def evaluate(service: Service, questions: Sequence[Question], modes: Sequence[str] = tuple(MODES), limit: int = 0,
             progress: ProgressFn | None = None, session: str | None = None) -> EvalRun:
    """Every runnable question (the first `limit` when > 0, at most MAX_QUESTIONS) once per mode, over the
    libraries `session` may see (None: the shared ones); NothingToSearch when it sees none."""
    scope = service.sessions.scope(TurnRequest("评测"), session).library_ids
    ready, problems = runnable(list(questions), LibraryReads.of(service.read, scope).current())
    if len(ready) > MAX_QUESTIONS and not 0 < limit <= MAX_QUESTIONS:
        problems.append(Problem(ready[MAX_QUESTIONS][0].line, f"此后的 {len(ready) - MAX_QUESTIONS} 道题没有运行："
                                f"网页上每次最多 {MAX_QUESTIONS} 道，更多请用 python -m kb.eval"))
    ready = ready[: min(limit, MAX_QUESTIONS) if limit > 0 else MAX_QUESTIONS]
    total = max(1, len(ready) * len(modes))
    aggregates: dict[str, dict] = {}
    outcomes: dict[str, list[Outcome]] = {}
    done = 0
    with scratch_history(service) as scratch:  # the run's turns: read back for scoring, then gone
        for mode in modes:
            outcomes[mode] = []
            for q, doc_id in ready:
                if progress is not None:
                    progress((done, total), desc=f"{mode_name(mode)} · 第 {q.line} 行")
                outcomes[mode].append(run_question(mode_pipeline(scratch, mode), scratch, q, doc_id, scope))
                done += 1
            aggregates[mode] = aggregate(outcomes[mode], mode)
    return EvalRun(aggregates, outcomes, problems, len(ready))


def problems_markdown(run: EvalRun, source: str) -> str:
    """The line under the run: how many questions, from where, and what was skipped."""
    lines = [f"**{md(source)}**：{run.questions} 道题 × {len(run.aggregates)} 种模式。"]
    lines += [f"- 第 {p.line} 行跳过：{md(p.reason)}" for p in run.problems[:20]]
    if len(run.problems) > 20:
        lines.append(f"- ……另有 {len(run.problems) - 20} 行跳过")
    return "\n".join(lines)


def write_csv(frame: pd.DataFrame) -> str:
    """The frame as a UTF-8 CSV (with BOM, so spreadsheet programs read the Chinese) in a folder of its own inside
    Gradio's upload folder: Gradio serves it from there without a copy, and ui/uploaded.py can delete it.

    Cells and headers that a spreadsheet would run as a formula (a question "=HYPERLINK(…)") are written as text.
    """
    path = Path(get_upload_folder()) / secrets.token_hex(16) / "annex-eval.csv"
    path.parent.mkdir(parents=True)
    safe = frame.map(as_text).rename(columns=as_text)
    safe.to_csv(path, index=False, encoding="utf-8-sig")
    return str(path)


def as_text(value: object) -> object:
    """A string cell that starts like a formula, quoted with a leading apostrophe (OWASP's advice); others as given."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def build_eval_tab(service: Service, bundled: Path, uploads: SessionUploads) -> None:
    """Lay out the tab inside the current gr.Tab and wire its events; an uploaded question file is held in
    `uploads` (the app's, released at the unload): a visitor's questions go when their tab closes."""
    gr.Markdown(f"在当前知识库上运行评测（与 `python -m kb.eval --mode all` 相同的三种模式与评分）。默认题目："
                f"`{bundled.name}`；也可以上传同格式的 JSON-lines 题目文件。")
    with gr.Row(equal_height=True):
        upload = UploadedFile(label="题目文件（.jsonl，可不传）", file_types=[".jsonl", ".json", ".txt"], scale=3, height=150,
                         elem_id="eval-upload")
        limit = gr.Number(0, label="只跑前 N 题（0 = 全部）", precision=0, minimum=0, scale=1, elem_id="eval-limit")
        run_button = gr.Button("运行评测", variant="primary", scale=1, elem_id="eval-run")
    status = gr.Markdown(EMPTY, elem_id="eval-status")
    summary = gr.Dataframe(interactive=False, label="三种模式的汇总", elem_id="eval-summary", wrap=True, visible=False)
    figure = gr.Plot(empty_chart(), label="每种模式的各项比例", elem_id="eval-chart", visible=False)
    with gr.Row(equal_height=True, visible=False) as filters:
        mode_filter = gr.Dropdown([ALL, *((mode_name(m), m) for m in MODES)], value=ALL, label="模式", scale=1)
        kind_filter = gr.Dropdown([(ALL, ALL), *((v, k) for k, v in KIND_NAMES.items())], value=ALL, label="题型",
                                  scale=1)
        result_filter = gr.Dropdown([ALL, PASS, FAIL], value=ALL, label="结果", scale=1)
        search = gr.Textbox(label="搜索", placeholder="问题或文档里的字", scale=1, elem_id="eval-search")
        download = gr.DownloadButton("下载 CSV", value=None, scale=1, elem_id="eval-download")
    table = gr.Dataframe(interactive=False, label="逐题结果", elem_id="eval-outcomes", wrap=True, max_height=520,
                         visible=False)
    frame = gr.State(None)
    uploads.watch(upload, "hold_questions")  # kept for another run until the tab closes

    def csv(frame: pd.DataFrame, shown: str | None, request: gr.Request) -> str:
        # it may quote the visitor's library and questions: the session holds it, the one it replaces goes now
        written = write_csv(frame)
        uploads.swap(request.session_hash, shown, written)
        return written

    def run(file: str | None, n: float | None, shown: str | None, request: gr.Request,
            progress=gr.Progress()) -> tuple:
        path = Path(file) if file else bundled
        try:
            questions, problems = load_questions(path, service.settings.max_question_lines,
                                                  service.settings.max_question_bytes)
        except (OSError, UnicodeDecodeError) as exc:
            raise error(f"读不了题目文件：{exc}") from exc
        if not questions:
            raise error("题目文件里没有可用的题：每行一个 JSON 对象，含 doc、question、attachments、"
                                 "answer_contains 和 kind。")
        try:
            result = evaluate(service, questions, limit=int(n or 0), progress=progress, session=request.session_hash)
        except AnnexError as exc:  # NothingToSearch: this visitor sees no library with documents
            raise error(exc) from exc
        result.problems = sorted([*problems, *result.problems], key=lambda p: p.line)
        outcomes = outcomes_frame(result.outcomes, attachment_titles(service, result.outcomes))
        name = Path(file).name if file else bundled.name
        shown = display_frame(outcomes)
        return (problems_markdown(result, name), gr.update(value=summary_frame(result.aggregates), visible=True),
                gr.update(value=chart(result.aggregates), visible=True), gr.update(visible=True),
                gr.update(value=shown, visible=True, column_widths=column_widths(shown)), outcomes,
                gr.update(value=csv(outcomes, shown, request), visible=True), ALL, ALL, ALL, "")

    def refilter(full: pd.DataFrame | None, mode: str, kind: str, result: str, text: str, shown: str | None,
                 request: gr.Request) -> tuple:
        if full is None:
            return gr.skip(), gr.skip()
        kept = filter_frame(full, mode, kind, result, text)
        return display_frame(kept), csv(kept, shown, request)

    run_button.click(run, [upload, limit, download], [status, summary, figure, filters, table, frame, download, mode_filter,
                                            kind_filter, result_filter, search], api_name="run_eval",
                     api_visibility="private", concurrency_limit=1, concurrency_id="eval", show_progress_on=[status])
    gr.on([mode_filter.input, kind_filter.input, result_filter.input, search.submit, search.blur], refilter,
          [frame, mode_filter, kind_filter, result_filter, search, download], [table, download],
          api_name="refilter_eval", api_visibility="private",
          show_progress="hidden")


def attachment_titles(service: Service, outcomes: dict[str, list[Outcome]]) -> dict[str, str]:
    """Attachment node id (doc:label) → "附件12 事故应急池… · 《文档》", for the attachments the outcomes name."""
    keys = {key for items in outcomes.values() for o in items for key in (*o.shown, *o.prompted)}
    return {attachment_node_id(*key): name for key, name in attachment_names(service, keys).items()}
