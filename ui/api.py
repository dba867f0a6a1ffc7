"""The knowledge-service HTTP API: a turn as JSON or as Server-Sent Events, conversations, token-guarded writes.

Status codes: 422 when the body does not match the schema (a missing, mistyped or unknown field; types are strict,
"5" is not a number); 400 when a value is one the pipeline cannot use (an empty question, topK out of range, text
that is not valid Unicode); 404 for an unknown library, conversation or document (and for no library to search);
401/403 for a write without the right token, 429 after too many wrong tokens from one client; 403
`read_only_conversation` for a turn on a conversation the caller does not own (a conversation takes turns only from
its owner: one started over the API, or the browser session that started it — a shared link reads, never writes);
500 `turn_failed` when a turn fails midway (its conversation then holds an answer saying so). Every error body has FastAPI's shape, `{"detail": [{"loc": [..., field], "msg": ..., "type": ...}]}` (install_error_handlers
makes it so for unknown routes and unexpected failures too), and a rejected turn stores nothing.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Iterable, Iterator

from fastapi import APIRouter, Depends, FastAPI, File, Form, HTTPException, Query, Request, UploadFile
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from kb.errors import (AnnexError, InvalidRequest, ReadOnlyConversation, ReservedLibrary, TooManyTokens,
                       UnknownConversation, UnknownDocument, UnknownLibrary, UploadLimit)
from kb.answer.events import Event, jsonable
from kb.model import PRIVATE_PREFIX, is_private
from kb.turn import MAX_LIBRARY_IDS, TurnRequest, TurnResult, RANGES
from kb.ingest.formats import SHOWN
from kb.ingest.uploads import check_free_disk, ingest_uploads
from kb.answer.fold import fold_events
from ui.client import client_address
from ui.writer_pass import WriterPasses, over_https, pass_cookie

_DEFAULTS = TurnRequest("")
_EXTRA = ("referenced_docs", "attachments", "graph_paths", "model", "fallback")  # stored with an answer, returned


class ChatRequest(BaseModel):
    """One question and the knobs of the knowledge-service design."""

    model_config = ConfigDict(extra="forbid", strict=True)  # "5" is not 5 and "yes" is not true: 422

    query: str = Field(description="the question")
    conversationId: str | None = Field(None, description="continue this conversation; empty starts a new one")
    libraryIds: list[str] = Field(default_factory=list,
                                  description=f"search these libraries (at most {MAX_LIBRARY_IDS}); empty: all")
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


class ErrorItem(BaseModel):
    """One reason a request was refused or failed."""

    loc: list[str | int] = Field(description="where: ['body', field], ['header', 'Authorization'], ['turn'] …")
    msg: str = Field(description="what happened and what to do")
    type: str = Field(description="a stable name: invalid_value, unknown_library, turn_failed …")


class ErrorResponse(BaseModel):
    """Every error body: FastAPI's validation-error shape."""

    detail: list[ErrorItem]


_ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorResponse} for code in (400, 403, 404, 500)}


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


def _utf8(text: str) -> bytes:
    """JSON text as UTF-8; a lone surrogate (only possible inside a JSON string) stays its \\udXXX escape."""
    return text.encode("utf-8", "backslashreplace")


