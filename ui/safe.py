"""Text made inert for the places it is shown: HTML panels, Markdown chat messages and toasts."""
from __future__ import annotations

import html
import re

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


def clip(text: str, limit: int) -> str:
    """Text cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"
