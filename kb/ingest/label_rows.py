"""A table whose top row holds its attachment's label: a form set as a table carries 附件1 (and its title) in its first
row, where a reader reads the attachment's header (附件1 | 节日值班安排表 | ), not a row of the table. The readers of
.docx and HTML tables write that row as the header line it is."""
from __future__ import annotations

from typing import Sequence

from kb.labels import is_label_alone


def heads_table(rows: Sequence[Sequence[str]]) -> bool:
    """The first row holds a label alone, or the label and one title, and the next row does not open with a label
    too: rows of labels and titles are a table of the attachments sent (附件1 | 报名表 / 附件2 | 承诺书)."""
    labelled = [_label_row(cells) for cells in rows[:2]]
    return bool(labelled) and labelled[0] and not (len(labelled) > 1 and labelled[1])


def header_line(cells: Sequence[str]) -> str:
    """The label row as the line it reads as: 附件1 节日值班安排表 (a cell spread over columns once)."""
    return " ".join(_filled(cells))


def _label_row(cells: Sequence[str]) -> bool:
    filled = _filled(cells)
    return 1 <= len(filled) <= 2 and is_label_alone(filled[0])


def _filled(cells: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(cell.strip() for cell in cells if cell.strip()))
