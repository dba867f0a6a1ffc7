"""Where the graph-paths picture writes its labels, so that every label is whole and none covers another.

Plotly does not move text out of the way, so the layout is checked here, in pixels, at the narrowest panel the
picture is drawn in (a phone's). A wider panel stretches the plot area, and every box moves with its anchor (the
node or edge point it belongs to); two boxes apart at the phone's width stay apart at every wider one when they
are apart along an axis in the same order as their anchors (`Box.hits`). Outer layers' labels sit in margins that
share the phone's width with a plot area of its own (`share_margins`), each label shortened to its margin with the
full title left to the hover text; a middle layer's label goes above or below its node, shortened as far as
its attachment's number when the whole label has no room; an edge's mention that has no room is left to the hover.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

REF_WIDTH = 296  # px: the paths panel at a 360 px wide phone, the narrowest it is drawn in (390 px: 326, an 800 px window: 320)
LABEL_H = 15  # px of an 11 px label's line
GAP = 8  # px between a marker's centre and its label
MARKER = 12  # px a margin keeps for the half marker and the gap beside an outer label
MARKER_HALF = 8  # px from a node's centre to its marker's edge (15 px squares)
BOLD = 1.08  # a highlighted (bold) label is this much wider
STEP_PX = 64  # px of plot width per layer step the margins must leave: an arrow and a short mention (见附件4)
PLOT_SHARE = 0.5  # however deep the graph, the margins leave at least this share of REF_WIDTH to the plot


def text_px(text: str, size: int = 11) -> int:
    """The drawn width of a label (its widest line): a CJK character is about one em, anything else about 0.6 em."""
    return max(int(sum(size if ord(c) > 0x2E80 else size * 0.62 for c in line) * 1.08) + 4 for line in text.split("\n"))


@dataclass(frozen=True)
class Box:
    """A label's pixels at REF_WIDTH and where its anchor sits in the plot area (fractions, 0–1 left→right, top→bottom)."""

    x0: float
    y0: float
    x1: float
    y1: float
    ax: float = 0.0
    ay: float = 0.0

    def hits(self, other: Box) -> bool:
        """Whether the two may cover each other at REF_WIDTH or any wider panel (a taller plot area likewise)."""
        return not (_apart(self.x0, self.x1, self.ax, other.x0, other.x1, other.ax)
                    or _apart(self.y0, self.y1, self.ay, other.y0, other.y1, other.ay))


def _apart(a0: float, a1: float, a: float, b0: float, b1: float, b: float) -> bool:
    """Apart along one axis now, in the order of their anchors: stretching the axis only moves them further apart."""
    return (a1 <= b0 and a <= b) or (b1 <= a0 and b <= a)


@dataclass(frozen=True)
class Frame:
    """Data coordinates → pixels of the plot area at REF_WIDTH."""

    left: int
    right: int
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    height: float  # px of the plot area
    above: float = 0  # px above the plot area a label may take (the top margin less the note's lines)

    def fraction(self, x: float, y: float) -> tuple[float, float]:
        (a, b), (c, d) = self.x_range, self.y_range
        return (x - a) / (b - a), (d - y) / (d - c)

    def px(self, x: float, y: float) -> tuple[float, float]:
        fx, fy = self.fraction(x, y)
        return self.left + fx * (REF_WIDTH - self.left - self.right), fy * self.height


@dataclass(frozen=True)
class LabelSpec:
    """One node's label to place: its texts from whole to shortest, and the side an outer layer's label keeps."""

    node: str
    x: float
    y: float
    texts: tuple[str, ...]
    fixed: str = ""  # plotly textposition of an outer layer's label; "" lets the label go above or below
    bold: bool = False


def node_box(frame: Frame, x: float, y: float, text: str, position: str, bold: bool = False) -> Box:
    """The box a node's label covers at `position` (plotly's textposition)."""
    px, py = frame.px(x, y)
    ax, ay = frame.fraction(x, y)
    w, tall = text_px(text) * (BOLD if bold else 1), LABEL_H * (text.count("\n") + 1)
    if position == "middle left":
        return Box(px - GAP - w, py - tall / 2, px - GAP, py + tall / 2, ax, ay)
    if position == "middle right":
        return Box(px + GAP, py - tall / 2, px + GAP + w, py + tall / 2, ax, ay)
    if position == "top center":
        return Box(px - w / 2, py - GAP - tall, px + w / 2, py - GAP, ax, ay)
    return Box(px - w / 2, py + GAP, px + w / 2, py + GAP + tall, ax, ay)  # bottom center


def inside(frame: Frame, box: Box) -> bool:
    """Whether the box lies within the figure's width at REF_WIDTH (and so at any wider panel), below the note and
    above the legend (which starts where the plot area ends)."""
    return 0 <= box.x0 and box.x1 <= REF_WIDTH and -frame.above <= box.y0 and box.y1 <= frame.height


