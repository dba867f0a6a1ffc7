"""A PDF's positioned text as a reader sees it: lines and table rows in reading order, running headers, footers and
page numbers gone, a sentence wrapped across lines or pages joined again.

Works on boxes (a text layer's rectangles, or OCR's), so text pages and scanned pages read alike."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Sequence

from kb.ingest.splitting import is_header_line
from kb.ingest.label_rows import label_head, label_row
from kb.model import CELL_SEPARATOR


@dataclass(frozen=True)
class Box:
    """A run of text on a page, PDF coordinates (y grows upwards)."""

    text: str
    left: float
    bottom: float
    right: float
    top: float
    apart: bool = False  # a cell of its own: a gap its writer left unwritten sets it off from the run before it


@dataclass(frozen=True)
class Rule:
    """A vertical table rule: its x and the heights it spans."""

    x: float
    bottom: float
    top: float


@dataclass(frozen=True)
class Line:
    """One visual line: its cells (one unless it is a table row), position and text height."""

    cells: tuple[str, ...]
    left: float
    right: float
    top: float
    bottom: float
    lefts: tuple[float, ...] = ()  # where each cell starts

    @property
    def height(self) -> float:
        return max(1.0, self.top - self.bottom)

    @property
    def text(self) -> str:
        return CELL_SEPARATOR.join(self.cells)


@dataclass(frozen=True)
class Page:
    """One page's lines (top to bottom), its width and the heights of its horizontal rules (table borders)."""

    lines: tuple[Line, ...]
    width: float
    rules: tuple[float, ...] = ()


CELL_GAP = 1.5  # a gap wider than this many text heights between two runs of one line separates table cells
RUNNING_SHARE = 0.5  # a top or bottom line repeated on at least this share of the pages is a running header/footer
RUNNING_MIN_PAGES = 3
EDGE_LINES = 2  # a running header or footer is among the first or last lines of a page
_PAGE_NUMBER = re.compile(
    r"^(?:[-—–－~\s]*[0-9]+[-—–－~\s]*|第\s*[0-9一二三四五六七八九十百]+\s*页(?:\s*[,，/]?\s*共\s*[0-9]+\s*页)?"
    r"|共\s*[0-9]+\s*页\s*第\s*[0-9]+\s*页|[0-9]+\s*/\s*[0-9]+|page\s*[0-9]+(?:\s*of\s*[0-9]+)?)$",
    re.I,
)
# A browser's printed header and footer: the date and time, the page's title, its address and n/N.
_BROWSER_LINE = re.compile(r"^(?:[0-9]{1,4}[/-][0-9]{1,2}[/-][0-9]{1,4}[, ]+[0-9]{1,2}:[0-9]{2}(?:\s*[AP]M)?|"
                           r"(?:file|https?)://\S*)", re.I)
_PAGE_REF = re.compile(r"^[.·…\s]*[0-9]{1,4}$")  # a contents entry's page number, its leaders before it
_SENTENCE_END = "。！？；：!?;:."
_ASCII_WORD = re.compile(r"[A-Za-z0-9,.]$")
_LEADING_WORD = re.compile(r"[A-Za-z0-9\-.,/:%@_()（）]+")  # a run a browser does not break inside
# A character with the closing punctuation that may not start a line: the two move down together (点）).
_NO_BREAK_BEFORE = re.compile(r".[）)」』】》〉”’、。，；：！？!?,.;:]+")


def page_lines(boxes: Sequence[Box], rules: Sequence[Rule] = ()) -> list[Line]:
    """Boxes grouped into visual lines (vertical overlap), top to bottom; a table's vertical rules, or else wide
    gaps, split a line into cells."""
    rows: list[list[Box]] = []
    for box in sorted(boxes, key=lambda b: (-b.top, b.left)):
        if not box.text.strip():
            continue
        for row in rows:
            top, bottom = max(b.top for b in row), min(b.bottom for b in row)
            overlap = min(top, box.top) - max(bottom, box.bottom)
            if overlap > 0.5 * min(top - bottom, box.top - box.bottom):
                row.append(box)
                break
        else:
            rows.append([box])
    lines = [_line(sorted(row, key=lambda b: b.left), rules) for row in rows]
    return sorted(lines, key=lambda line: -line.top)


