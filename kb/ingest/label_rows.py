"""A table whose top row holds its attachment's label: a form set as a table carries 附件1 (and its title) in its first
row, where a reader reads the attachment's header (附件1 | 节日值班安排表 | ), not a row of the table. The readers of
.docx, HTML and PDF tables write that row as the header line it is."""
from __future__ import annotations

from typing import Sequence

from kb.ingest.header_lines import is_title
from kb.labels import is_label_alone


def heads_table(rows: Sequence[Sequence[str]]) -> bool:
    """The first row holds a label alone, or the label and one title, and the next row does not open with a label
    too: rows of labels and titles are a table of the attachments sent (附件1 | 报名表 / 附件2 | 承诺书)."""
    labelled = [label_row(cells) for cells in rows[:2]]
    return bool(labelled) and labelled[0] and not (len(labelled) > 1 and labelled[1])


def header_line(cells: Sequence[str]) -> str:
    """The label row as the line it reads as: 附件1 节日值班安排表 (a cell spread over columns once)."""
    return " ".join(_filled(cells))


def label_head(rows: Sequence[Sequence[str]]) -> list[str]:
    """The lines the top rows of a table read as when the first holds its attachment's label: the header line, and
    under a label alone the title written alone in the row below it (附件2 | | over 值班联系电话表 | |), as a reader
    reads them; [] when the table's first row is a row of the table."""
    if not heads_table(rows):
        return []
    head = [header_line(rows[0])]
    below = _filled(rows[1]) if len(rows) > 2 and len(_filled(rows[2])) > 1 else []  # a title over the header row
    if len(_filled(rows[0])) == 1 and len(below) == 1 and is_title(below[0]) and not label_row(rows[1]):
        head.append(below[0])
    return head


def label_row(cells: Sequence[str]) -> bool:
    """The row holds a label alone, or the label and one title (附件1 | 节日值班安排表 | )."""
    filled = _filled(cells)
    return 1 <= len(filled) <= 2 and is_label_alone(filled[0])


def _filled(cells: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(cell.strip() for cell in cells if cell.strip()))
