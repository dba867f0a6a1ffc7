"""Each visitor's share of Gradio's upload folder: what their uploads hold there at once is bounded.

Gradio's /gradio_api/upload takes files from anyone, before any event names a session, and keeps them for an hour
(delete_cache in ui/blocks.py). One visitor sending file after file filled the folder down to the free-disk floor
(ui/body_limit.py), and then nobody could upload. Here the files each upload left are recorded against its sender
(its address, as ui/client.py reads it: a session hash is only a header the sender chooses), and an upload that
would take a sender past ANNEX_SESSION_UPLOAD_MB, or past MAX_HELD_FILES files, is refused with 413 while it
streams in; what it had sent is deleted, as is a part of an upload refused at the free-disk floor. Each file an
upload left is first moved to a path of its own (ui/upload_owned.py), and that path is what its answer names and what
counts. A file stops counting once it is gone: ingested, refused, its tab closed (ui/uploaded.py), or expired. An
upload carrying the token holder's pass (ui/writer_pass.py) is not counted: the free-disk floor bounds it.
"""
from __future__ import annotations

import json
import os
import threading
from typing import Any, Awaitable, Callable

from fastapi import HTTPException
from fastapi.responses import PlainTextResponse
from gradio.route_utils import MultiPartException

from ui.client import client_address
from ui.upload_owned import UPLOAD_LOST, UploadLost, UploadOwner
from ui.writer_pass import WriterPasses

GRADIO_UPLOAD = ("POST", "/gradio_api/upload")
MAX_HELD_FILES = 200  # files one sender's uploads may hold at once: each costs a folder and an inode, however small
SENDERS_BEFORE_PRUNE = 1000  # past this many senders, the ones whose files are all gone are forgotten
WRITER_HINT = "持口令写入共享库的管理员：先填口令，再选文件，就不受这个上限。"
RESPONSE_MAX_BYTES = 1 << 20  # an upload's answer is its list of paths (≤ 1000 files); past this it is passed on as is

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class UploadLedger:
    """The files each sender's uploads left in the upload folder; what of them still exists counts."""

    def __init__(self, max_bytes: int, max_files: int = MAX_HELD_FILES) -> None:
        self.max_bytes = max_bytes  # 0: no cap
        self.max_files = max_files
        self._files: dict[str, dict[str, int]] = {}  # sender → path → size when recorded
        self._lock = threading.Lock()

    def held(self, sender: str) -> tuple[int, int]:
        """Bytes and files the sender's uploads hold now (files gone since are forgotten)."""
        with self._lock:
            files = self._files.get(sender, {})
            for path in [p for p in files if not os.path.exists(p)]:
                del files[path]
            if not files:
                self._files.pop(sender, None)
            return sum(files.values()), len(files)

    def check(self, sender: str, incoming: int) -> None:
        """HTTPException 413 when `incoming` more bytes (one more upload) would pass the sender's share."""
        held, count = self.held(sender)
        if self.max_bytes and held + incoming > self.max_bytes:
            raise HTTPException(413, f"上传的文件已占用 {held / 2**20:.1f} MB，加上这次将超过每位访客的上限 "
                                     f"{self.max_bytes / 2**20:g} MB（ANNEX_SESSION_UPLOAD_MB）：请先把已选的文件入库或"
                                     f"移除（关闭页面也会删除它们），再上传。{WRITER_HINT}")
        if count >= self.max_files:
            raise HTTPException(413, f"上传的文件已有 {count} 个未入库，达到每位访客的上限 {self.max_files} 个："
                                     f"请先把已选的文件入库或移除，再上传。{WRITER_HINT}")

    def record(self, sender: str, paths: list[str]) -> None:
        """The files an upload left, counted against its sender."""
        sizes = {}
        for path in paths:
            try:
                sizes[path] = os.stat(path).st_size
            except OSError:  # already gone: nothing to count
                continue
        with self._lock:
            self._files.setdefault(sender, {}).update(sizes)
            if len(self._files) > SENDERS_BEFORE_PRUNE:  # senders who never came back: the table stays small
                for gone in [s for s, files in self._files.items() if not any(map(os.path.exists, files))]:
                    del self._files[gone]


