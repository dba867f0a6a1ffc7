"""The Blocks build without launching: components, events, extensions inside the Blocks, no CDN, no public UI API."""
from __future__ import annotations

import json

import gradio as gr

from ui.blocks import CSS, EXAMPLES, THEME, build_demo


def _by_elem_id(demo: gr.Blocks) -> dict:
    return {b.elem_id: b for b in demo.blocks.values() if getattr(b, "elem_id", None)}


def test_the_blocks_build_with_every_panel(service):
    demo = build_demo(service)
    assert isinstance(demo, gr.Blocks)
    parts = _by_elem_id(demo)
    assert isinstance(parts["annex-chat"], gr.Chatbot) and isinstance(parts["annex-paths"], gr.Plot)
    for elem_id in ("annex-citations", "annex-source", "annex-thinking", "kb-results", "kb-document"):
        assert isinstance(parts[elem_id], gr.HTML)
    assert isinstance(parts["kb-documents"], gr.Dataframe) and isinstance(parts["kb-graph"], gr.Plot)
    buttons = {b.value for b in demo.blocks.values() if isinstance(b, gr.Button)}
    assert set(EXAMPLES) <= buttons and {"提问", "入库", "删除该文档", "新会话"} <= buttons
    chatbot = parts["annex-chat"]
    assert chatbot.sanitize_html and chatbot.allow_tags is False and chatbot.latex_delimiters == []
    assert isinstance(THEME, gr.themes.Base) and "cite-fact" in CSS


def test_only_ask_is_reachable_by_clients_and_nothing_is_public(service):
    demo = build_demo(service)
    named = {fn.api_name: fn.api_visibility for fn in demo.fns.values() if fn.api_name}
    assert named.get("ask") == "undocumented"
    assert not [name for name, visibility in named.items() if visibility == "public"]  # MCP lists public ones only
    assert [fn for fn in demo.fns.values() if fn.name == "ask"][0].concurrency_limit == 4


def test_extensions_run_inside_the_blocks(service):
    seen = []

    def extension() -> None:
        seen.append(gr.context.Context.root_block)
        gr.Markdown("extension was here", elem_id="annex-extension")

    demo = build_demo(service, [extension])
    assert seen == [demo] and "annex-extension" in _by_elem_id(demo)


def test_the_page_config_names_no_cdn_and_no_google_fonts(service):
    config = json.dumps(build_demo(service).get_config_file(), default=str)
    theme_css = THEME._get_theme_css()
    for text in (config, theme_css, CSS):
        assert "fonts.googleapis" not in text and "cdn.jsdelivr" not in text and "cdn.plot.ly" not in text


def test_a_page_load_shows_no_spinner_over_the_panels(service):
    # the page's load events fill panels in a moment: a spinner over every panel at first sight looks broken
    demo = build_demo(service)
    on_load = [fn for fn in demo.fns.values() if any(event == "load" for _, event in fn.targets)]
    assert len(on_load) >= 3  # the chat's session and conversations, a shared link, the library choices
    assert {fn.show_progress for fn in on_load} == {"hidden"}
