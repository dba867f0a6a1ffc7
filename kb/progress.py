"""A tqdm progress bar on stderr that ingestion's progress callback can drive."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Iterator

from tqdm import tqdm

from kb.ingest.ingestor import Progress


@contextmanager
def progress_bar(description: str) -> Iterator[Progress]:
    """Yield a (done, total, what) callback that moves a bar on stderr; the bar closes on exit."""
    with tqdm(total=1, unit="step", desc=description, file=sys.stderr, disable=None) as bar:

        def progress(done: int, total: int, what: str) -> None:
            bar.total, bar.n = total, done
            bar.set_postfix_str(what[:40])
            bar.refresh()

        yield progress
