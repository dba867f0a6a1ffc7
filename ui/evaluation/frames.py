"""The evaluation tab's tables and chart, as pure functions of kb.eval's aggregates and outcomes (pandas, plotly).

The aggregate's keys are iterated, not listed, so a figure kb.eval adds (e.g. reached the prompt) shows up here.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from kb.eval.metrics import Outcome

# Readable names for the figures kb.eval reports today; any other key is shown by its own name.
METRIC_NAMES = {
    "attachment_recall": "附件召回率",
    "attachment_precision": "附件精确率",
    "answer_contains": "答案字符串已展示",
    "unanswerable_ok": "无答案题正确拒答",
    "reached_prompt": "附件进入回答材料",
    "questions": "题数",
    "p50_ms": "用时中位数（毫秒）",
    "p95_ms": "95% 的题用时不超过（毫秒）",
}
MODE_NAMES = {"graph": "annex-rag 图谱模式", "naive": "朴素向量 RAG", "keyword": "FastGPT 式关键词工作流"}  # as 对比 says
# The per-question table: kb.eval's field → its column on the page and in the CSV (others keep their own name).
COLUMN_NAMES = {
    "line": "行", "kind": "题型", "doc": "文档", "question": "问题", "history": "先问的题", "ms": "用时（毫秒）", "expected": "期望附件",
    "found": "找到", "missing": "漏掉", "reached_prompt": "进入回答材料", "other_docs_attachments": "别的文件的附件数",
    "shown": "展示的附件", "prompted": "回答材料里的附件", "answer_contains_ok": "答案字符串已展示",
    "absent": "没展示的答案字符串", "unanswerable_ok": "正确拒答", "answer": "回答",
}
_NOT_FRACTIONS = {"questions", "mode", "by_kind"}
ALL = "全部"
PASS, FAIL = "通过", "未通过"
KIND_NAMES = {"attachment": "附件题", "body": "正文题", "unanswerable": "无答案题"}


def metric_name(key: str) -> str:
    return METRIC_NAMES.get(key, key.replace("_", " "))


def mode_name(mode: str) -> str:
    return MODE_NAMES.get(mode, mode)


def fraction_keys(aggregates: Mapping[str, Mapping]) -> list[str]:
    """The aggregate keys that are fractions in [0, 1] (or None), in kb.eval's order, across every mode."""
    keys: dict[str, None] = {}
    for result in aggregates.values():
        for key, value in result.items():
            if key in _NOT_FRACTIONS or key.endswith("_ms"):
                continue
            if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1):
                keys.setdefault(key, None)
    return list(keys)


def summary_frame(aggregates: Mapping[str, Mapping]) -> pd.DataFrame:
    """One row per mode, one column per scalar figure of the aggregate."""
    rows = []
    for mode, result in aggregates.items():
        row = {"模式": mode_name(mode)}
        for key, value in result.items():
            if key in ("mode", "by_kind") or isinstance(value, (dict, list)):
                continue
            row[metric_name(key)] = value
        rows.append(row)
    return pd.DataFrame(rows)


def chart(aggregates: Mapping[str, Mapping]) -> go.Figure:
    """Horizontal grouped bars: one row per fraction figure, one bar per mode; readable at a phone's width too."""
    fig = go.Figure()
    keys = fraction_keys(aggregates)
    colours = {"graph": "#4f46e5", "naive": "#94a3b8", "keyword": "#f97316"}
    for mode, result in aggregates.items():  # on the reversed axis the first mode's bar is each group's top one
        values = [result.get(k) for k in keys]
        fig.add_trace(go.Bar(
            name=mode_name(mode), orientation="h", y=[metric_name(k) for k in keys],
            x=[v if v is not None else 0 for v in values], text=["—" if v is None else f"{v:.2f}" for v in values],
            textposition="outside", cliponaxis=False, marker_color=colours.get(mode),
        ))
    fig.update_layout(barmode="group", height=120 + 90 * len(keys), margin=dict(l=10, r=40, t=44, b=10),
                      xaxis=dict(range=[0, 1.15], fixedrange=True), yaxis=dict(autorange="reversed", fixedrange=True),
                      plot_bgcolor="white", paper_bgcolor="white", bargap=0.25,
                      legend=dict(orientation="h", x=0, xanchor="left", y=-0.04, yanchor="top"))
    return fig


