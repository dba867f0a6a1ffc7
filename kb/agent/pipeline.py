"""Agent mode: a tool-calling model gathers its own sources (search, tags, whole documents, the attachment hop) first.

The turn emits the same event stream as kb/answer/pipeline.py: each tool call is a `thinking` event (source "agent",
with the tool's name and arguments), the answer is `content`, then the usual post-answer hop, referenced_docs,
graph_paths, token_usage and done. Citations name their source as [文件名#标题]; internally they are mapped to
numbered sources so that the hop and the referenced documents work as in the plain pipeline.
"""
from __future__ import annotations

import inspect
import json
import re
from dataclasses import asdict
from typing import Any, Iterator

from kb.labels import asked_labels
from kb.errors import AgentModeError, LLMError, ToolError
from kb.answer.events import Event
from kb.answer.history import History
from kb.agent.budget import AnswerBudget
from kb.agent.tool_calls import ToolCall, complete_with_tools
from kb.answer.deltas import TokenUsage
from kb.answer.llm import ChatModel, OpenAIChatModel
from kb.answer.pipeline import Pipeline
from kb.answer.prompts import AGENT_FINISH, AGENT_SCOPE, AGENT_SYSTEM_PROMPT, AGENT_TOOL_CALL, AGENT_TRACE_START, EMPTY_KB
from kb.search.readmodels import ReadModels, Snapshot
from kb.search.retrieval import Retriever
from kb.settings import Settings
from kb.answer.sources import build_sources
from kb.agent.tools import KnowledgeTools, citation, tool_schemas
from kb.turn import Source, TurnRequest

MAX_ROUNDS = 5  # model calls that may ask for tools; then it must answer
TOOL_RESULT_CHARS = 12000  # a tool result is cut to this many characters before it goes back to the model
_CITE = re.compile(r"\[([^\[\]\n#]+)#([^\[\]\n]+)\]")
_BLOCK_CITE = re.compile(r"^(\*\*.+\*\*（《.*》[^）]*）)\[(\d+)\]$", re.M)


