"""A mixin over a real embedder that records every text it is asked to embed (the cache tests count on it)."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np


class RecordsTexts:
    """Put first in the bases of a real embedder class: its passages and queries are kept in order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.passages: list[str] = []
        self.queries: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages.extend(texts)
        return super().embed_passages(texts)  # type: ignore[misc]

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.queries.extend(texts)
        return super().embed_queries(texts)  # type: ignore[misc]
