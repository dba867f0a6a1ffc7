"""HTML inside a document read as the text a reader sees: tables as Markdown pipe tables, blocks as lines.

Two forms arrive. Markdown from PDF converters (MinerU, marker, OCR pipelines) holds HTML blocks among its
Markdown: every table as one `<table>…</table>` line, captions as `<div>` lines. Text copied from a web page
(`<p>\\n    第一条 …\\n</p>` saved as .txt) is HTML throughout. Both are read the same way: an HTML block starts
at a line that opens with a block-level tag (CommonMark's HTML block rule, indentation allowed) and runs to the
next blank line, and on past blank lines while the next line starts another block or the block's `<table>` is
not closed yet. lxml parses each block; the Markdown and plain text around it stay exactly as they were, and a
text with no HTML block comes back unchanged (the same string), so stored spans and citations stay exact.

A `.html` / `.htm` file is read whole as one block, and so is a saved web page under any name (a .txt that opens
with `<!DOCTYPE html>` or `<html>`): its scripts and styles are not text. Of a page, only its main content is the
document: readability-lxml (the method of Mozilla's Readability) drops the site's menus, navigation and footer,
unless that would drop a line the document hangs on (an attachment's label line, a table row, its longest
paragraph), when the page is read whole. Inside Markdown, a `<script>`, `<style>`,
`<pre>` or `<textarea>` block runs to its closing tag, blank lines and all (CommonMark's HTML block type 1).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html
from readability import Document as Readable

from kb.errors import ParseError
from kb.ingest.html_blocks import BLOCK_TAGS, block_regions, tables_on_their_lines
from kb.ingest.label_rows import header_line, heads_table
from kb.labels import KIND, NUMBER, SPACE

_DROPPED = frozenset({"script", "style", "head", "title", "meta", "link", "template", "noscript", "iframe", "object"})
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_CONTINUED = re.compile(r"[(（]\s*续\s*[)）]")  # 表 D.1 (续): the table goes on below
_HEADING = re.compile(r"h([1-6])")
_PAGE = re.compile(r"^\ufeff?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
_TABLE_ROW = re.compile(r"^\|.*\|\s*$")  # a table's row as _row() writes it
_STRUCTURE = re.compile(rf"^[#*\s]*(?:{KIND}(?:{SPACE}{NUMBER}|\s*[：:])|附\s*[：:])")  # an attachment's label line
MAX_COLSPAN = 1000  # HTML's own limit
MAX_HEADER_ROWS = 3  # a grouped header of plain cells: its group row and the rows of names under it
MAX_ROWSPAN = 65534


@dataclass
class _Tables:
    """What a table needs from before it: the last table's header, and the lines since (a (续) caption)."""

    header: list[str] | None = None
    since: list[str] = field(default_factory=list)

    def saw_text(self, line: str) -> None:
        if line.strip():
            self.since.append(line.strip())


def html_to_text(name: str, text: str, *, whole: bool = False, markdown_headings: bool = True) -> str:
    """The text with every HTML block read as lines (see the module docstring); `whole` reads all of it as HTML.

    `markdown_headings` writes `<h2>` as `## …` (for Markdown and .html, whose headings are read from `#` lines).
    Raises ParseError naming `name` when lxml cannot read a block.
    """
    if whole:
        page = _XML_DECLARATION.sub("", text, count=1)
        lines = _render(name, page, _Tables(), markdown_headings)
        main = _main_content(page, lines, markdown_headings) if is_html_page(page) else None
        return "\n".join(lines if main is None else main)
    lines = tables_on_their_lines(text.split("\n"))
    regions = block_regions(lines)
    if not regions:
        return text
    out: list[str] = []
    tables = _Tables()
    pos = 0
    for start, end in regions:
        for line in lines[pos:start]:
            tables.saw_text(line)
        out.extend(lines[pos:start])
        out.extend(_render(name, "\n".join(lines[start : end + 1]), tables, markdown_headings))
        pos = end + 1
    out.extend(lines[pos:])
    return "\n".join(out)


def _main_content(page: str, lines: list[str], markdown_headings: bool) -> list[str] | None:
    """The lines of the page's main content, or None when it would lose a line the document needs (see the module
    docstring) or cannot be found."""
    try:
        readable = Readable(page)
        summary = readable.summary(html_partial=True)
        page_title = readable.title()
    except ValueError:  # readability's Unparseable (it wraps every failure in it): the page is read whole
        return None
    main = _render("", summary, _Tables(), markdown_headings)
    kept = {line.strip() for line in main}
    needed = [line.strip() for line in lines if _STRUCTURE.match(line) or _TABLE_ROW.match(line)]
    longest = max((line.strip() for line in lines), key=len, default="")
    if not main or longest not in kept or any(line not in kept for line in needed):
        return None
    title = _title_heading(lines, main, page_title)
    return [title, *main] if title else main


