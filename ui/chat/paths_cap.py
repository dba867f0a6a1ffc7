"""What the paths figure draws: the attachments the answer used plus a few others, grouped by document.

A broad question prefetches fifteen attachments across several documents; drawn all at once their labels pile
up. The cap keeps the answer's own paths and the next few attachments (its documents' first), and says how many
it left out; the full picture is one click away.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

OTHERS = 4  # attachments drawn besides the ones the answer used
UNUSED = 6  # attachments drawn when the answer used none


@dataclass(frozen=True)
class CappedPaths:
    """The paths to draw, and how many attachments the turn reached in all."""

    paths: list[Mapping]
    shown: int  # distinct attachments the kept paths end at
    total: int  # distinct attachments all the paths end at

    @property
    def capped(self) -> bool:
        return self.shown < self.total


def _end(path: Mapping) -> Mapping:
    return path["steps"][-1]


def cap_paths(paths: Sequence[Mapping], others: int = OTHERS, unused: int = UNUSED) -> CappedPaths:
    """The paths ending at an attachment the answer used, plus those of the first `others` other attachments.

    Others are ranked by document (the used attachments' documents first, then in order of appearance), then by
    where they first appear; the kept paths are ordered by document so each document's nodes sit together.
    """
    ends: dict[str, Mapping] = {}
    for p in paths:
        ends.setdefault(_end(p)["id"], _end(p))
    used = {_end(p)["id"] for p in paths if p["stage"] == "post_hop"}
    docs = list(dict.fromkeys([ends[i].get("doc_id", "") for i in ends if i in used]
                              + [e.get("doc_id", "") for e in ends.values()]))
    rank = {doc: i for i, doc in enumerate(docs)}
    order = list(ends)
    rest = sorted((i for i in ends if i not in used), key=lambda i: (rank[ends[i].get("doc_id", "")], order.index(i)))
    keep = used | set(rest[: others if used else unused])
    kept = [p for p in paths if _end(p)["id"] in keep]
    kept.sort(key=lambda p: rank[_end(p).get("doc_id", "")])  # stable: a document's paths keep their order
    return CappedPaths(kept, len(keep), len(ends))
