"""A real uvicorn server on a free 127.0.0.1 port, in a thread, for the HTTP API and MCP tests."""
from __future__ import annotations

import socket
import threading
import time
from typing import Any, Callable, Sequence

from ui.server import build_app as build, server


def build_app(service: Any, extensions: Sequence[Callable[[], None]] = ()) -> Any:
    """The app as app.py serves it (ui/server.py)."""
    return build(service, extensions)


class LiveServer:
    """`with LiveServer(app) as server:` serves app at server.url until the block ends."""

    def __init__(self, app: Any) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self._server = server(app, "127.0.0.1", port, log_level="warning")  # as app.py serves it
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