def _title_heading(lines: list[str], main: list[str], page_title: str) -> str:
    """The heading that titles the article, when readability left it out of the main content (it takes the
    article's <h2> for the page's title and drops it): the last heading above the main content that the page's
    <title> names (关于开展…的通知, under a <title> of 关于开展…的通知-某某中学); "" when the content keeps it."""
    first = next((i for i, line in enumerate(lines) if line.strip() == main[0].strip()), None)
    named = _collapse(page_title)
    if len(named) < 2 or named == "[no-title]":  # readability's stand-in for a page without <title>
        return ""
    for line in reversed(lines[:first] if first is not None else []):
        text = _collapse(line.lstrip("#").strip())
        if line.startswith("#") and len(text) > 1 and (text in named or named in text):
            return line
    return ""


def is_html_page(text: str) -> bool:
    """The text is a whole web page (a saved .html, whatever the file is called)."""
    return bool(_PAGE.match(text[:4096]))


def _render(name: str, source: str, tables: _Tables, markdown_headings: bool) -> list[str]:
    if not source.strip():
        return []
    try:
        root = lxml_html.document_fromstring(source)
    except etree.ParserError:  # lxml's "Document is empty": nothing but comments or whitespace
        return []
    except ValueError as exc:  # a string lxml refuses (an encoding declaration inside the markup)
        raise ParseError(name, f"its HTML cannot be read ({exc}); save it as plain text or fix the markup.") from exc
    body = root.find("body")
    lines = _Lines(tables, markdown_headings)
    lines.children(root if body is None else body)
    lines.flush()
    return lines.out


def _tag(el) -> str | None:
    """The element's lower-case tag; None for a comment or processing instruction."""
    return el.tag.lower() if isinstance(el.tag, str) else None


def _collapse(text: str) -> str:
    return " ".join(text.split())


class _Lines:
    """The lines of one HTML block: each block element's inline text collapsed onto one line."""

    def __init__(self, tables: _Tables, markdown_headings: bool) -> None:
        self.out: list[str] = []
        self._inline: list[str] = []
        self._prefix = ""
        self._tables = tables
        self._markdown_headings = markdown_headings

    def flush(self) -> None:
        line = _collapse("".join(self._inline))
        self._inline = []
        if line:
            self.out.append(self._prefix + line)
            self._tables.saw_text(line)
        self._prefix = ""

    def children(self, el) -> None:
        self._inline.append(el.text or "")
        for child in el:
            self.element(child)
            self._inline.append(child.tail or "")

    def element(self, el) -> None:
        tag = _tag(el)
        if tag is None or tag in _DROPPED or tag == "img":
            return
        if tag == "br":
            self.flush()
        elif tag == "table":
            self.flush()
            table_lines = _table_lines(el, self._tables)
            self.out.extend(table_lines)
        elif tag == "pre":
            self.flush()
            self.out.extend(line.rstrip() for line in el.text_content().strip("\n").split("\n"))
        elif tag in BLOCK_TAGS or tag in ("li", "dt", "dd"):
            self.flush()
            self._prefix = self._block_prefix(el, tag)
            self.children(el)
            self.flush()
        else:
            self.children(el)

    def _block_prefix(self, el, tag: str) -> str:
        heading = _HEADING.fullmatch(tag)
        if heading:
            return "#" * int(heading.group(1)) + " " if self._markdown_headings else ""
        parent = el.getparent()
        if tag == "li" and parent is not None and _tag(parent) == "ol":
            items = [c for c in parent if _tag(c) == "li"]
            return f"{items.index(el) + 1}. "
        if tag == "li":
            return "- "
        return ""