def _line(boxes: list[Box], rules: Sequence[Rule] = ()) -> Line:
    height = max(1.0, max(b.top - b.bottom for b in boxes))
    middle = (max(b.top for b in boxes) + min(b.bottom for b in boxes)) / 2
    xs = sorted({round(r.x) for r in rules if r.bottom <= middle <= r.top})
    if len(xs) >= 2:
        return _ruled_line(boxes, xs)
    cells = [boxes[0].text.strip()]
    lefts = [boxes[0].left]
    for previous, box in zip(boxes, boxes[1:]):
        gap = box.left - previous.right
        text = box.text.strip()
        if gap > CELL_GAP * height or box.apart:
            cells.append(text)
            lefts.append(box.left)
        elif gap > 0.25 * height and _ASCII_WORD.search(cells[-1]) and text[:1].isascii():
            cells[-1] += " " + text
        else:
            cells[-1] += text
    kept = [(c, x) for c, x in zip(cells, lefts) if c]
    if len(kept) == 2 and _PAGE_REF.match(kept[1][0]) and is_header_line(kept[0][0]):
        kept = [(kept[0][0] + "\t" + kept[1][0], kept[0][1])]  # a contents entry: 附件4：应急物资清单 …… 98
    return Line(tuple(c for c, _ in kept), boxes[0].left, max(b.right for b in boxes),
                max(b.top for b in boxes), min(b.bottom for b in boxes), tuple(x for _, x in kept))


def _ruled_line(boxes: list[Box], xs: list[int]) -> Line:
    """A table row between vertical rules: one cell per column, empty ones kept, text outside the rules apart."""
    edges = [x for i, x in enumerate(xs) if i == 0 or x - xs[i - 1] > 2]
    cells: dict[int, list[str]] = {}
    for box in boxes:
        centre = (box.left + box.right) / 2
        column = sum(1 for x in edges if x <= centre)  # 0: left of the table, len(edges): right of it
        cells.setdefault(column, []).append(box.text.strip())
    inside = ["".join(cells.get(i, [])) for i in range(1, len(edges))]
    before = ["".join(cells[0])] if 0 in cells else []
    after = ["".join(cells[len(edges)])] if len(edges) in cells else []
    texts = before + inside + after
    lefts = [boxes[0].left] * len(before) + [float(x) for x in edges[:-1]] + [float(edges[-1])] * len(after)
    if not any(inside):
        texts, lefts = [t for t in texts if t], [x for t, x in zip(texts, lefts) if t]
    return Line(tuple(texts), boxes[0].left, max(b.right for b in boxes), max(b.top for b in boxes),
                min(b.bottom for b in boxes), tuple(lefts))


def is_page_number(text: str) -> bool:
    """`3`, `- 3 -`, `第 3 页 共 9 页`, `3/9`, `Page 3 of 9`."""
    return bool(_PAGE_NUMBER.match(text.strip()))


def running_lines(pages: Sequence[Page]) -> set[str]:
    """Normalized texts of lines that repeat at the top or bottom of most pages (digits as #: page numbers vary)."""
    if len(pages) < RUNNING_MIN_PAGES:
        return set()
    counts: Counter[str] = Counter()
    for page in pages:
        edge = {_normalized(line.text) for line in (*page.lines[:EDGE_LINES], *page.lines[-EDGE_LINES:])}
        counts.update(edge)
    need = max(RUNNING_MIN_PAGES, RUNNING_SHARE * len(pages))
    return {text for text, n in counts.items() if n >= need}


def _normalized(text: str) -> str:
    return re.sub(r"[0-9０-９]+", "#", re.sub(r"\s+", "", text))


