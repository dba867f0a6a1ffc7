"""The graph paths of one turn as a plotly figure: retrieved chunks → REFERENCES → attachments, left to right."""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, Sequence

import networkx as nx
import plotly.graph_objects as go
import rjieba

from ui.chat.paths_labels import (BOLD, REF_WIDTH, Frame, LabelSpec, legend_px, place_mentions, place_nodes,
                                  share_margins, text_px, unique_mentions, wrap_px)
from ui.safe import clip, h

# kind → (legend name, colour, marker symbol)
KINDS = MappingProxyType({
    "chunk": ("检索命中的片段", "#64748b", "circle"),
    "answer": ("回答的“相关附件”", "#7c3aed", "diamond"),
    "hit": ("检索直接命中的附件", "#0ea5e9", "square"),
    "hop": ("经引用跳转到的附件", "#f97316", "square"),
    "question": ("问题点名的附件号", "#16a34a", "star"),
})
# stage → (edge colour, dash, edge name)
STAGES = MappingProxyType({
    "search": ("#94a3b8", "dot", "片段属于附件"),
    "prefetch": ("#f97316", "solid", "REFERENCES（回答前预取）"),
    "post_hop": ("#7c3aed", "dash", "回答后跳转"),
    "question": ("#16a34a", "dash", "问题点名（回答前）"),
})
LABEL_CHARS = 16  # a label longer than this is cut even where there is room: the hover holds it whole
DOC_CHARS = 6  # a node of another document is tagged with this much of what tells its title from the main one's
FADED = 0.3  # opacity of what the answer did not use
FONT_PX = 11  # node label font size
NOTE_PX = 12  # the note's font size; it wraps at the phone's panel width less a 6 px inset each side
EMPTY_PX = 13  # the font size of a picture that only says why there is nothing to draw
NOTE_LINE_PX = 18  # px the top margin grows by for each line of the note
NOTE_SHIFT = 6  # px between the plot area's top and the note's last line
ROW_PX = 48  # px of plot height per node of the tallest layer, at a phone's width
PLOT_MIN_PX, PLOT_MAX_PX = 130, 420  # the plot area's height, whatever the number of nodes
BOTTOM_PX = 6  # px below the legend


def path_graph(paths: Sequence[Mapping]) -> nx.DiGraph:
    """Nodes (kind, label, doc) and edges (stage, mention) of the paths, each node on its longest-path layer.

    An attachment is a "hop" when a REFERENCES edge led to it before the answer, else a "hit" when search found
    one of its chunks; one that only the answer's 相关附件 section named is a "hop" too (resolved after the answer).
    """
    graph = nx.DiGraph()
    reached: dict[str, set[str]] = {}
    for path in paths:
        steps = path["steps"]
        for i, step in enumerate(steps):
            graph.add_node(step["id"], kind=step["kind"], label=step["label"], doc_id=step.get("doc_id", ""))
            if i:
                reached.setdefault(step["id"], set()).add(path["stage"])
                previous = steps[i - 1]["id"]
                if not graph.has_edge(previous, step["id"]) or path["stage"] == "prefetch":
                    graph.add_edge(previous, step["id"], stage=path["stage"], mention=step.get("mention", ""))
    for node, stages in reached.items():
        if graph.nodes[node]["kind"] == "attachment":
            graph.nodes[node]["kind"] = "hit" if stages & {"search", "question"} and "prefetch" not in stages else "hop"
    layers: dict[str, int] = {}
    for node in _topological(graph):
        preds = [layers[p] for p in graph.predecessors(node) if p in layers]
        layers[node] = max(preds) + 1 if preds else 0
    for node, layer in layers.items():
        graph.nodes[node]["layer"] = layer
    return graph


