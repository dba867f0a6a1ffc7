"""Visitors' private libraries: one per browser session, seen only by it, removed when it ends or goes stale.

A public demo lets anyone try their own document without the token. Such an upload goes into a library named
PRIVATE_PREFIX + a random id, which this registry maps to the Gradio session that made it. Every reader outside
that session (another session, the HTTP API, the MCP tools) sees only the shared libraries: `scope` turns
"every library" into the explicit list a caller may search. Sessions do not survive a restart, so at start every
private library is an orphan and is removed; a library also goes once its session ends (Gradio's unload) or
`ttl` seconds after its last upload, whichever comes first — with every conversation that quoted it. Removal runs
on a background thread, one document at a time: deleting a big library never sits on a request's path, nor delays
the server's start.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Sequence

from kb.errors import AnnexError, NothingToSearch, ReservedLibrary, UnknownDocument, UnknownLibrary, UploadLimit
from kb.model import PRIVATE_PREFIX, is_private
from kb.ingest.ingestor import Ingestor
from kb.ingest.text_room import MB, TextRoom
from kb.answer.validation import check_storable
from kb.settings import Settings
from kb.search.readmodels import LibraryReads, ReadModels, Reads
from kb.turn import TurnRequest

logger = logging.getLogger(__name__)
SWEEP_STEP_DOCUMENTS = 1  # documents deleted per step: a step holds the ingestor's lock for one document only
SWEEP_PAUSE_SECONDS = 0.05  # between steps while a sweep has more to delete
SWEEP_PERIOD_SECONDS = 30.0  # between checks for libraries past their time limit


def check_shared_name(library: str) -> str:
    """The library name if it may name a shared library; ReservedLibrary otherwise."""
    if is_private(library):
        raise ReservedLibrary(library, PRIVATE_PREFIX)
    return library


@dataclass(frozen=True)
class VisitorLimits:
    """What visitors may store: files per upload, bytes and documents per private library, private libraries at once;
    0: no cap."""

    max_files: int = 0
    max_bytes: int = 0
    max_libraries: int = 0
    max_documents: int = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> VisitorLimits:
        return cls(settings.session_max_files, int(settings.session_max_mb * MB), settings.max_session_libraries,
                   settings.session_max_documents)


@dataclass(frozen=True)
class _Entry:
    library: str
    touched: float  # clock() of the last upload


class SessionLibraries:
    """Which private library belongs to which session, and the clean-up of ended, stale and orphaned ones."""

    def __init__(self, read: ReadModels, ingestor: Ingestor, ttl_seconds: float,
                 clock: Callable[[], float] = time.monotonic,
                 forget: Callable[[Sequence[str]], object] = lambda doc_ids: None,
                 limits: VisitorLimits = VisitorLimits()) -> None:
        self.read = read
        self.limits = limits
        self.ingestor = ingestor
        self.forget = forget  # drops the conversations that quoted deleted private documents (History)
        self.ttl = ttl_seconds
        self.clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def library_for_upload(self, session: str, sizes: Sequence[int] = ()) -> str:
        """The session's private library (created on first use) for an upload of files of these byte sizes;
        restarts its time limit. UploadLimit, changing nothing, when the upload would pass a visitor's limit."""
        if not session:
            raise AnnexError("This upload has no browser session; reload the page and upload again.")
        limits = self.limits
        if limits.max_files and len(sizes) > limits.max_files:
            raise UploadLimit("ANNEX_SESSION_MAX_FILES", f"一次上传最多 {limits.max_files} 个文件"
                              f"（ANNEX_SESSION_MAX_FILES），这次有 {len(sizes)} 个：请分批上传，或填写口令上传到共享库。")
        with self._lock:  # the check and the new entry together: two new sessions cannot both take the last place
            entry = self._entries.get(session)
            if entry is None:
                self._check_room()
            library = entry.library if entry else PRIVATE_PREFIX + uuid.uuid4().hex[:16]
            if limits.max_bytes:
                self._check_size(library, sum(sizes))
            if limits.max_documents:
                self._check_count(library, len(sizes))
            self._entries[session] = _Entry(library, self.clock())
        return library

    def _check_room(self) -> None:
        """UploadLimit when as many private libraries as allowed are alive (owned, or still being swept)."""
        cap = self.limits.max_libraries
        alive = {e.library for e in self._entries.values()} | {x for x in self.read.current().libraries if is_private(x)}
        if cap and len(alive) >= cap:
            raise UploadLimit("ANNEX_MAX_SESSION_LIBRARIES", f"访客私有库已满：同时最多 {cap} 个"
                              "（ANNEX_MAX_SESSION_LIBRARIES）。请等其他访客的私有库到期后再试，或填写口令上传到共享库。")

    def _check_count(self, library: str, incoming: int) -> None:
        """UploadLimit when the library's documents plus the upload's files would pass the per-session cap: a document
        costs memory and disk whatever its size (~60 KB of memory for a 20-byte note), so 20 MB of tiny files would
        have been a million documents."""
        held = sum(1 for d in self.read.current().documents.values() if d.library == library)
        cap = self.limits.max_documents
        if held + incoming > cap:
            raise UploadLimit("ANNEX_SESSION_MAX_DOCUMENTS", f"私有库最多存 {cap} 个文档（ANNEX_SESSION_MAX_DOCUMENTS）："
                              f"已存 {held} 个，这次上传 {incoming} 个文件。请先删除私有库里的文档，或填写口令上传到共享库。")

    def _held(self, library: str) -> int:
        """Bytes of text the library's stored chunks hold."""
        snapshot = self.read.current()
        return sum(len(c.text.encode("utf-8")) for doc_id, d in snapshot.documents.items() if d.library == library
                   for c in snapshot.stored[doc_id].chunks)

    def text_room(self, library: str) -> TextRoom | None:
        """The extracted text an upload may still add to the private library; None without a per-session cap."""
        cap = self.limits.max_bytes
        return TextRoom(max(0, cap - self._held(library)), cap) if cap else None

    def _check_size(self, library: str, incoming: int) -> None:
        """UploadLimit when the library's stored text plus the upload's bytes would pass the per-session cap."""
        held = self._held(library)
        cap = self.limits.max_bytes
        if held + incoming > cap:
            raise UploadLimit("ANNEX_SESSION_MAX_MB", f"私有库最多存 {cap / MB:.3g} MB（ANNEX_SESSION_MAX_MB）：已存 "
                              f"{held / MB:.3g} MB，这次上传 {incoming / MB:.3g} MB。请先删除私有库里的文档，"
                              "或填写口令上传到共享库。")

    def own(self, session: str | None) -> str | None:
        """The session's private library id, if it has one that is not past its time limit."""
        entry = self._entries.get(session or "")
        return entry.library if entry and not self._stale(entry, self.clock()) else None

    def visible(self, session: str | None, present: Iterable[str]) -> list[str]:
        """Of the libraries present, the ones the session may see: the shared ones, then its own."""
        own = self.own(session)
        present = set(present)
        return sorted(x for x in present if not is_private(x)) + ([own] if own in present else [])

    def may_see(self, session: str | None, library: str) -> bool:
        """Whether the session (None: a caller without one) may read this library."""
        return not is_private(library) or (session is not None and library == self.own(session))

    def scope(self, request: TurnRequest, session: str | None = None) -> TurnRequest:
        """The request with its libraries made explicit and checked: empty means every library the session sees.

        Every entry point that searches (chat, compare, eval, the HTTP API, agent mode) scopes through here, so
        the pipeline never gets an empty list, which it would read as "every library". Raises UnknownLibrary
        (naming only visible libraries) for one it may not see, UnknownDocument for a document of such a library,
        NothingToSearch when it sees no library holding documents: nothing to search, never everything.
        """
        check_storable(request)  # a lone surrogate is refused as such, before it is looked up as a library
        snapshot = self.read.current()
        visible = self.visible(session, snapshot.libraries)
        for library in request.library_ids:
            if library not in visible:
                raise UnknownLibrary(library, set(visible))
        doc = snapshot.documents.get(request.document_id or "")
        if doc is not None and doc.library not in visible:
            raise UnknownDocument(request.document_id or "")
        if request.library_ids:
            return request
        if not visible:
            raise NothingToSearch()
        return replace(request, library_ids=tuple(visible))

    def end(self, session: str | None) -> None:
        """The session ended: its library is nobody's now, and the background sweep deletes it."""
        with self._lock:
            self._entries.pop(session or "", None)
        self._wake.set()

    def sweep(self, max_documents: int | None = None) -> int:
        """Delete documents of private libraries past their time limit or owned by no session (at most
        max_documents of them); how many went."""
        now = self.clock()
        with self._lock:
            for session in [s for s, e in self._entries.items() if self._stale(e, now)]:
                del self._entries[session]
            owned = {e.library for e in self._entries.values()}
        doomed = [d.id for d in self.read.current().documents.values() if is_private(d.library) and d.library not in owned]
        return sum(1 for doc_id in doomed[:max_documents] if self.delete(doc_id))

    def start(self) -> None:
        """Sweep in the background from now on: at once, when a session ends, and every SWEEP_PERIOD_SECONDS."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="session-sweep", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """End the background sweep (after the document it is deleting)."""
        self._stopped.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                deleted = self.sweep(max_documents=SWEEP_STEP_DOCUMENTS)
            except AnnexError as exc:  # a store error is logged and retried at the next period, never fatal
                logger.warning("session sweep failed, retried in %s s: %s", SWEEP_PERIOD_SECONDS, exc)
                deleted = 0
            # One document per step with a pause between: an upload or a delete waiting for the ingestor gets in.
            self._wake.wait(SWEEP_PAUSE_SECONDS if deleted else SWEEP_PERIOD_SECONDS)
            self._wake.clear()

    def _stale(self, entry: _Entry, now: float) -> bool:
        return self.ttl > 0 and now - entry.touched > self.ttl

    def delete(self, doc_id: str) -> bool:
        """Delete one private document and every conversation that quoted it; False if it was not stored."""
        deleted = self.ingestor.delete(doc_id)
        self.forget([doc_id])
        return deleted


class SharedReads(LibraryReads):
    """The read models as a reader without a session sees them: snapshots of the shared libraries only.

    Hand this to a reader that must never reach a private library (the MCP tools).
    """

    def __init__(self, read: Reads) -> None:
        super().__init__(read, lambda library: not is_private(library))
