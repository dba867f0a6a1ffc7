"""The graph-paths labels laid out in pixels at a phone's width: whole, apart, shortened or left to the hover."""
from __future__ import annotations

import html
import re

import pytest

from ui.chat.paths_figure import paths_figure
from ui.chat.paths_labels import (LABEL_H, REF_WIDTH, STEP_PX, Box, Frame, LabelSpec, legend_px, marker_box, node_box,
                                  place_mentions, place_nodes, share_margins, text_px, unique_mentions, wrap_px)


def test_middle_labels_move_or_shorten_so_none_covers_another_and_outer_labels_keep_their_side():
    frame = Frame(left=80, right=120, x_range=(-0.08, 2.08), y_range=(-1.6, 1.6), height=200)
    nodes = [LabelSpec("a", 0.0, 0.0, ("正文 片段2",), "middle left"),
             LabelSpec("z", 2.0, 0.0, ("附件3 应急联系人通讯录", "附件3"), "middle right"),
             LabelSpec("m1", 1.0, 0.2, ("附件4 驾驶员押运员现场处置", "附件4"), ""),
             LabelSpec("m2", 1.0, -0.2, ("附件1 应急组织机构及职责", "附件1"), "")]
    placed, boxes = place_nodes(frame, nodes)
    assert placed["a"] == ("正文 片段2", "middle left") and placed["z"][1] == "middle right"
    drawn = [node_box(frame, s.x, s.y, *placed[s.node]) for s in nodes if placed[s.node][0]]
    assert not [(i, j) for i in range(len(drawn)) for j in range(i + 1, len(drawn)) if drawn[i].hits(drawn[j])]
    assert all(0 <= b.x0 and b.x1 <= REF_WIDTH for b, s in zip(drawn, nodes) if placed[s.node][1].endswith("center"))
    assert placed["m1"][0] and placed["m2"][0]  # both middle nodes keep a label (whole or 附件N)


def test_a_mention_goes_where_it_fits_and_each_target_gets_one():
    assert unique_mentions({("a", "t"): "见附件3", ("b", "t"): "见附件3", ("c", "u"): "见附件3"}) == {
        ("a", "t"): "见附件3", ("c", "u"): "见附件3"}
    frame = Frame(left=10, right=10, x_range=(0, 1), y_range=(-1, 1), height=200)
    label = node_box(frame, 0.5, 0.05, "挡路的标签", "bottom center")  # sits on the edge's midpoint
    taken = [label]
    [(x, y, text)] = place_mentions(frame, [(0.0, 0.0, 1.0, 0.0, "见附件12")], taken)
    assert text == "见附件12" and x != 0.5 and not taken[-1].hits(label)  # moved along its edge, clear of the label


def test_two_boxes_apart_at_the_phone_but_crossing_as_the_panel_widens_count_as_covering():
    # a box left of another while its anchor lies right of the other's: a wider panel moves it across
    crossing = Box(0, 0, 10, 10, ax=0.6), Box(12, 0, 40, 10, ax=0.4)
    assert crossing[0].hits(crossing[1]) and crossing[1].hits(crossing[0])
    kept = Box(0, 0, 10, 10, ax=0.4), Box(12, 0, 40, 10, ax=0.6)  # the same order as their anchors: stays apart
    assert not kept[0].hits(kept[1])
    assert not Box(0, 0, 10, 10, ay=0.2).hits(Box(0, 12, 10, 20, ay=0.5))  # apart down the page likewise


def test_margins_leave_the_plot_area_its_share_however_long_the_labels():
    for steps in (1, 2, 3, 5):
        left, right = share_margins((260, 60), (300, 70), steps)
        assert left + right <= REF_WIDTH - STEP_PX and left >= 60 + 12 and right >= 70 + 12
    assert share_margins((80, 40), (120, 50), 1) == (92, 132)  # room enough: the whole labels


CAP_NOTE = "只画出回答用到的 1 个附件和另外 4 个（共 9 个）；点“显示全部路径”看全部"


def _paths(attachments: int, title: str, twin_every: int = 0) -> list[dict]:
    """Paths of one body chunk citing `attachments` attachments, every `twin_every`-th of a twin document, the
    answer naming the first; the first few reach further, to a second layer of attachments."""
    paths = []
    for i in range(1, attachments + 1):
        doc = "twin" if twin_every and i % twin_every == 0 else "main"
        att = {"kind": "attachment", "id": f"{doc}:附件{i}", "label": f"附件{i} {title[: 3 + i % len(title)]}",
               "doc_id": doc, "mention": f"详见附件{i}"}
        chunk = {"kind": "chunk", "id": f"{doc}:正文{i % 3}", "label": f"正文 片段{i % 3}", "doc_id": doc}
        paths.append({"stage": "prefetch", "steps": [chunk, att]})
        if i <= 3:
            further = {"kind": "attachment", "id": f"{doc}:附件{i + 20}", "label": f"附件{i + 20} {title}",
                       "doc_id": doc, "mention": f"见附件{i + 20}"}
            paths.append({"stage": "prefetch", "steps": [chunk, att, further]})
    first = paths[0]["steps"][-1]
    paths.append({"stage": "post_hop", "steps": [{"kind": "answer", "id": "answer", "label": "回答·相关附件"}, first]})
    return paths


