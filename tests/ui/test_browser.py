"""A real browser (Debian's chromium through Playwright) on the launched app: the walkthrough, and hostile documents.

Set ANNEX_SCREENSHOT=ui/screenshot.png to refresh the README's picture from the walkthrough test.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from tests.ui.conftest import HOSTILE_QUESTION
from ui.blocks import EXAMPLES

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 30_000  # ms


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not at /usr/bin/chromium (.ci/run installs it with apt-get install chromium); "
                    "Playwright cannot download its own browser here")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@contextlib.contextmanager
def opened(browser, url: str, **context):
    """A page of `url` in a context of its own (viewport, locale, touch…), once the chat is laid out."""
    ctx = browser.new_context(**context)
    try:
        page = ctx.new_page()
        page.goto(url)
        page.locator("#annex-chat").wait_for(timeout=TIMEOUT)
        yield page
    finally:
        ctx.close()


@pytest.fixture
def page(browser, app_url):
    """A fresh page on the app that records every request and every dialog (alert/confirm) it sees."""
    context = browser.new_context(viewport={"width": 1600, "height": 1000}, device_scale_factor=1)
    page = context.new_page()
    page.requests, page.dialogs = [], []
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(app_url)
    yield page
    context.close()


def _foreign(page, app_url: str) -> list[str]:
    return [u for u in page.requests if not u.startswith((app_url, "data:", "blob:"))]


def test_an_example_question_shows_the_answer_a_highlighted_citation_and_the_graph(page, app_url, tmp_path):
    from playwright.sync_api import expect

    page.get_by_role("button", name=EXAMPLES[0]).click()
    chat = page.locator("#annex-chat")
    expect(chat).to_contain_text("18000", timeout=TIMEOUT)
    expect(chat).to_contain_text("相关附件内容", timeout=TIMEOUT)
    expect(chat).to_contain_text("附件12-事故应急池及雨水切断阀一览表", timeout=TIMEOUT)
    fact = page.locator("#annex-citations mark.cite-fact").first
    expect(fact).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#annex-citations")).to_contain_text("绿洲化工园区突发环境事件应急预案")
    expect(page.locator("#annex-paths .js-plotly-plot")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#annex-paths svg.main-svg").first).to_contain_text("附件12", timeout=TIMEOUT)
    expect(page.locator("#annex-paths")).to_contain_text("经引用跳转到的附件")  # the legend: nodes coloured by kind
    page.get_by_role("tab", name="思考").click()
    expect(page.locator("#annex-thinking")).to_contain_text("图谱预取")
    page.get_by_role("tab", name="引用").click()
    _scroll_chat_to_the_answer(page)
    page.screenshot(path=str(tmp_path / "app.png"))
    if os.environ.get("ANNEX_SCREENSHOT"):
        page.screenshot(path=os.environ["ANNEX_SCREENSHOT"])
    assert (tmp_path / "app.png").stat().st_size > 50_000
    assert _foreign(page, app_url) == []  # plotly, fonts and scripts all come from the app itself


def test_a_hostile_document_renders_as_text_everywhere(page, app_url):
    from playwright.sync_api import expect

    question = page.locator("#annex-question textarea")
    question.fill(HOSTILE_QUESTION)
    question.press("Enter")
    chat = page.locator("#annex-chat")
    expect(chat).to_contain_text("青松12345", timeout=TIMEOUT)
    expect(chat).to_contain_text("相关附件内容", timeout=TIMEOUT)
    expect(chat).to_contain_text("巡检口令是<script>window.__pwned='body'</script>青松12345")
    expect(chat).to_contain_text("""<img src=x onerror="window.__pwned='img'">夜间暗号为白鹭67890，${7*7}""")
    citations = page.locator("#annex-citations")
    expect(citations).to_contain_text("注入测试文档<img src=x onerror=", timeout=TIMEOUT)
    expect(page.locator("#annex-paths svg.main-svg").first).to_contain_text("附件1", timeout=TIMEOUT)
    page.get_by_role("tab", name="思考").click()
    expect(page.locator("#annex-thinking")).to_contain_text("<script>window.__pwned='label'</script>")
    page.get_by_role("tab", name="知识库").click()
    expect(page.locator("#kb-documents")).to_contain_text("注入测试文档.md", timeout=TIMEOUT)
    expect(page.locator("#kb-graph .js-plotly-plot")).to_be_visible(timeout=TIMEOUT)
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src='x']").count() == 0
    assert page.locator("#annex-chat script, #annex-citations script, #annex-thinking script").count() == 0
    assert page.dialogs == [] and _foreign(page, app_url) == []


def test_a_toast_shows_a_hostile_library_name_as_text(page, service, tmp_path):
    """A library picked in the settings is gone when the question is asked: the warning names it, as text."""
    from playwright.sync_api import expect

    hostile = "<img src=x onerror=\"window.__pwned='toast'\"><b>粗</b>"
    plan = tmp_path / "吊装作业预案.md"
    plan.write_text("# 吊装作业预案\n\n吊装半径内禁止站人。\n", encoding="utf-8")
    [result] = service.stores.ingestor.ingest([plan], hostile)
    try:
        page.reload()
        page.get_by_text("检索设置", exact=True).click()
        page.get_by_label(hostile, exact=True).check()
        service.stores.ingestor.delete(result.doc_id)
        question = page.locator("#annex-question textarea")
        question.fill("吊装半径内能站人吗？")
        question.press("Enter")
        toast = page.locator("[data-testid='toast-body']").first
        expect(toast).to_contain_text("检索设置里选的库“<img src=x onerror=", timeout=TIMEOUT)
        assert toast.locator("img, b").count() == 0
        # Gradio 6 titles a toast by its type ("Warning"): the page's CSS draws the Chinese title instead
        title = toast.locator(".toast-title")
        assert title.evaluate("e => getComputedStyle(e, '::before').content") == '"请注意"'
        assert title.evaluate("e => getComputedStyle(e).fontSize") == "0px"
        assert page.evaluate("window.__pwned") is None
    finally:
        service.stores.ingestor.delete(result.doc_id)


def _scroll_chat_to_the_answer(page) -> None:
    """Show the question and the start of the answer (the chat scrolls to its end while streaming)."""
    page.evaluate("""() => {
        const rows = document.querySelectorAll('#annex-chat .message-row.user-row');
        const wrap = document.querySelector('#annex-chat .bubble-wrap');
        if (rows.length && wrap) wrap.scrollTop = rows[rows.length - 1].offsetTop - 8;
    }""")
    page.wait_for_timeout(400)
