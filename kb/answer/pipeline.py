"""One turn: question → retrieval → graph prefetch → prompt → model → post-answer hop, as a typed event stream.

Past ~300 lines on purpose: Pipeline's steps read top to bottom in the order a turn runs them, and agent mode
(kb/agent/pipeline.py) reuses them one by one; the parts with a job of their own already live beside it
(validation.py checks the request, context.py fits the prompt, hop.py, gaps.py, sources.py, history.py, offline.py).
"""
from __future__ import annotations

import logging
import re
import time
import uuid
from dataclasses import asdict, dataclass, field
from typing import Callable, Generator, Iterator

from kb.answer.context import Fitted, estimate_tokens, fit
from kb.errors import AnnexError, LLMError
from kb.answer.events import Event, jsonable
from kb.answer.followup import HOW, Reading, read_question
from kb.answer.cited_tables import cited_gaps
from kb.answer.gaps import counted_beside, deferred_gaps, find_gaps, gap_answer
from kb.answer.history import History, MessageLink
from kb.answer.together import written_together
from kb.answer.attachment_list import attachment_list_answer
from kb.answer.hop import HopResult, post_answer_hop, without_block
from kb.answer.llm import ChatModel
from kb.answer.issuers import asks_issuer, issuer_answer, issuers
from kb.answer.offline import ExtractiveAnswerer
from graph.prefetch import PrefetchResult, prefetch
from kb.labels import asked_labels
from kb.answer.prompts import EMPTY_KB, FALLBACK_NOTICE, TURN_FAILED
from kb.search.readmodels import ReadModels, Snapshot
from kb.search.retrieval import Retriever, fuse_readings
from kb.settings import Settings
from kb.answer.sources import build_messages, build_sources, cited_numbers, declines, referenced_docs
from kb.answer.validation import validated
from kb.turn import GraphPath, Hit, Source, TurnRequest

log = logging.getLogger(__name__)
_NAMED_DROPS = 8  # sources named one by one in the context-window note; the rest are counted