def _table_lines(table, tables: _Tables) -> list[str]:
    """A Markdown pipe table: the header row (the <th>/<thead> rows, else the first row), the rule, the rows."""
    lines: list[str] = []
    caption = table.find("caption")
    if caption is not None:
        text = _cell_text(caption, escape=False)
        if text:
            lines.append(text)
            tables.saw_text(text)
    rows = _grid(table)
    width = max((len(cells) for cells, _ in rows), default=0)
    rows = [(cells + [""] * (width - len(cells)), head) for cells, head in rows]
    rows = [(cells, head) for cells, head in rows if any(cells)]
    if not rows:
        return lines
    if width == 1:  # a one-column table is a list
        tables.header = None
        tables.since = []
        return lines + [cells[0] for cells, _ in rows]
    # A row of one cell across the whole width is a line above or below the table: its caption (表A.1 储存限量), a
    # unit (单位：吨), a note (注：…), not a row of values under the header.
    captions = len(lines)
    while len(rows) > 1 and (_across(rows[0][0]) or heads_table([cells for cells, _ in rows[:2]])):
        lines.append(header_line(rows.pop(0)[0]))  # its caption, or its attachment's label row (附件1 | 名单 |)
        tables.saw_text(lines[-1])
    notes = []
    while len(rows) > 1 and _across(rows[-1][0]):
        notes.insert(0, rows.pop()[0][0])
    marked = 0
    while marked < len(rows) and rows[marked][1]:
        marked += 1
    if not marked:
        marked = _grouped_header(table, len(rows), len(lines) - captions)
    header_rows = [cells for cells, _ in rows[: marked or 1]]
    body = [cells for cells, _ in rows[marked or 1 :]]
    header = [" ".join(dict.fromkeys(c for c in column if c)) for column in zip(*header_rows)]
    continued = tables.since and all(_CONTINUED.search(line) for line in tables.since)
    if not marked and continued and tables.header and len(tables.header) == width and header != tables.header:
        body.insert(0, header)  # 表 D.1 (续) without its header row: the rows go on under the last header
        header = tables.header
    tables.header = header
    tables.since = []
    lines.append(_row(header))
    lines.append(_row(["---"] * width))
    lines.extend(_row(cells) for cells in body)
    return lines + notes


def _across(cells: list[str]) -> bool:
    """A row whose one cell spans every column (colspan repeats it)."""
    return bool(cells[0]) and all(c == cells[0] for c in cells)


def _grouped_header(table, rows: int, skipped: int = 0) -> int:
    """How many rows a header of plain cells spans: a first row (after `skipped` caption rows) that groups columns
    (限量 over two) beside a cell that reaches down (类别 over two rows) is a header as tall as that cell, its group's
    names on the rows below (单间库房/t, 库区/t); else 0 (the first row alone is the header)."""
    first = next((tr for i, tr in enumerate(tr for tr in table.iter("tr") if _owner_table(tr) is table)
                  if i == skipped), None)
    if first is None:
        return 0
    cells = [c for c in first if _tag(c) in ("td", "th")]
    down = max((_span(c.get("rowspan"), MAX_ROWSPAN) for c in cells), default=1)
    across = any(_span(c.get("colspan"), MAX_COLSPAN) > 1 for c in cells)
    return min(down, MAX_HEADER_ROWS, rows - 1) if across and down > 1 else 0


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _grid(table) -> list[tuple[list[str], bool]]:
    """Each row's cells with colspan repeated and rowspan carried down, and whether it is a header row."""
    grid: list[tuple[list[str], bool]] = []
    carried: dict[int, list] = {}  # column -> [rows left, text]
    for tr in table.iter("tr"):
        if _owner_table(tr) is not table:
            continue  # a row of a table nested in a cell
        cells = [c for c in tr if _tag(c) in ("td", "th")]
        parent = tr.getparent()
        head = bool(cells) and (all(_tag(c) == "th" for c in cells) or (parent is not None and _tag(parent) == "thead"))
        row: list[str] = []

        def take_carried() -> None:
            while len(row) in carried:
                left = carried[len(row)]
                row.append(left[1])
                left[0] -= 1
                if left[0] <= 0:
                    del carried[len(row) - 1]

        for cell in cells:
            take_carried()
            text = _cell_text(cell, escape=True)
            span = _span(cell.get("colspan"), MAX_COLSPAN)
            down = _span(cell.get("rowspan"), MAX_ROWSPAN)
            for _ in range(span):
                if down > 1:
                    carried[len(row)] = [down - 1, text]
                row.append(text)
        for column in sorted(c for c in carried if c >= len(row)):
            row.extend([""] * (column - len(row)))
            take_carried()
        grid.append((row, head))
    return grid


def _owner_table(el):
    parent = el.getparent()
    while parent is not None and _tag(parent) != "table":
        parent = parent.getparent()
    return parent


def _span(value: str | None, limit: int) -> int:
    try:
        return max(1, min(int((value or "1").strip()), limit))
    except ValueError:
        return 1


def _cell_text(el, escape: bool) -> str:
    """A cell's text on one line: line breaks and inner blocks become spaces; `|` escaped inside a table."""
    parts: list[str] = []

    def walk(node) -> None:
        tag = _tag(node)
        if tag is not None and tag not in _DROPPED:
            spaced = tag == "br" or tag in BLOCK_TAGS
            parts.append(" " if spaced else "")
            parts.append(node.text or "")
            for child in node:
                walk(child)
                parts.append(child.tail or "")
            parts.append(" " if spaced else "")

    walk(el)
    text = _collapse("".join(parts))
    return text.replace("|", "\\|") if escape else text
