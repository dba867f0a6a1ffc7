"""The vector store in a process of its own, for bulk loads (`python -m kb ingest`, the benchmark's load).

Chroma's embedded add holds its process's interpreter for ~0.8 ms a chunk, about as long as everything else an
ingest does with a chunk (reading, splitting, tokenizing, the keyword and graph writes): in one process they run in
series. Here the Chroma client lives in a child process and a write only sends the documents there, so the child
adds one batch's vectors while this process reads and builds the next (kb/ingest/ingestor.py commits each batch's
graph node only once its vectors are acknowledged, as before).

Embedded Chroma may be opened by one process at a time: a process that uses this store never opens it itself.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import pickle
import queue
import signal
import sys
import traceback
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Sequence

from kb.errors import VectorStoreError
from kb.model import Document
from kb.readers_first import ReadersFirst
from kb.settings import Settings
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION, VectorHit

POLL_S = 1.0  # how often a side waiting on the other checks that it is still alive
STOP = "stop"
PR_SET_PDEATHSIG = 1  # linux/prctl.h: the signal a process gets when the thread that started it ends


class VectorsApart:
    """VectorStore whose calls run in a child process holding the Chroma client; writes may run ahead."""

    def __init__(self, settings: Settings) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process that holds Kuzu's and Chroma's threads
        self._requests = context.Queue()  # its feeder thread sends, so a write returns while the child is busy
        self._replies = context.Queue()
        self._process = context.Process(
            target=_serve, args=(settings, self._requests, self._replies), name="annex-vectors", daemon=True
        )
        self._process.start()
        self._sent = 0
        self._answers: dict[int, tuple[bool, Any]] = {}
        self._call("count")  # the child opened the store, or its error is raised here

    @property
    def pid(self) -> int:
        """The child's process id (the benchmark reads its memory)."""
        return int(self._process.pid or 0)

    def begin_upsert(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> Callable[[], None]:
        """Send the documents to be written and return at once; the returned wait() returns when they are written
        or raises the VectorStoreError that stopped them. The child writes in the order it was sent."""
        ticket = self._send("upsert_documents", ([_slim(doc) for doc in docs],))
        return lambda: self._wait(ticket)

    def upsert_documents(self, docs: Sequence[Document], readers: ReadersFirst | None = None) -> None:
        self.begin_upsert(docs)()

    def delete_document(self, doc_id: str) -> int:
        return self._call("delete_document", doc_id)

    def query(self, text: str, k: int, libraries: Sequence[str] | None = None, doc_id: str | None = None,
              collections: Sequence[str] = (BODY_COLLECTION, ATTACHMENT_COLLECTION)) -> list[VectorHit]:
        return self._call("query", text, k, libraries, doc_id, collections)

    def nearest(self, text: str, k: int, libraries: Sequence[str] | None = None,
                doc_id: str | None = None) -> list[tuple[str, float]]:
        return self._call("nearest", text, k, libraries, doc_id)

    def attachment_chunk_ids(self, doc_id: str, label: str) -> list[str]:
        return self._call("attachment_chunk_ids", doc_id, label)

    def doc_ids(self) -> set[str]:
        return self._call("doc_ids")

    def chunk_counts(self) -> dict[str, int]:
        return self._call("chunk_counts")

    def chunk_versions(self, doc_ids: Sequence[str] | None = None) -> dict[str, dict[str, int]]:
        return self._call("chunk_versions", None if doc_ids is None else list(doc_ids))

    def count(self) -> dict[str, int]:
        return self._call("count")

    def close(self) -> None:
        """Let the child finish what it was sent, then stop it."""
        if not self._process.is_alive():
            return
        self._requests.put((0, STOP, ()))
        self._process.join(timeout=60)
        if self._process.is_alive():  # stuck: what it had not written is repaired by the next reconcile()
            self._process.kill()
            self._process.join()

    def _call(self, method: str, *args: Any) -> Any:
        return self._wait(self._send(method, args))

    def _send(self, method: str, args: Any) -> int:
        if not self._process.is_alive():
            raise self._died()
        self._sent += 1
        self._requests.put((self._sent, method, args))
        return self._sent

    def _wait(self, ticket: int) -> Any:
        """The answer to request `ticket` (answers arrive in the order sent; earlier ones are kept for their
        waiters)."""
        while ticket not in self._answers:
            try:
                number, ok, value = self._replies.get(timeout=POLL_S)
            except queue.Empty:
                if not self._process.is_alive():
                    raise self._died() from None
                continue
            self._answers[number] = (ok, value)
        ok, value = self._answers.pop(ticket)
        if not ok:
            raise value
        return value

    def _died(self) -> VectorStoreError:
        return VectorStoreError(
            f"the vector store's process stopped (exit code {self._process.exitcode}); what it had not written is "
            "written again by the next ingest of the same files, or by `python -m kb ingest` (it repairs first)"
        )


def _portable(exc: Exception) -> Exception:
    """The exception a call raised in the child, fit to be raised again in the parent: itself when it survives
    pickling, else a VectorStoreError with its text; either way carrying the child's traceback as a note."""
    where = "in the vector store's process:\n" + "".join(traceback.format_exception(exc))
    try:
        copy = pickle.loads(pickle.dumps(exc))
    except (pickle.PicklingError, TypeError, AttributeError):
        copy = VectorStoreError(f"{type(exc).__name__}: {exc}")
    copy.add_note(where)
    return copy


def _slim(doc: Document) -> Document:
    """What the vector store reads of a document (its chunks, titles and version), without its texts and parts."""
    return replace(doc, text="", parts=(), references=(), headings=())


def _serve(settings: Settings, requests: Any, replies: Any) -> None:
    """The child: open the store, then answer requests in order until told to stop or the parent is gone."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the parent, whose close() lets this one finish
    from kb.search.factory import open_vector_store  # Chroma is imported here, in the child

    parent = multiprocessing.parent_process()
    try:
        store = open_vector_store(settings)
    except Exception as exc:  # noqa: BLE001 — raised in the parent, which waits for the first answer
        replies.put((1, False, _portable(exc)))
        return
    while True:
        try:
            number, method, args = requests.get(timeout=POLL_S)
        except queue.Empty:
            if parent is not None and not parent.is_alive():
                return
            continue
        if method == STOP or (parent is not None and not parent.is_alive()):
            return
        try:
            replies.put((number, True, getattr(store, method)(*args)))
        except Exception as exc:  # noqa: BLE001 — not handled here: raised in the parent, as if the call ran there
            replies.put((number, False, _portable(exc)))


def _die_with_parent() -> None:
    """On Linux, be killed the moment the parent is (kill -9 of an ingest must not leave a writer behind that a
    new process's open would race); elsewhere the parent's liveness is checked before each request."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
