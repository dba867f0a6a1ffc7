"""A table that lost its grid and its line breaks (a standard's list copied as one long line: `序号 物 质 名 称 CAS 号
临界量（吨） 备 注 第一部分 1 甲醛 50-00-0 0.5 2 四氯化碳 56-23-5 7.5 …`) read back into rows, as a reader does: by its
serial numbers, which count up one by one, each followed by the row's first cell.

What stands before the first row is the table's caption and column names: each row is read under it, so that
`四氯化碳的CAS号是多少` finds the row of 四氯化碳 with the header that says which number is the CAS号.
"""
from __future__ import annotations

import re
from typing import NamedTuple

MIN_ROWS = 5  # serial numbers counting up one by one: fewer are numbers in a sentence (第1、2、3项)
MAX_ROW_FIELDS = 16  # fields between two serial numbers: farther apart, the next number is no row's serial
MAX_HEAD = 120  # characters of a caption and column names; a longer text before the numbers is prose with a list
_SENTENCE_END = re.compile(r"[。；;]")  # a row is cells, not sentences: 1 生产污水量应按…确定； is a list's item
_SERIAL = re.compile(r"[0-9]{1,4}")
_NUMBER = re.compile(r"[0-9][0-9.,*%/-]*")


class FlatTable(NamedTuple):
    head: str  # what stands before the first row: the caption and the column names
    rows: list[str]  # each row's fields, its serial number first
    tail: str  # what follows the last row (说明：…)


def read_flat_table(line: str) -> FlatTable | None:
    """The rows of a line that is a table written out flat, or None when its numbers do not count rows."""
    fields = line.split()
    if len(fields) < 2 * MIN_ROWS:
        return None
    chain = _longest_chain(fields)
    if len(chain) < MIN_ROWS:
        return None
    lengths = sorted(b - a for a, b in zip(chain, chain[1:]))
    typical = lengths[len(lengths) // 2]
    ends = [*chain[1:], min(len(fields), chain[-1] + typical)]
    rows = [" ".join(fields[a:b]) for a, b in zip(chain, ends)]
    head = " ".join(fields[: chain[0]])
    if len(head) > MAX_HEAD or sum(bool(_SENTENCE_END.search(r)) for r in rows) > len(rows) // 5:
        return None
    return FlatTable(" ".join(fields[: chain[0]]), rows, " ".join(fields[ends[-1]:]))


def _longest_chain(fields: list[str]) -> list[int]:
    """Positions of the longest run of serial numbers n, n+1, n+2, … each followed by a cell that is no number."""
    def serial(i: int) -> int | None:
        if _SERIAL.fullmatch(fields[i]) and i + 1 < len(fields) and not _NUMBER.fullmatch(fields[i + 1]):
            return int(fields[i])
        return None

    best: list[int] = []
    used: set[int] = set()
    for start in range(len(fields)):
        if start in used or serial(start) is None:
            continue
        chain, at = [start], start
        while True:
            want = serial(at) + 1  # type: ignore[operator]
            nxt = next((j for j in range(at + 2, min(len(fields), at + 2 + MAX_ROW_FIELDS)) if serial(j) == want), None)
            if nxt is None:
                break
            chain.append(nxt)
            at = nxt
        used.update(chain)
        if len(chain) > len(best):
            best = chain
    return best