def body_lines(page: Page, running: set[str]) -> list[Line]:
    """A page's lines without its running header/footer, page number or browser header/footer lines."""
    lines = list(page.lines)
    keep = []
    for i, line in enumerate(lines):
        edge = i < EDGE_LINES or i >= len(lines) - EDGE_LINES
        text = line.text
        if edge and (_normalized(text) in running or is_page_number(text)
                     or any(_BROWSER_LINE.match(c) for c in line.cells)):
            continue
        keep.append(line)
    return keep


def page_texts(pages: Sequence[Page]) -> list[str]:
    """Each page's text; a line that ends a page mid-sentence continues on the next page (its text starts there
    joined to the previous page's last line, so each page's text starts where its own words begin)."""
    running = running_lines(pages)
    texts: list[list[str]] = []
    last: Line | None = None  # the previous page's last line, when it may go on here
    right_edge = _right_margin(pages)
    for page in pages:
        lines = body_lines(page, running)
        out = _join_wrapped(lines, page.rules, right_edge)
        if last is not None and out and texts and texts[-1] and _wraps(last, right_edge, out[0][0]):
            first = out[0][1]
            if not first.startswith(_HEADER_STARTS):
                texts[-1][-1] = _joined(texts[-1][-1], first)
                out = out[1:]
        texts.append(_label_rows_read(out))
        last = lines[-1] if lines and (out or texts[-1]) else None
    return ["\n".join(t) for t in texts]


def _label_rows_read(out: list[tuple[Line, str]]) -> list[str]:
    """A page's lines with each table that opens with its attachment's label row (附件3 | 应急联系人通讯录 | ) opened
    by that label's header line instead, as the .docx and HTML readers write it (kb/ingest/label_rows.py). Two
    tables printed one under the other read as one run of rows: a label row inside the run, below a row that is no
    label row and above rows of a table, opens the next attachment's table (附件2 | | under 附件1's last row)."""
    out = _title_wraps_joined(out)
    texts = [text for _, text in out]
    rows = [text.split(CELL_SEPARATOR) if len(line.cells) > 1 else None for line, text in out]
    n = 0
    while n < len(out):
        inside = n > 0 and rows[n - 1] is not None
        if rows[n] is None or (inside and (label_row(rows[n - 1]) or n + 1 == len(out) or rows[n + 1] is None)):
            n += 1
            continue
        head = label_head([row for row in rows[n:n + 3] if row is not None])
        texts[n:n + len(head)] = head
        n += len(head) or 1
    return texts


def _title_wraps_joined(out: list[tuple[Line, str]]) -> list[tuple[Line, str]]:
    """A label row's title cell wrapped onto a line of its own under it, in the title's column, above the table's
    rows (附件 4 | 全县应急物资储备 / 点名单, a writer that draws no rules to tell the cell by), joined to that cell."""
    joined: list[tuple[Line, str]] = []
    for n, (line, text) in enumerate(out):
        previous = joined[-1][0] if joined else None
        if (previous is not None and len(previous.lefts) == 2 and label_row(previous.cells) and len(line.cells) == 1
                and abs(line.left - previous.lefts[1]) <= line.height and n + 1 < len(out)
                and len(out[n + 1][0].cells) > 1):
            cells = (previous.cells[0], _joined(previous.cells[1], line.text))
            joined[-1] = (replace(previous, cells=cells, bottom=line.bottom), CELL_SEPARATOR.join(cells))
            continue
        joined.append((line, text))
    return joined


_HEADER_STARTS = ("附件", "附表", "附录", "附图", "第")
MARGIN_LINES = 3  # lines that must reach the right margin before a line there is taken to wrap


def _right_margin(pages: Sequence[Page]) -> float:
    """Where the text's lines end when they wrap; infinity when too few lines reach one place to tell."""
    lines = [line for page in pages for line in page.lines if len(line.cells) == 1]
    edge = max((line.right for line in lines), default=0.0)
    reaching = sum(1 for line in lines if line.right >= edge - 1.6 * line.height)
    return edge if reaching >= MARGIN_LINES else float("inf")