def marker_box(frame: Frame, x: float, y: float) -> Box:
    """The box a node's marker covers: no other node's label may sit on it."""
    px, py = frame.px(x, y)
    ax, ay = frame.fraction(x, y)
    return Box(px - MARKER_HALF, py - MARKER_HALF, px + MARKER_HALF, py + MARKER_HALF, ax, ay)


def place_nodes(frame: Frame, specs: Sequence[LabelSpec]) -> tuple[dict[str, tuple[str, str]], list[Box]]:
    """node → (text, position) for the specs in priority order: each takes its longest text that fits.

    An outer layer's label keeps its side and takes the longest text its margin holds; a middle one tries above
    and below its node, whole then shorter, then beside it (a crowded column leaves no room above or below). A
    label with no room anywhere is left to the hover text, except a highlighted outer one, which keeps its
    shortest text (its margin was sized for it). The boxes returned are the labels' and the markers'.
    """
    placed: dict[str, tuple[str, str]] = {}
    boxes = [marker_box(frame, spec.x, spec.y) for spec in specs]
    for spec in specs:
        tries = [(t, p) for t in spec.texts for p in ((spec.fixed,) if spec.fixed else ("top center", "bottom center"))]
        if not spec.fixed:
            tries += [(t, p) for t in spec.texts for p in ("middle right", "middle left")]
        for text, position in tries:
            box = node_box(frame, spec.x, spec.y, text, position, spec.bold)
            if inside(frame, box) and not any(box.hits(b) for b in boxes):
                break
        else:
            text, position = (spec.texts[-1], spec.fixed) if spec.fixed and spec.bold else ("", "top center")
        placed[spec.node] = (text, position)
        if text:
            boxes.append(node_box(frame, spec.x, spec.y, text, position, spec.bold))
    return placed, boxes


def share_margins(left: tuple[int, int], right: tuple[int, int], steps: int) -> tuple[int, int]:
    """Left and right margins (px) from each side's (widest whole label, widest shortest label) in pixels.

    Both sides get their whole labels when that leaves the plot area STEP_PX a layer step; otherwise the width
    left is shared, each side first getting what its shortest labels need, then the half it would have
    alone, the rest going to the side that still needs it.
    """
    room = REF_WIDTH - max(min(STEP_PX * max(steps, 1), int(REF_WIDTH * PLOT_SHARE)), STEP_PX)
    (l_need, l_min), (r_need, r_min) = (tuple(v + MARKER if v else 0 for v in side) for side in (left, right))
    if l_need + r_need <= room:
        return max(l_need, 8), max(r_need, 8)
    half = room // 2
    l_margin = max(l_min, min(l_need, max(half, room - r_need)))
    r_margin = max(r_min, min(r_need, room - l_margin))
    return max(l_margin, 8), max(r_margin, 8)


def place_mentions(frame: Frame, edges: Sequence[tuple[float, float, float, float, str]], taken: list[Box],
                   size: int = 10) -> list[tuple[float, float, str]]:
    """(x, y, text) of each edge mention that fits somewhere along its edge without covering a label."""
    out = []
    for x0, y0, x1, y1, text in edges:
        for t in (0.5, 0.35, 0.65, 0.25, 0.75):
            x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
            px, py = frame.px(x, y)
            ax, ay = frame.fraction(x, y)
            w = text_px(text, size)
            box = Box(px - w / 2, py - LABEL_H / 2, px + w / 2, py + LABEL_H / 2, ax, ay)
            if inside(frame, box) and not any(box.hits(b) for b in taken):
                taken.append(box)
                out.append((x, y, text))
                break
    return out


def legend_px(items: int) -> int:
    """The height of the horizontal legend at REF_WIDTH, where each entry takes its own row."""
    return 29 * items


NO_LINE_START = "，。；、）)：:！？”》"  # a line never begins with closing punctuation


def wrap_px(text: str, width: int, size: int = 12, after: str = "，。；、）)：: ", before: str = "（(《") -> list[str]:
    """Lines of at most `width` px, each cut at the last place a reader would break — after a comma or a closing
    bracket, before an opening one — that leaves it at least half full, and never before closing punctuation; joined,
    they are the text."""
    lines, rest = [], text
    while rest and text_px(rest, size) > width:
        fit = max(n for n in range(1, len(rest) + 1) if n == 1 or text_px(rest[:n], size) <= width)
        opens = [i for i in range(1, fit + 1) if i == len(rest) or rest[i] not in NO_LINE_START]
        cut = max((i for i in opens if rest[i - 1] in after or i < len(rest) and rest[i] in before), default=0)
        cut = cut if cut * 2 >= fit else max(opens, default=fit)
        lines.append(rest[:cut])
        rest = rest[cut:]
    return [line for line in lines + [rest] if line]


def unique_mentions(edges: Mapping[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    """One mention per target and text: three edges saying 见附件3 into 附件3 get one label."""
    seen: set[tuple[str, str]] = set()
    out = {}
    for (a, b), text in edges.items():
        if text and (b, text) not in seen:
            seen.add((b, text))
            out[(a, b)] = text
    return out
