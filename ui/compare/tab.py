"""The compare (对比) tab: one question, three columns — plain vector RAG, the FastGPT workflow, graph mode."""
from __future__ import annotations

from typing import Sequence

import gradio as gr

from kb.errors import AnnexError
from kb.eval.metrics import Question
from kb.service import Service
from kb.turn import TurnRequest
from ui.compare.run import MODE_TITLES, ORDER, OWNER, column_markdown, compare, summary_markdown
from ui.safe import error

# Questions whose attachment only the graph brings (kb.eval on data/questions.jsonl), then the chat's examples.
GRAPH_WINS = (
    "西岭街道需要区级部门和有关单位支援时打哪些电话？",  # 附件9: the keyword workflow fetches the twin plan's 附件9, plain RAG none
    "滨江物流园驾驶员、押运员发生事故后的先期处置怎么做？",  # 附件4, a pre-split file reached through the body's 按附件4执行
    "园区周边的环境敏感目标有哪些？",  # 附件6, reached through the body's 列于附件6
)
INTRO = ("同一个问题，依次交给评测（`python -m kb.eval`）里的三种模式：朴素向量 RAG、FastGPT 式关键词工作流、"
         "annex-rag 图谱模式。每一栏先给出判定（答对 / 漏掉 / 找错），再给出回答、附件、引用和用时。")


def build_compare_tab(service: Service, examples: Sequence[str], questions: Sequence[Question]) -> None:
    """Lay out the tab inside the current gr.Tab and wire its events."""
    gr.Markdown(INTRO)
    with gr.Row(equal_height=True):
        question = gr.Textbox(label="问题", placeholder="输入问题，三种模式各答一次", show_label=False, scale=8, max_lines=3,
                              elem_id="compare-question")
        ask = gr.Button("对比", variant="primary", scale=1, min_width=80)
    with gr.Row(elem_id="compare-examples"):
        buttons = [gr.Button(q, size="sm", variant="secondary") for q in dict.fromkeys([*GRAPH_WINS, *examples])]
    summary = gr.Markdown(elem_id="compare-summary")
    columns = []
    with gr.Row(equal_height=False, elem_id="compare-columns"):
        for mode in ORDER:
            with gr.Column(min_width=280, elem_classes=["compare-column"]):
                columns.append(gr.Markdown(f"### {MODE_TITLES[mode]}\n\n提问后显示这一模式的回答。",
                                           elem_id=f"compare-{mode}"))

    def run(text: str, request: gr.Request) -> tuple:
        try:
            scoped = service.sessions.scope(TurnRequest(text or "", owner=OWNER), request.session_hash)
            comparison = compare(service, scoped, questions)
        except AnnexError as exc:
            raise error(exc) from exc
        by_mode = {r.mode: r for r in comparison.results}
        return (summary_markdown(comparison), *(column_markdown(comparison, by_mode[m]) for m in ORDER))

    outputs = [summary, *columns]
    gr.on([question.submit, ask.click], run, question, outputs, api_visibility="private",
          concurrency_limit=2, concurrency_id="compare")
    for button in buttons:
        button.click(lambda q=button.value: q, None, question, api_visibility="private").then(
            run, question, outputs, api_visibility="private", concurrency_limit=2, concurrency_id="compare")
