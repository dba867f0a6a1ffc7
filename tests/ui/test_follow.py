"""The demo as a stakeholder sees it, on a 1280×800 laptop and a 390×844 phone: the chat follows the newest turn,
the title's icon draws without an emoji font, and an empty question says what to do."""
from __future__ import annotations

import pytest

from tests.ui.test_browser import browser, opened  # noqa: F401  (the module's chromium)
from tests.ui.test_presentation import ask
from ui.chat.handlers import EMPTY_QUESTION

pytestmark = pytest.mark.browser

TIMEOUT = 30_000  # ms
SCREENS = {"laptop": dict(viewport={"width": 1280, "height": 800}),
           "phone": dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)}
# A question, its follow-up (read as 西岭街道有几艘冲锋舟？), and a third with a long attachments block.
TURNS = ("东岭街道有几艘冲锋舟？", "西岭街道呢？", "园区公共应急事故池的有效容积是多少？")

# What of an element the reader sees: its box cut by every scrolling ancestor and by the window.
_SEEN = """(el) => {
    const r = el.getBoundingClientRect();
    let c = {top: r.top, bottom: r.bottom};
    for (let a = el.parentElement; a; a = a.parentElement) {
        const s = getComputedStyle(a);
        if (s.overflowY !== 'visible') {
            const ar = a.getBoundingClientRect();
            c = {top: Math.max(c.top, ar.top), bottom: Math.min(c.bottom, ar.bottom)};
        }
    }
    return {top: r.top, bottom: r.bottom, seenTop: Math.max(c.top, 0), seenBottom: Math.min(c.bottom, innerHeight)};
}"""


@pytest.fixture(params=sorted(SCREENS))
def screen(request, browser, app_url):  # noqa: F811
    with opened(browser, app_url, device_scale_factor=1, locale="zh-CN", **SCREENS[request.param]) as page:
        yield page


def test_after_each_of_three_turns_the_newest_question_and_the_start_of_its_answer_are_in_view(screen):
    for n, question in enumerate(TURNS, start=1):
        ask(screen, question)
        screen.wait_for_timeout(1600)  # the follow script looks again while the thinking block folds
        rows = screen.locator("#annex-chat .message-row.user-row")
        assert rows.count() == n
        asked = rows.last.evaluate(_SEEN)
        assert asked["seenTop"] <= asked["top"] + 1 and asked["bottom"] <= asked["seenBottom"] + 1, (question, asked)
        answer = screen.locator("#annex-chat .message-row.bot-row").last.evaluate(_SEEN)
        assert answer["seenBottom"] - answer["seenTop"] > 120, (question, answer)  # its start, not a sliver
        if n > 1:  # the earlier question scrolled away: the view is on the newest turn, not the first
            first = rows.first.evaluate(_SEEN)
            assert first["seenBottom"] <= first["seenTop"], first


def test_the_title_icon_is_drawn_by_css_not_an_emoji_glyph(screen):
    title = screen.locator("#annex-header h1")
    assert not any(0x1F000 <= ord(ch) <= 0x1FFFF for ch in title.inner_text())
    mark = title.evaluate("h => { const s = getComputedStyle(h, '::before');"
                          " return {mask: s.maskImage || s.webkitMaskImage, width: parseFloat(s.width)}; }")
    assert mark["mask"].startswith('url("data:image/svg+xml') and mark["width"] > 10


def test_an_empty_question_says_what_to_do_and_leaves_the_chat_empty(screen):
    from playwright.sync_api import expect

    screen.locator("#annex-question textarea").press("Enter")
    expect(screen.locator("[data-testid='toast-body']").first).to_contain_text(EMPTY_QUESTION, timeout=TIMEOUT)
    assert screen.locator("#annex-chat .message-row").count() == 0
    assert screen.locator("#annex-chat .placeholder-content").is_visible()
