"""A real browser on the app as app.py serves it (ui/server.py): a tab's private library goes when the tab closes, and
so does every copy Gradio kept of what the tab showed; an upload waiting behind busy upload workers shows its place in the queue, and the token box lifts the upload share.

Every wait is an `expect(...)` or a poll with a deadline: nothing is read the instant an action returns.
"""
from __future__ import annotations

import re
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

import gradio as gr
import httpx
import pytest

from tests.live_server import LiveServer, build_app
from tests.reliability.conftest import LiveApp
from tests.reliability.test_access import Queue
from tests.ui.test_browser import TIMEOUT, browser, opened  # noqa: F401  (the same chromium)
from ui.blocks import EXAMPLES
from ui.library.tab import UPLOAD_WORKERS

pytestmark = pytest.mark.browser

TOKEN = "browser-sessions-token"
PLAN = """# 青湾渡口防汛应急预案

渡口按附件1备足防汛物资。

附件1：防汛物资清单

救生衣：140件，存放于渡口值班室。
"""


@pytest.fixture(scope="module")
def served(service):
    """The shared UI-test service behind ui/server.py's app, with a token set."""
    admin = replace(service, settings=replace(service.settings, api_token=TOKEN))
    with LiveServer(build_app(admin)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        yield LiveApp(server.url + "/", http, admin)


def _private(app: LiveApp) -> set[str]:
    return {x for x in app.service.read.current().libraries if x.startswith("session-")}


def _until(condition: Callable[[], bool], seconds: float = TIMEOUT / 1000) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.1)
    return condition()


def _upload(page, path) -> None:
    page.get_by_role("tab", name="知识库").click()
    page.locator("input[type=file][accept*='.md']").set_input_files(str(path))  # the documents' File, not a table's
    page.get_by_role("button", name="入库", exact=True).click()


def test_closing_the_tab_deletes_its_private_library(browser, served, tmp_path):
    from playwright.sync_api import expect

    plan = tmp_path / "青湾渡口防汛应急预案.md"
    plan.write_text(PLAN, encoding="utf-8")
    before = _private(served)
    with opened(browser, served.url) as page:
        _upload(page, plan)
        expect(page.locator("#kb-results")).to_contain_text("本会话私有库", timeout=TIMEOUT)
        assert _until(lambda: len(_private(served) - before) == 1)
        [mine] = _private(served) - before
    # the context closed: the browser dropped the heartbeat stream, Gradio ran the unload, the sweep took the library
    assert _until(lambda: mine not in _private(served)), f"{mine} outlived its tab"


# A document whose words occur nowhere else: its watchword is how the test finds a copy of it anywhere.
WATCHWORD = "青鹭40217"
PRIVATE_PLAN = f"""# 苇岸码头值守办法

码头夜间值守的暗号见附件1。

附件1：值守暗号表

夜间暗号为{WATCHWORD}，由值班长保管。
"""


def _gradio(app: Any) -> Any:
    """The Gradio app mounted inside ui/server.py's FastAPI app."""
    from gradio.routes import App

    [mounted] = [r.app for r in app.routes if isinstance(getattr(r, "app", None), App)]
    return mounted


