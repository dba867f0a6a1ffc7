"""Files a visitor uploaded: a File value is a path on the server, so only paths inside Gradio's upload folder count.

A Gradio event can be sent without the page with any File value: `{"path": "/srv/notes.md"}`, or a URL Gradio would
download. Gradio refuses a local path outside its upload folder itself only in an app it launched; mounted with
mount_gradio_app (ui/server.py) it copied whatever it was given into its cache, so a visitor could ingest any
server file into a private library and read it back. `UploadedFile` refuses both before anything is copied.
"""
from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Sequence

import gradio as gr
import gradio.utils as gradio_utils

from ui.safe import error

SESSIONS_BEFORE_PRUNE = 1000  # sessions held before the ones whose files are all gone are forgotten
NOT_UPLOADED = "这个文件不是通过本页面上传的：请在页面上重新选择文件上传。"


def _cache() -> Path:
    return Path(gradio_utils.get_upload_folder()).resolve()


def is_uploaded(name: str) -> bool:
    """Whether the path lies inside Gradio's upload folder once resolved (`..` and symbolic links followed)."""
    return _cache() in Path(name).resolve().parents


class UploadedFile(gr.File):
    """gr.File whose value must be a file uploaded to this app (the page shows it as a gr.File)."""

    is_template = True  # Gradio then names it by its base class: the page's File component

    async def async_move_resource_to_block_cache(self, url_or_file_path: str | Path | None) -> str | None:
        if url_or_file_path is not None and not is_uploaded(str(url_or_file_path)):
            raise error(NOT_UPLOADED)
        return await super().async_move_resource_to_block_cache(url_or_file_path)


def discard_uploads(files: Sequence[str]) -> None:
    """Remove Gradio's temporary copies of uploaded files (and their folders, once empty), only inside its cache."""
    for name in files:
        if not is_uploaded(name):
            continue
        path = Path(name).resolve()
        path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):  # the folder still holds another upload
            path.parent.rmdir()


class SessionUploads:
    """The files each browser session holds in Gradio's folder (a document not ingested yet, the evaluation tab's
    question file and CSV): deleted when its tab closes. One per app, so the unload releases every tab's files."""

    def __init__(self) -> None:
        self._held: dict[str, set[str]] = {}
        self._pruned_at = 0
        self._lock = threading.Lock()

    def hold(self, session: str | None, files: Sequence[str] | str | None) -> None:
        """The session's page now holds these uploads (a File's value; only files inside Gradio's cache count)."""
        names = [files] if isinstance(files, str) else list(files or ())
        kept = {n for n in names if isinstance(n, str) and is_uploaded(n) and Path(n).exists()}
        if session and kept:
            with self._lock:
                self._held.setdefault(session, set()).update(kept)
                if len(self._held) > max(SESSIONS_BEFORE_PRUNE, 2 * self._pruned_at):  # amortized O(1) a hold
                    self._prune()

    def _prune(self) -> None:
        """Forget sessions whose files are all gone (Gradio's hour passed; the unload never came: a raw client)."""
        for session in [s for s, files in self._held.items() if not any(map(os.path.exists, files))]:
            del self._held[session]
        self._pruned_at = len(self._held)

    def swap(self, session: str | None, shown: str | None, written: str) -> None:
        """The session's page now shows `written` (a file made for it in Gradio's folder, a CSV download) in place
        of `shown`, which goes now if this session held it (a value sent without the page names anything)."""
        self.hold(session, written)
        if not isinstance(shown, str) or not session:
            return
        with self._lock:
            held = self._held.get(session, set())
            gone = {n for n in held if n != written and Path(n).resolve() == Path(shown).resolve()}
            held -= gone
        discard_uploads(sorted(gone))

    def watch(self, files: gr.File, api_name: str) -> None:
        """Wire `files` (inside the Blocks) so each upload to it is held by its session until the tab closes."""

        def hold(chosen: Sequence[str] | str | None, request: gr.Request) -> None:
            self.hold(request.session_hash, chosen)

        files.upload(hold, files, None, api_name=api_name, api_visibility="private", queue=False)

    def release(self, session: str | None) -> None:
        """The session ended: the uploads it still held go."""
        with self._lock:
            files = self._held.pop(session or "", set())
        discard_uploads(sorted(files))
