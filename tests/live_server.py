"""A real uvicorn server on a free 127.0.0.1 port, in a thread, for the HTTP API and MCP tests."""
from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable, Sequence

import uvicorn


def build_app(service: Any, extensions: Sequence[Callable[[], None]] = ()) -> Any:
    """The app as app.py serves it (ui/server.py); a one-panel Blocks mounted the same way until ui/blocks.py exists."""
    try:
        from ui.server import build_app as build
    except ModuleNotFoundError as exc:
        if exc.name != "ui.blocks":
            raise
    else:
        return build(service, extensions)
    import gradio as gr
    from fastapi import FastAPI

    from ui.api import api_router

    app = FastAPI(title="annex-rag")
    app.include_router(api_router(service), prefix="/api")
    with gr.Blocks(title="annex-rag") as demo:
        gr.Markdown("annex-rag")
        for extension in extensions:
            extension()
    return gr.mount_gradio_app(app, demo, path="", mcp_server=service.settings.mcp_server)


class LiveServer:
    """`with LiveServer(app) as server:` serves app at server.url until the block ends."""

    def __init__(self, app: Any) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, name="live-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"uvicorn did not start on {self.url}")
            time.sleep(0.02)

    def close(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)

    def __enter__(self) -> LiveServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
