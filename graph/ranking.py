"""The one ranking of attachment paths, shared by the Kuzu store and the in-memory view so both answer alike."""
from __future__ import annotations

from typing import Iterable

from graph.store import AttachmentPath

# A found path with what ranks it: the position of its chunk among those asked, and each mention's char start.
FoundPath = tuple[int, AttachmentPath, tuple[int, ...]]


def rank_paths(found: Iterable[FoundPath]) -> list[AttachmentPath]:
    """One path per (chunk, label sequence), the one with the earliest mentions; ordered by the chunk's position
    among those asked, then shorter paths first, then mention positions, then labels."""
    best: dict[tuple[str, tuple[str, ...]], tuple[tuple, AttachmentPath]] = {}
    for order, path, starts in found:
        rank = (order, len(path.labels), starts, path.labels)
        key = (path.chunk_id, path.labels)
        if key not in best or rank < best[key][0]:  # repeated mentions of one route keep the earliest
            best[key] = (rank, path)
    return [path for _, path in sorted(best.values(), key=lambda item: item[0])]
