"""Reading and building new documents in a second process, while the ingesting process writes the ones before.

An ingest's time is two halves that need each other only at the hand-over: reading, splitting, linking and
tokenizing a document (pure Python, ~0.9 ms of CPU a chunk) and writing it to Chroma, Kuzu and the keyword store
(~1.3 ms, Chroma's add holding the GIL). In one process the halves take turns; a thread cannot overlap them (a
Python thread beside a Chroma add runs 130× slower). So a bulk ingest hands its new documents to a worker process
a window ahead of the writes, and the writes take the built documents, with their chunks' words, in file order.

Only documents the library does not hold yet go there: building one that is stored may need its stored parts (a
parent re-ingested with its attachment files), which live in the graph store this process owns. A small ingest
(an upload of a few files) builds inline: starting the worker costs about a second.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import queue
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from kb.errors import AnnexError
from kb.ingest.assemble import Limits, build_document
from kb.ingest.parsing import parse_file
from kb.ingest.units import Unit, read_unit
from kb.model import Document, IngestResult
from kb.search.keyword_index import ChunkWordsOf, chunk_words

log = logging.getLogger(__name__)
MIN_UNITS = 40  # documents an ingest builds before a worker is worth its start


@dataclass(frozen=True)
class BuildRules:
    """What building one document needs besides its files (from Settings, read once by the ingestor)."""

    library: str
    tags: tuple[str, ...]
    target: int
    cap: int
    limits: Limits
    max_bytes: int
    max_ocr: int


@dataclass
class Built:
    """One unit after reading and building: its document (None when nothing could be built), the document's chunk
    words when they were computed with it, and the result lines of its files that failed."""

    unit: Unit
    document: Document | None
    words: ChunkWordsOf | None
    results: dict[str, IngestResult]


class _NoStoredDocuments:
    """The graph as a worker sees it: a unit sent there belongs to a document the library does not hold, so no
    stored parent exists for its attachment files to join."""

    def find_document(self, library: str, stem: str) -> None:
        return None


def build_new(unit: Unit, rules: BuildRules) -> Built:
    """Read and build a document the library does not hold yet, with its chunks' words (runs in the worker)."""
    results: dict[str, IngestResult] = {}

    def read(path: Path):
        return parse_file(path, rules.max_bytes, None, rules.max_ocr)

    if not read_unit(unit, rules.library, _NoStoredDocuments(), read, results):  # type: ignore[arg-type]
        return Built(unit, None, None, results)
    assert unit.main is not None  # a new document's unit has its main file, or read_unit returned False
    try:
        doc = build_document(rules.library, unit.main, list(unit.extras.values()), rules.target, rules.cap,
                             rules.tags, rules.limits)
    except AnnexError as exc:
        for name in unit.files:
            results[name] = IngestResult(Path(name).name, status="error", error=str(exc))
        return Built(unit, None, None, results)
    return Built(unit, doc, chunk_words(doc), results)


class Builder:
    """Builds the units of one ingest in order: new documents in worker processes ahead of the writes, the rest
    inline through `inline` when their turn comes.

    A worker gets its whole list of units when it starts and sends each Built back through its own queue, which
    this process reads only when it needs that document. No thread of this process has to run for the worker to go
    on: a ProcessPoolExecutor's feeding thread needs the GIL, which Chroma's add holds for a whole call, and starved
    the worker (an ingest took longer with it than without). A semaphore keeps each worker at most `window`
    documents ahead of the writes."""

    def __init__(self, rules: BuildRules, workers: int, window: int) -> None:
        self.rules = rules
        self.workers = workers
        self.window = window

    def run(self, units: Sequence[Unit], new: Iterable[bool], inline: Callable[[Unit], Built]) -> Iterator[Built]:
        """Each unit's Built, in the units' order; `new[i]`: unit i's document is not stored (a worker may build
        it); `inline(unit)` builds one in this process."""
        flags = list(new)
        jobs = [i for i, flag in enumerate(flags) if flag]
        if self.workers <= 0 or len(jobs) < MIN_UNITS:
            for unit in units:
                yield inline(unit)
            return
        context = multiprocessing.get_context("spawn")  # fork would copy Chroma's and Kuzu's threads' locks
        owner = {i: n % self.workers for n, i in enumerate(jobs)}
        crews = [_Crew(context, [(i, units[i]) for i in jobs if owner[i] == k], self.rules, self.window)
                 for k in range(self.workers)]
        elsewhere = 0
        try:
            for i, unit in enumerate(units):
                built = crews[owner[i]].take(i) if i in owner else None
                if built is None:
                    yield inline(unit)
                else:
                    elsewhere += 1
                    yield replace(built, unit=_adopt(unit, built.unit))
        finally:
            for crew in crews:
                crew.stop()
            log.info("built %d of %d documents in %d worker processes", elsewhere, len(units), len(crews))


class _Crew:
    """One worker process and its queue of Builts."""

    def __init__(self, context: Any, jobs: list[tuple[int, Unit]], rules: BuildRules, window: int) -> None:
        self.results = context.Queue()
        self.credit = context.Semaphore(window)
        self.process = context.Process(target=_work, args=(jobs, rules, self.results, self.credit, os.getpid()), daemon=True)
        self.process.start()
        self.dead = False

    def take(self, index: int) -> Built | None:
        """Unit `index`'s Built (the worker builds its units in order); None when the worker is gone, so that the
        caller builds the unit itself."""
        while not self.dead:
            try:
                got, built = self.results.get(timeout=1.0)
            except queue.Empty:
                if not self.process.is_alive():
                    self.dead = True
                    log.warning("the ingest's build process ended (exit code %s); building the rest here",
                                self.process.exitcode)
                continue
            self.credit.release()
            if got == index:
                return built
        return None

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(timeout=5)
        self.results.close()


def _work(jobs: list[tuple[int, Unit]], rules: BuildRules, results: Any, credit: Any, parent: int) -> None:
    """The worker's whole life: build each unit, at most `window` ahead of what the ingest has taken; it ends when
    the ingesting process is gone (killed mid-ingest: nothing is left waiting for it)."""
    results.cancel_join_thread()  # never wait at exit to hand over what nobody will read
    for index, unit in jobs:
        while not credit.acquire(timeout=1.0):
            if os.getppid() != parent:
                return
        if os.getppid() != parent:
            return
        results.put((index, build_new(unit, rules)))


def _adopt(unit: Unit, read: Unit) -> Unit:
    """The ingest's own unit, filled with what the worker read (its copy came back through a pipe)."""
    unit.main, unit.main_path, unit.extras = read.main, read.main_path, read.extras
    unit.extra_files, unit.stored, unit.unread = read.extra_files, read.stored, read.unread
    return unit
