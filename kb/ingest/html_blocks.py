"""Where HTML blocks sit in Markdown or plain text, by CommonMark's HTML block rule (see html_text.py): a block starts
at a line that opens with a block-level tag and runs to the next blank line, and on past blank lines while the next
line starts another block or a `<table>` is not closed yet; a raw-text block runs to its closing tag."""
from __future__ import annotations

import re

# CommonMark's block-level tag names (HTML block type 6) plus the raw-text ones (type 1).
BLOCK_TAGS = frozenset(
    "address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl "
    "dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend "
    "li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td "
    "tfoot th thead title tr track ul pre script style textarea".split()
)
_START = re.compile(r"^\s*(?:</?([A-Za-z][A-Za-z0-9]*)(?=[\s/>]|$)|<!doctype\s)", re.I)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_TABLE_OPEN = re.compile(r"<table(?=[\s/>])", re.I)
_TABLE_CLOSE = re.compile(r"</table\s*>", re.I)
_RAW_TEXT = frozenset({"script", "style", "pre", "textarea"})


def _is_start(line: str) -> bool:
    match = _START.match(line)
    return bool(match) and (match.group(1) is None or match.group(1).lower() in BLOCK_TAGS)


def block_regions(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, last) line of each HTML block, outside fenced code."""
    regions: list[tuple[int, int]] = []
    last_close = max((k for k, line in enumerate(lines) if "</" in line and _TABLE_CLOSE.search(line)), default=-1)
    fence: str | None = None
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        mark = _FENCE.match(line)
        if fence is not None:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence):
                fence = None
            i += 1
            continue
        if mark:
            fence = mark.group(1)
            i += 1
            continue
        if not _is_start(line):
            i += 1
            continue
        end, open_tables = i, _open_tables(line)
        raw = _START.match(line).group(1)
        if raw and raw.lower() in _RAW_TEXT:
            close = re.compile(rf"</{raw}\s*>", re.I)
            while end + 1 < n and not close.search(lines[end]):
                end += 1
        while True:
            while end + 1 < n and lines[end + 1].strip():
                end += 1
                open_tables += _open_tables(lines[end])
            following = end + 1
            while following < n and not lines[following].strip():
                following += 1
            # on past the blank lines: to another block, or to the </table> of a table still open
            if following < n and (_is_start(lines[following]) or (open_tables > 0 and last_close >= following)):
                end = following
                open_tables += _open_tables(lines[end])
                continue
            break
        regions.append((i, end))
        i = end + 1
    return regions


def tables_on_their_lines(lines: list[str]) -> list[str]:
    """The lines with a table that opens after text on its line (表A.1 储存限量<table>…) moved to a line of its own,
    outside fenced code: a Markdown renderer shows that inline HTML as the table it is, so a reader does."""
    out: list[str] = []
    fence: str | None = None
    for line in lines:
        mark = _FENCE.match(line)
        if fence is not None:
            if mark and mark.group(1)[0] == fence[0] and len(mark.group(1)) >= len(fence):
                fence = None
        elif mark:
            fence = mark.group(1)
        else:
            opens = _TABLE_OPEN.search(line)
            if opens and line[: opens.start()].strip() and not _is_start(line):
                out += [line[: opens.start()].rstrip(), line[opens.start():]]
                continue
        out.append(line)
    return out


def _open_tables(line: str) -> int:
    if "<" not in line:
        return 0
    return len(_TABLE_OPEN.findall(line)) - len(_TABLE_CLOSE.findall(line))