def empty_chart() -> go.Figure:
    """The chart before a run: a line that says what will be here."""
    fig = go.Figure()
    fig.update_layout(height=120, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white", paper_bgcolor="white",
                      xaxis=dict(visible=False), yaxis=dict(visible=False),
                      annotations=[dict(text="运行评测后，这里按模式画出各项比例。", showarrow=False, x=0.5, y=0.5,
                                        xref="paper", yref="paper", font=dict(size=13, color="#64748b"))])
    return fig


def passed(row: Mapping) -> bool:
    """Whether one outcome (Outcome.to_dict()) did what its kind asks."""
    if row["kind"] == "unanswerable":
        return bool(row.get("unanswerable_ok"))
    if row["kind"] == "attachment" and row.get("missing"):
        return False
    return bool(row.get("answer_contains_ok"))


def outcomes_frame(outcomes: Mapping[str, Sequence[Outcome]], names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """One row per mode and question, with Chinese headers: 模式, 结果 (pass/fail), then every field of
    Outcome.to_dict() with lists joined; `names` turns an attachment node id into its title."""
    names = names or {}
    rows = []
    for mode, items in outcomes.items():
        for outcome in items:
            data = outcome.to_dict()
            row = {"模式": mode_name(mode), "结果": PASS if passed(data) else FAIL}
            for key, value in data.items():
                if key == "kind":
                    value = KIND_NAMES.get(value, value)
                elif isinstance(value, (list, tuple)):
                    value = "、".join(names.get(str(v), str(v)) for v in value)
                elif isinstance(value, bool):
                    value = "是" if value else "否"
                row[COLUMN_NAMES.get(key, key)] = value
            rows.append(row)
    return pd.DataFrame(rows)


HIDDEN = tuple(COLUMN_NAMES[k] for k in ("shown", "prompted", "answer", "reached_prompt", "other_docs_attachments"))
# Widths of the page's columns, by header; a column not named gets the rest of the width.
WIDTHS = {"模式": "170px", "结果": "64px", "行": "44px", "题型": "72px", "文档": "180px", "问题": "300px", "先问的题": "160px",
          "用时（毫秒）": "80px", "期望附件": "110px", "找到": "110px", "漏掉": "90px", "答案字符串已展示": "90px",
          "没展示的答案字符串": "150px", "正确拒答": "72px"}


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The outcomes as the page shows them: without the long columns the CSV keeps."""
    return frame.drop(columns=[c for c in HIDDEN if c in frame.columns])


def column_widths(frame: pd.DataFrame) -> list[str]:
    """A width per shown column (gr.Dataframe's column_widths)."""
    return [WIDTHS.get(c, "120px") for c in frame.columns]


def filter_frame(frame: pd.DataFrame, mode: str = ALL, kind: str = ALL, result: str = ALL,
                 text: str = "") -> pd.DataFrame:
    """The rows of one mode / kind / result (ALL: any) whose question or document contains `text`."""
    if frame.empty:
        return frame
    keep = pd.Series(True, index=frame.index)
    if mode not in (None, "", ALL):
        keep &= frame["模式"] == mode_name(mode)
    if kind not in (None, "", ALL):
        keep &= frame["题型"] == KIND_NAMES.get(kind, kind)
    if result not in (None, "", ALL):
        keep &= frame["结果"] == result
    if text and text.strip():
        needle = text.strip()
        keep &= frame["问题"].astype(str).str.contains(needle, regex=False) | \
            frame["文档"].astype(str).str.contains(needle, regex=False)
    return frame[keep].reset_index(drop=True)