def drawn_boxes(fig) -> tuple[Frame, list[tuple[str, Box]]]:
    """The frame the figure was laid out in, read back from its layout numbers, and each drawn label's box."""
    layout = fig.layout
    legend_items = sum(1 for t in fig.data if t.showlegend is not False)
    plot_height = layout.height - layout.margin.t - layout.margin.b - legend_px(legend_items)
    frame = Frame(layout.margin.l, layout.margin.r, tuple(layout.xaxis.range), tuple(layout.yaxis.range), plot_height)
    boxes = []
    for trace in fig.data:
        if trace.mode != "markers+text":
            continue
        for x, y, text, position in zip(trace.x, trace.y, trace.text, trace.textposition):
            plain = html.unescape(re.sub("<[^>]+>", "", text.replace("<br>", "\n")))
            if plain:
                boxes.append((plain, node_box(frame, x, y, plain, position, bold=text.startswith("<b>"))))
            boxes.append(("marker", marker_box(frame, x, y)))
    for a in layout.annotations:
        if a.text and a.xref == "x" and not a.showarrow:  # an edge's mention
            px, py = frame.px(a.x, a.y)
            w = text_px(html.unescape(a.text), 10)
            boxes.append((a.text, Box(px - w / 2, py - LABEL_H / 2, px + w / 2, py + LABEL_H / 2, *frame.fraction(a.x, a.y))))
    return frame, boxes


@pytest.mark.parametrize("attachments", [1, 2, 4, 7, 10, 15])
@pytest.mark.parametrize("title", ["名单", "突发环境事件应急监测方案及人员联络通讯录"])
def test_every_graph_fits_the_narrowest_panel_with_labels_whole_inside_and_apart(attachments, title):
    """Laid out at REF_WIDTH: margins that leave the plot its share, labels inside the figure and above the legend,
    none over another label, a marker or a mention; the answer's attachment labelled; the note within the width."""
    titles = {"main": "东岭街道防汛应急预案", "twin": "西岭街道防汛应急预案"}
    fig = paths_figure(_paths(attachments, title, twin_every=3), titles, note=CAP_NOTE)
    frame, boxes = drawn_boxes(fig)
    assert frame.left + frame.right <= REF_WIDTH - STEP_PX  # plotly never has to squeeze the margins
    labels = [(t, b) for t, b in boxes if t != "marker"]
    assert all(0 <= b.x0 and b.x1 <= REF_WIDTH and b.y1 <= frame.height for _, b in labels), labels
    overlaps = [(a, c) for i, (a, b) in enumerate(boxes) for c, d in boxes[i + 1:]
                if (a != "marker" or c != "marker") and b.hits(d)]
    assert overlaps == []
    node_labels = [str(t) for trace in fig.data if trace.mode == "markers+text" for t in trace.text]
    assert any("附件1" in t for t in node_labels)  # the answer's attachment is labelled
    assert not any("西岭街道防" in t for t in node_labels)  # the twin is told apart by what differs: 西岭
    note = [a.text for a in fig.layout.annotations if a.xref == "paper"][0]
    assert all(text_px(html.unescape(line), 12) <= REF_WIDTH - 12 for line in note.split("<br>"))


def test_a_cut_label_keeps_its_number_and_its_whole_title_in_the_hover():
    long = "突发环境事件应急监测方案及人员联络通讯录"
    paths = [{"stage": "prefetch", "steps": [{"kind": "chunk", "id": "c", "label": "正文 片段1", "doc_id": "d"},
                                             {"kind": "attachment", "id": "a", "label": f"附件10 {long}", "doc_id": "d",
                                              "mention": "见附件10"}]}]
    fig = paths_figure(paths, {"d": "某预案"})
    [attachment] = [t for t in fig.data if t.mode == "markers+text" and "附件10" in str(t.text)]
    assert attachment.text[0] != f"附件10 {long}" and "附件10" in attachment.text[0]
    assert long in attachment.hovertext[0]


def test_a_title_too_long_for_one_line_goes_whole_on_two_where_the_column_has_the_height():
    paths = [{"stage": "prefetch", "steps": [{"kind": "chunk", "id": "c", "label": "正文 片段1", "doc_id": "d"},
                                             {"kind": "attachment", "id": "a", "label": "附件1 供电抢修联系人名单",
                                              "doc_id": "d", "mention": "按附件1"}]},
             {"stage": "post_hop", "steps": [{"kind": "answer", "id": "answer", "label": "回答·相关附件"},
                                             {"kind": "attachment", "id": "a", "label": "附件1 供电抢修联系人名单",
                                              "doc_id": "d"}]}]
    fig = paths_figure(paths, {"d": "南湖社区停电应急预案"})
    frame, boxes = drawn_boxes(fig)
    assert "附件1\n供电抢修联系人名单" in [t for t, _ in boxes]  # whole, under its number, not 附件1 供电抢修联…
    assert frame.left + frame.right <= REF_WIDTH - STEP_PX


def test_a_note_breaks_where_a_reader_would_and_never_opens_a_line_with_closing_punctuation():
    from ui.chat.decline import PATHS_NOTE

    for text, size in ((PATHS_NOTE, 13), (CAP_NOTE, 12),
                       ("甲" * 40 + "。", 12)):
        lines = wrap_px(text, REF_WIDTH - 24, size)
        assert "".join(lines) == text and all(text_px(line, size) <= REF_WIDTH - 24 for line in lines)
        assert not [line for line in lines if line[0] in "，。；、）)：:！？”》"], lines
    assert wrap_px(PATHS_NOTE, REF_WIDTH - 24, 13)[1] == "所以这里不画检索路径"  # before （, not 可查|看