class SafeJSONResponse(JSONResponse):
    """JSON that renders even when it echoes a lone surrogate back (a refused "\\ud800" in a 422's input)."""

    def render(self, content: Any) -> bytes:
        return _utf8(json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")))


def sse(event: Event) -> bytes:
    """One Server-Sent Event: `event: <type>` and the event's data as JSON."""
    return _utf8(f"event: {event.type}\ndata: {json.dumps(jsonable(event.data), ensure_ascii=False)}\n\n")


def _error(status: int, loc: list[str], message: str, kind: str) -> HTTPException:
    return HTTPException(status, _detail(loc, message, kind))


def _detail(loc: list[str], message: str, kind: str, **more: Any) -> list[dict[str, Any]]:
    return [{"loc": loc, "msg": message, "type": kind, **more}]


def install_error_handlers(app: FastAPI) -> None:
    """Give every /api error the documented shape: unknown routes and unexpected failures too (not plain text).

    Call it after the API routes are included and before the Gradio app is mounted.
    """

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if not request.url.path.startswith("/api/"):
            return await http_exception_handler(request, exc)
        detail = exc.detail
        if isinstance(detail, str):  # Starlette's own: an unknown route, a wrong method, a body it cannot read
            loc, kind = {404: (["path"], "not_found"), 405: (["method"], "method_not_allowed"),
                         400: (["body"], "invalid_body"), 413: (["body"], "body_too_large"),
                         507: (["body", "files"], "disk_full")}.get(exc.status_code, ([], "http_error"))
            detail = _detail(loc, f"{detail}." if exc.status_code != 400 else
                             f"{detail}: send the body as UTF-8 JSON.", kind)
        return SafeJSONResponse({"detail": detail}, exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_body(request: Request, exc: RequestValidationError) -> Response:
        return SafeJSONResponse({"detail": jsonable_encoder(exc.errors())}, 422)

    methods = ["GET", "POST", "PUT", "PATCH", "DELETE"]
    api_routes = list(app.router.routes)  # those included so far; not the Gradio app, mounted later

    def unrouted(request: Request) -> Response:
        """/api paths no route serves: without this, the Gradio app mounted at / answers them with its own 404."""
        path = request.url.path
        allowed = [m for m in methods if any(r.matches({**request.scope, "method": m})[0] == Match.FULL
                                             for r in api_routes)]
        if allowed:
            raise StarletteHTTPException(405, f"{request.method} is not allowed on {path}; use {', '.join(allowed)}",
                                         headers={"Allow": ", ".join(allowed)})
        raise StarletteHTTPException(404, f"No API endpoint {path}; /docs lists them")

    app.add_api_route("/api/{path:path}", unrouted, methods=methods, include_in_schema=False)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        if not request.url.path.startswith("/api/"):
            return PlainTextResponse("Internal Server Error", 500)
        message = f"The server failed: {type(exc).__name__}: {exc}. The server's log has the traceback."
        return SafeJSONResponse({"detail": _detail([], message, "internal_error")}, 500)


def _rejected(exc: AnnexError) -> HTTPException:
    """The HTTP error for a request the pipeline refused before storing anything."""
    if isinstance(exc, UnknownLibrary):
        return _error(404, ["body", "libraryIds"], str(exc), "unknown_library")
    if isinstance(exc, ReadOnlyConversation):
        return _error(403, ["body", "conversationId"], str(exc), "read_only_conversation")
    if isinstance(exc, UnknownConversation):
        return _error(404, ["body", "conversationId"], str(exc), "unknown_conversation")
    if isinstance(exc, UnknownDocument):
        return _error(404, ["body", "documentId"], f"{exc} GET /api/knowledge/documents lists the documents.",
                      "unknown_document")
    field = exc.field if isinstance(exc, InvalidRequest) else "query"
    return _error(400, ["body", field], str(exc), "invalid_value")


def api_router(service: Any, passes: WriterPasses | None = None) -> APIRouter:
    """The /knowledge routes over an open kb.service.Service (mount it under /api); with `passes`, the page's
    upload-pass route too (ui/writer_pass.py).

    Long on purpose: FastAPI routes are closures over the service, a few lines each, and read best side by side.
    """
    router = APIRouter(prefix="/knowledge", tags=["knowledge"], default_response_class=SafeJSONResponse)
    bearer = HTTPBearer(auto_error=False, description="ANNEX_API_TOKEN, required for ingest and delete")

    def start(body: ChatRequest) -> Iterator[Event]:
        try:
            # shared libraries only: "all" (empty libraryIds) never includes a visitor's private library
            return service.pipeline.run(service.sessions.scope(body.turn()))  # raises before anything is stored
        except (InvalidRequest, UnknownLibrary, UnknownConversation, ReadOnlyConversation) as exc:
            raise _rejected(exc) from exc

    @router.post("/chat", response_model=ChatResponse, responses=_ERRORS,
                 summary="Ask a question; the whole turn as JSON")
    def chat(body: ChatRequest) -> Any:
        result, done = collect(start(body))  # a failure midway is events too: error, then done with failed
        if done.get("failed"):
            ids = {"conversation_id": result.conversation_id, "user_message_id": result.user_message_id,
                   "assistant_message_id": result.assistant_message_id}
            return SafeJSONResponse({"detail": _detail(["turn"], " ".join(result.errors), "turn_failed", **ids)}, 500)
        fields = {k: v for k, v in asdict(result).items() if k != "sources"}
        return ChatResponse(**fields, model=done.get("model", ""), fallback=done.get("fallback", False),
                            elapsed_ms=done.get("elapsed_ms", 0.0))

    @router.post("/chat/stream", summary="Ask a question; one Server-Sent Event per pipeline event, ending with done",
                 response_class=StreamingResponse,
                 responses={200: {"content": {"text/event-stream": {}}}, 400: _ERRORS[400], 403: _ERRORS[403], 404: _ERRORS[404]})
    def chat_stream(body: ChatRequest) -> StreamingResponse:
        events = start(body)  # a failure midway arrives as events: error, then done with "failed": true
        return StreamingResponse(map(sse, events), media_type="text/event-stream",
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
        return [jsonable(d) for d in service.stores.graph.list_documents(library or None) if not is_private(d.library)]

    def require_token(request: Request, credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
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
        try:
            client = client_address(request.client.host if request.client else "", request.headers,
                                    service.settings.proxy_hops)
            right = service.tokens.matches(client, credentials.credentials, expected)
        except TooManyTokens as exc:
            raise HTTPException(429, _detail(where, str(exc), "too_many_tokens"),
                                headers={"Retry-After": str(exc.retry_after)}) from exc
        if not right:
            raise _error(403, where, "The token is wrong; send the server's ANNEX_API_TOKEN as "
                                     "'Authorization: Bearer <token>'.", "token_wrong")

    if passes is not None:
        @router.post("/upload-pass", dependencies=[Depends(require_token)], status_code=204, include_in_schema=False)
        def upload_pass(request: Request) -> Response:
            # the token box's check: a right token gets a cookie that lifts the per-visitor upload share
            # over https (a Space, framed by huggingface.co) a partitioned third-party cookie, else a first-party one
            return Response(status_code=204, headers={"set-cookie": pass_cookie(passes.issue(), over_https(request))})

    @router.post("/documents", dependencies=[Depends(require_token)],
                 summary=f"Upload files ({SHOWN}) and ingest them; one result per file")
    def upload(files: list[UploadFile] = File(..., description="documents and their attachment files"),
               library: str = Form("", description="target library; empty: ANNEX_DEFAULT_LIBRARY"),
               tags: str = Form("", description="extra tags, comma-separated")) -> dict[str, Any]:
        if is_private(library.strip()):
            reserved = ReservedLibrary(library.strip(), PRIVATE_PREFIX)
            raise _error(400, ["body", "library"], str(reserved), "invalid_value")
        extra_tags = [t.strip() for t in tags.replace("，", ",").split(",") if t.strip()]
        try:
            check_free_disk(service.settings.store_dir, sum(f.size or 0 for f in files),
                            service.settings.min_free_disk_mb)
        except UploadLimit as exc:
            raise _error(507, ["body", "files"], str(exc), "disk_full") from exc
        sent = [(f.filename or "", f.file) for f in files]  # names are checked per file: a bad one is its own error
        results = ingest_uploads(service.stores.ingestor, service.settings.store_dir, sent, library.strip() or None,
                                 tags=extra_tags)
        out = [{"file": r.file, "doc_id": r.doc_id, "status": r.status, "error": r.error, "notes": list(r.notes),
                "pages": r.document.page_count if r.document and r.status != "attached" else 0} for r in results]
        if all(r.status == "error" for r in results):
            reasons = " ".join(str(r.error) for r in results)
            raise HTTPException(400, [{"loc": ["body", "files"], "msg": f"No file could be ingested; nothing was stored. "
                                       f"{reasons}", "type": "ingest_failed", "results": out}])
        return {"library": library.strip() or service.settings.default_library, "results": out}

    @router.delete("/documents/{doc_id}", dependencies=[Depends(require_token)], summary="Delete a document")
    def delete(doc_id: str) -> dict[str, str]:
        stored = service.read.current().documents.get(doc_id)
        if (stored is not None and is_private(stored.library)) or not service.stores.ingestor.delete(doc_id):
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
