"""Which paths picture a turn gets: capped, complete (one click away), or none under a declined answer."""
from __future__ import annotations

from typing import Mapping

import plotly.graph_objects as go

from ui.chat.turn_view import TurnView
from ui.chat.decline import PATHS_NOTE, declined
from ui.chat.paths_cap import cap_paths
from ui.chat.paths_figure import note_figure, paths_figure

SHOW_ALL = "显示全部路径"


def turn_paths_figure(view: TurnView, titles: Mapping[str, str], show_all: bool = False) -> go.Figure:
    """The turn's paths: the capped picture by default; all of them (faded for a declined answer) on request."""
    paths = view.graph_paths
    if declined(view.answer):
        if not show_all or not paths:
            return note_figure(PATHS_NOTE if paths else "回答没有在知识库中找到答案，本轮也没有图谱路径。")
        return paths_figure(paths, titles, dim=True, note="回答没有用到这些路径（全部为淡色）")
    capped = cap_paths(paths)
    if show_all or not capped.capped:
        return paths_figure(paths, titles)
    used = _used(paths)
    drawn = f"回答用到的 {used} 个附件和另外 {capped.shown - used} 个" if used else f"前 {capped.shown} 个附件"
    note = f"只画出{drawn}（共 {capped.total} 个）；点“{SHOW_ALL}”看全部"
    return paths_figure(capped.paths, titles, note=note)


def _used(paths) -> int:
    return len({p["steps"][-1]["id"] for p in paths if p["stage"] == "post_hop"})