def layered_positions(graph: nx.DiGraph) -> dict[str, tuple[float, float]]:
    """x = layer; within a layer, nodes ordered by the mean position of their neighbours (fewer crossings)."""
    layers: dict[int, list[str]] = {}
    for node, data in graph.nodes(data=True):
        layers.setdefault(data["layer"], []).append(node)
    order = {node: i for nodes in layers.values() for i, node in enumerate(nodes)}

    def barycentre(node: str, neighbours) -> float:
        near = [order[n] for n in neighbours(node) if n in order]
        return sum(near) / len(near) if near else order[node]

    for _ in range(2):
        for layer in sorted(layers)[1:]:
            layers[layer].sort(key=lambda n: barycentre(n, graph.predecessors))
            order.update({n: i for i, n in enumerate(layers[layer])})
        if 0 in layers:
            layers[0].sort(key=lambda n: (graph.nodes[n]["kind"] == "answer", barycentre(n, graph.successors)))
            order.update({n: i for i, n in enumerate(layers[0])})
    tallest = max(len(nodes) for nodes in layers.values())
    span = (tallest - 1) / 2  # a shorter layer spread in equal bands over the tallest one: its labels get room
    return {
        node: (float(layer), (span - i if len(nodes) == tallest else span + 0.5 - (i + 0.5) * (2 * span + 1) / len(nodes))
               if len(nodes) > 1 else 0.0)
        for layer, nodes in layers.items() for i, node in enumerate(nodes)
    }


def focus(paths: Sequence[Mapping]) -> tuple[set[str], set[tuple[str, str]]]:
    """Nodes and edges of the paths that end at an attachment the answer used (all of them if it named none)."""
    used = {p["steps"][-1]["id"] for p in paths if p["stage"] == "post_hop"}
    chosen = [p for p in paths if not used or p["steps"][-1]["id"] in used]
    nodes = {s["id"] for p in chosen for s in p["steps"]}
    edges = {(a["id"], b["id"]) for p in chosen for a, b in zip(p["steps"], p["steps"][1:])}
    return nodes, edges


def paths_figure(paths: Sequence[Mapping], titles: Mapping[str, str] | None = None, dim: bool = False,
                 note: str = "") -> go.Figure:
    """A left-to-right picture of the paths; nodes coloured by kind, the answer's own paths in full colour.

    `dim` fades every path (the answer used none of them); `note` is a line above the picture.
    """
    titles = titles or {}
    if not paths:
        return _empty("本轮没有图谱路径：检索没有命中附件，也没有引用指向附件。")
    graph = path_graph(paths)
    positions = layered_positions(graph)
    lit_nodes, lit_edges = (set(), set()) if dim else focus(paths)
    last = max(d["layer"] for _, d in graph.nodes(data=True))
    tallest = max(sum(1 for _, d in graph.nodes(data=True) if d["layer"] == layer) for layer in range(last + 1))
    main_doc = _main_document(graph, lit_nodes)
    texts = {n: _label_texts(d, titles, main_doc) for n, d in graph.nodes(data=True)}
    left, right = _margins(graph, texts, lit_nodes, last)
    lines = _wrap(note).count("<br>") + 1 if note else 0
    top = 16 + NOTE_LINE_PX * lines
    x_range, y_range = (-0.08, last + 0.08), (-(tallest - 1) / 2 - 0.6, (tallest - 1) / 2 + 0.6)
    legend_items = len({d["kind"] for _, d in graph.nodes(data=True)}) + len({d["stage"] for *_, d in graph.edges(data=True)})
    plot_height = max(PLOT_MIN_PX, min(PLOT_MAX_PX, ROW_PX * tallest + 20))  # the legend's rows come on top of it
    height = top + plot_height + BOTTOM_PX + legend_px(legend_items)
    frame = Frame(left, right, x_range, y_range, plot_height,
                  above=top - (NOTE_SHIFT + NOTE_LINE_PX * lines if note else 0))
    labels, taken = place_nodes(frame, _label_order(graph, positions, texts, lit_nodes, last))
    fig = go.Figure()
    annotations, mentions = [], {}
    for stage, (colour, dash, name) in STAGES.items():
        for lit in (False, True):
            xs, ys = [], []
            for a, b, data in graph.edges(data=True):
                if data["stage"] != stage or ((a, b) in lit_edges) != lit:
                    continue
                (x0, y0), (x1, y1) = positions[a], positions[b]
                xs += [x0, x1, None]
                ys += [y0, y1, None]
                annotations.append(dict(x=x1, y=y1, ax=x0, ay=y0, xref="x", yref="y", axref="x", ayref="y", text="",
                                        showarrow=True, arrowhead=3, arrowsize=1.1, arrowwidth=1.6 if lit else 1,
                                        arrowcolor=colour, opacity=1 if lit else FADED, standoff=10, startstandoff=7))
                if lit and data["mention"] and stage == "prefetch":
                    mentions[(a, b)] = clip(data["mention"], 10)
            if xs:
                fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", name=name, hoverinfo="skip", showlegend=lit,
                                         legendgroup=stage, opacity=1 if lit else FADED,
                                         line=dict(color=colour, width=2 if lit else 1, dash=dash)))
    edges = [(*positions[a], *positions[b], text) for (a, b), text in unique_mentions(mentions).items()]
    reached_by: dict[str, list[str]] = {}  # every mention stays in its attachment's hover text, drawn or not
    for (_, b), text in mentions.items():
        reached_by.setdefault(b, []).append(text)
    for x, y, text in place_mentions(frame, edges, taken):
        annotations.append(dict(x=x, y=y, text=h(text), showarrow=False, font=dict(size=10, color=STAGES["prefetch"][0]),
                                bgcolor="rgba(255,255,255,0.9)"))
    for kind, (name, colour, symbol) in KINDS.items():
        nodes = [(n, d) for n, d in graph.nodes(data=True) if d["kind"] == kind]
        if not nodes:
            continue
        fig.add_trace(go.Scatter(
            x=[positions[n][0] for n, _ in nodes], y=[positions[n][1] for n, _ in nodes], mode="markers+text",
            name=name, text=[_bold("<br>".join(h(line) for line in labels[n][0].split("\n")), n in lit_nodes)
                             for n, _ in nodes],
            textposition=[labels[n][1] for n, _ in nodes],
            hovertext=[h(f"{titles.get(d['doc_id'], '')} · {d['label']}".strip(" ·")
                         + "".join(f"（经“{m}”）" for m in dict.fromkeys(reached_by.get(n, ())))) for n, d in nodes],
            hoverinfo="text", cliponaxis=False,  # outer labels draw into the margins sized for them
            textfont=dict(size=FONT_PX, color=["#0f172a" if n in lit_nodes else "#94a3b8" for n, _ in nodes]),
            marker=dict(size=15 if kind != "chunk" else 11, color=colour, symbol=symbol,
                        opacity=[1 if n in lit_nodes else FADED for n, _ in nodes], line=dict(width=1, color="white")),
        ))
    fig.update_layout(
        annotations=annotations, height=height,
        margin=dict(l=left, r=right, t=top, b=BOTTOM_PX), plot_bgcolor="white", paper_bgcolor="white", hovermode="closest",
        legend=dict(orientation="h", yanchor="top", y=0, x=0, font=dict(size=11), maxheight=1),  # never a scrollbar
        xaxis=dict(visible=False, range=list(x_range), fixedrange=True),
        yaxis=dict(visible=False, range=list(y_range), fixedrange=True),
    )
    if note:  # wrapped, and shifted from the plot's left edge to the figure's, so it is whole at a phone's width
        fig.add_annotation(text=_wrap(note), x=0, y=1, xref="paper", yref="paper", xanchor="left", yanchor="bottom",
                           xshift=-(left - 6), yshift=NOTE_SHIFT, align="left", showarrow=False,
                           font=dict(size=12, color="#64748b"))
    return fig


