"""The knowledge-service HTTP API: a turn as JSON or as Server-Sent Events, conversations, token-guarded writes.

Status codes: 422 when the body does not match the schema (a missing, mistyped or unknown field); 400 when a
value is one the pipeline cannot use (an empty question, topK out of range); 404 for an unknown library,
conversation or document; 401/403 for a write without the right token. Every error body has FastAPI's shape,
`{"detail": [{"loc": [..., field], "msg": ..., "type": ...}]}`, and a rejected turn stores nothing.
"""
from __future__ import annotations

import hmac
import json
import tempfile
from dataclasses import asdict
from pathlib import Path, PurePath
from typing import Any, Iterable, Iterator

from fastapi import APIRouter, Depends, File, Form, HTTPException, Query, UploadFile
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from kb.errors import AnnexError
from kb.answer.events import Event, jsonable
from kb.answer.fold import fold_events
from kb.answer.history import UnknownConversation
from kb.answer.pipeline import InvalidRequest, UnknownLibrary
from kb.turn import RANGES, TurnRequest, TurnResult

_DEFAULTS = TurnRequest("")
_EXTRA = ("referenced_docs", "attachments", "graph_paths", "model", "fallback")  # stored with an answer, returned


class ChatRequest(BaseModel):
    """One question and the knobs of the knowledge-service design."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(description="the question")
    conversationId: str | None = Field(None, description="continue this conversation; empty starts a new one")
    libraryIds: list[str] = Field(default_factory=list, description="search these libraries; empty: all")
    documentId: str | None = Field(None, description="search only this document")
    topK: int = Field(_DEFAULTS.top_k, description="chunks kept after retrieval, {}-{}".format(*RANGES["top_k"]))
    threshold: float = Field(_DEFAULTS.threshold, description="relative relevance a chunk needs, 0-1")
    enableHybridSearch: bool = Field(_DEFAULTS.enable_hybrid_search, description="BM25 fused with vectors")
    enableRerank: bool = Field(_DEFAULTS.enable_rerank, description="rerank the kept chunks")
    enableContextExpansion: bool = Field(_DEFAULTS.enable_context_expansion, description="add neighbouring chunks")
    think: bool = Field(_DEFAULTS.think, description="ask the model to think first (where it can)")
    historyTurns: int = Field(_DEFAULTS.history_turns, description="earlier turns used in retrieval and prompt, {}-{}".format(*RANGES["history_turns"]))
    hops: int = Field(_DEFAULTS.hops, description="REFERENCES hops of the graph prefetch, {}-{}".format(*RANGES["hops"]))

    def turn(self) -> TurnRequest:
        """The pipeline's request."""
        return TurnRequest(
            query=self.query, conversation_id=self.conversationId or None, library_ids=tuple(self.libraryIds),
            document_id=self.documentId or None, top_k=self.topK, threshold=self.threshold,
            enable_hybrid_search=self.enableHybridSearch, enable_rerank=self.enableRerank,
            enable_context_expansion=self.enableContextExpansion, think=self.think,
            history_turns=self.historyTurns, hops=self.hops,
        )


class ChatResponse(BaseModel):
    """Everything one turn produced."""

    conversation_id: str
    user_message_id: str
    assistant_message_id: str
    answer: str
    thinking: str
    referenced_docs: list[dict[str, Any]] = Field(description="per document: score, highlight char ranges, chunk ids")
    graph_paths: list[dict[str, Any]]
    attachments: list[dict[str, Any]] = Field(description="the post-answer hop: one item per 相关附件 line")
    token_usage: dict[str, int] | None
    errors: list[str]
    model: str
    fallback: bool = Field(description="the model failed and the offline answerer answered")
    elapsed_ms: float


def collect(events: Iterable[Event]) -> tuple[TurnResult, dict[str, Any]]:
    """A turn's events gathered into a TurnResult, and the data of its done event."""
    fold = fold_events(events)
    result = TurnResult(
        conversation_id=fold.conversation_id, user_message_id=fold.user_message_id,
        assistant_message_id=fold.message_id, answer=fold.content, thinking=fold.thinking,
        referenced_docs=fold.referenced_docs, graph_paths=fold.graph_paths, attachments=fold.attachments,
        token_usage=fold.token_usage, errors=fold.warnings,
    )
    return result, fold.done_data


def sse(event: Event) -> str:
    """One Server-Sent Event: `event: <type>` and the event's data as JSON."""
    return f"event: {event.type}\ndata: {json.dumps(jsonable(event.data), ensure_ascii=False)}\n\n"


def _error(status: int, loc: list[str], message: str, kind: str) -> HTTPException:
    return HTTPException(status, [{"loc": loc, "msg": message, "type": kind}])


def _rejected(exc: AnnexError) -> HTTPException:
    """The HTTP error for a request the pipeline refused before storing anything."""
    if isinstance(exc, UnknownLibrary):
        return _error(404, ["body", "libraryIds"], str(exc), "unknown_library")
    if isinstance(exc, UnknownConversation):
        return _error(404, ["body", "conversationId"], str(exc), "unknown_conversation")
    if isinstance(exc, InvalidRequest) and exc.field == "documentId":
        return _error(404, ["body", "documentId"], f"{exc} GET /api/knowledge/documents lists the documents.",
                      "unknown_document")
    field = exc.field if isinstance(exc, InvalidRequest) else "query"
    return _error(400, ["body", field], str(exc), "invalid_value")


