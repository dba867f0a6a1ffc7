"""Document text made inert for the two places it is shown: HTML panels and Markdown chat messages."""
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


def clip(text: str, limit: int) -> str:
    """Text cut to `limit` characters with an ellipsis."""
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"