def _label_order(graph: nx.DiGraph, positions: Mapping, texts: Mapping[str, tuple[str, ...]], lit: set[str],
                 last: int) -> list[LabelSpec]:
    """The labels to place, the answer's own nodes first: outer layers at their fixed side, middle ones free."""
    rows = []
    for node, data in graph.nodes(data=True):
        fixed = "" if 0 < data["layer"] < last else _text_position(data["layer"], last)
        spec = LabelSpec(node, *positions[node], texts[node], fixed, node in lit)
        rows.append(((node not in lit, not fixed), spec))
    return [spec for _, spec in sorted(rows, key=lambda r: r[0])]


def _margins(graph: nx.DiGraph, texts: Mapping[str, tuple[str, ...]], lit: set[str], last: int) -> tuple[int, int]:
    """Left and right margins (px) for the first layer's labels (drawn left) and the last's (drawn right), sharing
    the phone's width with the plot area (`share_margins`)."""
    def widths(layer: int) -> tuple[int, int]:
        nodes = [n for n, d in graph.nodes(data=True) if d["layer"] == layer]
        drawn = lambda n, t: int(text_px(t) * (BOLD if n in lit else 1))  # noqa: E731
        return (max((drawn(n, texts[n][0]) for n in nodes), default=0),
                max((drawn(n, texts[n][-1]) for n in nodes), default=0))

    if last == 0:
        return share_margins((0, 0), widths(0), 1)
    return share_margins(widths(0), widths(last), last)


