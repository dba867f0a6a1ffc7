"""Issue 10 item 4: no write without permission, through any door — Gradio's queue sent raw, /api, MCP.

Every Gradio event can be sent without the page: `POST /gradio_api/queue/join` with a fn_index and any inputs,
any session_hash, then the result is read from `GET /gradio_api/queue/data` (Server-Sent Events). These tests
do exactly that with httpx, and assert on the stores, not on what the handler says.
"""
from __future__ import annotations

import asyncio
import json
import time
from typing import Any, Iterator

import httpx
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from kb.errors import NothingToSearch
from kb.service import open_service
from kb.model import PRIVATE_PREFIX, is_private
from kb.settings import load_settings
from kb.turn import TurnRequest
from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app
from tests.reliability.conftest import LiveApp, assert_healthy
from ui.mcp import register_tools

pytestmark = pytest.mark.reliability

TOKEN = "correct-horse-battery"
SECRET_DOC = "私有值班预案.md"
SECRET_TEXT = "# 私有值班预案\n\n本预案的值班暗号详见附件1。\n\n附件1：值班暗号表\n\n值班暗号是紫藤73519，只在这份私有文档里。\n"
SECRET = "紫藤73519"
SECRET_QUESTION = "值班暗号是什么？"
SHARED_DOC = "共享值班预案.md"
SHARED_TEXT = "# 共享值班预案\n\n共享库的值班暗号是银杏24680。\n"
KNOBS = [[], 20, 0.7, True, False, False, 2, False, 3]  # ui.chat.handlers.KNOBS order


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[LiveApp]:
    """The demo corpus served with ANNEX_API_TOKEN set and the MCP tools on."""
    service = open_demo_service(tmp_path_factory.mktemp("store"), api_token=TOKEN, mcp_server=True)
    try:
        with LiveServer(build_app(service, [lambda: register_tools(service)])) as server, \
                httpx.Client(base_url=server.url, timeout=60) as http:
            yield LiveApp(server.url, http, service)
    finally:
        service.close()


class Queue:
    """Gradio events sent the way a script would: raw HTTP to the queue, fn_index from /config."""

    def __init__(self, app: LiveApp) -> None:
        self.http = app.http
        self.deps = {d["api_name"]: d for d in app.http.get("/config").json()["dependencies"]}

    def call(self, api_name: str, data: list, session: str) -> dict[str, Any]:
        """The process_completed message of one event; every SSE message's text is kept in `.seen`."""
        dep = self.deps[api_name]
        trigger = dep["targets"][0][0] if dep["targets"] else None
        joined = self.http.post("/gradio_api/queue/join", json={
            "data": data, "fn_index": dep["id"], "session_hash": session, "event_data": None, "trigger_id": trigger})
        assert joined.status_code == 200, joined.text
        event_id = joined.json()["event_id"]
        self.seen = ""
        with self.http.stream("GET", "/gradio_api/queue/data", params={"session_hash": session}) as stream:
            for line in stream.iter_lines():
                if not line.startswith("data:"):
                    continue
                message = json.loads(line[5:])
                if message.get("event_id") != event_id:
                    continue
                self.seen += json.dumps(message, ensure_ascii=False)
                if message["msg"] == "process_completed":
                    return message
        raise AssertionError(f"the queue stream of {api_name} ended without process_completed")

    def upload(self, name: str, text: str | bytes) -> dict[str, Any]:
        """A file (its text, or its bytes) uploaded to Gradio's /upload, as the File component's value."""
        content = text.encode() if isinstance(text, str) else text
        response = self.http.post("/gradio_api/upload", files=[("files", (name, content, "application/octet-stream"))])
        assert response.status_code == 200, response.text
        [path] = response.json()
        return {"path": path, "orig_name": name, "meta": {"_type": "gradio.FileData"}}


def _documents(app: LiveApp) -> dict[str, Any]:
    """doc id → summary, straight from the graph store."""
    return {d.id: d for d in app.service.stores.graph.list_documents()}


def _error(message: dict[str, Any]) -> str:
    assert message["success"] is False, message
    return str(message["output"].get("error"))