class UploadShare:
    """ASGI middleware: Gradio's upload route, bounded per sender by an UploadLedger, each file given its own path
    (ui/upload_owned.py)."""

    def __init__(self, app: App, ledger: UploadLedger, hops: int, owner: UploadOwner | None = None,
                 passes: WriterPasses | None = None) -> None:
        self.app = app
        self.ledger = ledger
        self.hops = hops
        self.owner = owner or UploadOwner()
        self.passes = passes  # a token holder's uploads (ui/writer_pass.py) are not held to the share

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"], scope["path"].rstrip("/")) != GRADIO_UPLOAD:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        sender = client_address((scope.get("client") or ("", 0))[0], headers, self.hops)
        declared = int(headers["content-length"]) if headers.get("content-length", "").isdigit() else 0
        capped = self.passes is None or not self.passes.carried(headers)
        try:
            if capped:
                self.ledger.check(sender, declared)
        except HTTPException as exc:  # before the app: answered directly, nothing was read
            await PlainTextResponse(exc.detail, exc.status_code)(scope, receive, send)
            return
        seen = 0
        refused: HTTPException | None = None

        async def counted() -> dict[str, Any]:
            nonlocal seen, refused
            try:
                message = await receive()  # BodyLimit's (the disk floor) inside
                seen += len(message.get("body", b""))
                if capped and seen > declared:  # chunked, or more than it said: measured as it comes
                    self.ledger.check(sender, seen)
            except HTTPException as exc:
                # Gradio deletes the part it spooled only on its own MultiPartException; any other exception left a
                # refused upload's first megabytes in the folder for good. It answers that one 413, "maximum allowed
                # size" in its text; the answer is rewritten below to this refusal's status and message.
                refused = exc
                raise MultiPartException(f"{exc.detail} (over the maximum allowed size)") from exc
            return message

        answer = bytearray()
        start: dict[str, Any] | None = None  # a 200's start, held until its body: the paths in it change length

        async def recorded(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if refused is not None:
                    await PlainTextResponse(refused.detail, refused.status_code)(scope, receive, send)
                elif message["status"] == 200:
                    start = message
                else:
                    await send(message)
                return
            if refused is not None:
                return  # the refusal was sent whole
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            answer.extend(message.get("body", b""))
            if message.get("more_body") and len(answer) <= RESPONSE_MAX_BYTES:
                return
            held, start = start, None
            if message.get("more_body"):  # not a list of paths Gradio wrote: passed on as it came
                await send(held)
                await send({"type": "http.response.body", "body": bytes(answer), "more_body": True})
                return
            try:
                body = self._owned(sender if capped else None, bytes(answer))
            except UploadLost:
                await PlainTextResponse(UPLOAD_LOST, 409)(scope, receive, send)
                return
            headers = [(k, v) for k, v in held.get("headers", ()) if k.lower() != b"content-length"]
            await send({**held, "headers": [*headers, (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, counted, recorded)

    def _owned(self, sender: str | None, answer: bytes) -> bytes:
        """Gradio's answer with each path moved to its own folder, recorded against the sender (None: a writer)."""
        paths = _paths(answer)
        if paths is None:
            return answer
        owned = self.owner.own(paths)
        if sender is not None:
            self.ledger.record(sender, owned)
        return json.dumps(owned, ensure_ascii=False).encode("utf-8")


def _paths(answer: bytes) -> list[str] | None:
    """The paths in Gradio's answer to an upload (a JSON list of them); None if it is anything else."""
    try:
        paths = json.loads(answer)
    except ValueError:
        return None
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return None
    return paths
