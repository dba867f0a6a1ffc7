"""Issue 19 at 390×844 (a phone), in a real browser: a compact header, the answer and its attachments first,
graph-path labels whole, an evaluation chart whose legend and values read, and a list instead of the library knot."""
from __future__ import annotations

import time

import pytest

from tests.ui.test_browser import browser, opened  # noqa: F401  (the module's chromium)
from tests.ui.test_presentation import ask, label_problems, one_line_numbers
from ui.blocks import EXAMPLES

pytestmark = pytest.mark.browser

TIMEOUT = 30_000  # ms


@pytest.fixture
def phone(browser, app_url):  # noqa: F811
    with opened(browser, app_url, viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
                has_touch=True, locale="zh-CN") as page:
        yield page


def test_a_phone_shows_a_compact_header_then_the_chat_with_its_examples(phone):
    header = phone.locator("#annex-header").bounding_box()
    assert header["height"] < 110  # was about 330 px
    first = phone.locator("#annex-chat").get_by_role("button", name=EXAMPLES[0]).bounding_box()
    assert first["y"] + first["height"] < 844  # an example to tap without scrolling
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the screen
    phone.get_by_role("tab", name="对比").click()  # the compare tab: graph mode's verdict first, not 1,500 px down
    phone.locator("#compare-examples").get_by_role("button").first.click()
    phone.locator("#compare-graph .compare-lead").wait_for(timeout=TIMEOUT)
    graph, naive = (phone.locator(f"#compare-{m}").bounding_box() for m in ("graph", "naive"))
    assert graph["y"] < naive["y"] and graph["y"] < 844


def test_a_phone_answer_comes_with_its_attachments_paths_and_citations_before_the_settings(phone):
    ask(phone, EXAMPLES[1])
    settings = phone.get_by_text("检索设置", exact=True).bounding_box()
    for panel in ("#annex-paths", "#annex-citations"):
        assert phone.locator(panel).bounding_box()["y"] < settings["y"]
    assert phone.locator("#annex-citations table.cite-table").count() >= 1
    assert one_line_numbers(phone, "#annex-citations") and one_line_numbers(phone, "#annex-chat")
    phone.locator("#annex-paths .scatterlayer text").first.wait_for(timeout=TIMEOUT)
    assert settled_label_problems(phone, "#annex-paths") == []
    ask(phone, EXAMPLES[0])
    assert settled_label_problems(phone, "#annex-paths") == []


def settled_label_problems(page, root: str, seconds: float = 10.0) -> list[str]:
    """label_problems once the picture has settled: Plotly may still be laying out the new answer's paths (slowly, on
    a loaded machine); a real overlap stays and is returned after `seconds`."""
    deadline = time.monotonic() + seconds
    while (problems := label_problems(page, root)) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    return problems


def test_a_phone_reads_the_evaluation_chart_and_gets_a_list_instead_of_the_library_graph(phone):
    from playwright.sync_api import expect

    phone.get_by_role("tab", name="评测").click()
    phone.locator("#eval-limit input").fill("4")
    phone.locator("#eval-run").click()
    chart = phone.locator("#eval-chart")
    expect(chart.locator(".js-plotly-plot")).to_be_visible(timeout=TIMEOUT)
    phone.wait_for_timeout(500)
    drawn = phone.evaluate("""() => {
        const svg = document.querySelector('#eval-chart svg.main-svg').getBoundingClientRect();
        const box = (t) => { const r = t.getBoundingClientRect(); return {text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
        return {svg: {x0: svg.left, x1: svg.right, y0: svg.top, y1: svg.bottom},
                legend: [...document.querySelectorAll('#eval-chart .legendtext')].map(box),
                bars: [...document.querySelectorAll('#eval-chart .bartext')].map(box)};
    }""")
    svg = drawn["svg"]
    assert len(drawn["legend"]) == 3 and all(svg["x0"] <= b["x0"] and b["x1"] <= svg["x1"] + 1
                                            and svg["y0"] <= b["y0"] and b["y1"] <= svg["y1"] + 1 for b in drawn["legend"])
    assert phone.locator("#eval-summary thead").bounding_box()["height"] < 80  # 附件召回率 on one line, not a column
    bars = drawn["bars"]
    assert bars and not [(a["text"], b["text"]) for i, a in enumerate(bars) for b in bars[i + 1:]
                         if a["x0"] < b["x1"] - 1 and b["x0"] < a["x1"] - 1 and a["y0"] < b["y1"] - 1 and b["y0"] < a["y1"] - 1]
    phone.get_by_role("tab", name="知识库").click()
    expect(phone.locator("#kb-documents")).to_be_visible(timeout=TIMEOUT)
    assert not phone.locator("#kb-graph").is_visible()
    expect(phone.get_by_text("在手机上看不清")).to_be_visible()


def test_a_phone_table_wider_than_its_card_shows_that_it_scrolls(phone):
    ask(phone, EXAMPLES[0])  # 附件12's five-column table: wider than a 390 px phone's card
    wraps = phone.evaluate("""() => [...document.querySelectorAll('#annex-citations .cite-table-wrap')]
        .filter(w => w.scrollWidth > w.clientWidth + 1)
        .map(w => { const s = getComputedStyle(w); return {image: s.backgroundImage, attachment: s.backgroundAttachment}; })""")
    assert wraps, "no citation table is wider than its card: the test no longer tests the cue"
    for wrap in wraps:  # a shadow at the edge with more table beyond it; phones draw no scrollbar
        assert wrap["image"].count("radial-gradient") == 2 and "local" in wrap["attachment"]