def test_without_the_token_the_queue_cannot_write_or_delete_shared_documents(app):
    queue = Queue(app)
    before = _documents(app)
    shared = next(d for d in before.values() if d.library == "demo")
    for token in ("", "wrong-token"):
        refused = queue.call("run_ingest", [[queue.upload(SHARED_DOC, SHARED_TEXT)], "demo", "", token], "raw-1")
        if token:
            assert "口令不对" in _error(refused)
        else:  # no token: a visitor's upload, which lands in their private library, never in "demo"
            assert refused["success"] is True
    stored = _documents(app)
    assert not [d for d in stored.values() if d.library == "demo" and d.name == SHARED_DOC]
    assert {k for k, d in stored.items() if not is_private(d.library)} == {k for k, d in before.items()}
    for confirmed, token in ((True, ""), (True, "wrong-token"), (False, TOKEN), (None, TOKEN)):
        assert _error(queue.call("run_delete", [shared.id, confirmed, token], "raw-1"))
    assert shared.id in _documents(app)
    assert app.service.stores.vectors.chunk_counts().get(shared.id) == shared.chunks
    app.service.sessions.end("raw-1")
    assert_healthy(app)


def test_a_visitors_upload_is_private_to_its_session(app):
    queue = Queue(app)
    done = queue.call("run_ingest", [[queue.upload(SECRET_DOC, SECRET_TEXT)], "demo", "", ""], "visitor-a")
    assert done["success"] is True and "本会话私有库" in queue.seen
    [doc] = [d for d in _documents(app).values() if d.name == SECRET_DOC]
    assert doc.library.startswith(PRIVATE_PREFIX) and doc.library == app.service.sessions.own("visitor-a")

    # its own session lists, opens and searches it
    queue.call("refresh", [], "visitor-a")
    assert SECRET_DOC in queue.seen
    queue.call("show", [doc.id], "visitor-a")
    assert SECRET in queue.seen
    queue.call("ask", [SECRET_QUESTION, None, None, None, *KNOBS], "visitor-a")
    assert SECRET in queue.seen

    # another session does not: not listed, not opened, not searched (also when naming the library), not deleted
    queue.call("refresh", [], "visitor-b")
    assert SECRET_DOC not in queue.seen and doc.library not in queue.seen
    queue.call("show", [doc.id], "visitor-b")
    assert SECRET not in queue.seen
    queue.call("ask", [SECRET_QUESTION, None, None, None, *KNOBS], "visitor-b")
    assert SECRET not in queue.seen
    queue.call("ask", [SECRET_QUESTION, None, None, None, [doc.library], *KNOBS[1:]], "visitor-b")
    assert SECRET not in queue.seen
    # (Gradio itself refuses a dropdown value outside the session's choices; the handler checks again, which
    # tests/ui/test_knowledge_tab.py shows by calling it directly with a stranger's session)
    assert _error(queue.call("run_delete", [doc.id, True, ""], "visitor-b"))
    assert _error(queue.call("run_delete", [doc.id, True, TOKEN], "visitor-b"))
    assert doc.id in _documents(app)

    # nor the HTTP API (listing, "all libraries", naming it, delete with the token) nor MCP
    assert doc.id not in [d["id"] for d in app.http.get("/api/knowledge/documents").json()]
    assert app.http.get("/api/knowledge/documents", params={"library": doc.library}).json() == []
    answer = app.http.post("/api/knowledge/chat", json={"query": SECRET_QUESTION}).json()
    assert SECRET not in json.dumps(answer, ensure_ascii=False)
    named = app.http.post("/api/knowledge/chat", json={"query": SECRET_QUESTION, "libraryIds": [doc.library]})
    assert named.status_code == 404 and doc.library not in named.json()["detail"][0]["msg"].split("libraries are:")[1]
    by_doc = app.http.post("/api/knowledge/chat", json={"query": SECRET_QUESTION, "documentId": doc.id})
    assert by_doc.status_code == 404
    gone = app.http.delete(f"/api/knowledge/documents/{doc.id}", headers={"Authorization": f"Bearer {TOKEN}"})
    assert gone.status_code == 404 and doc.id in _documents(app)
    assert SECRET not in _mcp(app.url, ("search_chunks", {"query": SECRET_QUESTION}),
                              ("search_by_tags", {"keyword": ""}), ("get_document", {"doc": SECRET_DOC}),
                              ("get_document", {"doc": doc.id}), ("graph_neighbors", {"node_id": doc.id}),
                              ("resolve_attachments", {"text": "附件1-值班暗号表"}),
                              ("search_chunks", {"query": SECRET_QUESTION, "library": doc.library}))

    # its own session deletes it, once confirmed
    assert "确认删除" in _error(queue.call("run_delete", [doc.id, False, ""], "visitor-a"))
    assert queue.call("run_delete", [doc.id, True, ""], "visitor-a")["success"] is True
    assert doc.id not in _documents(app)
    assert_healthy(app)


