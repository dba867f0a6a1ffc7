"""The knowledge-service HTTP API on a real server at 127.0.0.1: JSON turns, SSE order, errors, token-guarded writes."""
from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest
from fastapi import FastAPI

from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app
from ui.api import api_router

TOKEN = "s3cret-token"
QUESTION = "东岭街道有几艘冲锋舟？"
TAGGED = "---\ntitle: 演练记录\ntags: [防汛, 演练]\n---\n# 应急演练记录\n\n2024年6月开展防汛应急演练，参演人员120人，详见附件1。\n\n附件1：参演单位名单\n\n东岭社区、桃源社区。\n"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    svc = open_demo_service(tmp_path_factory.mktemp("store"), api_token=TOKEN)
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def client(service):
    with LiveServer(build_app(service)) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        yield http


def _events(body: str) -> list[tuple[str, object]]:
    """Parse a text/event-stream body into (event, data) pairs."""
    out = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_a_turn_as_json_with_ids_citations_highlights_and_the_attachment(client, service):
    r = client.post("/api/knowledge/chat", json={"query": QUESTION, "libraryIds": ["demo"]})
    assert r.status_code == 200, r.text
    turn = r.json()
    assert turn["conversation_id"] and turn["user_message_id"] and turn["assistant_message_id"]
    assert "冲锋舟：3艘，存放于东岭仓库" in turn["answer"] and "**相关附件内容：**" in turn["answer"]
    assert "检索" in turn["thinking"] and turn["errors"] == [] and turn["fallback"] is False
    doc = turn["referenced_docs"][0]
    assert doc["title"] == "东岭街道防汛应急预案"
    text = service.stores.graph.document_text(doc["doc_id"])
    assert any("冲锋舟：3艘" in text[start:end] for start, end in doc["highlights"])  # ranges point into the source
    hop = [a for a in turn["attachments"] if a["resolved"]]
    assert [(a["label"], a["title"]) for a in hop] == [("附件4", "防汛抢险物资储备清单")]
    assert turn["graph_paths"] and {"steps", "stage"} <= set(turn["graph_paths"][0])
    assert "token_usage" in turn and turn["model"]


def test_the_stream_sends_every_event_in_order_ending_with_done(client):
    with client.stream("POST", "/api/knowledge/chat/stream", json={"query": QUESTION}) as r:
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        events = _events(r.read().decode())
    types = [t for t, _ in events]
    assert types[:3] == ["conversation_id", "user_message_id", "assistant_message_id"]
    assert types[-1] == "done" and types.count("done") == 1
    assert types.index("thinking") < types.index("content") < types.index("referenced_docs") < types.index("done")
    assert [t for t in types if t in ("attachments", "referenced_docs", "graph_paths", "token_usage")] == [
        "attachments", "referenced_docs", "graph_paths", "token_usage"]
    data = dict(events[:3])
    answer = "".join(d["text"] for t, d in events if t == "content")
    stored = client.get(f"/api/knowledge/conversations/{data['conversation_id']['conversation_id']}").json()
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant"]
    assert stored["messages"][1]["id"] == data["assistant_message_id"]["message_id"]
    assert stored["messages"][1]["content"] == answer  # what was streamed is what was stored


def test_a_follow_up_continues_the_conversation_and_lists_its_documents(client):
    first = client.post("/api/knowledge/chat", json={"query": QUESTION}).json()
    second = client.post("/api/knowledge/chat", json={"query": "存放在哪里？", "conversationId": first["conversation_id"]})
    assert second.status_code == 200 and second.json()["conversation_id"] == first["conversation_id"]
    conv = client.get(f"/api/knowledge/conversations/{first['conversation_id']}").json()
    assert conv["title"] == QUESTION and [m["role"] for m in conv["messages"]] == ["user", "assistant"] * 2
    documents = conv["messages"][1]["documents"]
    assert documents[0]["title"] == "东岭街道防汛应急预案" and documents[0]["chunk_ids"]
    assert conv["messages"][1]["referenced_docs"][0]["highlights"]


