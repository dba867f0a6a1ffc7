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
    "questions": "题数",
    "p50_ms": "p50 ms",
    "p95_ms": "p95 ms",
}
_NOT_FRACTIONS = {"questions", "mode", "by_kind"}
ALL = "全部"
PASS, FAIL = "通过", "未通过"
KIND_NAMES = {"attachment": "附件题", "body": "正文题", "unanswerable": "无答案题"}


def metric_name(key: str) -> str:
    return METRIC_NAMES.get(key, key.replace("_", " "))


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
        row = {"模式": mode}
        for key, value in result.items():
            if key in ("mode", "by_kind") or isinstance(value, (dict, list)):
                continue
            row[metric_name(key)] = value
        rows.append(row)
    return pd.DataFrame(rows)


def chart(aggregates: Mapping[str, Mapping]) -> go.Figure:
    """Grouped bars: each fraction figure per mode."""
    fig = go.Figure()
    keys = fraction_keys(aggregates)
    colours = {"graph": "#4f46e5", "naive": "#94a3b8", "keyword": "#f97316"}
    for mode, result in aggregates.items():
        values = [result.get(k) for k in keys]
        fig.add_trace(go.Bar(
            name=mode, x=[metric_name(k) for k in keys], y=[v if v is not None else 0 for v in values],
            text=["—" if v is None else f"{v:.2f}" for v in values], textposition="outside",
            marker_color=colours.get(mode),
        ))
    fig.update_layout(barmode="group", height=380, margin=dict(l=10, r=10, t=50, b=10), yaxis=dict(range=[0, 1.12]),
                      plot_bgcolor="white", paper_bgcolor="white",  # the legend clear of the panel's label
                      legend=dict(orientation="h", x=1, xanchor="right", y=1.02, yanchor="bottom"))
    return fig


def passed(row: Mapping) -> bool:
    """Whether one outcome (Outcome.to_dict()) did what its kind asks."""
    if row["kind"] == "unanswerable":
        return bool(row.get("unanswerable_ok"))
    if row["kind"] == "attachment" and row.get("missing"):
        return False
    return bool(row.get("answer_contains_ok"))


def outcomes_frame(outcomes: Mapping[str, Sequence[Outcome]]) -> pd.DataFrame:
    """One row per mode and question: every field of Outcome.to_dict(), lists joined, plus 结果 (pass/fail)."""
    rows = []
    for mode, items in outcomes.items():
        for outcome in items:
            data = outcome.to_dict()
            row = {"模式": mode, "结果": PASS if passed(data) else FAIL}
            for key, value in data.items():
                row[key] = "、".join(map(str, value)) if isinstance(value, (list, tuple)) else value
            rows.append(row)
    return pd.DataFrame(rows)


HIDDEN = ("shown", "answer")  # long columns: in the CSV, not in the table on the page


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The outcomes as the page shows them: without the long columns the CSV keeps."""
    return frame.drop(columns=[c for c in HIDDEN if c in frame.columns])


def filter_frame(frame: pd.DataFrame, mode: str = ALL, kind: str = ALL, result: str = ALL) -> pd.DataFrame:
    """The rows of one mode / kind / result (ALL: any)."""
    if frame.empty:
        return frame
    keep = pd.Series(True, index=frame.index)
    if mode not in (None, "", ALL):
        keep &= frame["模式"] == mode
    if kind not in (None, "", ALL):
        keep &= frame["kind"] == kind
    if result not in (None, "", ALL):
        keep &= frame["结果"] == result
    return frame[keep].reset_index(drop=True)
