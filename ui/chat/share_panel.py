"""The 分享与复制 (share and copy) panel of the chat tab, and the page load that resolves a conversation link."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import gradio as gr

from ui.chat.handlers import ChatHandlers, Update
from ui.chat.share import PARAM, READ_ONLY, answer_markdown, link_js, notice_after, shared_turns, shown_turn, url_js
from ui.chat.turn_view import chat_messages
from ui.safe import warn

NO_LINK = "提问后，这里是这段会话的链接，下面是可复制的回答。"


@dataclass
class SharePanel:
    link: gr.Textbox
    markdown: gr.Code
    notice: gr.Markdown
    shared: gr.State  # the conversation id the page's link opened ("" for none)


def build_share_panel() -> SharePanel:
    """Lay out the panel (inside the current Blocks context)."""
    notice = gr.Markdown(visible=False, elem_id="annex-shared-notice")
    with gr.Accordion("分享与复制", open=False, elem_id="annex-share"):
        link = gr.Textbox(label="会话链接（打开后只读显示这段会话；链接里的编号是随机的，拿到链接的人都能看）",
                          interactive=False, buttons=["copy"], elem_id="annex-share-link", placeholder=NO_LINK)
        markdown = gr.Code(language="markdown", label="当前回答（Markdown，含相关附件内容，可复制）", interactive=False,
                           elem_id="annex-share-markdown", max_lines=18, wrap_lines=True, buttons=["copy"],
                           visible=False)  # until there is an answer: an empty code box is a blank with a </> icon
    return SharePanel(link, markdown, notice, gr.State(""))


def wire_share(panel: SharePanel, handlers: ChatHandlers, components: dict, triggers: Sequence[Any],
               outputs: list, positional: Callable[[Update], tuple], load: Any) -> None:
    """Refresh the link and the Markdown after every event in `triggers`; resolve ?conversation=<id> on `load`."""
    conversation, turns, shown = components["conversation"], components["turns"], components["shown"]

    def refresh(conversation_id: str, t: list, s: int | None, shared_id: str) -> tuple:
        text, visible = notice_after(shared_id, conversation_id)
        return (conversation_id or "", _markdown(answer_markdown(shown_turn(t, s))),
                gr.update(value=text, visible=visible) if shared_id else gr.skip())

    for trigger in triggers:
        trigger.then(refresh, [conversation, turns, shown, panel.shared], [panel.link, panel.markdown, panel.notice],
                     api_visibility="private") \
            .then(None, panel.link, None, js=url_js(), api_visibility="private") \
            .then(None, panel.link, panel.link, js=link_js(), api_visibility="private")

    def open_shared(request: gr.Request) -> tuple:
        conversation_id = request.query_params.get(PARAM)
        if not conversation_id:
            return (*positional({}), gr.skip(), gr.skip(), gr.skip(), gr.skip())
        t = shared_turns(handlers.service.history, conversation_id)
        if t is None:
            warn("分享链接里的会话不存在（可能已删除，或链接不完整）。")
            return (*positional({}), gr.skip(), gr.skip(), gr.skip(), gr.skip())
        last = len(t) - 1 if t else None
        update = {"chatbot": chat_messages(t), "turns": t, "shown": last,
                  **handlers.panels(t[last] if t else None, reader=request.session_hash)}
        # "conversation" stays empty: the visitor's next question starts a conversation of their own.
        return (*positional(update), gr.update(value=READ_ONLY, visible=True), conversation_id,
                _markdown(answer_markdown(shown_turn(t, last))), conversation_id)

    load(open_shared, None, [*outputs, panel.notice, panel.link, panel.markdown, panel.shared],
         api_visibility="private", show_progress="hidden") \
        .then(None, panel.link, panel.link, js=link_js(), api_visibility="private")


def _markdown(text: str) -> dict:
    """The answer's Markdown box: shown once there is an answer to copy."""
    return gr.update(value=text, visible=bool(text))
