"""Where the graph-paths picture writes its labels, so that every label is whole and none covers another.

Plotly does not move text out of the way, so the layout is checked here, in pixels, at the narrowest panel the
picture is drawn in (a phone's): a wider panel only moves labels of different layers further apart. Outer layers'
labels sit in margins sized for them; a middle layer's label goes above or below its node, shortened to the
attachment's number when the whole label has no room; an edge's mention that has no room is left to the hover text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

REF_WIDTH = 320  # px: the paths panel at a 390 px wide phone
LABEL_H = 15  # px of an 11 px label's line
GAP = 8  # px between a marker's centre and its label


def text_px(text: str, size: int = 11) -> int:
    """The drawn width of a label: a CJK character is about one em, anything else about 0.6 em."""
    return int(sum(size if ord(c) > 0x2E80 else size * 0.62 for c in text) * 1.08) + 4


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def hits(self, other: Box) -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


@dataclass(frozen=True)
class Frame:
    """Data coordinates → pixels of the plot area at REF_WIDTH."""

    left: int
    right: int
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    height: float  # px of the plot area

    def px(self, x: float, y: float) -> tuple[float, float]:
        width = REF_WIDTH - self.left - self.right
        (a, b), (c, d) = self.x_range, self.y_range
        return self.left + (x - a) / (b - a) * width, (d - y) / (d - c) * self.height


def node_box(frame: Frame, x: float, y: float, text: str, position: str) -> Box:
    """The box a node's label covers at `position` (plotly's textposition)."""
    px, py = frame.px(x, y)
    w = text_px(text)
    if position == "middle left":
        return Box(px - GAP - w, py - LABEL_H / 2, px - GAP, py + LABEL_H / 2)
    if position == "middle right":
        return Box(px + GAP, py - LABEL_H / 2, px + GAP + w, py + LABEL_H / 2)
    if position == "top center":
        return Box(px - w / 2, py - GAP - LABEL_H, px + w / 2, py - GAP)
    return Box(px - w / 2, py + GAP, px + w / 2, py + GAP + LABEL_H)  # bottom center


def place_nodes(frame: Frame, nodes: Sequence[tuple[str, float, float, str, str, str]]) -> tuple[dict, list[Box]]:
    """node → (text, position) for (node, x, y, label, short label, fixed position or "") in priority order.

    A node with a fixed position (an outer layer's) keeps it; the others try above and below, whole then short.
    """
    placed: dict[str, tuple[str, str]] = {}
    boxes: list[Box] = []
    for node, x, y, label, short, fixed in nodes:
        tries = [(label, fixed)] if fixed else [(t, p) for t in dict.fromkeys((label, short))
                                                for p in ("top center", "bottom center")]
        for text, position in tries:
            box = node_box(frame, x, y, text, position)
            if 0 <= box.x0 and box.x1 <= REF_WIDTH and not any(box.hits(b) for b in boxes) or fixed:
                placed[node] = (text, position)
                boxes.append(box)
                break
        else:
            placed[node] = ("", "top center")
    return placed, boxes


def place_mentions(frame: Frame, edges: Sequence[tuple[float, float, float, float, str]], taken: list[Box],
                   size: int = 10) -> list[tuple[float, float, str]]:
    """(x, y, text) of each edge mention that fits somewhere along its edge without covering a label."""
    out = []
    for x0, y0, x1, y1, text in edges:
        for t in (0.5, 0.35, 0.65, 0.25, 0.75):
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            px, py = frame.px(x, y)
            w = text_px(text, size)
            box = Box(px - w / 2, py - LABEL_H / 2, px + w / 2, py + LABEL_H / 2)
            if not any(box.hits(b) for b in taken):
                taken.append(box)
                out.append((x, y, text))
                break
    return out


def legend_px(items: int) -> int:
    """The height of the horizontal legend at REF_WIDTH, where each entry takes its own row."""
    return 29 * items


def unique_mentions(edges: Mapping[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """One mention per target and text: three edges saying 见附件3 into 附件3 get one label."""
    seen: set[tuple[str, str]] = set()
    out = {}
    for (a, b), text in edges.items():
        if text and (b, text) not in seen:
            seen.add((b, text))
            out[(a, b)] = text
    return out
