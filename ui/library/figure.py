"""The whole library as a picture: one wheel per document (attachments around it, references as arrows), capped."""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import MappingProxyType
from typing import Sequence

import networkx as nx
import plotly.graph_objects as go

from graph.store import AttachmentInfo, DocumentSummary, attachment_node_id
from kb.model import BODY, Document
from ui.safe import clip, h

MAX_DOCUMENTS = 60  # the slider's upper bound
DEFAULT_DOCUMENTS = 12
MAX_ATTACHMENTS = 40  # per document; the rest are left out of the picture (the note says so)
MAX_ARROWS = 400  # beyond this, references are drawn as plain lines
COLUMNS = 3
# textposition by the direction from the wheel's centre, counter-clockwise from east in eighths of a turn
OUTWARD = ("middle right", "top right", "top center", "top left", "middle left", "bottom left", "bottom center",
           "bottom right")
COLOURS = MappingProxyType(
    {"document": "#1e3a8a", "attachment": "#16a34a", "dangling": "#dc2626", "reference": "#f97316"}
)


@dataclass(frozen=True)
class Selection:
    """Which documents a filter picked, and how many matched before the cap."""

    summaries: tuple[DocumentSummary, ...]
    matched: int
    total: int


def select_documents(
    summaries: Sequence[DocumentSummary], attachments: Sequence[AttachmentInfo], query: str = "", limit: int = DEFAULT_DOCUMENTS
) -> Selection:
    """Documents whose name or title, or one of whose attachments' label or title, contains the query; capped."""
    query = query.strip().lower()
    if query:
        by_attachment = {a.doc_id for a in attachments if query in f"{a.label} {a.title}".lower()}
        matched = [s for s in summaries if query in f"{s.name} {s.title}".lower() or s.id in by_attachment]
    else:
        matched = list(summaries)
    return Selection(tuple(matched[: max(1, limit)]), len(matched), len(summaries))


def library_graph(docs: Sequence[Document]) -> nx.DiGraph:
    """Document, attachment and dangling-reference nodes; `has` and `references` edges (counted)."""
    graph = nx.DiGraph()
    for doc in docs:
        graph.add_node(doc.id, kind="document", label=doc.title, doc=doc.id, order=0)
        shown = doc.attachments[:MAX_ATTACHMENTS]
        for i, a in enumerate(shown):
            graph.add_node(attachment_node_id(doc.id, a.label), kind="attachment", label=a.label, title=a.title, doc=doc.id, order=i + 1)
            graph.add_edge(doc.id, attachment_node_id(doc.id, a.label), kind="has")
        present = {a.label for a in shown}
        for r in doc.references:
            source = doc.id if r.source == BODY else attachment_node_id(doc.id, r.source)
            if source != doc.id and r.source not in present:
                continue
            if r.target is None:
                target = f"{doc.id}:missing:{r.label}"
                graph.add_node(target, kind="dangling", label=f"{r.label}✗", title="引用了不存在的附件", doc=doc.id,
                               order=len(shown) + 1)
            elif r.target in present:
                target = attachment_node_id(doc.id, r.target)
            else:
                continue
            if source == target:
                continue
            if graph.has_edge(source, target) and graph.edges[source, target]["kind"] == "references":
                graph.edges[source, target]["count"] += 1
                graph.edges[source, target]["mentions"].append(r.mention)
            else:
                graph.add_edge(source, target, kind="references", count=1, mentions=[r.mention])
    return graph