def api_router(service: Any) -> APIRouter:
    """The /knowledge routes over an open kb.service.Service (mount it under /api).

    Long on purpose: FastAPI routes are closures over the service, a few lines each, and read best side by side.
    """
    router = APIRouter(prefix="/knowledge", tags=["knowledge"])
    bearer = HTTPBearer(auto_error=False, description="ANNEX_API_TOKEN, required for ingest and delete")

    def start(body: ChatRequest) -> Iterator[Event]:
        try:
            return service.pipeline.run(body.turn())  # validates first: raises before anything is stored
        except (InvalidRequest, UnknownLibrary, UnknownConversation) as exc:
            raise _rejected(exc) from exc

    @router.post("/chat", response_model=ChatResponse, summary="Ask a question; the whole turn as JSON")
    def chat(body: ChatRequest) -> ChatResponse:
        events = start(body)
        try:
            result, done = collect(events)
        except AnnexError as exc:
            raise HTTPException(500, f"The turn failed midway: {exc}") from exc
        fields = {k: v for k, v in asdict(result).items() if k != "sources"}
        return ChatResponse(**fields, model=done.get("model", ""), fallback=done.get("fallback", False),
                            elapsed_ms=done.get("elapsed_ms", 0.0))

    @router.post("/chat/stream", summary="Ask a question; one Server-Sent Event per pipeline event, ending with done",
                 response_class=StreamingResponse, responses={200: {"content": {"text/event-stream": {}}}})
    def chat_stream(body: ChatRequest) -> StreamingResponse:
        events = start(body)

        def lines() -> Iterator[str]:
            try:
                for event in events:
                    yield sse(event)
            except AnnexError as exc:  # the stream has begun: the failure can only be an event
                yield sse(Event("error", {"message": f"The turn failed midway: {exc}", "fallback": False}))

        return StreamingResponse(lines(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @router.get("/conversations/{conversation_id}", summary="A conversation's messages with their documents")
    def conversation(conversation_id: str) -> dict[str, Any]:
        try:
            conv = service.history.get_conversation(conversation_id)
            messages = service.history.messages(conversation_id)
        except UnknownConversation as exc:
            raise _error(404, ["path", "conversation_id"], str(exc), "unknown_conversation") from exc
        return {"id": conv.id, "title": conv.title, "created": conv.created,
                "messages": [_message(m) for m in messages]}

    @router.get("/documents", summary="The stored documents (optionally of one library)")
    def documents(library: str | None = Query(None, description="only this library")) -> list[dict[str, Any]]:
        return [jsonable(d) for d in service.stores.graph.list_documents(library or None)]

    def require_token(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
        expected = service.settings.api_token
        where = ["header", "Authorization"]
        if not expected:
            raise _error(403, where, "Writes over HTTP are off; set ANNEX_API_TOKEN on the server and send it as "
                                     "'Authorization: Bearer <token>'.", "writes_off")
        if credentials is None:
            error = _error(401, where, "This endpoint writes to the knowledge base and needs the token: send "
                                       "'Authorization: Bearer <ANNEX_API_TOKEN>'.", "token_missing")
            error.headers = {"WWW-Authenticate": "Bearer"}
            raise error
        if not hmac.compare_digest(credentials.credentials.encode(), expected.encode()):
            raise _error(403, where, "The token is wrong; send the server's ANNEX_API_TOKEN as "
                                     "'Authorization: Bearer <token>'.", "token_wrong")

    @router.post("/documents", dependencies=[Depends(require_token)],
                 summary="Upload files (.docx/.md/.txt) and ingest them; one result per file")
    def upload(files: list[UploadFile] = File(..., description="documents and their attachment files"),
               library: str = Form("", description="target library; empty: ANNEX_DEFAULT_LIBRARY"),
               tags: str = Form("", description="extra tags, comma-separated")) -> dict[str, Any]:
        names = [PurePath(f.filename or "").name for f in files]
        if not all(names) or len(set(names)) != len(names):
            raise _error(400, ["body", "files"], f"Every file needs a name, and names must differ within one upload; "
                                                 f"got {names}.", "invalid_value")
        extra_tags = [t.strip() for t in tags.replace("，", ",").split(",") if t.strip()]
        with tempfile.TemporaryDirectory(prefix="annex-upload-") as folder:
            paths = []
            for name, upload_file in zip(names, files):
                path = Path(folder) / name
                path.write_bytes(upload_file.file.read())
                paths.append(path)
            results = service.stores.ingestor.ingest(paths, library.strip() or None, tags=extra_tags)
        out = [{"file": r.file, "doc_id": r.doc_id, "status": r.status, "error": r.error} for r in results]
        if all(r.status == "error" for r in results):
            reasons = " ".join(str(r.error) for r in results)
            raise HTTPException(400, [{"loc": ["body", "files"], "msg": f"No file could be ingested; nothing was stored. "
                                       f"{reasons}", "type": "ingest_failed", "results": out}])
        return {"library": library.strip() or service.settings.default_library, "results": out}

    @router.delete("/documents/{doc_id}", dependencies=[Depends(require_token)], summary="Delete a document")
    def delete(doc_id: str) -> dict[str, str]:
        if not service.stores.ingestor.delete(doc_id):
            raise _error(404, ["path", "doc_id"], f"No document {doc_id!r}; GET /api/knowledge/documents lists the "
                                                  "documents with their ids.", "unknown_document")
        return {"deleted": doc_id}

    return router


def _message(m: Any) -> dict[str, Any]:
    """A stored message with its linked documents (chunks grouped per document)."""
    documents: dict[str, dict[str, Any]] = {}
    for link in m.links:
        doc = documents.setdefault(link.doc_id, {"doc_id": link.doc_id, "title": link.title, "score": link.score,
                                                 "chunk_ids": []})
        if link.chunk_id:
            doc["chunk_ids"].append(link.chunk_id)
    return {
        "id": m.id, "role": m.role, "content": m.content, "thinking": m.thinking, "usage": m.usage,
        "documents": list(documents.values()),
        **{k: m.extra[k] for k in _EXTRA if k in m.extra},
    }
