"""Issue 21 item 6: deleting a big private library runs in the background, never on a request's path or before the
server serves — after a tab closes, and after a restart on a store with a big leftover private library."""
from __future__ import annotations

import time

import pytest

from kb.model import PRIVATE_PREFIX, is_private
from tests.demo_service import open_demo_service
from tests.reliability.conftest import NORMAL_ANSWER, NORMAL_QUESTION, serve

pytestmark = pytest.mark.reliability

PRIVATE_FILES = 40  # enough documents that deleting them one by one outlasts answering one question


def _private_documents(service) -> list[str]:
    return [d.id for d in service.read.current().documents.values() if is_private(d.library)]


def _write_private_library(service, tmp_path, session: str) -> str:
    """PRIVATE_FILES small plans in the session's private library; its name."""
    folder = tmp_path / "uploads"
    folder.mkdir()
    for n in range(PRIVATE_FILES):
        (folder / f"私有预案{n}.md").write_text(f"# 私有预案{n}\n\n第{n}号仓库的钥匙在值班室，详见附件1。\n\n附件1：钥匙清单\n\n钥匙{n}号。\n")
    library = service.sessions.library_for_upload(session)
    results = service.stores.ingestor.ingest([folder], library)
    assert [r.status for r in results] == ["ingested"] * PRIVATE_FILES
    return library


def _wait_until_swept(service, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while _private_documents(service):
        assert time.monotonic() < deadline, "the private library was not deleted in the background"
        time.sleep(0.1)


def test_a_closed_tab_s_library_is_deleted_in_the_background_while_chats_answer(tmp_path):
    served = serve(tmp_path / "store")
    app = next(served)
    try:
        _write_private_library(app.service, tmp_path, "visitor")
        began = time.monotonic()
        app.service.sessions.end("visitor")  # Gradio's unload of the visitor's tab
        ended = time.monotonic() - began
        response = app.http.post("/api/knowledge/chat", json={"query": NORMAL_QUESTION})
        answered_with = len(_private_documents(app.service))
        assert response.status_code == 200 and NORMAL_ANSWER in response.json()["answer"]
        assert ended < 0.5, f"ending a session waited {ended:.1f} s for its library's deletion"
        assert answered_with > 0, "the chat waited until the whole private library was deleted"
        assert app.service.sessions.own("visitor") is None  # gone for its session at once, whatever is left on disk
        _wait_until_swept(app.service)
    finally:
        served.close()


def test_a_restart_on_a_big_leftover_private_library_serves_at_once(tmp_path):
    store = tmp_path / "store"
    service = open_demo_service(store)
    try:
        library = _write_private_library(service, tmp_path, "visitor")
    finally:
        service.close()
    assert library.startswith(PRIVATE_PREFIX)
    began = time.monotonic()
    served = serve(store)
    app = next(served)  # the service opened and uvicorn serves
    try:
        response = app.http.post("/api/knowledge/chat", json={"query": NORMAL_QUESTION})
        serving_after = time.monotonic() - began
        left_when_answered = len(_private_documents(app.service))
        assert response.status_code == 200 and NORMAL_ANSWER in response.json()["answer"]
        assert left_when_answered > 0, f"the restart deleted the orphaned library before serving ({serving_after:.1f} s)"
        _wait_until_swept(app.service)
        assert library not in app.service.read.current().libraries
    finally:
        served.close()