@dataclass
class TurnState:
    """What one turn has gathered so far, handed from step to step."""

    request: TurnRequest
    snapshot: Snapshot
    conversation_id: str
    assistant_id: str
    started: float
    sources: list[Source] = field(default_factory=list)
    paths: list[GraphPath] = field(default_factory=list)  # from the prefetch; the hop adds its own
    trace: list[str] = field(default_factory=list)  # the pipeline's own thinking lines
    model_thinking: list[str] = field(default_factory=list)
    usage: dict | None = None
    fallback: bool = False
    extra: dict = field(default_factory=dict)  # more to store with the answer
    steps: dict[str, float] = field(default_factory=dict)  # step → ms: retrieval, prefetch, model, hop

    def think(self, text: str, step: str = "") -> Event:
        """A thinking event of the pipeline's trace (its step named), remembered for the stored answer."""
        self.trace.append(text)
        data = {"text": text + "\n", "source": "pipeline"}
        if step:
            data["step"] = step
        return Event("thinking", data)

    def timed(self, step: str, since: float) -> None:
        """Add the milliseconds since `since` to the step's time."""
        self.steps[step] = round(self.steps.get(step, 0.0) + (time.perf_counter() - since) * 1000, 1)


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
        self.retriever = retriever
        self.history = history
        self.model = model
        self.offline = ExtractiveAnswerer()

    @property
    def model_name(self) -> str:
        return self.model.name if self.model is not None else self.offline.name

    def validate(self, request: TurnRequest) -> TurnRequest:
        """The request with its question trimmed and library ids deduplicated (kb/answer/validation.py).

        Raises InvalidRequest, UnknownLibrary or UnknownConversation before anything is stored.
        """
        return validated(request, self.settings, self.read, self.history)

    def run(self, request: TurnRequest) -> Iterator[Event]:
        """Validate (raising before anything is stored), then stream the turn's events, always ending with done."""
        request = self.validate(request)
        return self._guarded(request)

    def _guarded(self, request: TurnRequest) -> Iterator[Event]:
        """The turn's events; a failure midway becomes an error event, a stored answer saying so, and done.

        This is the turn's boundary, so it catches every Exception: whatever broke (a store, a bug), the caller
        gets the reason and the conversation gets an answer instead of a question left hanging.
        """
        started = time.perf_counter()
        ids: dict[str, str] = {}
        streamed: list[str] = []
        try:
            for event in self._turn(request):
                if event.type == "conversation_id":
                    ids["conversation_id"] = event.data["conversation_id"]
                elif event.type == "assistant_message_id":
                    ids["assistant_message_id"] = event.data["message_id"]
                elif event.type == "content":
                    streamed.append(event.data["text"])
                yield event
        except Exception as exc:
            if not isinstance(exc, AnnexError):
                log.exception("a turn failed midway")
            reason = str(exc) if isinstance(exc, AnnexError) else f"{type(exc).__name__}: {exc}"
            message = f"The turn failed midway: {reason}"
            notice = ("\n\n" if streamed else "") + TURN_FAILED.format(error=message)
            yield Event("content", {"text": notice})
            yield Event("error", {"message": message, "fallback": False, "failed": True})
            not_stored = self._store_failure(ids, "".join(streamed) + notice)
            if not_stored is not None:
                yield Event("error", {"message": not_stored, "fallback": False, "failed": True})
            elapsed = round((time.perf_counter() - started) * 1000, 1)
            yield Event("done", {"message_id": ids.get("assistant_message_id"), "elapsed_ms": elapsed,
                                 "model": self.model_name, "fallback": False, "failed": True})

    def _store_failure(self, ids: dict[str, str], answer: str) -> str | None:
        """Store the answer so far with the failure notice, if the question was stored; why it could not, or None."""
        if "assistant_message_id" not in ids:
            return None
        try:
            self.history.add_message(ids["conversation_id"], "assistant", answer,
                                     extra={"model": self.model_name, "fallback": False, "failed": True},
                                     message_id=ids["assistant_message_id"])
        except Exception as exc:  # the history itself may be what broke: say so rather than hide the first error
            log.exception("could not store the failure of a turn")
            return f"The failure could not be stored in the conversation either: {type(exc).__name__}: {exc}"
        return None

    def _turn(self, request: TurnRequest) -> Iterator[Event]:
        """The turn's steps. Those that run on this process's CPU (reading, retrieval, prefetch, the offline answer,
        the post-answer hop) are marked as reading, so that a write steps aside for them (kb/readers_first.py); a
        model's stream waits on the network and is not."""
        parts: list[str] = []
        with self.read.readers.reading():
            turn, reading, prompt_history = yield from self._begin(request)
            query = reading.standalone
            yield from self._read_note(turn, reading)
            if turn.snapshot.documents:
                yield from self._gather(turn, reading, request)
            since = time.perf_counter()  # the model step: prompt, stream (or the offline answer), any fallback
            if not turn.snapshot.documents:
                parts.append(EMPTY_KB)
                yield Event("content", {"text": EMPTY_KB})
            elif self.model is None:
                yield from self._offline(query, turn.sources, query, parts)
            if self.model is None or not turn.snapshot.documents:  # one block: no write steps in between
                turn.timed("model", since)
                yield from self._finish(turn, "".join(parts))
                return
        yield from self._stream(turn, request, prompt_history, query, parts)
        turn.timed("model", since)
        with self.read.readers.reading():
            yield from self._finish(turn, "".join(parts))

    def _gather(self, turn: TurnState, reading: Reading, request: TurnRequest) -> Iterator[Event]:
        """Retrieval and the graph's prefetch: the turn's sources and paths."""
        since = time.perf_counter()
        hits = self.retrieve_reading(reading, request)
        turn.timed("retrieval", since)
        yield turn.think(
            f"检索：{len(hits)} 个片段（阈值 {request.threshold}，topK {request.top_k}，"
            f"{'混合检索' if request.enable_hybrid_search else '向量检索'}"
            f"{'，重排序' if request.enable_rerank else ''}{'，上下文扩展' if request.enable_context_expansion else ''}）",
            "retrieval",
        )
        since = time.perf_counter()
        pre = self.prefetch(turn.snapshot, hits, request, asked_labels(reading.standalone))
        turn.timed("prefetch", since)
        for p in pre.attachments:
            how = "检索直接命中" if p.hops == 0 else f"{p.hops} 跳，经“{p.via}”"
            yield turn.think(f"图谱预取：{turn.snapshot.documents[p.doc_id].title} · {p.label} {p.title}（{how}）",
                             "prefetch")
        turn.sources = build_sources(hits, pre.attachments, turn.snapshot.documents)
        turn.paths = list(pre.paths)

    def _stream(self, turn: TurnState, request: TurnRequest, prompt_history: list[tuple[str, str]], query: str,
                parts: list[str]) -> Iterator[Event]:
        """The model's answer, streamed (or the offline answer when the model fails)."""
        fitted = self.fit_prompt(request.query, turn.sources, prompt_history)
        if fitted.changed or fitted.tokens > fitted.budget:
            yield turn.think(self._fit_note(fitted), "model")
        turn.sources = fitted.sources
        try:
            messages = build_messages(request.query, turn.sources, fitted.history)
            for delta in self.model.stream(messages, think=request.think):
                if delta.kind == "thinking":
                    turn.model_thinking.append(delta.text)
                    yield Event("thinking", {"text": delta.text, "source": "model"})
                elif delta.kind == "content":
                    parts.append(delta.text)
                    yield Event("content", {"text": delta.text})
                elif delta.kind == "usage" and delta.usage is not None:
                    turn.usage = asdict(delta.usage)
        except LLMError as exc:
            yield from self._fall_back(turn, exc, query, parts)

    def fit_prompt(self, question: str, sources: list[Source], history: list[tuple[str, str]]) -> Fitted:
        """The sources and history that fit the model's context window beside the answer cap."""
        budget = self.settings.llm_context_tokens - self.settings.llm_max_tokens
        return fit(sources, history, lambda s, h: build_messages(question, s, h), budget)

    def _fit_note(self, fitted: Fitted) -> str:
        """The thinking line saying what was left out of the prompt to fit the context window, and why."""
        s = self.settings
        named = [f"《{x.doc_title}》{x.label or '正文'}{(' ' + x.title) if x.title else ''}"
                 f"（约 {estimate_tokens(x.text):,} tokens）" for x in fitted.dropped]
        left_out = []
        if named:
            more = "等" if len(named) > _NAMED_DROPS else ""
            left_out.append(f"舍弃 {len(named)} 个来源（按相关度从低到高）：{'、'.join(named[:_NAMED_DROPS])}{more}")
        left_out += [f"截断《{x.doc_title}》{x.label or '正文'}{(' ' + x.title) if x.title else ''}" for x in fitted.cut]
        if fitted.history_dropped:
            left_out.append(f"舍弃最早的 {fitted.history_dropped} 条历史消息")
        head = (f"上下文窗口：提示约 {fitted.first_tokens:,} tokens，加回答上限 {s.llm_max_tokens:,}"
                f"（ANNEX_LLM_MAX_TOKENS）超出窗口 {s.llm_context_tokens:,}（ANNEX_LLM_CONTEXT_TOKENS）；")
        if fitted.tokens > fitted.budget:
            return head + "".join(x + "；" for x in left_out) + f"仍约 {fitted.tokens:,} tokens：问题本身已超出窗口"
        return head + "；".join(left_out) + f"；提示现约 {fitted.tokens:,} tokens"

    def _begin(self, request: TurnRequest) -> Generator[Event, None, tuple[TurnState, Reading, list[tuple[str, str]]]]:
        """Open (or continue) the conversation, read the question after the earlier ones (a follow-up resolved) and
        store it; returns the turn, the reading and the prompt's history."""
        snapshot = self.read.current()
        conversation_id = request.conversation_id or self.history.create_conversation(request.query, request.owner).id
        earlier = self.history.recent_questions(conversation_id, request.history_turns)
        # a document is named by its title or its cover (紫楹台 names 西安新兴紫楹台酒店有限公司's 生产安全事故应急预案)
        titles = [f"{d.title} {snapshot.view.cover(d.id)}" for d in snapshot.documents.values()] if earlier else []
        together = written_together(snapshot, list(request.library_ids) or None) if earlier else None
        answer = without_block(self.history.last_answer(conversation_id)) if earlier else ""  # 第二个呢？ points into it
        reading = read_question(request.query, earlier, titles, together, answer)
        prompt_history = self._prompt_history(conversation_id, request.history_turns)
        yield Event("conversation_id", {"conversation_id": conversation_id})
        extra = {"standalone": reading.standalone, "continues": reading.continues} if reading.follows else None
        yield Event("user_message_id", {"message_id": self.history.add_message(conversation_id, "user", request.query,
                                                                               extra=extra)})
        turn = TurnState(request, snapshot, conversation_id, uuid.uuid4().hex, time.perf_counter())
        if reading.follows:
            turn.extra["standalone"] = reading.standalone
        yield Event("assistant_message_id", {"message_id": turn.assistant_id})
        return turn, reading, prompt_history

    def _read_note(self, turn: TurnState, reading: Reading) -> Iterator[Event]:
        """The thinking lines saying how the question was read and what is retrieved for it."""
        if reading.follows:
            which = f"接前第 {reading.skipped + 1} 问" if reading.skipped else "接上一问"  # past unrelated questions
            yield turn.think(f"追问（{HOW[reading.how]}）：{which}“{reading.continues}”，读作“{reading.standalone}”",
                             "retrieval")
            yield turn.think(f"检索查询：{reading.standalone}（并检索原问题“{reading.question}”，融合排序）", "retrieval")
        else:
            yield turn.think(f"检索查询：{reading.standalone}", "retrieval")

    def _fall_back(self, turn: TurnState, error: LLMError, query: str, parts: list[str]) -> Iterator[Event]:
        """The model failed: an error event, a notice, then the offline answer."""
        turn.fallback = True
        yield Event("error", {"message": str(error), "fallback": True})
        notice = ("\n\n" if parts else "") + FALLBACK_NOTICE.format(error=str(error)) + "\n\n"
        parts.append(notice)
        yield Event("content", {"text": notice})
        yield from self._offline(query, turn.sources, query, parts)

    def _finish(
        self, turn: TurnState, answer: str, cited: str | None = None, block_of: Callable[[HopResult], str] | None = None
    ) -> Iterator[Event]:
        """The post-answer hop, the closing events, and the stored answer.

        `cited` is the answer as the hop and the citations read it (the agent numbers its [文件名#标题] marks);
        `block_of` formats the appended attachments block.
        """
        cited = answer if cited is None else cited
        since = time.perf_counter()
        hop = self.hop(cited, turn.snapshot, turn.sources, turn.request)
        turn.timed("hop", since)
        block = "\n\n" + (block_of(hop) if block_of else hop.block) if hop.block else ""
        if block:
            yield Event("content", {"text": block})
        yield Event("attachments", {"items": list(hop.items)})
        # A decline references nothing: it answers or declines, never both (the closest passages are the UI's to list).
        docs = referenced_docs(cited, turn.sources, hop.sources) if turn.sources and not _declined(cited) else []
        yield Event("referenced_docs", {"docs": docs})
        paths = [*turn.paths, *hop.paths]
        yield Event("graph_paths", {"paths": paths})
        yield Event("token_usage", turn.usage)
        all_sources = turn.sources + [s for s in hop.sources if s not in turn.sources]
        extra = {"sources": all_sources, "referenced_docs": docs, "graph_paths": paths, "attachments": list(hop.items),
                 "model": self.model_name, "fallback": turn.fallback, "steps": turn.steps, **turn.extra}
        links = [MessageLink(d.doc_id, chunk_id, d.title, d.score) for d in docs for chunk_id in d.chunk_ids]
        model_thinking = "".join(turn.model_thinking).rstrip("\n")
        thinking = "\n".join(turn.trace) + ("\n\n" + model_thinking if model_thinking else "")
        self.history.add_message(turn.conversation_id, "assistant", answer + block, thinking, turn.usage,
                                 jsonable(extra), links, message_id=turn.assistant_id)
        elapsed = round((time.perf_counter() - turn.started) * 1000, 1)
        yield Event("done", {"message_id": turn.assistant_id, "elapsed_ms": elapsed, "model": self.model_name,
                             "fallback": turn.fallback, "steps": dict(turn.steps)})

    # The three steps a baseline (kb/eval/baselines.py) replaces: the graph before and after the answer, and the
    # offline answer's text.

    # Which chunks cite an attachment is the graph's REFERENCES edges: a baseline without the graph retrieves without
    # them (it keeps no citing chunk under the threshold, having no way to follow it).
    follows_references = True

    def retrieve_reading(self, reading: Reading, request: TurnRequest) -> list[Hit]:
        """Hits for what the question asks; a follow-up's own words are retrieved too and fused in, so that the
        question as written still competes when it was not the follow-up it looked like."""
        hits = self.retrieve(reading.standalone, request)
        if not reading.follows:
            return hits
        return fuse_readings(hits, self.retrieve(reading.question, request), request.top_k)

    def retrieve(self, query: str, request: TurnRequest) -> list[Hit]:
        """Vector and BM25 search, fused and thresholded (kb/search/retrieval.py)."""
        return self.retriever.retrieve(query, request, leads=self.follows_references)

    def prefetch(self, snapshot: Snapshot, hits: list[Hit], request: TurnRequest,
                 asked: tuple[str, ...] = ()) -> PrefetchResult:
        """The attachments the question names by label, then those REFERENCES reach from the hits, under budget."""
        return prefetch(snapshot.view, snapshot.catalog, hits, request.hops, self.settings.prefetch_budget, asked)

    def hop(self, answer: str, snapshot: Snapshot, sources: list[Source], request: TurnRequest) -> HopResult:
        """The post-answer attachment hop over the answer's 相关附件 section."""
        return post_answer_hop(answer, snapshot.view, snapshot.catalog, sources, list(request.library_ids) or None,
                               snapshot.documents)

    def offline_answer(self, question: str, sources: list[Source], context: str) -> str:
        """The offline extractive answer; a question about an attachment with no content gets that said instead."""
        snapshot = self.read.current()
        listed = attachment_list_answer(question, sources, snapshot.catalog)  # 这个预案有哪些附件: the catalog's list
        if listed:
            return listed
        gaps = find_gaps(question, sources, snapshot.documents, snapshot.catalog, snapshot.view, snapshot.view.body_text)
        answer = self.extract(question, sources, context)
        if gaps and not counted_beside(question, answer):  # 申请表要交几份: the body's 共交5份, not the form's content
            return gap_answer(gaps)
        # the sentence found sends the reader to an attachment that holds nothing (…详见附件1): that is the answer
        deferred = deferred_gaps(question, answer, sources, snapshot.documents, snapshot.catalog, snapshot.view,
                                 snapshot.view.body_text)
        if deferred:
            return gap_answer(deferred)
        if declines(answer):  # 借款合同的税率是多少 and the body sends the reader to a 税率表 that came empty: say so
            cited = cited_gaps(question, sources, snapshot.documents, snapshot.catalog, snapshot.view)
            if cited:
                return gap_answer([c.gap for c in cited], [(c.sentence, c.source.n) for c in cited])
        return answer

    def extract(self, question: str, sources: list[Source], context: str) -> str:
        """The offline extractive answer of every mode; each source is read with its document's cover lines and its
        attachment's title."""
        snapshot = self.read.current()
        if asks_issuer(question) and sources:  # 哪几个单位联合发的: the letterhead or the signature says it
            first = sources[0]
            named = issuers(snapshot.view.body_text(first.doc_id))
            if named:
                return issuer_answer(named, first.n)
        covers: dict[str | tuple[str, str], str] = {d: snapshot.view.cover(d) for d in {s.doc_id for s in sources}}
        for s in sources:
            info = snapshot.catalog.get(s.doc_id, s.label) if s.label else None
            covers[(s.doc_id, s.label)] = info.title if info else ""
        return self.offline.answer(question, sources, context, covers)

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
        return [(m.role, without_block(m.content)) for m in messages]


def _declined(answer: str) -> bool:
    """The answer declines and cites nothing."""
    return declines(answer) and not cited_numbers(answer)
