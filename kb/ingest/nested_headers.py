"""A header written again inside the attachment it names: the attachment's own attachment (附件1, a plan with its own
list, then its 附1), not a second 附件1."""
from __future__ import annotations

from typing import Protocol, Sequence

from kb.ingest.header_lines import is_header_line


class _Line(Protocol):
    text: str


class _Header(Protocol):
    order: int  # the index of its line
    inline: bool
    omitted: bool


def inside_own(content: NextContent, earlier: _Header | None, header_lines: list[tuple[int, str, str]],
               at: int) -> bool:
    """A header of a label already begun, inside that attachment, is the attachment's own (a plan given as 附件1 lists
    and carries its 附1): the attachment began with content of its own and no other header stands between. A label
    written again after a list or ToC line, or after other headers, begins the attachment instead."""
    if earlier is None or earlier.inline or earlier.omitted:
        return False
    if header_lines and header_lines[-1][0] > earlier.order:  # the last header read stands between
        return False
    return content.after(earlier.order) < at


class NextContent:
    """For each line, the next line below it that is content (not blank, not a header): read once, from the end."""

    def __init__(self, lines: Sequence[_Line]) -> None:
        self._lines = lines
        self._next: list[int] | None = None

    def after(self, i: int) -> int:
        if self._next is None:
            self._next, following = [0] * len(self._lines), len(self._lines)
            for j in range(len(self._lines) - 1, -1, -1):
                self._next[j] = following
                text = self._lines[j].text
                if text.strip() and not is_header_line(text):
                    following = j
        return self._next[i]