def test_with_the_token_the_shared_library_changes_and_everyone_sees_it(app):
    queue = Queue(app)
    done = queue.call("run_ingest", [[queue.upload(SHARED_DOC, SHARED_TEXT)], "shared-extra", "", TOKEN], "admin")
    assert done["success"] is True and "已写入共享库" in queue.seen
    [doc] = [d for d in _documents(app).values() if d.name == SHARED_DOC]
    assert doc.library == "shared-extra"
    assert doc.id in [d["id"] for d in app.http.get("/api/knowledge/documents").json()]
    queue.call("refresh", [], "someone-else")
    assert SHARED_DOC in queue.seen
    reserved = queue.call("run_ingest", [[queue.upload(SHARED_DOC, SHARED_TEXT)], PRIVATE_PREFIX + "x", "", TOKEN],
                          "admin")
    assert "session-" in _error(reserved)
    assert queue.call("run_delete", [doc.id, True, TOKEN], "someone-else")["success"] is True
    assert doc.id not in _documents(app)
    assert_healthy(app)


def test_a_private_library_goes_when_its_session_ends_after_its_time_limit_and_at_start(app, tmp_path):
    queue = Queue(app)
    sessions = app.service.sessions
    for session in ("ends", "stale"):
        assert queue.call("run_ingest", [[queue.upload(SECRET_DOC, SECRET_TEXT)], "", "", ""], session)["success"]
    ends, stale = sessions.own("ends"), sessions.own("stale")
    assert ends != stale and {ends, stale} <= {d.library for d in _documents(app).values()}
    # the browser closing the tab: Gradio's heartbeat stream ends and runs the unload handler
    with app.http.stream("GET", "/gradio_api/heartbeat/ends") as beat:
        next(beat.iter_lines())
    for _ in range(100):
        if ends not in {d.library for d in _documents(app).values()}:
            break
        time.sleep(0.05)
    assert ends not in {d.library for d in _documents(app).values()}
    # a session gone quiet: past the time limit the background sweep takes its library (its next period, or a wake)
    clock = sessions.clock
    try:
        sessions.clock = lambda: clock() + sessions.ttl + 1
        sessions.end("someone-else")  # any session ending wakes the sweep, as its period would
        for _ in range(200):
            if sessions.own("stale") is None and stale not in {d.library for d in _documents(app).values()}:
                break
            time.sleep(0.05)
    finally:
        sessions.clock = clock
    assert sessions.own("stale") is None and stale not in {d.library for d in _documents(app).values()}
    queue.call("refresh", [], "someone-else")  # and the app serves on
    assert_healthy(app)


def test_orphaned_private_libraries_are_removed_when_the_service_opens(tmp_path):
    service = open_demo_service(tmp_path)
    service.sessions.library_for_upload("s")
    path = tmp_path / "up" / SECRET_DOC
    path.parent.mkdir()
    path.write_text(SECRET_TEXT, encoding="utf-8")
    [result] = service.stores.ingestor.ingest([path], service.sessions.own("s"))
    assert result.status == "ingested" and service.stores.vectors.chunk_counts().get(result.doc_id)
    service.close()
    reopened = open_demo_service(tmp_path)  # a restart: no session survived it
    try:
        assert not any(is_private(d.library) for d in reopened.stores.graph.list_documents())
        assert not reopened.stores.vectors.chunk_counts().get(result.doc_id)
    finally:
        reopened.close()


def _mcp(url: str, *calls: tuple[str, dict[str, Any]]) -> str:
    """The text of every MCP tool result (and error) for the calls, joined."""

    async def run() -> str:
        async with streamable_http_client(f"{url}/gradio_api/mcp/") as (read, write, _), ClientSession(read, write) as s:
            await s.initialize()
            results = [await s.call_tool(name, arguments) for name, arguments in calls]
        return "\n".join(c.text for r in results for c in r.content if hasattr(c, "text"))

    return asyncio.run(run())


def test_with_no_shared_library_another_session_searches_nothing_rather_than_everything(tmp_path):
    service = open_service(load_settings(env={}, store_dir=tmp_path / "store"))
    try:
        path = tmp_path / SECRET_DOC
        path.write_text(SECRET_TEXT, encoding="utf-8")
        [result] = service.stores.ingestor.ingest([path], service.sessions.library_for_upload("a"))
        assert result.status == "ingested"
        with pytest.raises(NothingToSearch):
            service.sessions.scope(TurnRequest(SECRET_QUESTION), "b")
        with pytest.raises(NothingToSearch):
            service.sessions.scope(TurnRequest(SECRET_QUESTION))  # the HTTP API: no session
        own = service.sessions.scope(TurnRequest(SECRET_QUESTION), "a")
        assert own.library_ids == (service.sessions.own("a"),)
        answer = "".join(e.data.get("text", "") for e in service.pipeline.run(own) if e.type == "content")
        assert SECRET in answer
    finally:
        service.close()