@pytest.mark.parametrize("body, status, field", [
    ({}, 422, "query"),
    ({"query": 42}, 422, "query"),
    ({"query": "x", "topK": "many"}, 422, "topK"),
    ({"query": "x", "topk": 5}, 422, "topk"),  # a misspelt knob is refused, not ignored
    ({"query": "x", "libraryIds": "demo"}, 422, "libraryIds"),
    ({"query": "   "}, 400, "query"),
    ({"query": "x", "topK": 0}, 400, "topK"),
    ({"query": "x", "threshold": 1.5}, 400, "threshold"),
    ({"query": "x", "hops": 9}, 400, "hops"),
    ({"query": "x", "libraryIds": ["nope"]}, 404, "libraryIds"),
    ({"query": "x", "conversationId": "nope"}, 404, "conversationId"),
    ({"query": "x", "documentId": "nope"}, 404, "documentId"),
])
@pytest.mark.parametrize("path", ["/api/knowledge/chat", "/api/knowledge/chat/stream"])
def test_a_rejected_request_names_the_field_and_stores_nothing(client, service, path, body, status, field):
    before = service.history.list_conversations(limit=1000)
    r = client.post(path, json=body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["detail"][0]["loc"][-1] == field and r.json()["detail"][0]["msg"]
    assert service.history.list_conversations(limit=1000) == before


def test_a_rejected_follow_up_adds_no_message(client, service):
    conversation = client.post("/api/knowledge/chat", json={"query": QUESTION}).json()["conversation_id"]
    r = client.post("/api/knowledge/chat", json={"query": "x", "conversationId": conversation, "topK": 999})
    assert r.status_code == 400
    assert len(service.history.messages(conversation)) == 2


def test_an_unknown_conversation_is_404(client):
    r = client.get("/api/knowledge/conversations/nope")
    assert r.status_code == 404 and "Unknown conversation id 'nope'" in r.json()["detail"][0]["msg"]


def test_writes_need_the_token_and_store_nothing_without_it(client, service):
    count = len(service.stores.graph.list_documents())
    files = {"files": ("演练记录.md", TAGGED.encode(), "text/markdown")}
    missing = client.post("/api/knowledge/documents", files=files, data={"library": "uploads"})
    assert missing.status_code == 401 and "Authorization: Bearer" in missing.json()["detail"][0]["msg"]
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = client.post("/api/knowledge/documents", files=files, data={"library": "uploads"},
                        headers={"Authorization": "Bearer guess"})
    assert wrong.status_code == 403 and "token is wrong" in wrong.json()["detail"][0]["msg"]
    assert client.delete("/api/knowledge/documents/whatever").status_code == 401
    assert len(service.stores.graph.list_documents()) == count


def test_upload_with_the_token_ingests_with_tags_then_delete_removes_it(client, service):
    auth = {"Authorization": f"Bearer {TOKEN}"}
    r = client.post("/api/knowledge/documents", headers=auth, data={"library": "uploads", "tags": "内部，2024"},
                    files={"files": ("演练记录.md", TAGGED.encode(), "text/markdown")})
    assert r.status_code == 200, r.text
    [result] = r.json()["results"]
    assert result["status"] == "ingested" and result["doc_id"]
    [listed] = client.get("/api/knowledge/documents", params={"library": "uploads"}).json()
    assert listed["id"] == result["doc_id"] and listed["tags"] == ["防汛", "演练", "内部", "2024"]
    answer = client.post("/api/knowledge/chat", json={"query": "防汛应急演练参演人员多少人？", "libraryIds": ["uploads"]}).json()
    assert "参演人员120人" in answer["answer"]
    assert [d["doc_id"] for d in answer["referenced_docs"]] == [result["doc_id"]]
    assert client.delete(f"/api/knowledge/documents/{result['doc_id']}", headers={"Authorization": "Bearer x"}).status_code == 403
    assert client.delete(f"/api/knowledge/documents/{result['doc_id']}", headers=auth).json() == {"deleted": result["doc_id"]}
    gone = client.delete(f"/api/knowledge/documents/{result['doc_id']}", headers=auth)
    assert gone.status_code == 404 and "GET /api/knowledge/documents" in gone.json()["detail"][0]["msg"]
    assert client.post("/api/knowledge/chat", json={"query": "x", "libraryIds": ["uploads"]}).status_code == 404


def test_an_upload_where_every_file_fails_is_400_and_stores_nothing(client, service):
    count = len(service.stores.graph.list_documents())
    r = client.post("/api/knowledge/documents", headers={"Authorization": f"Bearer {TOKEN}"},
                    files={"files": ("坏文件.docx", b"not a zip at all", "application/octet-stream")})
    [error] = r.json()["detail"]
    assert r.status_code == 400 and error["loc"] == ["body", "files"] and error["results"][0]["status"] == "error"
    assert error["msg"].startswith("No file could be ingested; nothing was stored. 坏文件.docx")
    assert len(service.stores.graph.list_documents()) == count


def test_writes_are_off_when_no_token_is_configured(service):
    app = FastAPI()
    app.include_router(api_router(replace(service, settings=replace(service.settings, api_token=""))), prefix="/api")
    with LiveServer(app) as server:
        r = httpx.delete(f"{server.url}/api/knowledge/documents/x", headers={"Authorization": "Bearer anything"})
    assert r.status_code == 403 and r.json()["detail"][0]["msg"].startswith("Writes over HTTP are off; set ANNEX_API_TOKEN")


def test_the_openapi_schema_describes_the_endpoints_with_camel_case_fields(client):
    schema = client.get("/openapi.json").json()
    assert {"/api/knowledge/chat", "/api/knowledge/chat/stream", "/api/knowledge/conversations/{conversation_id}",
            "/api/knowledge/documents", "/api/knowledge/documents/{doc_id}"} <= set(schema["paths"])
    fields = set(schema["components"]["schemas"]["ChatRequest"]["properties"])
    assert fields == {"query", "conversationId", "libraryIds", "documentId", "topK", "threshold", "enableHybridSearch",
                      "enableRerank", "enableContextExpansion", "think", "historyTurns", "hops"}


def test_the_mcp_server_is_off_by_default(client):
    assert client.get("/gradio_api/mcp/").status_code == 404
