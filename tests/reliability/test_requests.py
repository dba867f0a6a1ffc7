"""Hostile chat requests against the served app: text that cannot be stored, absurd lists, a turn that fails
midway, mistyped values — each refused or failed in the documented shape, and the app still answers after it."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Iterator

import httpx
import pytest

from tests.reliability.conftest import NORMAL_ANSWER, NORMAL_QUESTION, LiveApp, assert_healthy

pytestmark = pytest.mark.reliability

CHAT, STREAM = "/api/knowledge/chat", "/api/knowledge/chat/stream"
SURROGATE = "\\ud800"  # as JSON text: a lone UTF-16 surrogate, which no UTF-8 store can hold


def _raw(http: httpx.Client, path: str, json_text: str) -> httpx.Response:
    """POST JSON text as it is (httpx would refuse to encode a lone surrogate itself)."""
    return http.post(path, content=json_text.encode("ascii"), headers={"Content-Type": "application/json"})


def sse_events(body: str) -> list[tuple[str, dict]]:
    """A text/event-stream body as (event, data) pairs."""
    out = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.split("\n"))
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def _refusal(response: httpx.Response, status: int, field: str) -> dict:
    """The one refusal of a response, checked for the documented shape and the field it names."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail[0]["loc"][:2] == ["body", field], detail
    assert detail[0]["msg"] and detail[0]["type"]
    return detail[0]


def _start(app: LiveApp) -> str:
    response = app.http.post(CHAT, json={"query": NORMAL_QUESTION})
    assert response.status_code == 200, response.text
    return response.json()["conversation_id"]


def _continues(app: LiveApp, conversation: str) -> None:
    """A follow-up in the conversation answers and is stored with its answer."""
    before = len(app.service.history.messages(conversation))
    response = app.http.post(CHAT, json={"query": NORMAL_QUESTION, "conversationId": conversation})
    assert response.status_code == 200, response.text
    assert NORMAL_ANSWER in response.json()["answer"]
    assert len(app.service.history.messages(conversation)) == before + 2


# --- item 2: a lone surrogate poisoned the history --------------------------------------------------------------


@pytest.mark.parametrize("path", [CHAT, STREAM])
@pytest.mark.parametrize("field", ["query", "conversationId", "libraryIds", "documentId"])
def test_a_lone_surrogate_is_refused_naming_the_field_and_the_conversation_goes_on(live_app, path, field):
    conversation = _start(live_app)
    body = {"query": json.dumps(NORMAL_QUESTION), "conversationId": json.dumps(conversation)}
    if field == "libraryIds":
        body["libraryIds"] = f'["demo", "{SURROGATE}"]'
    else:
        body[field] = f'"{SURROGATE}"'
    conversations = len(live_app.service.history.list_conversations(limit=10_000))
    refusal = _refusal(_raw(live_app.http, path, "{" + ", ".join(f'"{k}": {v}' for k, v in body.items()) + "}"),
                       400, field)
    assert refusal["type"] == "invalid_value" and "surrogate" in refusal["msg"]
    assert len(live_app.service.history.messages(conversation)) == 2  # nothing was stored
    assert len(live_app.service.history.list_conversations(limit=10_000)) == conversations
    _continues(live_app, conversation)
    assert_healthy(live_app)


def test_a_history_write_that_fails_rolls_back_and_later_writes_work(live_app):
    """The store itself, not only the request check: a failed write leaves no transaction open."""
    history = live_app.service.history
    conversation = _start(live_app)
    with pytest.raises(UnicodeEncodeError):
        history.add_message(conversation, "user", "\ud800")
    with pytest.raises(UnicodeEncodeError):
        history.create_conversation("\ud800")
    assert len(history.messages(conversation)) == 2
    _continues(live_app, conversation)
    assert_healthy(live_app)


@pytest.mark.parametrize("json_text", [
    '{"query": "x", "topK": "\\ud800"}',  # a mistyped value that echoes the surrogate back in the 422
    '{"query": "x", "\\ud800": 1}',  # an unknown field named by it
    '{"query": "\\ud800", "think": "yes"}',
])
def test_a_refusal_that_echoes_a_surrogate_is_still_json(live_app, json_text):
    response = _raw(live_app.http, CHAT, json_text)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert detail and all({"loc", "msg", "type"} <= set(d) for d in detail)
    assert_healthy(live_app)


# --- item 7: a turn failing midway left a question without an answer --------------------------------------------


@pytest.mark.parametrize("path", [CHAT, STREAM])
def test_forty_thousand_library_ids_are_refused_naming_the_field(live_app, path):
    conversations = len(live_app.service.history.list_conversations(limit=10_000))
    refusal = _refusal(live_app.http.post(path, json={"query": NORMAL_QUESTION, "libraryIds": ["demo"] * 40_000}),
                       400, "libraryIds")
    assert "40000" in refusal["msg"] and "100" in refusal["msg"]
    assert len(live_app.service.history.list_conversations(limit=10_000)) == conversations
    assert_healthy(live_app)


