"""The README's pictures, from a running app: `python -m tests.ui.screenshots http://127.0.0.1:7860/`.

Writes ui/screenshot.png (the 对比 tab), ui/screenshot-decline.png, ui/screenshot-eval.png and
ui/screenshot-phone.png with Debian's chromium; look at each before committing it.
"""
from __future__ import annotations

import sys
from pathlib import Path

from tests.ui.test_browser import ARGS, CHROMIUM
from tests.ui.test_walkthrough import DECLINED_QUESTION
from ui.blocks import EXAMPLES
from ui.compare.tab import GRAPH_WINS

OUT = Path(__file__).resolve().parents[2] / "ui"
TIMEOUT = 30_000  # ms


def main(url: str) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        desk = browser.new_context(viewport={"width": 1440, "height": 900}, device_scale_factor=1).new_page()
        desk.goto(url)
        desk.get_by_role("tab", name="对比").click()
        desk.get_by_role("button", name=GRAPH_WINS[0]).click()
        desk.locator("#compare-graph").get_by_text("答对 1").wait_for(timeout=TIMEOUT)
        desk.evaluate("window.scrollTo(0, document.querySelector('#compare-examples').getBoundingClientRect().top - 8)")
        desk.screenshot(path=str(OUT / "screenshot.png"))
        desk.get_by_role("tab", name="问答").click()
        box = desk.locator("#annex-question textarea")
        box.fill(DECLINED_QUESTION)
        box.press("Enter")
        desk.locator("#annex-citations .annex-closest").wait_for(timeout=TIMEOUT)
        desk.wait_for_timeout(800)
        desk.evaluate("window.scrollTo(0, 0)")
        desk.screenshot(path=str(OUT / "screenshot-decline.png"))
        desk.get_by_role("tab", name="评测").click()
        desk.locator("#eval-limit input").fill("12")
        desk.locator("#eval-run").click()
        desk.locator("#eval-outcomes").get_by_text(EXAMPLES[0]).first.wait_for(timeout=TIMEOUT)
        desk.wait_for_timeout(800)
        desk.evaluate("window.scrollTo(0, document.querySelector('#eval-status').getBoundingClientRect().top - 8)")
        desk.screenshot(path=str(OUT / "screenshot-eval.png"))
        phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                    has_touch=True).new_page()
        phone.goto(url)
        phone.locator("#annex-chat").get_by_role("button", name=EXAMPLES[1]).click()
        phone.locator("#annex-citations .cite-doc").first.wait_for(timeout=TIMEOUT)
        phone.wait_for_timeout(800)
        phone.screenshot(path=str(OUT / "screenshot-phone.png"))
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:7860/")
