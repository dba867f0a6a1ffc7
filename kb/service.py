"""The whole back end, opened once: stores, read models, retriever, history, model and pipeline."""
from __future__ import annotations

import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator, Sequence

from kb.ingest.chunking import chunk_id
from kb.answer.history import History
from kb.answer.llm import ChatModel, OpenAIChatModel
from kb.answer.pipeline import Pipeline
from kb.search.readmodels import ReadModels
from kb.search.rerank import EndpointReranker, LexicalReranker, Reranker
from kb.search.retrieval import Retriever
from kb.session_libraries import SessionLibraries, VisitorLimits
from kb.agent.pipeline import AgentPipeline
from kb.settings import Settings
from kb.token_guard import TokenGuard
from kb.stores import Stores, open_stores
from kb.turn import Hit
from kb.ingest.uploads import clear_staging

HISTORY_FILE = "history.sqlite3"


@dataclass
class Service:
    """What app.py, the HTTP API, eval and bench share."""

    settings: Settings
    stores: Stores
    history: History
    read: ReadModels
    pipeline: Pipeline
    sessions: SessionLibraries  # visitors' private libraries, per browser session
    tokens: TokenGuard  # the write token's check, shared by the UI and the HTTP API

    def close(self) -> None:
        self.sessions.stop()
        self.read.settle()  # a background merge or save of the BM25 segments finishes before the stores close
        self.history.close()
        self.stores.close()


def open_service(settings: Settings, model: ChatModel | None = None, stores: Stores | None = None) -> Service:
    """Open everything under settings.store_dir (or over `stores`, opened already); the model comes from settings
    unless one is given.

    Private libraries left by an earlier run are deleted in the background: their sessions did not survive it.
    """
    stores = stores or open_stores(settings)
    clear_staging(settings.store_dir)  # after the stores opened: Kuzu's file lock admits one process per store
    history = History(settings.store_dir / HISTORY_FILE)
    read = ReadModels(stores.graph, stores.ingestor, stores.keywords)
    retriever = Retriever(stores.vectors, lambda: read.current().bm25, _neighbours(read), _reranker(settings))
    if model is None and settings.llm_base_url:
        model = OpenAIChatModel.from_settings(settings)
    pipeline_class = Pipeline
    if settings.agent_mode:
        pipeline_class = AgentPipeline
    sessions = SessionLibraries(read, stores.ingestor, settings.session_library_ttl_min * 60,
                                forget=history.forget_documents, limits=VisitorLimits.from_settings(settings))
    sessions.start()
    return Service(settings, stores, history, read, pipeline_class(settings, read, retriever, history, model), sessions,
                   TokenGuard())


def _reranker(settings: Settings) -> Reranker:
    if settings.rerank_base_url:
        return EndpointReranker(settings.rerank_base_url, settings.rerank_model, settings.rerank_api_key)
    return LexicalReranker()


def _neighbours(read: ReadModels):
    """Context expansion: the chunks just before and after each hit in its body or attachment (from memory)."""

    def fetch(hits: Sequence[Hit]) -> list[Hit]:
        ids = [chunk_id(h.doc_id, h.attachment, h.index + d) for h in hits for d in (-1, 1) if h.index + d >= 0]
        library = {h.doc_id: h.library for h in hits}
        return [
            Hit(c.id, c.doc_id, library[c.doc_id], c.attachment, c.index, c.start, c.end, c.text, score=0.0)
            for c in read.current().view.chunks_by_id(ids)
        ]

    return fetch


@contextmanager
def scratch_history(service: Service) -> Iterator[Service]:
    """The service with a conversation history of its own, deleted on leaving: turns that are read back once (the
    compare and eval tabs) and are no one's conversation, so they neither fill the history nor keep what they quoted."""
    with tempfile.TemporaryDirectory(prefix="annex-scratch-") as folder:
        history = History(Path(folder) / HISTORY_FILE)
        try:
            base = service.pipeline
            pipeline = type(base)(service.settings, service.read, base.retriever, history, base.model)
            yield replace(service, history=history, pipeline=pipeline)
        finally:
            history.close()