class AgentPipeline(Pipeline):
    """A Pipeline whose answer comes from a tool-calling model; same constructor, same event stream."""

    def __init__(self, settings: Settings, read_models: ReadModels, retriever: Retriever, history: History,
                 model: ChatModel | None = None) -> None:
        if not isinstance(model, OpenAIChatModel):
            raise AgentModeError("ANNEX_AGENT_MODE is on, but agent mode needs an OpenAI-compatible model with tool "
                                 "calling: set ANNEX_LLM_BASE_URL and ANNEX_LLM_MODEL, or turn ANNEX_AGENT_MODE off.")
        super().__init__(settings, read_models, retriever, history, model)
        self.agent_model: OpenAIChatModel = model
        self.tools = KnowledgeTools(read_models, retriever, read_models.graph)
        self.schemas = tool_schemas(self.tools)

    @property
    def model_name(self) -> str:
        return f"{self.agent_model.name} · agent"

    def _turn(self, request: TurnRequest) -> Iterator[Event]:
        turn, reading, prompt_history = yield from self._begin(request)
        turn.extra["agent"] = True
        gathered = _Gathered(turn.snapshot)
        usage: list[TokenUsage] = []
        parts: list[str] = []
        if not turn.snapshot.documents:
            parts.append(EMPTY_KB)
            yield Event("content", {"text": EMPTY_KB})
        else:
            try:
                for event in self._agent(request, prompt_history, gathered, usage, turn.trace, turn.model_thinking):
                    if event.type == "content":
                        parts.append(event.data["text"])
                    yield event
                turn.sources = gathered.sources
            except LLMError as exc:
                query = reading.standalone
                hits = self.retrieve_reading(reading, request)
                pre = self.prefetch(turn.snapshot, hits, request, asked_labels(query))
                turn.sources = build_sources(hits, pre.attachments, turn.snapshot.documents)
                turn.paths = list(pre.paths)
                parts.clear()
                yield from self._fall_back(turn, exc, query, parts)
        turn.usage = _sum(usage)
        answer = "".join(parts)
        if turn.fallback:
            yield from self._finish(turn, answer)
        else:
            yield from self._finish(turn, answer, cited=gathered.numbered(answer), block_of=gathered.cite_block)

    def _agent(self, request: TurnRequest, history: list[tuple[str, str]], gathered: _Gathered,
               usage: list[TokenUsage], trace: list[str], model_thinking: list[str]) -> Iterator[Event]:
        """The tool loop: thinking events per call, then the answer as content events; raises LLMError."""
        trace.append(AGENT_TRACE_START)
        yield Event("thinking", {"text": AGENT_TRACE_START + "\n", "source": "pipeline"})
        question = request.query
        if request.library_ids:
            question += "\n" + AGENT_SCOPE.format(libraries="、".join(request.library_ids))
        messages: list[dict[str, Any]] = [{"role": "system", "content": AGENT_SYSTEM_PROMPT}]
        messages += [{"role": role, "content": content} for role, content in history]
        messages.append({"role": "user", "content": question})
        budget = AnswerBudget(self.settings.llm_answer_seconds, self.agent_model.max_tokens)
        for round_ in range(MAX_ROUNDS + 1):
            last = round_ == MAX_ROUNDS
            if last:
                messages.append({"role": "user", "content": AGENT_FINISH})
            offered = [] if last else self.schemas
            reply = budget.call(lambda seconds: complete_with_tools(self.agent_model, messages, offered, seconds))
            if reply.usage is not None:
                usage.append(reply.usage)
            if reply.thinking:
                model_thinking.append(reply.thinking + "\n")
                yield Event("thinking", {"text": reply.thinking + "\n", "source": "model"})
            if not reply.tool_calls:
                for piece in re.findall(r"[^\n]*\n?", reply.content):
                    if piece:
                        yield Event("content", {"text": piece})
                return
            messages.append({"role": "assistant", "content": reply.content or None, "tool_calls": [
                {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                for c in reply.tool_calls]})
            tools = self.tools.within(request.library_ids)  # the turn sees only the libraries it is scoped to
            for call in reply.tool_calls:
                arguments, result, summary = self._call(tools, call, request, gathered)
                line = AGENT_TOOL_CALL.format(name=call.name, arguments=_short(arguments), summary=summary)
                line = " ".join(line.split("\n"))
                trace.append(line)
                yield Event("thinking", {"text": line + "\n", "source": "agent", "tool": call.name,
                                         "arguments": arguments, "summary": summary})
                content = json.dumps(result, ensure_ascii=False)
                if len(content) > TOOL_RESULT_CHARS:
                    content = content[:TOOL_RESULT_CHARS] + f"…（已截断，共 {len(content)} 字）"
                messages.append({"role": "tool", "tool_call_id": call.id, "content": content})

    def _call(self, tools: KnowledgeTools, call: ToolCall, request: TurnRequest,
              gathered: _Gathered) -> tuple[dict, Any, str]:
        """Run one tool call; a bad call becomes an {"error": …} result the model can read and correct."""
        try:
            arguments = json.loads(call.arguments or "{}")
            if not isinstance(arguments, dict):
                raise ValueError("arguments must be a JSON object")
        except ValueError as exc:
            return {}, {"error": f"arguments of {call.name} are not a JSON object ({exc})"}, "参数不是 JSON 对象"
        if call.name not in self.tools_names:
            message = f"No tool {call.name!r}; the tools are: {', '.join(self.tools_names)}."
            return arguments, {"error": message}, f"错误：{message}"
        try:
            inspect.signature(getattr(tools, call.name)).bind(**arguments)
        except TypeError as exc:
            return arguments, {"error": f"{call.name}: {exc}"}, f"错误：{exc}"
        try:
            with self.read.readers.reading():  # a tool's retrieval runs on this CPU: a write steps aside for it
                result = self._run_tool(tools, call.name, arguments, request)
        except ToolError as exc:
            return arguments, {"error": str(exc)}, f"错误：{exc}"
        gathered.add(call.name, result)
        return arguments, result, _summary(call.name, result)

    @staticmethod
    def _run_tool(tools: KnowledgeTools, name: str, arguments: dict, request: TurnRequest) -> Any:
        """The tool's result; search_chunks is scoped to the turn's libraries and document."""
        if name == "search_chunks":
            library = str(arguments.get("library") or "")
            if library and request.library_ids and library not in request.library_ids:
                raise ToolError(f"This question is limited to the libraries {', '.join(request.library_ids)}; "
                                f"search one of them, or leave library empty.")
            libraries = (library,) if library else request.library_ids
            return tools.search(arguments["query"], arguments.get("top_k", 8), libraries, request.document_id)
        return getattr(tools, name)(**arguments)

    @property
    def tools_names(self) -> tuple[str, ...]:
        return tuple(s["function"]["name"] for s in self.schemas)


class _Gathered:
    """The numbered sources the tool results brought in, each with its [文件名#标题] citation."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self.sources: list[Source] = []
        self.cites: list[str] = []
        self._keys: set[tuple] = set()

    def add(self, tool: str, result: Any) -> None:
        """Keep the passages, documents and attachments a tool returned."""
        if tool == "search_chunks":
            for h in result:
                self._add(("chunk", h["chunk_id"]), h["cite"], h["doc_id"], h["attachment"], h["attachment_title"],
                          h["text"], ((h["start"], h["end"]),), (h["chunk_id"],), h["score"])
        elif tool == "get_document":
            self._add(("doc", result["doc_id"]), result["cite"], result["doc_id"], "", "", result["text"],
                      ((0, len(result["text"])),), (), 0.0)
        elif tool == "resolve_attachments":
            for i in (i for i in result["items"] if i["resolved"]):
                self._add(("attachment", i["doc_id"], i["label"]), i["cite"], i["doc_id"], i["label"], i["title"],
                          i["content"], tuple(tuple(s) for s in i["spans"]), tuple(i["chunk_ids"]), 0.0)

    def _add(self, key: tuple, cite: str, doc_id: str, label: str, title: str, text: str,
             spans: tuple, chunk_ids: tuple, score: float) -> None:
        if key in self._keys:
            return
        self._keys.add(key)
        doc = self.snapshot.documents.get(doc_id)
        self.sources.append(Source(len(self.sources) + 1, doc_id, doc.title if doc else doc_id,
                                   doc.library if doc else "", label, title, text, spans, chunk_ids, score))
        self.cites.append(cite)

    def numbered(self, answer: str) -> str:
        """The answer with each [文件名#标题] replaced by the numbers of its sources (a file's sources if the 标题 is off)."""

        def number(match: re.Match) -> str:
            ns = [s.n for s, c in zip(self.sources, self.cites) if c == match.group(0)]
            ns = ns or [s.n for s, c in zip(self.sources, self.cites) if c.startswith(f"[{match.group(1).strip()}#")]
            return "[" + ",".join(map(str, ns)) + "]" if ns else match.group(0)

        return _CITE.sub(number, answer)

    def cite_block(self, hop: Any) -> str:
        """The hop's appended block with [文件名#标题] in place of source numbers."""
        by_n = {s.n: c for s, c in zip(self.sources, self.cites)}
        for s in hop.sources:
            doc = self.snapshot.documents.get(s.doc_id)
            by_n.setdefault(s.n, citation(doc.name if doc else s.doc_title, f"{s.label} {s.title}".strip()))
        return _BLOCK_CITE.sub(lambda m: m.group(1) + by_n.get(int(m.group(2)), f"[{m.group(2)}]"), hop.block)


def _summary(tool: str, result: Any) -> str:
    """One line on what a tool call brought back, for the thinking panel."""
    if tool == "search_chunks":
        return f"{len(result)} 个片段" + ("：" + "、".join(dict.fromkeys(h["cite"] for h in result[:3])) if result else "")
    if tool == "search_by_tags":
        return f"{len(result)} 个文件" + ("：" + "、".join(d["file"] for d in result[:5]) if result else "")
    if tool == "get_document":
        return f"《{result['title']}》全文 {len(result['text'])} 字"
    if tool == "resolve_attachments":
        done = [i for i in result["items"] if i["resolved"]]
        return f"解析 {len(done)}/{len(result['items'])} 行" + ("：" + "、".join(i["cite"] for i in done) if done else "")
    return f"{len(result['nodes'])} 个节点、{len(result['edges'])} 条边"


def _short(arguments: dict) -> str:
    text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in arguments.items())
    return text if len(text) <= 120 else text[:119] + "…"


def _sum(usage: list[TokenUsage]) -> dict | None:
    if not usage:
        return None
    return asdict(TokenUsage(*(sum(getattr(u, f) for u in usage) for f in ("prompt_tokens", "completion_tokens",
                                                                              "total_tokens"))))

