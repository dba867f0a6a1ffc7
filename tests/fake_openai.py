"""A real local HTTP server speaking OpenAI chat completions, scripted per test; the only fake model API."""
from __future__ import annotations

import json
import sys
import threading
import traceback
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_STATUS_TYPES = {401: "invalid_request_error", 404: "invalid_request_error", 429: "rate_limit_exceeded"}


@dataclass
class Script:
    """How the server answers one request; scripts are consumed one per request, in order."""

    content: list[str] = field(default_factory=list)  # streamed one piece per chunk
    reasoning_content: list[str] = field(default_factory=list)  # DeepSeek / vLLM style, streamed first
    reasoning: list[str] = field(default_factory=list)  # OpenRouter / Ollama style
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # {"name", "arguments": str | [str], "id"?}
    usage: dict[str, int] | None = None  # sent as a final choices-less chunk
    status: int | None = None  # answer with this HTTP error instead (401, 404, 429, 500 …)
    error_message: str = "scripted failure"
    delay: float = 0.0  # seconds to wait before answering
    break_after: int | None = None  # stream this many chunks, then drop the connection
    malformed_after: int | None = None  # stream this many chunks, then `data: {not json`
    error_after: int | None = None  # stream this many chunks, then a `data: {"error": …}` event
    no_chunks: bool = False  # answer HTTP 200, then end the stream without a chunk (a server past its context)
    finish_reason: str | None = None  # default: "tool_calls" if tool_calls else "stop"
    endless: str = ""  # "pings": SSE comments every 0.2 s, never a chunk; "content": content chunks for ever


class FakeChatServer:
    """`with FakeChatServer(Script(...)) as server:` serves POST /v1/chat/completions at server.base_url."""

    def __init__(self, *scripts: Script) -> None:
        self.scripts: list[Script] = list(scripts)
        self.requests: list[dict[str, Any]] = []  # request bodies, in arrival order
        self.headers: list[dict[str, str]] = []  # request headers (lower-case names), same order
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.handle_error = _quiet_handle_error  # type: ignore[method-assign]
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,), name="fake-openai", daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def add(self, *scripts: Script) -> None:
        """Queue more scripts."""
        with self._lock:
            self.scripts.extend(scripts)

    def close(self) -> None:
        """Stop serving; wakes any scripted delay."""
        self._closing.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> FakeChatServer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _next(self, body: dict[str, Any], headers: dict[str, str]) -> Script | None:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            return self.scripts.pop(0) if self.scripts else None


def _quiet_handle_error(request: object, client_address: object) -> None:
    """Clients hang up on purpose in these tests (timeouts); anything else is still reported."""
    if not isinstance(sys.exc_info()[1], ConnectionError):
        traceback.print_exc()


def _handler_for(server: FakeChatServer) -> type[BaseHTTPRequestHandler]:
    class Handler(_ChatHandler):
        fake = server

    return Handler


class _ChatHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked streaming, so a dropped connection is detectable
    timeout = 5  # idle keep-alive connections end on their own
    fake: FakeChatServer

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest output clean

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if not self.path.rstrip("/").endswith("/v1/chat/completions"):
            self._json(404, _error(f"Unknown path {self.path}", "not_found"))
            return
        body = json.loads(raw or b"{}")
        script = self.fake._next(body, {k.lower(): v for k, v in self.headers.items()})
        if script is None:
            self._json(500, _error(f"FakeChatServer has no script left for request {len(self.fake.requests)}"))
            return
        if script.delay and self.fake._closing.wait(script.delay):
            self.close_connection = True
            return
        if script.status is not None:
            self._json(script.status, _error(script.error_message, _STATUS_TYPES.get(script.status, "server_error")))
        elif body.get("stream"):
            self._stream(script, body.get("model", "fake"))
        else:
            self._json(200, _completion(script, body.get("model", "fake")))

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, script: Script, model: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if script.no_chunks:
            self.wfile.write(b"0\r\n\r\n")
            return
        if script.endless:
            self._endless(script, model)
            return
        for n, chunk in enumerate(_chunks(script, model)):
            if n == script.break_after:
                self.close_connection = True  # no terminating chunk: the client sees a truncated body
                return
            if n == script.malformed_after:
                self._event("{not json")
                break
            if n == script.error_after:
                self._event(json.dumps(_error(script.error_message)))
                break
            self._event(json.dumps(chunk, ensure_ascii=False))
        else:
            self._event("[DONE]")
        self.wfile.write(b"0\r\n\r\n")

    def _endless(self, script: Script, model: str) -> None:
        """Until the client hangs up (or the server closes): what a stuck proxy or a looping model sends."""
        [chunk] = _chunks(Script(content=["啊" * 200]), model)[:1]
        while not self.fake._closing.is_set():
            try:
                if script.endless == "pings":
                    self._raw(b": ping\n\n")
                    self.fake._closing.wait(0.2)
                else:
                    self._event(json.dumps(chunk, ensure_ascii=False))
            except OSError:
                return
        self.close_connection = True

    def _raw(self, payload: bytes) -> None:
        self.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
        self.wfile.flush()

    def _event(self, data: str) -> None:
        self._raw(f"data: {data}\n\n".encode("utf-8", "backslashreplace"))  # a lone surrogate as its JSON escape
        time.sleep(0.001)  # let the client see pieces arrive separately, as from a real model


def _error(message: str, kind: str = "server_error") -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _finish(script: Script) -> str:
    return script.finish_reason or ("tool_calls" if script.tool_calls else "stop")


def _tool_call_id(call: dict[str, Any], i: int) -> str:
    return call.get("id", f"call_{i}")


def _chunks(script: Script, model: str) -> list[dict[str, Any]]:
    """The chat.completion.chunk objects of one streamed answer."""
    deltas: list[dict[str, Any]] = [{"reasoning_content": p} for p in script.reasoning_content]
    deltas += [{"reasoning": p} for p in script.reasoning]
    deltas += [{"content": p} for p in script.content]
    for i, call in enumerate(script.tool_calls):
        pieces = call["arguments"] if isinstance(call["arguments"], list) else [call["arguments"]]
        head = {"index": i, "id": _tool_call_id(call, i), "type": "function",
                "function": {"name": call["name"], "arguments": ""}}
        deltas.append({"tool_calls": [head]})
        deltas += [{"tool_calls": [{"index": i, "function": {"arguments": p}}]} for p in pieces]
    deltas = deltas or [{"content": ""}]
    deltas[0] = {"role": "assistant", **deltas[0]}
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()), "model": model}
    chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": _finish(script)}]})
    if script.usage is not None:
        chunks.append({**base, "choices": [], "usage": script.usage})
    return chunks


def _completion(script: Script, model: str) -> dict[str, Any]:
    """The chat.completion object of one non-streamed answer."""
    message: dict[str, Any] = {"role": "assistant", "content": "".join(script.content) or None}
    if script.reasoning_content:
        message["reasoning_content"] = "".join(script.reasoning_content)
    if script.reasoning:
        message["reasoning"] = "".join(script.reasoning)
    if script.tool_calls:
        message["tool_calls"] = [
            {"id": _tool_call_id(call, i), "type": "function", "function": {
                "name": call["name"],
                "arguments": "".join(call["arguments"]) if isinstance(call["arguments"], list) else call["arguments"],
            }}
            for i, call in enumerate(script.tool_calls)
        ]
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish(script)}],
        "usage": script.usage,
    }
