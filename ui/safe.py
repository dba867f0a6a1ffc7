"""Text made inert for the places it is shown: HTML panels, Markdown chat messages and toasts."""
from __future__ import annotations

import html
import re

import gradio as gr

_IMAGE = re.compile(r"!\[")


def h(text: object) -> str:
    """HTML-escaped text (quotes too, so it is safe inside attributes)."""
    return html.escape(str(text), quote=True)


def md(text: str) -> str:
    """Markdown that shows document text as text: no HTML tags, no remote images.

    Markdown structure (lists, tables, bold) still renders; `<script>` and `<img onerror=…>` arrive as
    `&lt;script&gt;` and are displayed literally, and `![x](url)` is shown as text instead of fetching url.
    """
    return _IMAGE.sub(r"!\\[", html.escape(text, quote=False))


def toast(text: object) -> str:
    """The message of a gr.Error / gr.Warning / gr.Info: Gradio inserts it as HTML, so it is escaped.

    Library names, file names and a model server's error text reach toasts; `<img src=x>` must show as text.
    """
    return html.escape(str(text), quote=False)


# Gradio titles its toasts "Error", "Warning" and "Info" unless told otherwise; the page is Chinese.
ERROR_TITLE, WARNING_TITLE, INFO_TITLE = "出错了", "请注意", "提示"
# Gradio 6's toast shows its type, capitalised, whatever `title=` says (statustracker: the title is
# `type.charAt(0).toUpperCase() + type.slice(1)`): the page's CSS draws the Chinese title in its place.
TOAST_TITLE_CSS = "".join(
    f'.toast-title.{kind} {{ font-size: 0 !important; }}'
    f'.toast-title.{kind}::before {{ content: "{title}"; font-size: var(--text-lg); }}\n'
    for kind, title in (("error", ERROR_TITLE), ("warning", WARNING_TITLE), ("info", INFO_TITLE), ("success", INFO_TITLE)))


def error(text: object) -> gr.Error:
    """The gr.Error to raise: the message escaped (toast), the title in Chinese."""
    return gr.Error(toast(text), title=ERROR_TITLE)


def warn(text: object) -> None:
    """Show a warning toast: the message escaped, the title in Chinese."""
    gr.Warning(toast(text), title=WARNING_TITLE)


def inform(text: object) -> None:
    """Show an information toast: the message escaped, the title in Chinese."""
    gr.Info(toast(text), title=INFO_TITLE)


def clip(text: str, limit: int) -> str:
    """Text cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"
