"""The stakeholder walkthrough in a real browser: compare, evaluate, a declined answer, a visitor's upload, a link.

Screenshots of each step go to test-artifacts/ (ignored by git). Set ANNEX_SCREENSHOT=ui/screenshot.png to
refresh the README's picture from the compare test.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest

from tests.ui.test_browser import browser, page  # noqa: F401  (the same chromium and fresh page fixtures)
from ui.blocks import EXAMPLES
from ui.compare.tab import GRAPH_WINS

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TIMEOUT = 30_000  # ms
DECLINED_QUESTION = "东岭街道配备了多少架巡查无人机？"  # retrieval brings passages that share its words; none answers


def _shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def _box(page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} is not laid out"
    return box


# A panel's drawn extent: its box and every descendant's, each clipped by the scroll containers it sits in. Boxes
# of the containers alone would miss text that spills out of a container whose overflow is visible.
_DRAWN = """(selectors) => selectors.map((selector) => {
    const root = document.querySelector(selector);
    const r = root.getBoundingClientRect();
    let box = {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom};
    for (const el of root.querySelectorAll('*')) {
        const e = el.getBoundingClientRect();
        if (!e.width || !e.height) continue;
        let c = {x0: e.left, y0: e.top, x1: e.right, y1: e.bottom};
        for (let a = el.parentElement; a && a !== root.parentElement; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowY !== 'visible' || s.overflowX !== 'visible') {
                const ar = a.getBoundingClientRect();
                c = {x0: Math.max(c.x0, ar.left), y0: Math.max(c.y0, ar.top),
                     x1: Math.min(c.x1, ar.right), y1: Math.min(c.y1, ar.bottom)};
            }
        }
        if (c.x1 > c.x0 && c.y1 > c.y0) box = {x0: Math.min(box.x0, c.x0), y0: Math.min(box.y0, c.y0),
                                               x1: Math.max(box.x1, c.x1), y1: Math.max(box.y1, c.y1)};
    }
    return {x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0};
})"""


def _overlaps(page, selectors: tuple[str, ...]) -> list[tuple[str, str]]:
    """Pairs of panels whose drawn extents intersect (text drawn over text)."""
    boxes = page.evaluate(_DRAWN, list(selectors))
    return [(selectors[i], selectors[j]) for i in range(len(boxes)) for j in range(i + 1, len(boxes))
            if _intersect(boxes[i], boxes[j])]


def _intersect(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_the_compare_tab_shows_three_columns_and_the_graph_surfaces_what_plain_rag_misses(page):
    from playwright.sync_api import expect

    page.get_by_role("tab", name="对比").click()
    page.get_by_role("button", name=GRAPH_WINS[0]).click()
    graph, naive, keyword = (page.locator(f"#compare-{m}") for m in ("graph", "naive", "keyword"))
    expect(graph).to_contain_text("答对", timeout=TIMEOUT)
    expect(page.locator("#compare-summary")).to_contain_text("这是评测题")
    right = "附件9 相关单位联系电话 · 《西岭街道防汛应急预案》"  # the plan's own 附件9, not its twin's
    expect(graph).to_contain_text("✓ 答对 " + right)
    expect(naive).to_contain_text("✗ 漏掉 " + right)
    expect(keyword).to_contain_text("✗ 漏掉 " + right)  # it fetched the first 附件9 of the library: the twin plan's
    expect(keyword).to_contain_text("ms")
    boxes = [_box(page, f"#compare-{m}") for m in ("naive", "keyword", "graph")]
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # side by side, left to right
    assert abs(boxes[0]["y"] - boxes[2]["y"]) < 5
    _shot(page, "compare")
    if os.environ.get("ANNEX_SCREENSHOT"):
        page.screenshot(path=os.environ["ANNEX_SCREENSHOT"])


def test_the_evaluation_tab_runs_the_bundled_questions_to_its_table(page, tmp_path):
    from playwright.sync_api import expect

    page.get_by_role("tab", name="评测").click()
    limit = page.locator("#eval-limit input")
    limit.fill("12")
    page.locator("#eval-run").click()
    expect(page.locator("#eval-status")).to_contain_text("12 道题 × 3 种模式", timeout=TIMEOUT)
    summary = page.locator("#eval-summary")
    for mode in ("annex-rag 图谱模式", "朴素向量 RAG", "FastGPT 式关键词工作流"):
        expect(summary).to_contain_text(mode)
    expect(summary).to_contain_text("附件召回率")
    expect(page.locator("#eval-chart .js-plotly-plot")).to_be_visible(timeout=TIMEOUT)
    outcomes = page.locator("#eval-outcomes")
    expect(outcomes).to_contain_text("园区公共应急事故池的有效容积是多少？")
    with page.expect_download() as download:
        page.locator("#eval-download").click()
    rows = pd.read_csv(download.value.path(), encoding="utf-8-sig")
    assert len(rows) == 12 * 3 and set(rows["模式"]) == {"annex-rag 图谱模式", "朴素向量 RAG", "FastGPT 式关键词工作流"}
    assert rows["问题"].str.contains("园区公共应急事故池的有效容积是多少？").any() and "回答" in rows.columns
    page.get_by_role("combobox", name="模式", exact=True).click()  # filter: naive's failures only
    page.get_by_role("option", name="朴素向量 RAG", exact=True).click()
    page.get_by_role("combobox", name="结果", exact=True).click()
    page.get_by_role("option", name="未通过", exact=True).click()
    expect(outcomes).not_to_contain_text("annex-rag 图谱模式", timeout=TIMEOUT)
    with page.expect_download() as download:
        page.locator("#eval-download").click()
    failed = pd.read_csv(download.value.path(), encoding="utf-8-sig")
    assert len(failed) and set(failed["模式"]) == {"朴素向量 RAG"} and set(failed["结果"]) == {"未通过"}
    assert len(failed) == int(((rows["模式"] == "朴素向量 RAG") & (rows["结果"] == "未通过")).sum())
    _shot(page, "evaluation")

    own = tmp_path / "my-questions.jsonl"  # an uploaded question file: one good line, one broken
    own.write_text(json.dumps({"doc": "东岭街道防汛应急预案.md", "question": "东岭街道有几艘冲锋舟？",
                               "attachments": ["附件4"], "answer_contains": ["冲锋舟"], "kind": "attachment"},
                              ensure_ascii=False) + "\n{not json\n", encoding="utf-8")
    page.locator("#eval-upload input[type=file]").set_input_files(str(own))
    limit.fill("0")
    page.locator("#eval-run").click()
    status = page.locator("#eval-status")
    expect(status).to_contain_text("my-questions.jsonl：1 道题 × 3 种模式", timeout=TIMEOUT)
    expect(status).to_contain_text("第 2 行跳过")
    expect(outcomes).to_contain_text("东岭街道有几艘冲锋舟？", timeout=TIMEOUT)


def test_a_declined_question_shows_the_closest_passages_without_paths_or_overlap(page):
    from playwright.sync_api import expect

    question = page.locator("#annex-question textarea")
    question.fill(DECLINED_QUESTION)
    question.press("Enter")
    expect(page.locator("#annex-chat")).to_contain_text("知识库中没有找到", timeout=TIMEOUT)
    cites = page.locator("#annex-citations")
    expect(cites).to_contain_text("最接近的 3 段原文", timeout=TIMEOUT)
    assert cites.locator(".decline-passage").count() == 3
    assert "含问题词" in cites.inner_text() and "相关度" not in cites.inner_text()  # shared words, not a relative 1.00
    retrieved = int(re.search(r"共检索到 (\d+) 段", cites.inner_text()).group(1))
    assert retrieved > 3  # more was retrieved than the panel lists
    assert page.locator("#annex-citation-select").locator("input").count() == 1
    expect(page.locator("#annex-paths")).to_contain_text("不画检索路径", timeout=TIMEOUT)
    assert page.locator("#annex-paths .scatterlayer .trace").count() == 0  # no nodes, no hairball
    assert _overlaps(page, ("#annex-paths", "#annex-citations", "#annex-citation-select", "#annex-source")) == []
    _shot(page, "declined")


def test_a_long_answer_leaves_no_panel_over_another(page):
    from playwright.sync_api import expect

    question = page.locator("#annex-question textarea")
    question.fill("东岭街道防汛应急预案有哪些附件？各附件的内容是什么？")
    question.press("Enter")
    expect(page.locator("#annex-chat")).to_contain_text("相关附件内容", timeout=TIMEOUT)
    expect(page.locator("#annex-citations .cite-doc").first).to_be_visible(timeout=TIMEOUT)
    page.wait_for_timeout(300)
    assert page.evaluate("document.querySelector('#annex-citations').scrollHeight") > 560  # long enough to spill
    assert _overlaps(page, ("#annex-paths", "#annex-citations", "#annex-citation-select", "#annex-source")) == []
    _shot(page, "long-answer")


VISITOR_DOC = """# 星港码头防台风应急预案

