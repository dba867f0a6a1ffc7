"""One HTTP server: the knowledge-service API under /api and the Gradio app at /."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable, Sequence

import gradio as gr
import uvicorn
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse
from gradio.utils import get_upload_folder

from kb.service import Service
from ui import access_log
from ui.api import api_router, install_error_handlers
from ui.blocks import build_demo
from ui.body_limit import BodyLimit
from ui.theme import look
from ui.upload_owned import UploadOwner
from ui.upload_share import UploadLedger, UploadShare
from ui.writer_pass import WriterPasses


def build_app(service: Service, extensions: Sequence[Callable[[], None]] = ()) -> FastAPI:
    """The FastAPI app with the HTTP API routes and the Gradio Blocks mounted at the root."""
    access_log.install()
    app = FastAPI(title="annex-rag", description="Graph-enhanced knowledge-base Q&A: the knowledge-service API.")
    passes = WriterPasses()  # the token box's pass past the per-visitor upload share
    app.include_router(api_router(service, passes), prefix="/api")
    install_error_handlers(app)
    # Gradio's app-state links would save every component of a session — the 口令 box, a private document's
    # text — to deep_links/*/state.json, kept for ever; a conversation link (?conversation=<id>) shares instead.
    app.add_api_route("/gradio_api/deep_link", _no_deep_links, methods=["GET"], include_in_schema=False)
    settings = service.settings
    demo = build_demo(service, extensions)
    # inside BodyLimit (added before it): it reads the body through BodyLimit and turns a refusal into one Gradio
    # cleans up after; each upload's file is moved to its own path, which Gradio's hourly cleanup then tracks
    app.add_middleware(UploadShare, ledger=UploadLedger(int(settings.session_upload_mb * 2**20)),
                       hops=settings.proxy_hops, owner=UploadOwner(demo.upload_file_set), passes=passes)
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_kb * 1024, floor=int(settings.min_free_disk_mb * 2**20),
                       disks=lambda: [settings.store_dir, Path(tempfile.gettempdir()), Path(get_upload_folder())])
    # max_file_size: Gradio's /gradio_api/upload refuses (413) a file over ANNEX_MAX_FILE_MB while it streams in.
    return gr.mount_gradio_app(app, demo, path="", mcp_server=service.settings.mcp_server,
                               max_file_size=service.settings.max_file_bytes, **look())


def server(app: FastAPI, host: str, port: int, log_level: str = "info") -> uvicorn.Server:
    """The uvicorn server app.py runs, and the tests' live server: the same app served the same way."""
    # proxy_headers off: wrong tokens and upload shares read X-Forwarded-For themselves, as ANNEX_PROXY_HOPS says
    # (ui/client.py); uvicorn's own reading would believe any client that connects from 127.0.0.1
    return uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level=log_level, proxy_headers=False))


def _no_deep_links() -> PlainTextResponse:
    return PlainTextResponse("App-state links are off here: they would store the token and private text. "
                             "Share a conversation with its link (?conversation=<id>) instead.", 404)
