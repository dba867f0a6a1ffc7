"""What a tab uploads is its own and goes when the tab closes: two tabs that upload the same bytes each keep their own
file (ui/upload_owned.py), and the evaluation tab's question file is deleted with its tab (ui/uploaded.py)."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app
from tests.reliability.conftest import LiveApp, assert_healthy
from tests.reliability.test_access import Queue
from ui.evaluation.frames import ALL, PASS

pytestmark = pytest.mark.reliability

NAME = "同一份值班通知.md"
TEXT = "# 同一份值班通知\n\n本通知的值班电话详见附件1。\n\n附件1：值班电话表\n\n值班电话是 0571-86001234，两位访客各传了一份。\n"


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[LiveApp]:
    service = open_demo_service(tmp_path_factory.mktemp("store"))
    try:
        with LiveServer(build_app(service)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
            yield LiveApp(server.url, http, service)
    finally:
        service.close()


def _libraries_holding(app: LiveApp, name: str) -> set[str]:
    return {d.library for d in app.service.stores.graph.list_documents() if d.name == name}


def _close_tab(app: LiveApp, session: str) -> None:
    """The browser closing the tab: Gradio's heartbeat stream ends and runs the unload handler."""
    with app.http.stream("GET", f"/gradio_api/heartbeat/{session}") as beat:
        next(beat.iter_lines())


def _settle(condition, seconds: float = 30.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    return condition()


def test_two_tabs_uploading_the_same_bytes_each_keep_their_file_when_one_ingests_and_closes(app):
    queue = Queue(app)
    mine, theirs = queue.upload(NAME, TEXT), queue.upload(NAME, TEXT)  # one visitor, two tabs: the same bytes
    assert mine["path"] != theirs["path"]  # each upload its own file, though Gradio files both under one hash
    assert Path(mine["path"]).read_text(encoding="utf-8") == Path(theirs["path"]).read_text(encoding="utf-8") == TEXT
    assert queue.call("hold", [[mine]], "tab-a")["success"] and queue.call("hold", [[theirs]], "tab-b")["success"]
    assert queue.call("run_ingest", [[mine], "", "", ""], "tab-a")["success"]  # tab-a's copy is deleted once stored
    a_library = app.service.sessions.own("tab-a")
    assert a_library in _libraries_holding(app, NAME)
    _close_tab(app, "tab-a")
    assert _settle(lambda: a_library not in _libraries_holding(app, NAME))
    assert Path(theirs["path"]).read_text(encoding="utf-8") == TEXT  # tab-b's upload is still there
    done = queue.call("run_ingest", [[theirs], "", "", ""], "tab-b")
    assert done["success"] and "1 个文件成功" in queue.seen, queue.seen
    assert _libraries_holding(app, NAME) == {app.service.sessions.own("tab-b")}
    assert_healthy(app)


def test_a_tab_closing_before_it_ingests_leaves_the_other_tabs_identical_upload(app):
    queue = Queue(app)
    mine, theirs = queue.upload(NAME, TEXT), queue.upload(NAME, TEXT)
    queue.call("hold", [[mine]], "tab-c")
    queue.call("hold", [[theirs]], "tab-d")
    _close_tab(app, "tab-c")
    assert _settle(lambda: not Path(mine["path"]).exists())  # tab-c's upload goes with its tab
    assert Path(theirs["path"]).read_text(encoding="utf-8") == TEXT
    assert queue.call("run_ingest", [[theirs], "", "", ""], "tab-d")["success"]
    assert app.service.sessions.own("tab-d") in _libraries_holding(app, NAME)


def test_the_evaluation_tabs_question_file_and_its_csv_go_when_its_tab_closes(app):
    queue = Queue(app)
    line = json.dumps({"doc": "东岭街道防汛应急预案.md", "question": "东岭街道有几艘冲锋舟？存放在哪里？",
                       "attachments": ["附件4：防汛抢险物资储备清单"], "answer_contains": ["3艘"], "kind": "attachment"},
                      ensure_ascii=False)
    questions = queue.upload("我的题目.jsonl", line + "\n")
    assert queue.call("hold_questions", [questions], "tab-e")["success"]
    ran = queue.call("run_eval", [questions, 1, None], "tab-e")
    assert ran["success"] and "我的题目.jsonl" in queue.seen, queue.seen  # the run read the visitor's file
    first = _csv(ran)
    assert "东岭街道有几艘冲锋舟" in first.read_text(encoding="utf-8-sig")  # the CSV quotes the visitor's questions
    assert Path(questions["path"]).exists()  # kept for another run while the tab is open
    csv_value = {"path": str(first), "orig_name": first.name, "meta": {"_type": "gradio.FileData"}}
    # the table's frame is session state: Gradio reads it from the session, whatever the event sends
    filtered = queue.call("refilter_eval", [None, ALL, ALL, PASS, "", csv_value], "tab-e")
    second = _csv(filtered)
    assert second != first and second.exists() and not first.exists()  # the CSV it replaced is gone at once
    _close_tab(app, "tab-e")
    assert _settle(lambda: not Path(questions["path"]).exists() and not second.exists())
    assert not Path(questions["path"]).parent.exists() and not second.parent.exists()


def _csv(message: dict) -> Path:
    """The CSV download an evaluation event answered."""
    [path] = re.findall(r'"path": "([^"]*annex-eval\.csv)"', json.dumps(message["output"], ensure_ascii=False))
    return Path(path)
