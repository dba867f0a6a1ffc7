"""Issue 10 item 10: a toast shows library names, file names and a model server's error text as text, not HTML.

Gradio inserts a gr.Error / gr.Warning / gr.Info message as HTML, so every handler passes it through ui.safe.toast.
"""
from __future__ import annotations

import dataclasses
import warnings

import gradio as gr
import pytest

from kb.answer.llm import OpenAIChatModel
from kb.answer.pipeline import Pipeline
from tests.fake_openai import FakeChatServer, Script
from ui.chat.handlers import ChatHandlers
from ui.library.tab import KnowledgeBase
from ui.safe import toast

HOSTILE = "<img src=x onerror=alert(1)><b>粗</b>"
ESCAPED = "&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;粗&lt;/b&gt;"
KNOBS = (20, 0.7, True, False, False, 2, False, 3)  # ui.chat.handlers.KNOBS after the libraries


def test_toast_escapes_markup_and_keeps_text():
    assert toast(HOSTILE) == ESCAPED
    assert toast("口令不对 & 重试") == "口令不对 &amp; 重试"
    assert toast(ValueError("<script>x</script>")) == "&lt;script&gt;x&lt;/script&gt;"


def _warnings(run) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run()
    return [str(w.message) for w in caught]


def test_a_hostile_library_name_reaches_the_chat_toast_escaped(service):
    handlers = ChatHandlers(service)
    shown = _warnings(lambda: list(handlers.ask("事故池容积？", "", "o", [], [HOSTILE], *KNOBS, session="s")))
    assert any(ESCAPED in w for w in shown) and not any("<img" in w for w in shown), shown


def test_a_model_servers_html_error_reaches_the_toast_escaped(service):
    with FakeChatServer(Script(status=500, error_message="<b>html</b> upstream")) as server:
        model = OpenAIChatModel(server.base_url, "k", "qwen-test", timeout=2.0, max_retries=0)
        p = service.pipeline
        with_model = dataclasses.replace(service, pipeline=Pipeline(p.settings, p.read, p.retriever, p.history, model))
        shown = _warnings(lambda: list(ChatHandlers(with_model).ask("事故池容积？", "", "o", [], [], *KNOBS)))
    errors = [w for w in shown if "模型服务出错" in w]
    assert errors and all("&lt;b&gt;html&lt;/b&gt;" in w and "<b>" not in w for w in errors), shown


def test_knowledge_tab_errors_carry_escaped_names(service):
    kb = KnowledgeBase(service)
    with pytest.raises(gr.Error) as gone:
        kb.delete("s", HOSTILE, True)
    assert ESCAPED in gone.value.message and "<img" not in gone.value.message
    admin = KnowledgeBase(dataclasses.replace(service, settings=dataclasses.replace(service.settings, api_token="t")))
    with pytest.raises(gr.Error) as reserved:
        admin.ingest("s", [__file__], "session-" + HOSTILE, "", "t")
    assert ESCAPED in reserved.value.message and "<img" not in reserved.value.message


def test_toasts_are_titled_in_chinese(service):
    """Gradio titles a toast "Error" / "Warning" / "Info" unless told: the page is Chinese, so are its toasts."""
    from ui.safe import ERROR_TITLE

    with pytest.raises(gr.Error) as refused:
        KnowledgeBase(service).ingest("s", [], "", "")
    assert refused.value.title == ERROR_TITLE == "出错了"
    with warnings.catch_warnings(record=True), pytest.MonkeyPatch.context() as patch:
        titles: list[str] = []
        patch.setattr(gr, "Warning", lambda message, title="Warning", **_: titles.append(title))
        list(ChatHandlers(service).ask("   ", "", "o", [], [], *KNOBS, session="s"))
    assert titles and "Warning" not in titles
