"""Request bodies bounded while they stream in: a question is small, and an upload never fills the disk.

Without this, the server read any body whole before looking at it: a 400 MB JSON question grew the process by
1.2 GB before the 500-character limit refused it, and an upload to the token-guarded POST /api/knowledge/documents
was spooled to disk in full before the missing token was noticed. Now an ordinary request is refused with 413 past
ANNEX_MAX_REQUEST_KB, and an upload (Gradio's /gradio_api/upload, the API's upload) with 507 as soon as what it has
sent would leave less than ANNEX_MIN_FREE_DISK_MB free on the disk of the store or of the temporary files.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Sequence

from fastapi import HTTPException  # FastAPI's own: it re-raises this one from a body read, not as a 400

UPLOAD_ROUTES = (("POST", "/gradio_api/upload"), ("POST", "/api/knowledge/documents"))
DISK_CHECK_BYTES = 1 << 20  # an upload's disks are measured again after each MB it sends (statvfs is ~µs)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
App = Callable[[Scope, Receive, Callable[..., Awaitable[None]]], Awaitable[None]]


def free_bytes(folders: Iterable[Path]) -> int:
    """The least free space of the disks holding these folders (a folder not made yet: its nearest parent)."""
    frees = []
    for folder in folders:
        root = Path(folder)
        while not root.exists() and root != root.parent:
            root = root.parent
        frees.append(shutil.disk_usage(root).free)
    return min(frees)


class BodyLimit:
    """ASGI middleware: refuses a body past `max_bytes`, or an upload's once the disks would fall below `floor`."""

    def __init__(self, app: App, max_bytes: int, floor: int, disks: Callable[[], Sequence[Path]]) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.floor = floor
        self.disks = disks  # read per upload: Gradio's upload folder is known only once the app runs

    async def __call__(self, scope: Scope, receive: Receive, send: Callable[..., Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = (scope["method"], scope["path"].rstrip("/")) in UPLOAD_ROUTES
        declared = _content_length(scope)
        counted = self._upload(receive, declared) if upload else self._bounded(receive, declared)
        await self.app(scope, counted, send)

    def _bounded(self, receive: Receive, declared: int | None) -> Receive:
        cap, seen = self.max_bytes, 0

        async def counted() -> dict[str, Any]:
            nonlocal seen
            if cap and declared is not None and declared > cap:
                raise _too_large(cap)
            message = await receive()
            seen += len(message.get("body", b""))
            if cap and seen > cap:
                raise _too_large(cap)
            return message

        return counted

    def _upload(self, receive: Receive, declared: int | None) -> Receive:
        seen, checked = 0, -DISK_CHECK_BYTES

        async def counted() -> dict[str, Any]:
            nonlocal seen, checked
            if self.floor and seen == 0 and declared is not None:
                self._check_disk(declared)
            message = await receive()
            seen += len(message.get("body", b""))
            if self.floor and seen - checked >= DISK_CHECK_BYTES:
                checked = seen
                self._check_disk(0)  # what was sent is on disk already: the disk's free space counts it
            return message

        return counted

    def _check_disk(self, incoming: int) -> None:
        free = free_bytes(self.disks())
        if free - incoming < self.floor:
            raise HTTPException(507, f"The server's disk is nearly full: {free / 2**20:.0f} MB free, and an upload "
                                     f"must leave {self.floor / 2**20:.0f} MB (ANNEX_MIN_FREE_DISK_MB); nothing "
                                     "was kept. Delete documents you no longer need, or try again later")


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _too_large(cap: int) -> HTTPException:
    return HTTPException(413, f"The request body is over {cap // 1024} KB (ANNEX_MAX_REQUEST_KB); send a shorter "
                              "one; documents go to POST /api/knowledge/documents or the page's upload")
