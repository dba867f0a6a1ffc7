"""Gradio's own strings (Drop File Here, Use via API…) in Chinese whatever the browser's language.

Gradio picks its language from `navigator.language`; its front end exports `changeLocale`, so a module script in
the page's head imports the same bundle module the app runs and sets the locale once the app has set up its own.
"""
from __future__ import annotations

from pathlib import Path

import gradio as gr

LOCALE = "zh-CN"
ASSETS = Path(gr.__file__).resolve().parent / "templates" / "frontend" / "assets"


def locale_head() -> str:
    """The <script> for launch(head=…) that switches Gradio's front end to LOCALE."""
    cores = sorted(ASSETS.glob("core-*.js"))
    if len(cores) != 1:
        raise RuntimeError(f"Gradio's front end has {len(cores)} core-*.js bundles in {ASSETS}, expected one: this "
                           f"Gradio ({gr.__version__}) is not the pinned one; install the version in requirements.txt")
    return (f'<script type="module">import {{ changeLocale }} from "./assets/{cores[0].name}";'
            f' changeLocale("{LOCALE}");</script>')
