"""Headers written again inside the attachment that carries them: the attachment's own attachments, not the
document's. A plan given as 附件1 lists and carries its 附1; a notice's 附件3 is a plan with its own list 附件：1．… 3．
and its own 附件1 … 附件3 below. Numbered again from 1, they restart inside the attachment they belong to: each is read
as part of it (a chunk begins at its header) and a mention inside that attachment names its own, never the
notice's 附件1 of the same label, which survives as written."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, Sequence

from kb.ingest.header_lines import is_header_line
from kb.ingest.title_match import near_title
from kb.text import squash

# The numbers a numbering starts from: an attachment's own list restarts at 附件1 (附录A, 附件1-1).
_FIRST = frozenset({"1", "A", "1-1"})


class _Line(Protocol):
    text: str


class _Header(Protocol):
    order: int  # the index of its line
    kind: str
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


@dataclass
class _Run:
    container: str
    form: str  # the kind as its first header writes it (附 of 附1, 附件): another form is the document's again
    labels: set[str]
    listed: frozenset[str]  # what the container's own list names; empty when it has none
    # Without a list of its own, the run goes on only through headers the document's list titles otherwise or does
    # not list (the plan's 附件2 防汛联系方式 where the notice lists 2．防汛值班报名表): a label the list gives the
    # same title, or a document without a list, is the document's (a PDF page's running 附件1, then the 附件2).
    guarded: bool = False


@dataclass
class OwnAttachments:
    """Reads, header by header, which headers are an attachment's own (see the module's docstring)."""

    content: NextContent
    lists: Sequence[tuple[int, str, str]]  # every attachment list's entries: (line index, label, title)
    own: dict[str, set[str]] = field(default_factory=dict)  # container → the labels of its own attachments
    _run: _Run | None = None

    def holds(self, label: str, form: str, title: str, at: int, headers: dict[str, _Header],
              header_lines: list[tuple[int, str, str]]) -> bool:
        """Whether the header of `label` on line `at` (its kind written `form`, its title `title`) is the own
        attachment of the one being read. The run of own attachments ends at a label it already holds (the
        notice's 附件2 after the plan's 附件1 … 附件3), at a label its own list does not name, at another written
        form (附件2 after 附1), or at the title the document's list before the container gives that label."""
        run = self._run
        if run is not None:
            if label in run.labels or form != run.form or (run.listed and label not in run.listed) \
                    or (title and self._outer_title(label, headers[run.container].order) == squash(title)) \
                    or (run.guarded and not self._listed_otherwise(label, title, headers[run.container].order)):
                self._run = None
            else:
                run.labels.add(label)
                self.own[run.container].add(label)
                return True
        container = self._container(label, at, headers, header_lines)
        if container is None:
            return False
        begun = headers[container].order
        listed = frozenset(x for n, x, _ in self.lists if begun < n < at)
        self.own.setdefault(container, set()).add(label)
        # Its own 附1 written inside it goes on to its 附2 as its own list says; without one, only through headers
        # the document's list titles otherwise (_Run.guarded).
        self._run = _Run(container, form, {label}, listed, guarded=container == label and not listed)
        return True

    def _container(self, label: str, at: int, headers: dict[str, _Header],
                   header_lines: list[tuple[int, str, str]]) -> str | None:
        """The attachment a header of a label already begun restarts inside: the one it was written in (its 附1), or
        the last one read when the header starts a numbering anew (附件1 inside the notice's 附件3) and both the
        earlier 附件1 and that attachment hold content of their own."""
        earlier = headers.get(label)
        if inside_own(self.content, earlier, header_lines, at):
            return label
        if earlier is None or earlier.inline or earlier.omitted or not header_lines:
            return None
        if label[len(earlier.kind):] not in _FIRST:
            return None
        last, container, _ = header_lines[-1]
        if container == label or container not in headers or headers[container].order != last:
            return None
        following = next((n for n, _, _ in header_lines if n > earlier.order), at)
        if self.content.after(earlier.order) >= following or self.content.after(last) >= at:
            return None  # one of them is a list's line, not an attachment that holds anything
        return container

    def _listed_otherwise(self, label: str, title: str, before: int) -> bool:
        """Whether the document's list above line `before` leaves this header to the attachment being read: it lists
        the label under another title, or not at all (the plan's 附件3 where the notice lists 1．预案 2．报名表)."""
        if not any(n < before for n, _, _ in self.lists):
            return False  # no list to tell: a PDF page's running 附件1, then the document's 附件2
        outer = self._outer_title(label, before)
        return not outer or bool(title) and not near_title(outer, title)

    def _outer_title(self, label: str, before: int) -> str:
        """The title a list written before line `before` gives `label`, squashed; '' when none does."""
        return next((squash(title) for n, x, title in self.lists if n < before and x == label), "")


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
