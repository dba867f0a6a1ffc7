"""Shareable answers: a conversation link the app resolves, and an answer with its attachments as Markdown.

A link `/?conversation=<id>` reopens that stored conversation, read-only: the chat and its side panels, and
nothing else — not the owner's other conversations, not their private library. The id is a random 128-bit
uuid4, so the link is a capability URL: whoever has it may read that one conversation, as with any "anyone with
the link" share. The visitor's next question starts a conversation of their own.
"""
from __future__ import annotations

import re
from typing import Sequence

from kb.answer.history import History, UnknownConversation
from ui.chat.turn_view import TurnView, turns_from_history

PARAM = "conversation"
_ID = re.compile(r"[0-9a-f]{32}")  # what History.create_conversation makes (uuid4().hex)
READ_ONLY = ("这是分享链接打开的会话（只读）：下面是原来的问答和它的引用、路径。"
             "在这里提问会开始一个属于你自己的新会话。")
OWN = "这是你自己的新会话（由分享链接开始；原会话没有改动，地址栏已换成你这段会话的链接）。"


def notice_after(shared_id: str, conversation_id: str) -> tuple[str, bool]:
    """The notice above the chat once a turn ran: the visitor's own conversation, when the page opened a link."""
    if shared_id and conversation_id and conversation_id != shared_id:
        return OWN, True
    return READ_ONLY, bool(shared_id)


def url_js() -> str:
    """The browser-side step that puts the visitor's own conversation in the address bar of a shared page."""
    return (f"(c) => {{ const u = new URL(location.href); if (c && !c.startsWith('http') && u.searchParams.has('{PARAM}') && "
            f"u.searchParams.get('{PARAM}') !== c) {{ u.searchParams.set('{PARAM}', c); "
            f"history.replaceState(null, '', u); }} return c; }}")


def shared_turns(history: History, conversation_id: str | None) -> list[TurnView] | None:
    """The turns of the conversation a link names; None when the link names none (or nothing well-formed)."""
    if not conversation_id or not _ID.fullmatch(conversation_id):
        return None
    try:
        return turns_from_history(history.messages(conversation_id))
    except UnknownConversation:
        return None


def answer_markdown(view: TurnView | None) -> str:
    """One answer as Markdown to paste elsewhere: the question, the answer, the 相关附件内容 block."""
    if view is None:
        return ""
    parts = [f"**问：** {view.question.strip()}", view.answer.strip()]
    if view.block.strip():
        parts.append(view.block.strip())
    return "\n\n".join(p for p in parts if p) + "\n"


def shown_turn(turns: Sequence[TurnView], shown: int | None) -> TurnView | None:
    """The turn the side panels show, or None."""
    return turns[shown] if shown is not None and 0 <= shown < len(turns) else None


def link_js() -> str:
    """The browser-side step that turns a conversation id into the full link (a full link stays as it is).

    Made in the browser from its own address, so the link is right behind any proxy (Spaces, share=True).
    """
    return (f"(c) => !c ? '' : c.startsWith('http') ? c : "
            f"location.origin + location.pathname + '?{PARAM}=' + c")