def _wrap(text: str, size: int = NOTE_PX) -> str:
    """Escaped text in lines that fit the phone's panel, broken at punctuation where one is near."""
    return "<br>".join(h(line) for line in wrap_px(text, REF_WIDTH - 24, size))


def _text_position(layer: int, last: int) -> str:
    if layer == 0 and last > 0:
        return "middle left"
    return "middle right" if layer == last else "top center"


def _label_texts(node: Mapping, titles: Mapping[str, str], main_doc: str) -> tuple[str, ...]:
    """The node's label from whole to shortest: its title cut a character at a time down to its number (附件10),
    each length on one line and then on two (the number above the title), narrower where a column has the height.

    Nodes of a document other than the answer's main one carry a tag of that document (`_doc_tag`) in each.
    The hover text keeps the whole label and document title.
    """
    label = " ".join(node["label"].split())
    tag = ""
    if node["doc_id"] and node["doc_id"] != main_doc and node["kind"] != "answer":
        tag = _doc_tag(titles.get(node["doc_id"], ""), titles.get(main_doc, ""))
    head = lambda text: f"{tag}·{text}" if tag else text  # noqa: E731
    number, _, title = label.partition(" ")
    if node["kind"] in ("chunk", "answer") or not title:  # a chunk's label (附件8 片段1) is short: whole or nothing
        return (head(label),) if len(label) <= LABEL_CHARS or node["kind"] != "attachment" else \
            tuple(head(label[:n] + "…") for n in range(LABEL_CHARS - 1, 3, -1))
    cuts = []
    for n in range(min(len(title), LABEL_CHARS - len(number) - 1), 0, -1):
        shown = title if n == len(title) else title[:n] + "…"
        cuts += [head(f"{number} {shown}"), f"{head(number)}\n{shown}"]
    return tuple(dict.fromkeys([*cuts, head(number)]))


def _doc_tag(title: str, main_title: str) -> str:
    """What tells a document's title from the main one's: its words past those the two share at either end.

    Template twins (西岭街道防汛应急预案 beside 东岭街道防汛应急预案) are told apart by 西岭; an unrelated plan keeps
    the head of its own words (绿洲化工园… beside 滨江物流园…应急预案).
    """
    words, main = rjieba.cut(title), rjieba.cut(main_title)
    head = 0
    while head < min(len(words), len(main)) and words[head] == main[head]:
        head += 1
    tail = 0
    while tail < min(len(words), len(main)) - head and words[-1 - tail] == main[-1 - tail]:
        tail += 1
    return clip("".join(words[head:len(words) - tail]) or title, DOC_CHARS)


def _bold(text: str, lit: bool) -> str:
    return f"<b>{text}</b>" if lit and text else text


def _main_document(graph: nx.DiGraph, lit_nodes: set[str]) -> str:
    """The document most of the highlighted nodes belong to."""
    counts: dict[str, int] = {}
    for node, data in graph.nodes(data=True):
        if data["doc_id"]:
            counts[data["doc_id"]] = counts.get(data["doc_id"], 0) + (3 if node in lit_nodes else 1)
    return max(counts, key=counts.get) if counts else ""


def _topological(graph: nx.DiGraph) -> list[str]:
    """Nodes in dependency order; a reference cycle (附件A ↔ 附件B) is broken by dropping its back edges."""
    try:
        return list(nx.topological_sort(graph))
    except nx.NetworkXUnfeasible:
        acyclic = nx.DiGraph(graph)
        while True:
            try:
                cycle = nx.find_cycle(acyclic)
            except nx.NetworkXNoCycle:
                return list(nx.topological_sort(acyclic))
            acyclic.remove_edge(*cycle[-1][:2])


def _empty(message: str) -> go.Figure:
    fig = go.Figure()
    fig.update_layout(
        height=200, margin=dict(l=10, r=10, t=10, b=10), plot_bgcolor="white", paper_bgcolor="white",
        xaxis=dict(visible=False), yaxis=dict(visible=False),
        annotations=[dict(text=_wrap(message, EMPTY_PX), showarrow=False, x=0.5, y=0.5, xref="paper", yref="paper",
                          font=dict(size=EMPTY_PX, color="#64748b"))],
    )
    return fig


def note_figure(message: str) -> go.Figure:
    """An empty picture that says why there is nothing to draw."""
    return _empty(message)


def placeholder() -> go.Figure:
    """The picture before the first question."""
    return _empty("提问后，这里画出从检索片段经 REFERENCES 边到附件的路径。")
