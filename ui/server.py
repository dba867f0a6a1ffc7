"""One HTTP server: the knowledge-service API under /api and the Gradio app at /."""
from __future__ import annotations

from typing import Callable, Sequence

import gradio as gr
from fastapi import FastAPI

from kb.service import Service
from ui.api import api_router, install_error_handlers
from ui.blocks import build_demo
from ui.theme import look


def build_app(service: Service, extensions: Sequence[Callable[[], None]] = ()) -> FastAPI:
    """The FastAPI app with the HTTP API routes and the Gradio Blocks mounted at the root."""
    app = FastAPI(title="annex-rag", description="Graph-enhanced knowledge-base Q&A: the knowledge-service API.")
    app.include_router(api_router(service), prefix="/api")
    install_error_handlers(app)
    demo = build_demo(service, extensions)
    return gr.mount_gradio_app(app, demo, path="", mcp_server=service.settings.mcp_server, **look())