def _texts(value: Any, seen: set[int]) -> Iterator[str]:
    """Every string inside a value Gradio holds: dicts, sequences, component copies and our own dataclasses."""
    if isinstance(value, str):
        yield value
        return
    if id(value) in seen or value is None or isinstance(value, (int, float, bool)):
        return
    seen.add(id(value))
    # copies first: the server goes on serving the other page while this reads its state (a dict of it changed size
    # during iteration once, on a loaded machine)
    if isinstance(value, dict):
        for key, item in list(value.items()):
            yield from _texts(key, seen)
            yield from _texts(item, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in list(value):
            yield from _texts(item, seen)
    elif isinstance(value, gr.blocks.Block):  # a session's copy of a component: what it was updated with
        yield from _texts(value.constructor_args, seen)
    elif hasattr(value, "__dict__"):
        yield from _texts(vars(value), seen)


def _holding(gradio_app: Any, text: str) -> set[str]:
    """The sessions whose server-side state holds `text`: gr.State values, components' values and copies, and the
    messages queued for the page."""
    pending = gradio_app.get_blocks()._queue.pending_messages_per_session
    holding = set()
    for session, state in list(gradio_app.state_holder.session_data.items()):
        held = [state.state_data, state.config_values, state.blocks_config.blocks]
        queued = pending.get(session)
        held.append(list(queued._queue) if queued is not None else [])
        if any(text in t for t in _texts(held, set())):
            holding.add(session)
    return holding


@pytest.fixture(scope="module")
def served_app(service):
    """The shared UI-test service behind ui/server.py's app, with the FastAPI app itself to look inside."""
    app = build_app(service)
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        yield LiveApp(server.url + "/", http, service), _gradio(app)


def _ask(page, question: str) -> None:
    page.get_by_role("tab", name="问答").click()
    box = page.locator("#annex-question textarea")
    box.fill(question)
    box.press("Enter")


def test_a_closed_tab_leaves_no_copy_of_its_private_document_on_the_server(browser, served_app, tmp_path):
    from playwright.sync_api import expect

    served, gradio_app = served_app
    plan = tmp_path / "苇岸码头值守办法.md"
    plan.write_text(PRIVATE_PLAN, encoding="utf-8")
    with opened(browser, served.url) as other:
        with opened(browser, served.url) as page:
            _upload(page, plan)
            expect(page.locator("#kb-results")).to_contain_text("苇岸码头值守办法.md", timeout=TIMEOUT)
            _ask(page, "苇岸码头的夜间暗号是什么？")
            expect(page.locator("#annex-chat")).to_contain_text(WATCHWORD, timeout=TIMEOUT)
            expect(page.locator("#annex-citations")).to_contain_text(WATCHWORD, timeout=TIMEOUT)
            # the page's chat, citations and turns: the server holds them while the tab is open
            assert _until(lambda: len(_holding(gradio_app, WATCHWORD)) == 1)
            [mine] = _holding(gradio_app, WATCHWORD)
            assert _holding(gradio_app, "苇岸码头值守办法.md") == {mine}  # the ingest results name the file
        # the tab closed: Gradio ran the unload, which dropped the page's state with its private library
        assert _until(lambda: not _holding(gradio_app, WATCHWORD)), "the closed tab's answer outlived it"
        assert not _holding(gradio_app, "苇岸码头值守办法.md")
        assert mine not in gradio_app.state_holder.session_data
        assert _until(lambda: all(d.name != plan.name for d in served.service.read.current().documents.values()))
        # the page that stayed open works on, its own state kept
        _ask(other, EXAMPLES[0])
        expect(other.locator("#annex-chat")).to_contain_text("18000", timeout=TIMEOUT)
        assert _until(lambda: len(_holding(gradio_app, "18000")) == 1)
        assert not _holding(gradio_app, WATCHWORD)


def test_deleting_the_private_document_the_chat_quoted_empties_the_chat_and_marks_its_line_deleted(browser,
                                                                                                  served_app, tmp_path):
    from playwright.sync_api import expect

    served, _ = served_app
    plan = tmp_path / "苇岸码头值守办法.md"
    plan.write_text(PRIVATE_PLAN, encoding="utf-8")
    with opened(browser, served.url) as page:
        _upload(page, plan)
        results = page.locator("#kb-results")
        expect(results).to_contain_text("已入库", timeout=TIMEOUT)
        _ask(page, "苇岸码头的夜间暗号是什么？")
        expect(page.locator("#annex-chat")).to_contain_text(WATCHWORD, timeout=TIMEOUT)
        page.get_by_role("tab", name="知识库").click()
        page.get_by_label("查看文档").click()
        page.get_by_role("option", name=re.compile("苇岸码头值守办法")).click()
        page.locator("#kb-confirm input").check()
        page.get_by_role("button", name="删除该文档").click()
        expect(results).to_contain_text("已删除", timeout=TIMEOUT)  # the upload's line, no longer 已入库
        expect(results).not_to_contain_text("已入库")
        expect(page.locator("[data-testid='toast-body']").filter(has_text="问答页已清空")).to_be_visible(timeout=TIMEOUT)
        page.get_by_role("tab", name="问答").click()
        expect(page.locator("#annex-chat")).not_to_contain_text(WATCHWORD, timeout=TIMEOUT)
        expect(page.locator("#annex-citations")).not_to_contain_text(WATCHWORD)
        _ask(page, EXAMPLES[0])  # the next question starts a new conversation, without an English toast
        expect(page.locator("#annex-chat")).to_contain_text("18000", timeout=TIMEOUT)
        assert page.get_by_text("Unknown conversation").count() == 0


def test_an_upload_waiting_for_a_worker_shows_its_place_in_the_queue(browser, served, tmp_path):
    from playwright.sync_api import expect

    plan = tmp_path / "青湾渡口防汛应急预案.md"
    plan.write_text(PLAN, encoding="utf-8")
    queue = Queue(served)
    holders = [f"holder-{n}" for n in range(UPLOAD_WORKERS)]
    writes = served.service.stores.ingestor._lock  # held here: every ingest stops at its store write
    writes.acquire()
    held = True  # whether this test still holds it: once released, the ingests and the sweep take it in turn
    try:
        busy = [threading.Thread(target=queue.call, args=("run_ingest", [[queue.upload(f"占位{n}.md", PLAN)], "", "",
                                                                      ""], session)) for n, session in enumerate(holders)]
        for thread in busy:
            thread.start()
        with opened(browser, served.url) as page:
            _upload(page, plan)
            results = page.locator("#kb-results")
            tracker = results.locator("[data-testid=status-tracker]")
            expect(tracker).to_contain_text(re.compile(r"queue: \d+/\d+"), timeout=TIMEOUT)  # Gradio's place line
            # and shown: with show_progress="hidden" the same line sits there at opacity 0 and height 0
            expect(tracker).to_have_css("opacity", "1", timeout=TIMEOUT)
            writes.release()
            held = False
            expect(results).to_contain_text("本会话私有库", timeout=TIMEOUT)  # then it ran
    finally:
        if held:  # never `writes.locked()`: after the release that is another thread's hold, not ours to release
            writes.release()
    for thread in busy:
        thread.join(60)
    for session in holders:
        served.service.sessions.end(session)


@pytest.fixture(scope="module")
def tight(service):
    """The same app with a visitor's upload share of 4 KB."""
    admin = replace(service, settings=replace(service.settings, api_token=TOKEN, session_upload_mb=4 / 1024))
    with LiveServer(build_app(admin)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
        yield LiveApp(server.url + "/", http, admin)


def test_the_token_box_lifts_the_upload_share_for_the_files_chosen_after_it(browser, tight, tmp_path):
    from playwright.sync_api import expect
    from ui.writer_pass import COOKIE

    big = tmp_path / "青湾渡口防汛应急预案.md"
    big.write_text(PLAN + "\n".join(f"第{n}条：渡口值班人员按时巡查水位。" for n in range(400)), encoding="utf-8")
    assert big.stat().st_size > 8 * 1024
    with opened(browser, tight.url) as page:
        page.get_by_role("tab", name="知识库").click()
        files = page.locator("input[type=file][accept*='.md']")
        files.set_input_files(str(big))  # a visitor's share: refused, saying what to do
        expect(page.locator("[data-testid='toast-body']").first).to_contain_text("ANNEX_SESSION_UPLOAD_MB",
                                                                                 timeout=TIMEOUT)
        page.get_by_label("共享库（需口令）").fill("browser-writer")
        page.locator("#kb-token input").fill(TOKEN)
        page.locator("#kb-token input").press("Tab")  # the box loses focus: the page has the token checked once
        assert _until(lambda: COOKIE in {c["name"] for c in page.context.cookies()})
        assert all(TOKEN not in c["value"] for c in page.context.cookies())
        files.set_input_files(str(big))
        page.get_by_role("button", name="入库", exact=True).click()
        expect(page.locator("#kb-results")).to_contain_text("已写入共享库", timeout=TIMEOUT)
    written = [d for d in tight.service.read.current().documents.values() if d.library == "browser-writer"]
    assert [d.name for d in written] == [big.name]
    for doc in written:  # the UI tests share one store: leave its libraries as they were
        tight.service.stores.ingestor.delete(doc.id)


def test_two_tabs_sending_the_same_file_each_own_a_copy_and_one_closing_leaves_the_other_its_document(browser,
                                                                                                      app_url, tmp_path):
    """The app the tests launch is the one users run (ui/server.py): each upload is moved to a folder of its own
    (ui/upload_owned.py), so a tab that closes takes its copy, never the other tab's."""
    from gradio.utils import get_upload_folder
    from playwright.sync_api import expect

    plan = tmp_path / "白沙渡口同文件测试预案.md"
    plan.write_text(PLAN.replace("青湾", "白沙"), encoding="utf-8")

    def copies() -> list[Path]:
        return sorted(Path(get_upload_folder()).glob(f"*/{plan.name}"))

    with opened(browser, app_url) as first, opened(browser, app_url) as second:
        for page in (first, second):
            page.get_by_role("tab", name="知识库").click()
            page.locator("input[type=file][accept*='.md']").set_input_files(str(plan))
            expect(page.get_by_text(plan.name).first).to_be_visible(timeout=TIMEOUT)  # the File lists it
        assert _until(lambda: len(copies()) == 2), copies()  # the same bytes, two files
        assert all(re.fullmatch(r"[0-9a-f]{32}", p.parent.name) for p in copies())
        first.context.close()  # the first tab closes before its 入库: its copy goes, and only its own
        assert _until(lambda: len(copies()) == 1), copies()
        second.get_by_role("button", name="入库", exact=True).click()
        results = second.locator("#kb-results")
        expect(results).to_contain_text("本会话私有库", timeout=TIMEOUT)
        expect(results).to_contain_text(plan.name)
        expect(results.get_by_text("1 个文件成功，0 个失败", exact=True)).to_be_visible()
        assert _until(lambda: not copies())  # read, then removed