台风来临前，码头按附件1备足防台风物资，由值班调度统一调配。

附件1：防台风物资清单

沙袋：860只，存放于3号仓库东侧；防汛抽水泵：6台，存放于机修车间。
"""


def test_a_visitor_uploads_a_document_and_the_chat_brings_its_attachment(page, service, tmp_path):
    from playwright.sync_api import expect

    plan = tmp_path / "星港码头防台风应急预案.md"
    plan.write_text(VISITOR_DOC, encoding="utf-8")
    page.get_by_role("tab", name="知识库").click()
    page.locator("input[type=file]").first.set_input_files(str(plan))
    page.get_by_role("button", name="入库", exact=True).click()
    expect(page.locator("#kb-results")).to_contain_text("本会话私有库", timeout=TIMEOUT)
    expect(page.locator("#kb-results")).to_contain_text("星港码头防台风应急预案", timeout=TIMEOUT)
    # the outcome where the eye is too (on a phone the results are a screen below the button)
    expect(page.locator("[data-testid='toast-body']").first).to_contain_text("入库完成：1 个文件成功，0 个失败")
    expect(page.locator("#kb-documents")).to_contain_text("星港码头防台风应急预案", timeout=TIMEOUT)
    page.get_by_role("tab", name="问答").click()
    question = page.locator("#annex-question textarea")
    question.fill("星港码头的沙袋有多少只？存放在哪里？")
    question.press("Enter")
    chat = page.locator("#annex-chat")
    expect(chat).to_contain_text("860只", timeout=TIMEOUT)
    expect(chat).to_contain_text("附件1", timeout=TIMEOUT)
    expect(page.locator("#annex-citations")).to_contain_text("星港码头防台风应急预案", timeout=TIMEOUT)
    libraries = page.locator("#annex-citations .cite-lib").all_inner_texts()
    assert "本会话私有库" in libraries and not [x for x in libraries if "session-" in x]  # issue 19: no ids
    _shot(page, "visitor-upload")
    private = [lib for lib in service.read.current().libraries if lib.startswith("session-")]
    assert private, "the upload went into a private library"


def test_a_conversation_link_reopens_the_answer_read_only(page, browser, app_url):
    from playwright.sync_api import expect

    page.get_by_role("button", name=EXAMPLES[0]).click()
    expect(page.locator("#annex-chat")).to_contain_text("附件12-事故应急池及雨水切断阀一览表", timeout=TIMEOUT)
    page.locator("#annex-share").get_by_text("分享与复制").click()
    link_box = page.locator("#annex-share-link textarea, #annex-share-link input").first
    expect(link_box).to_have_value(re.compile(r"\?conversation=[0-9a-f]{32}$"), timeout=TIMEOUT)
    link = link_box.input_value()
    assert link.startswith(app_url)
    markdown = page.locator("#annex-share-markdown")
    expect(markdown).to_contain_text("**问：** " + EXAMPLES[0], timeout=TIMEOUT)
    expect(markdown).to_contain_text("**相关附件内容：**")

    visitor = browser.new_context(viewport={"width": 1600, "height": 1000})  # another browser, not the owner
    try:
        other = visitor.new_page()
        other.goto(link)
        expect(other.locator("#annex-shared-notice")).to_contain_text("只读", timeout=TIMEOUT)
        chat = other.locator("#annex-chat")
        expect(chat).to_contain_text(EXAMPLES[0], timeout=TIMEOUT)
        expect(chat).to_contain_text("18000")
        expect(chat).to_contain_text("附件12-事故应急池及雨水切断阀一览表")
        expect(other.locator("#annex-citations")).to_contain_text("绿洲化工园区突发环境事件应急预案")
        expect(other.locator("#annex-paths svg.main-svg").first).to_contain_text("附件12", timeout=TIMEOUT)
        other.get_by_text("历史会话", exact=True).click()
        expect(other.locator("#annex-conversations")).not_to_contain_text(EXAMPLES[0])  # not the owner's list
        _shot(other, "shared-link")
        shared_id = link.rsplit("=", 1)[1]
        question = other.locator("#annex-question textarea")  # the visitor asks: a conversation of their own
        question.fill(EXAMPLES[1])
        question.press("Enter")
        expect(chat).to_contain_text("0513-85260110", timeout=TIMEOUT)
        notice = other.locator("#annex-shared-notice")
        expect(notice).to_contain_text("你自己的新会话", timeout=TIMEOUT)
        expect(notice).not_to_contain_text("只读")
        expect(chat).not_to_contain_text(EXAMPLES[0])  # not appended under the owner's turns
        expect(other).to_have_url(re.compile(r"\?conversation=[0-9a-f]{32}$"), timeout=TIMEOUT)
        assert shared_id not in other.url
        other.goto(app_url + "?conversation=" + "0" * 32)  # an unknown id: a warning, an empty chat
        expect(other.locator("[data-testid='toast-body']").first).to_contain_text("不存在", timeout=TIMEOUT)
        expect(other.locator("#annex-shared-notice")).to_be_hidden()
    finally:
        visitor.close()


def test_the_thinking_block_shows_nested_steps_with_their_times(page):
    from playwright.sync_api import expect

    page.get_by_role("button", name=EXAMPLES[1]).click()
    chat = page.locator("#annex-chat")
    expect(chat).to_contain_text("0513-85260110", timeout=TIMEOUT)
    summary = chat.get_by_text(re.compile(r"检索 [\d.]+ ms · 图谱预取")).first
    if not summary.is_visible():
        chat.get_by_text("思考过程").first.click()  # the block folds once the answer is done
    expect(summary).to_be_visible(timeout=TIMEOUT)
    for name in ("检索", "图谱预取", "模型", "回答后跳转"):
        expect(chat.get_by_text(name, exact=True).first).to_be_visible(timeout=TIMEOUT)
    assert re.search(r"检索 [\d.]+ ms · 图谱预取 [\d.]+ ms · 模型 [\d.]+ ms · 回答后跳转 [\d.]+ ms", chat.inner_text())
    chat.get_by_text("图谱预取", exact=True).first.click()
    expect(chat).to_contain_text("附件3 应急联系人通讯录")
    _shot(page, "thinking-steps")