def test_repeated_library_ids_are_merged(live_app):
    response = live_app.http.post(CHAT, json={"query": NORMAL_QUESTION, "libraryIds": ["demo"] * 100})
    assert response.status_code == 200, response.text
    assert NORMAL_ANSWER in response.json()["answer"]
    assert_healthy(live_app)


@contextmanager
def _history_disk_full(app: LiveApp, headroom_pages: int) -> Iterator[None]:
    """The history database may grow by only headroom_pages pages (SQLite's own limit: "database or disk is full")."""
    db, lock = app.service.history._db, app.service.history._lock
    with lock:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + headroom_pages}")
    try:
        yield
    finally:
        with lock:
            db.execute("PRAGMA max_page_count = 1073741823")


# topK 200 at threshold 0 stores every retrieved chunk's text with the answer: far over the headroom, while the
# question and a short failure notice fit in it.
BIG_TURN = {"query": NORMAL_QUESTION, "topK": 200, "threshold": 0.0, "enableContextExpansion": True}
HEADROOM = 6


def test_a_turn_that_fails_midway_answers_500_in_shape_and_stores_an_answer_saying_so(live_app):
    conversation = _start(live_app)
    with _history_disk_full(live_app, HEADROOM):
        response = live_app.http.post(CHAT, json={**BIG_TURN, "conversationId": conversation})
    assert response.status_code == 500, response.text
    detail = response.json()["detail"][0]
    assert detail["type"] == "turn_failed" and detail["loc"] == ["turn"]
    assert "database or disk is full" in detail["msg"]
    assert detail["conversation_id"] == conversation and detail["assistant_message_id"]
    messages = live_app.service.history.messages(conversation)
    assert [m.role for m in messages] == ["user", "assistant"] * 2
    assert messages[-1].id == detail["assistant_message_id"]
    assert "回答失败" in messages[-1].content and "database or disk is full" in messages[-1].content
    _continues(live_app, conversation)
    assert_healthy(live_app)


def test_a_streamed_turn_that_fails_midway_ends_with_error_then_done(live_app):
    conversation = _start(live_app)
    with _history_disk_full(live_app, HEADROOM):
        response = live_app.http.post(STREAM, json={**BIG_TURN, "conversationId": conversation})
    assert response.status_code == 200
    events = sse_events(response.text)
    kinds = [kind for kind, _ in events]
    assert kinds[-2:] == ["error", "done"], kinds
    assert "database or disk is full" in events[-2][1]["message"]
    done = events[-1][1]
    assert done["failed"] is True and done["message_id"]
    stored = live_app.service.history.messages(conversation)[-1]
    assert stored.role == "assistant" and stored.id == done["message_id"] and "回答失败" in stored.content
    _continues(live_app, conversation)
    assert_healthy(live_app)


# --- item 11: mistyped values were converted; some refusals were plain text or a bare string ---------------------


@pytest.mark.parametrize(("body", "field"), [
    ({"topK": "5"}, "topK"),
    ({"topK": True}, "topK"),
    ({"hops": 1.0}, "hops"),
    ({"historyTurns": "2"}, "historyTurns"),
    ({"threshold": "0.5"}, "threshold"),
    ({"enableRerank": "yes"}, "enableRerank"),
    ({"enableHybridSearch": 1}, "enableHybridSearch"),
    ({"think": "true"}, "think"),
    ({"libraryIds": "demo"}, "libraryIds"),
    ({"conversationId": 7}, "conversationId"),
    ({"query": 5}, "query"),
])
@pytest.mark.parametrize("path", [CHAT, STREAM])
def test_a_mistyped_value_is_refused_with_422_naming_the_field(live_app, path, body, field):
    conversations = len(live_app.service.history.list_conversations(limit=10_000))
    _refusal(live_app.http.post(path, json={"query": NORMAL_QUESTION, **body}), 422, field)
    assert len(live_app.service.history.list_conversations(limit=10_000)) == conversations
    assert_healthy(live_app)


@pytest.mark.parametrize(("method", "path", "content", "status"), [
    ("POST", CHAT, b'{"query": ', 422),  # malformed JSON
    ("POST", CHAT, b'{"query": "\xff\xfe"}', 400),  # not UTF-8
    ("POST", CHAT, b"[1, 2]", 422),
    ("GET", CHAT, b"", 405),
    ("POST", "/api/knowledge/nope", b"{}", 404),
    ("GET", "/api/knowledge/conversations/nope", b"", 404),
])
def test_every_refusal_has_the_documented_shape(live_app, method, path, content, status):
    response = live_app.http.request(method, path, content=content, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json"), response.text
    detail = response.json()["detail"]
    assert isinstance(detail, list) and detail, detail
    assert all(isinstance(d["loc"], list) and d["msg"] and d["type"] for d in detail), detail
    assert_healthy(live_app)