def wheel_layout(graph: nx.DiGraph, docs: Sequence[Document]) -> dict[str, tuple[float, float]]:
    """Each document at the centre of its own circle of attachments; documents in a grid, COLUMNS wide."""
    positions: dict[str, tuple[float, float]] = {}
    for k, doc in enumerate(docs):
        cx, cy = (k % COLUMNS) * 3.2, -(k // COLUMNS) * 3.2
        positions[doc.id] = (cx, cy)
        ring = sorted((n for n, d in graph.nodes(data=True) if d["doc"] == doc.id and d["kind"] != "document"),
                      key=lambda n: graph.nodes[n]["order"])
        for i, node in enumerate(ring):
            angle = math.pi / 2 - 2 * math.pi * i / max(1, len(ring))
            positions[node] = (cx + math.cos(angle), cy + math.sin(angle))
    return positions


def library_figure(docs: Sequence[Document], selection: Selection | None = None) -> go.Figure:
    """The picture of the selected documents, with a caption that says what the cap left out."""
    fig = go.Figure()
    if not docs:
        fig.update_layout(height=260, xaxis=dict(visible=False), yaxis=dict(visible=False), plot_bgcolor="white",
                          annotations=[dict(text="没有符合筛选条件的文档。", showarrow=False, xref="paper", yref="paper",
                                            x=0.5, y=0.5, font=dict(color="#64748b"))])
        return fig
    graph = library_graph(docs)
    pos = wheel_layout(graph, docs)
    has_x, has_y, ref_x, ref_y, arrows = [], [], [], [], []
    references = [(a, b, d) for a, b, d in graph.edges(data=True) if d["kind"] == "references"]
    for a, b, d in graph.edges(data=True):
        (x0, y0), (x1, y1) = pos[a], pos[b]
        if d["kind"] == "has":
            has_x += [x0, x1, None]
            has_y += [y0, y1, None]
            continue
        ref_x += [x0, x1, None]
        ref_y += [y0, y1, None]
        if len(references) <= MAX_ARROWS:
            arrows.append(dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="",
                               showarrow=True, arrowhead=2, arrowsize=1, arrowwidth=1.2, standoff=7,
                               arrowcolor=COLOURS["reference"]))
    fig.add_trace(go.Scatter(x=has_x, y=has_y, mode="lines", name="文档含附件", hoverinfo="skip",
                             line=dict(color="#cbd5e1", width=1)))
    if ref_x:
        fig.add_trace(go.Scatter(x=ref_x, y=ref_y, mode="lines", name="REFERENCES 引用", hoverinfo="skip",
                                 line=dict(color=COLOURS["reference"], width=1.3)))
    for kind, name, size, symbol in (("document", "文档", 22, "circle"), ("attachment", "附件", 13, "square"),
                                     ("dangling", "悬空引用（附件不存在）", 13, "x")):
        nodes = [(n, d) for n, d in graph.nodes(data=True) if d["kind"] == kind]
        if not nodes:
            continue
        text = ["" if kind == "document" else h(clip(d["label"], 8)) for _, d in nodes]
        hover = [h(_hover(graph, n, d)) for n, d in nodes]
        fig.add_trace(go.Scatter(
            x=[pos[n][0] for n, _ in nodes], y=[pos[n][1] for n, _ in nodes], mode="markers+text", name=name,
            text=text, textposition=[_outward(pos[n], pos[d["doc"]]) for n, d in nodes],
            textfont=dict(size=10, color=COLOURS[kind] if kind != "attachment" else "#14532d"),
            hovertext=hover, hoverinfo="text", marker=dict(size=size, color=COLOURS[kind], symbol=symbol,
                                                           line=dict(width=1, color="white")),
        ))
    rows = math.ceil(len(docs) / COLUMNS)
    caption = _caption(docs, selection)
    titles = [dict(x=pos[d.id][0], y=pos[d.id][1] - 1.3, text=f"<b>{h(clip(d.title, 18))}</b>", showarrow=False,
                   font=dict(size=12, color=COLOURS["document"]), xref="x", yref="y") for d in docs]
    fig.update_layout(
        annotations=arrows + titles + [dict(text=h(caption), showarrow=False, xref="paper", yref="paper", x=0, y=1.0,
                                   xanchor="left", yanchor="bottom", font=dict(size=12, color="#475569"))],
        height=min(2400, 120 + 330 * rows), margin=dict(l=10, r=10, t=34, b=10), plot_bgcolor="white",
        paper_bgcolor="white", hovermode="closest", legend=dict(orientation="h", y=-0.02, yanchor="top"),
        xaxis=dict(visible=False, range=[-1.6, (min(len(docs), COLUMNS) - 1) * 3.2 + 1.6]),
        yaxis=dict(visible=False, scaleanchor="x", range=[-(rows - 1) * 3.2 - 1.55, 1.3]),
    )
    return fig


def _outward(node: tuple[float, float], centre: tuple[float, float]) -> str:
    """The label's side away from its wheel's centre (one of plotly's eight), so that neighbours on the ring spread
    apart along it and no label sits on its own spoke or the next one's."""
    dx, dy = node[0] - centre[0], node[1] - centre[1]
    if abs(dx) < 1e-9 and abs(dy) < 1e-9:
        return "top center"
    octant = round(math.atan2(dy, dx) / (math.pi / 4)) % 8
    return OUTWARD[octant]


def _hover(graph: nx.DiGraph, node: str, data: dict) -> str:
    if data["kind"] == "document":
        return f"{data['label']}（{sum(1 for _ in graph.successors(node))} 个附件/引用）"
    incoming = [m for _, _, d in graph.in_edges(node, data=True) if d["kind"] == "references" for m in d["mentions"]]
    cited = f" · 被引用：{'、'.join(dict.fromkeys(incoming))}" if incoming else ""
    return f"{data['label']} {data.get('title', '')}{cited}"


def _caption(docs: Sequence[Document], selection: Selection | None) -> str:
    clipped = sum(1 for d in docs if len(d.attachments) > MAX_ATTACHMENTS)
    text = f"显示 {len(docs)} 个文档"
    if selection is not None:
        text += f"（筛选命中 {selection.matched} / 共 {selection.total}）"
        if selection.matched > len(docs):
            text += "，已截断：用筛选或调大上限查看其余文档"
    if clipped:
        text += f"；{clipped} 个文档只画了前 {MAX_ATTACHMENTS} 个附件"
    return text