def _wraps(line: Line, right_edge: float, following: Line | None = None) -> bool:
    """The line runs to the right margin without ending its sentence, or stops short of it only because the next
    line's first word (a phone number, 0571-86301120, or a character with the closing mark that may not start a
    line, 点）) would not fit: the text goes on in the next line."""
    if len(line.cells) != 1 or line.text.endswith(tuple(_SENTENCE_END)):
        return False
    room = right_edge - line.right
    if room <= 1.6 * line.height:
        return True
    if following is None or len(following.cells) != 1 or abs(following.left - line.left) > line.height:
        return False
    word = _LEADING_WORD.match(following.text) or _NO_BREAK_BEFORE.match(following.text)
    if not word:
        return False
    width = (following.right - following.left) / max(1, len(following.text)) * len(word.group())
    return width > room - 0.5 * line.height


def _joined(first: str, second: str) -> str:
    if _ASCII_WORD.search(first) and second[:1].isascii() and second[:1].isalnum():
        return first + " " + second
    return first + second


def _join_wrapped(lines: list[Line], rules: Sequence[float], right_edge: float) -> list[tuple[Line, str]]:
    """Lines with each wrapped sentence joined, and each table row with its cells' wrapped lines joined."""
    out: list[tuple[Line, str]] = []
    cells: list[str] | None = None  # the open table row
    columns: list[float] = []
    band: tuple[float, float] | None = None
    head: Line | None = None  # the open table's latest row of the most cells: its columns
    for line in lines:
        if len(line.cells) > 1 or (cells is not None and _inside(line, band)):
            if cells is not None and _inside(line, band) and len(line.cells) <= len(columns):
                cells = _continue_row(cells, columns, line)
                out[-1] = (out[-1][0], CELL_SEPARATOR.join(cells))
                continue
            if head is None or len(line.cells) >= len(head.cells):
                head = line  # the latest full row: a header's cells may be centred, a column's rows start alike
            elif len(line.cells) < len(head.cells):
                line = _in_columns(line, head)
            cells = list(line.cells)
            columns = list(line.lefts)
            band = _band(line, rules)
            out.append((line, line.text))
            continue
        cells, band, head = None, None, None
        if out and len(out[-1][0].cells) == 1 and _wraps(out[-1][0], right_edge, line) and not line.text.startswith(
                _HEADER_STARTS):
            previous, text = out[-1]
            joined = _joined(text, line.text)
            out[-1] = (Line((joined,), previous.left, line.right, previous.top, line.bottom, previous.lefts), joined)
            continue
        out.append((line, line.text))
    return out


def _in_columns(line: Line, head: Line) -> Line:
    """A row of fewer cells than its table's columns, each cell put under the column it starts at, the others
    empty (a borderless table draws no empty cell: 8 | 秦华天然气客服 | 029-96777 under four columns); as it was when
    a cell starts under no column."""
    placed = [""] * len(head.cells)
    at = -1
    for text, left in zip(line.cells, line.lefts):
        column = next((j for j, x in enumerate(head.lefts) if j > at and abs(left - x) <= line.height), None)
        if column is None:
            return line
        placed[column], at = text, column
    return Line(tuple(placed), line.left, line.right, line.top, line.bottom, head.lefts)


def _band(line: Line, rules: Sequence[float]) -> tuple[float, float] | None:
    """The rules just above and below a table row: its cell's wrapped lines sit between them."""
    above = [r for r in rules if r >= line.top - 0.5]
    below = [r for r in rules if r <= line.bottom + 0.5]
    if not above or not below:
        return None
    return min(above), max(below)


def _inside(line: Line, band: tuple[float, float] | None) -> bool:
    return band is not None and line.top <= band[0] + 0.5 and line.bottom >= band[1] - 0.5


def _continue_row(cells: list[str], columns: list[float], line: Line) -> list[str]:
    """A wrapped cell's next line goes to the cell whose column it starts in."""
    cells = list(cells)
    if len(line.cells) == len(cells):
        return [a + b for a, b in zip(cells, line.cells)]
    for text, left in zip(line.cells, line.lefts):
        index = max((i for i, column in enumerate(columns) if column <= left + 2), default=0)
        cells[index] += text
    return cells
