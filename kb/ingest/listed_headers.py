"""Header lines that are a list, not the attachments they name: one under another, with either one of them written
again further on, or nothing after the last but the document's sign-off."""
from __future__ import annotations

from typing import Protocol, Sequence

from kb.ingest.after_signoff import is_signoff


class _Line(Protocol):
    start: int
    end: int
    text: str


class _Header(Protocol):
    order: int  # the index of its line
    title: str


def drop_listed(lines: Sequence[_Line], headers: dict[str, _Header], header_lines: list[tuple[int, str, str]],
                 listed: dict[str, str], structural: list[tuple[int, int]]) -> None:
    """Header lines one under another with nothing between them are a list when one of them is written again
    further on as the header it names (8. 附件 / 附件1：… / 附件2：…(详见第三章) … 附件1：资格审查条件要求): the
    entries not written again are listed, not there, and the text after the list is not theirs. A list names each
    attachment once: a label the run already holds (附1. 甲 / 附2. 乙 / 附1) begins the attachment, ending the list."""
    run: list[tuple[int, str, str]] = []
    for i, label, title in [*header_lines, (-1, "", "")]:
        if run and i == run[-1][0] + 1 + _blank_lines(lines, run[-1][0] + 1, i) \
                and label not in {x for _, x, _ in run}:
            run.append((i, label, title))
            continue
        if len(run) > 1 and any(headers[x].order != j for j, x, _ in run):
            for j, x, named in run:
                structural.append((lines[j].start, lines[j].end))
                if headers[x].order == j:
                    listed.setdefault(x, headers.pop(x).title)
                elif named:
                    listed.setdefault(x, named)
        run = [(i, label, title)]


def drop_closing_list(lines: Sequence[_Line], headers: dict[str, _Header], header_lines: list[tuple[int, str, str]],
                       listed: dict[str, str], structural: list[tuple[int, int]]) -> None:
    """Header lines one under another at the document's end, with nothing after the last but its sign-off
    (附件1：《学习记录表》 / 附件2：《…整改记录表》 / 附件3：… / 检修三车间技术组 / 2017年10月20日), are the list of
    attachments the document does not hold: none of them begins one, for a notice signs off after its body and
    list, never inside an attachment. (With nothing at all after them, each is still read as an attachment.)"""
    kept = [(i, label, title) for i, label, title in header_lines if label in headers and headers[label].order == i]
    if len(kept) < 2 or not is_signoff([line.text for line in lines[kept[-1][0] + 1:]]):
        return
    run = [kept[-1]]
    for entry in reversed(kept[:-1]):
        if entry[0] + 1 + _blank_lines(lines, entry[0] + 1, run[0][0]) != run[0][0]:
            break
        run.insert(0, entry)
    if len(run) < 2:
        return
    for i, label, title in run:
        structural.append((lines[i].start, lines[i].end))
        listed.setdefault(label, headers.pop(label).title)


def _blank_lines(lines: Sequence[_Line], begin: int, end: int) -> int:
    """How many lines from begin up to end are blank (all of them, or fewer than end - begin)."""
    count = 0
    for line in lines[begin:end]:
        if line.text.strip():
            break
        count += 1
    return count
