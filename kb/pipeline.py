"""One turn: question → retrieval → graph prefetch → prompt → model → post-answer hop, as a typed event stream."""
from __future__ import annotations

import re
import time
import uuid
from dataclasses import asdict, replace
from typing import Iterator

from kb.errors import AnnexError
from kb.events import Event, jsonable
from kb.history import History, MessageLink
from kb.hop import HopResult, post_answer_hop
from kb.llm import ChatModel, LLMError
from kb.offline import ExtractiveAnswerer
from kb.prefetch import PrefetchResult, prefetch
from kb.prompts import EMPTY_KB, FALLBACK_NOTICE
from kb.readmodels import ReadModels, Snapshot
from kb.retrieval import Retriever
from kb.settings import Settings
from kb.sources import build_messages, build_sources, referenced_docs
from kb.turn import Hit, Source, TurnRequest

_BLOCK_START = "\n\n**相关附件内容："


class InvalidRequest(AnnexError):
    """A request field has a value the pipeline cannot use; nothing was stored."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class UnknownLibrary(AnnexError):
    """A library id that holds no documents."""

    def __init__(self, library: str, known: set[str]) -> None:
        names = ", ".join(sorted(known)) or "none yet"
        super().__init__(f"Unknown library {library!r}; the libraries are: {names}.")
        self.library = library


class Pipeline:
    """Runs turns; shared by every session (it holds no per-user state)."""

    def __init__(
        self,
        settings: Settings,
        read_models: ReadModels,
        retriever: Retriever,
        history: History,
        model: ChatModel | None = None,
    ) -> None:
        self.settings = settings
        self.read = read_models
        self.graph = read_models.graph
        self.retriever = retriever
        self.history = history
        self.model = model
        self.offline = ExtractiveAnswerer()

    @property
    def model_name(self) -> str:
        return self.model.name if self.model is not None else self.offline.name

    def validate(self, request: TurnRequest) -> TurnRequest:
        """The request with its question trimmed; raises InvalidRequest, UnknownLibrary or UnknownConversation."""
        query = request.query.strip() if isinstance(request.query, str) else ""
        if not query:
            raise InvalidRequest("query", "The question is empty; type a question about the knowledge base.")
        limit = self.settings.max_question_chars
        if len(query) > limit:
            raise InvalidRequest("query", f"The question has {len(query)} characters, over the limit of {limit}; "
                                          "shorten it, or upload long text as a document to the knowledge base.")
        for name, value, low, high in (("topK", request.top_k, 1, 200), ("hops", request.hops, 0, 5),
                                        ("historyTurns", request.history_turns, 0, 20)):
            if not low <= value <= high:
                raise InvalidRequest(name, f"{name} must be between {low} and {high}, got {value}.")
        if not 0.0 <= request.threshold <= 1.0:
            raise InvalidRequest("threshold", f"threshold must be between 0 and 1, got {request.threshold}.")
        snapshot = self.read.current()
        for library in request.library_ids:
            if library not in snapshot.libraries:
                raise UnknownLibrary(library, snapshot.libraries)
        if request.document_id and request.document_id not in snapshot.documents:
            raise InvalidRequest("documentId", f"Unknown document {request.document_id!r}.")
        if request.conversation_id:
            self.history.get_conversation(request.conversation_id)
        return replace(request, query=query)

    def run(self, request: TurnRequest) -> Iterator[Event]:
        """Validate (raising before anything is stored), then stream the turn's events."""
        request = self.validate(request)
        return self._turn(request)

    def _turn(self, request: TurnRequest) -> Iterator[Event]:
        started = time.perf_counter()
        snapshot = self.read.current()
        if request.conversation_id:
            conversation_id = request.conversation_id
        else:
            conversation_id = self.history.create_conversation(request.query, request.owner).id
        earlier = self.history.recent_user_messages(conversation_id, request.history_turns)
        prompt_history = self._prompt_history(conversation_id, request.history_turns)
        yield Event("conversation_id", {"conversation_id": conversation_id})
        user_id = self.history.add_message(conversation_id, "user", request.query)
        yield Event("user_message_id", {"message_id": user_id})
        assistant_id = uuid.uuid4().hex
        yield Event("assistant_message_id", {"message_id": assistant_id})

        trace: list[str] = []

        def think(text: str) -> Event:
            trace.append(text)
            return Event("thinking", {"text": text + "\n", "source": "pipeline"})

        query = "\n".join([*earlier, request.query])
        yield think(f"检索查询：{query.replace(chr(10), ' / ')}")
        if not snapshot.documents:
            hits, pre, sources = [], None, []
        else:
            hits = self.retriever.retrieve(query, request)
            yield think(f"检索：{len(hits)} 个片段（阈值 {request.threshold}，topK {request.top_k}，"
                        f"{'混合检索' if request.enable_hybrid_search else '向量检索'}"
                        f"{'，重排序' if request.enable_rerank else ''}{'，上下文扩展' if request.enable_context_expansion else ''}）")
            pre = self.prefetch(snapshot, hits, request)
            for p in pre.attachments:
                how = "检索直接命中" if p.hops == 0 else f"{p.hops} 跳，经“{p.via}”"
                yield think(f"图谱预取：{snapshot.documents[p.doc_id].title} · {p.label} {p.title}（{how}）")
            sources = build_sources(hits, pre.attachments, snapshot.documents)

        answer_parts: list[str] = []
        model_thinking: list[str] = []
        usage = None
        fallback = False
        if not snapshot.documents:
            answer_parts.append(EMPTY_KB)
            yield Event("content", {"text": EMPTY_KB})
        elif self.model is None:
            yield from self._offline(request.query, sources, query, answer_parts)
        else:
            messages = build_messages(request.query, sources, prompt_history)
            try:
                for delta in self.model.stream(messages, think=request.think):
                    if delta.kind == "thinking":
                        model_thinking.append(delta.text)
                        yield Event("thinking", {"text": delta.text, "source": "model"})
                    elif delta.kind == "content":
                        answer_parts.append(delta.text)
                        yield Event("content", {"text": delta.text})
                    elif delta.kind == "usage" and delta.usage is not None:
                        usage = asdict(delta.usage)
            except LLMError as exc:
                fallback = True
                yield Event("error", {"message": str(exc), "fallback": True})
                notice = ("\n\n" if answer_parts else "") + FALLBACK_NOTICE.format(error=str(exc)) + "\n\n"
                answer_parts.append(notice)
                yield Event("content", {"text": notice})
                yield from self._offline(request.query, sources, query, answer_parts)

        answer = "".join(answer_parts)
        hop = self.hop(answer, snapshot, sources, request)
        if hop.block:
            block = "\n\n" + hop.block
            yield Event("content", {"text": block})
        else:
            block = ""
        yield Event("attachments", {"items": list(hop.items)})
        docs = referenced_docs(answer, sources, hop.sources) if sources else []
        yield Event("referenced_docs", {"docs": docs})
        paths = [*(pre.paths if pre else ()), *hop.paths]
        yield Event("graph_paths", {"paths": paths})
        yield Event("token_usage", usage)
        all_sources = sources + [s for s in hop.sources if s not in sources]
        extra = {"sources": all_sources, "referenced_docs": docs, "graph_paths": paths, "attachments": list(hop.items),
                 "model": self.model_name, "fallback": fallback}
        links = [MessageLink(d.doc_id, chunk_id, d.title, d.score) for d in docs for chunk_id in d.chunk_ids]
        thinking = "\n".join(trace) + ("\n\n" + "".join(model_thinking) if model_thinking else "")
        self.history.add_message(conversation_id, "assistant", answer + block, thinking, usage, jsonable(extra), links,
                                 message_id=assistant_id)
        yield Event("done", {"message_id": assistant_id, "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
                             "model": self.model_name, "fallback": fallback})

    # The three steps a baseline (kb/baselines.py) replaces: the graph before and after the answer, and the
    # offline answer's text.

    def prefetch(self, snapshot: Snapshot, hits: list[Hit], request: TurnRequest) -> PrefetchResult:
        """Attachments reached through REFERENCES from the hits, under the prefetch budget."""
        return prefetch(snapshot.view, snapshot.catalog, hits, request.hops, self.settings.prefetch_budget)

    def hop(self, answer: str, snapshot: Snapshot, sources: list[Source], request: TurnRequest) -> HopResult:
        """The post-answer attachment hop over the answer's 相关附件 section."""
        return post_answer_hop(answer, snapshot.view, snapshot.catalog, sources, list(request.library_ids) or None)

    def offline_answer(self, question: str, sources: list[Source], context: str) -> str:
        """The offline extractive answer."""
        return self.offline.answer(question, sources, context)

    def _offline(self, question: str, sources, context: str, parts: list[str]) -> Iterator[Event]:
        text = self.offline_answer(question, sources, context)
        for piece in re.findall(r"[^\n]*\n?", text):
            if piece:
                parts.append(piece)
                yield Event("content", {"text": piece})

    def _prompt_history(self, conversation_id: str, turns: int) -> list[tuple[str, str]]:
        """The last `turns` question/answer pairs, answers without their appended attachment blocks."""
        if turns <= 0:
            return []
        messages = self.history.messages(conversation_id)[-2 * turns :]
        return [(m.role, m.content.split(_BLOCK_START)[0]) for m in messages]
