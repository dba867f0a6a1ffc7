"""The graph-paths labels laid out in pixels at a phone's width: whole, apart, shortened or left to the hover."""
from __future__ import annotations

from ui.chat.paths_labels import REF_WIDTH, Frame, node_box, place_mentions, place_nodes, unique_mentions


def test_middle_labels_move_or_shorten_so_none_covers_another_and_outer_labels_keep_their_side():
    frame = Frame(left=80, right=120, x_range=(-0.08, 2.08), y_range=(-1.6, 1.6), height=200)
    nodes = [("a", 0.0, 0.0, "正文 片段2", "正文", "middle left"),
             ("z", 2.0, 0.0, "附件3 应急联系人通讯录", "附件3", "middle right"),
             ("m1", 1.0, 0.2, "附件4 驾驶员押运员现场处置", "附件4", ""),
             ("m2", 1.0, -0.2, "附件1 应急组织机构及职责", "附件1", "")]
    placed, boxes = place_nodes(frame, nodes)
    assert placed["a"] == ("正文 片段2", "middle left") and placed["z"][1] == "middle right"
    drawn = [node_box(frame, x, y, *placed[n]) for n, x, y, *_ in nodes if placed[n][0]]
    assert not [(i, j) for i in range(len(drawn)) for j in range(i + 1, len(drawn)) if drawn[i].hits(drawn[j])]
    assert all(0 <= b.x0 and b.x1 <= REF_WIDTH for b, (n, *_rest) in zip(drawn, nodes) if placed[n][1].endswith("center"))
    assert placed["m1"][0] and placed["m2"][0]  # both middle nodes keep a label (whole or 附件N)


def test_a_mention_goes_where_it_fits_and_each_target_gets_one():
    assert unique_mentions({("a", "t"): "见附件3", ("b", "t"): "见附件3", ("c", "u"): "见附件3"}) == {
        ("a", "t"): "见附件3", ("c", "u"): "见附件3"}
    frame = Frame(left=10, right=10, x_range=(0, 1), y_range=(-1, 1), height=200)
    label = node_box(frame, 0.5, 0.05, "挡路的标签", "bottom center")  # sits on the edge's midpoint
    taken = [label]
    [(x, y, text)] = place_mentions(frame, [(0.0, 0.0, 1.0, 0.0, "见附件12")], taken)
    assert text == "见附件12" and x != 0.5 and not taken[-1].hits(label)  # moved along its edge, clear of the label
