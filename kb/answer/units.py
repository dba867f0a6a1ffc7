"""A source read as a careful person reads it: sentences, list items, and table rows with their header."""
from __future__ import annotations

import re
from functools import lru_cache

from kb.ingest.parsing import CELL_SEPARATOR
from kb.ingest.splitting import is_header_line, is_toc_line

_SENTENCE = re.compile(r"[^。！？；!?;\n]+[。！？；!?;]?")
_RULE = re.compile(r":?-{2,}:?|")
MAX_PLAIN_COLUMNS = 6
_SENTENCE_END = re.compile(r"[。！？；!?;]$")
_SENTENCE_PUNCT = re.compile(r"[。！？；!?;，,：:、]")
INTRODUCES = re.compile(r"[：:]\s*$")  # a sentence that introduces the list below it
_DIGIT = re.compile(r"[0-9０-９]")
_PIPE = re.compile(r"(?<!\\)" + re.escape(CELL_SEPARATOR.strip()))


@lru_cache(maxsize=4096)
def read_units(text: str) -> tuple[tuple[str, str | None], ...]:
    """The answerable units of a source text (cached: the same chunks come back turn after turn)."""
    return tuple(_read_units(text))


def _read_units(text: str) -> list[tuple[str, str | None]]:
    """The answerable units of a source: sentences (None), list lines ("") and table rows read as 'column：value'
    with their header row (the header's text)."""
    units: list[tuple[str, str | None]] = []
    header: list[str] | None = None
    plain: list[str] | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if not stripped or is_toc_line(line) or is_header_line(stripped):
            header = None
            continue
        if CELL_SEPARATOR in stripped:
            cells = _cells(stripped)
            if all(_RULE.fullmatch(c) for c in cells):
                continue  # a Markdown table's |---|---| line
            if header is None:
                header = cells
                continue
            if len(cells) == len(header):
                units.append(("；".join(f"{h}：{v}" for h, v in zip(header, cells) if v and h != v), " ".join(header)))
                continue
        header = None
        fields = stripped.split()
        if plain and len(fields) == len(plain) and _DIGIT.search(stripped):
            units.append(("；".join(f"{h}：{v}" for h, v in zip(plain, fields)), " ".join(plain)))
            continue
        # A table that lost its grid (text or PDF copies): a header line of short fields without digits, then
        # rows with as many fields (争议金额(人民币) 仲裁案件受理费(人民币) / 1000元以下的部分 40－100元).
        plain = fields if _is_plain_header(fields, stripped) else None
        sentences = [m.group(0) for m in _SENTENCE.finditer(stripped) if m.group(0).strip()]
        item = (len(sentences) == 1 and not _SENTENCE_END.search(stripped) and not INTRODUCES.search(stripped)
                and not stripped.startswith("#"))
        units.extend((sentence, "" if item else None) for sentence in sentences)
    return units


def _is_plain_header(fields: list[str], line: str) -> bool:
    return (2 <= len(fields) <= MAX_PLAIN_COLUMNS and all(len(f) <= 20 for f in fields)
            and not _DIGIT.search(line) and not _SENTENCE_PUNCT.search(line))


def _cells(row: str) -> list[str]:
    cells = [c.strip() for c in _PIPE.split(row)]  # a Markdown cell's escaped \| is text, not a border
    if row.startswith("|") and cells and not cells[0]:
        cells = cells[1:]
    if row.endswith("|") and cells and not cells[-1]:
        cells = cells[:-1]
    return cells
