"""Streaming chat with any OpenAI-compatible endpoint; the only module that imports openai."""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Iterator, Protocol

import httpx
import openai

from kb.answer.context import estimate_messages
from kb.answer.deltas import ModelDelta, ThinkTagSplitter, TokenUsage
from kb.errors import LLMError
from kb.settings import Settings

# Far above any tokenizer's characters a token (~1.5 for Chinese, ~4 for English): an answer longer than
# max_tokens × this comes from a server that ignores max_tokens, and would otherwise stream for ever.
ANSWER_CHARS_PER_TOKEN = 8


class ChatModel(Protocol):
    """What the answerer needs from a chat model."""

    name: str  # shown to users, e.g. "qwen2.5 @ http://host/v1"
    offline: bool

    def stream(self, messages: list[dict[str, str]], think: bool = False) -> Iterator[ModelDelta]:
        """Yield thinking and content deltas in order, then at most one usage delta."""
        ...


class OpenAIChatModel:
    """A ChatModel over an OpenAI-compatible /v1 endpoint (vLLM, Ollama, llama.cpp, DeepSeek, OpenAI…)."""

    offline = False

    def __init__(
        self,
        base_url: str,
        api_key: str = "",
        model: str = "",
        timeout: float = 60.0,
        max_retries: int = 1,
        temperature: float = 0.2,
        context_tokens: int = 8192,
        max_tokens: int = 1024,
        answer_seconds: float = 600.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.temperature = temperature
        self.context_tokens = context_tokens  # only for naming the likely cause of a failure
        self.max_tokens = max_tokens
        self.answer_seconds = answer_seconds  # the whole stream's limit: keep-alive comments reset the read timeout
        self.name = f"{model} @ {self.base_url}"
        self._thinking_switch = True  # send chat_template_kwargs until the server rejects it
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=api_key or "not-needed", timeout=timeout, max_retries=max_retries
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIChatModel:
        """Build from the Settings.llm_* fields."""
        base_url, model = settings.llm_base_url, settings.llm_model
        if not base_url:
            raise LLMError("No model endpoint is configured; set ANNEX_LLM_BASE_URL (e.g. http://localhost:8000/v1).")
        if not model:
            raise LLMError(f"No model name is configured for {base_url}; set ANNEX_LLM_MODEL (e.g. qwen2.5).")
        return cls(
            base_url=base_url,
            api_key=settings.llm_api_key,
            model=model,
            timeout=settings.llm_timeout,
            max_retries=settings.llm_max_retries,
            temperature=settings.llm_temperature,
            context_tokens=settings.llm_context_tokens,
            max_tokens=settings.llm_max_tokens,
            answer_seconds=settings.llm_answer_seconds,
        )

    def complete(self, messages: list[dict[str, Any]], seconds: float = 0.0, **options: Any) -> Any:
        """One non-streamed completion (the SDK's response) within `seconds` in all (0: only ANNEX_LLM_TIMEOUT per
        read); `options` go to the API (e.g. tools); raises LLMError."""
        began = time.monotonic()
        if seconds:  # the wait for the headers, then the body's read, each within what is left
            options["timeout"] = min(self.timeout, seconds)
        try:
            with self._client.chat.completions.with_streaming_response.create(
                model=self.model, messages=messages, temperature=self.temperature, max_tokens=self.max_tokens,  # type: ignore[arg-type]
                **options,
            ) as raw, _Deadline(seconds, raw.close) as deadline:
                try:
                    return raw.parse()
                except (openai.APIError, httpx.HTTPError) as exc:
                    if deadline.expired.is_set():  # a body trickling in past the limit: closed, whatever the read raised
                        raise LLMError(f"The model endpoint {self.base_url} was still sending after {seconds:g} s; "
                                       "the answer was stopped.") from exc
                    raise
        except openai.APIStatusError as exc:
            raise LLMError(self._status_message(exc)) from exc
        except openai.APITimeoutError as exc:
            raise LLMError(self._timeout_message(False, time.monotonic() - began)) from exc
        except openai.APIConnectionError as exc:
            raise LLMError(self._connection_message(exc, False)) from exc
        except openai.APIError as exc:
            raise LLMError(f"The model endpoint {self.base_url} reported an error: {exc.message}; retry, "
                           "or check the server's logs.") from exc
        except httpx.TimeoutException as exc:  # the body's read, which the SDK leaves to the caller here
            raise LLMError(self._timeout_message(True, time.monotonic() - began)) from exc
        except httpx.HTTPError as exc:
            raise LLMError(f"The model endpoint {self.base_url} broke off its answer ({exc}); retry, or check the "
                           "server's logs.") from exc

    def stream(self, messages: list[dict[str, str]], think: bool = False) -> Iterator[ModelDelta]:
        """Stream the answer; thinking deltas come whatever `think` says, the UI decides whether to show them."""
        splitter = ThinkTagSplitter()
        pairs = (_PairJoiner(), _PairJoiner())  # reasoning, content
        started = partial = False
        began = time.monotonic()
        try:
            response = self._create(messages, think)
            started = True
            chunks, usage, sent = 0, None, 0
            with response, _Deadline(self.answer_seconds, response.close) as deadline:
                try:
                    for chunk in response:
                        chunks += 1
                        usage = chunk.usage or usage  # some servers repeat a running total on every chunk
                        for delta in self._deltas(chunk, splitter, pairs):
                            partial = partial or delta.kind == "content"
                            sent += len(delta.text)
                            if sent > self.max_tokens * ANSWER_CHARS_PER_TOKEN:
                                raise LLMError(self._overlong_message(sent), partial)
                            yield delta
                except (openai.APIError, httpx.HTTPError) as exc:
                    if deadline.expired.is_set():  # closed by the deadline: whatever the read raised
                        raise LLMError(self._answer_time_message(), partial) from exc
                    raise
                if deadline.expired.is_set():
                    raise LLMError(self._answer_time_message(), partial)
            if not chunks:
                raise LLMError(self._no_chunk_message(messages))
            if reasoning := pairs[0].flush():
                yield ModelDelta("thinking", reasoning)
            yield from splitter.feed(pairs[1].flush())
            yield from splitter.flush()
            if usage is not None:
                yield ModelDelta("usage", usage=TokenUsage(usage.prompt_tokens, usage.completion_tokens,
                                                           usage.total_tokens))
        except openai.APIStatusError as exc:
            raise LLMError(self._status_message(exc), partial) from exc
        except openai.APITimeoutError as exc:
            raise LLMError(self._timeout_message(started, time.monotonic() - began), partial) from exc
        except openai.APIConnectionError as exc:
            raise LLMError(self._connection_message(exc, started), partial) from exc
        except openai.APIError as exc:  # an {"error": …} event inside the stream
            remedy = self._context_hint(messages, str(exc.message)) or "retry, or check the server's logs."
            raise LLMError(f"The model endpoint {self.base_url} reported an error mid-answer: {exc.message}; {remedy}",
                           partial) from exc
        except json.JSONDecodeError as exc:
            raise LLMError(f"The model endpoint {self.base_url} sent a malformed stream chunk ({exc.msg}); "
                           "the server or a proxy in between is broken — retry, or check its logs.", partial) from exc

    def _create(self, messages: list[dict[str, str]], think: bool) -> Any:
        """Open the stream; chat_template_kwargs.enable_thinking is best-effort (see below)."""
        # vLLM, SGLang and llama.cpp hand chat_template_kwargs to the chat template, and Qwen3-style templates
        # honour enable_thinking; most other servers ignore it. Strict ones (api.openai.com) answer 400 naming
        # the field: then it is dropped, for this request and every later one.
        extra = {"chat_template_kwargs": {"enable_thinking": think}} if self._thinking_switch else None
        try:
            return self._client.chat.completions.create(
                model=self.model,
                messages=messages,  # type: ignore[arg-type]
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                stream=True,
                stream_options={"include_usage": True},
                extra_body=extra,
            )
        except openai.BadRequestError as exc:
            if not self._thinking_switch or "chat_template_kwargs" not in _detail(exc):
                raise
            self._thinking_switch = False
            return self._create(messages, think)

    def _deltas(self, chunk: Any, splitter: ThinkTagSplitter, pairs: tuple[_PairJoiner, _PairJoiner]
                ) -> Iterator[ModelDelta]:
        """Deltas in one chat.completion.chunk: reasoning fields, then content split at <think> tags."""
        for choice in chunk.choices[:1]:
            delta = choice.delta
            extra = delta.model_extra or {}  # reasoning fields are not in the SDK's schema: pydantic extras
            reasoning = extra.get("reasoning_content") or extra.get("reasoning")
            if isinstance(reasoning, str) and (reasoning := pairs[0].feed(reasoning)):
                yield ModelDelta("thinking", reasoning)
            if delta.content:
                yield from splitter.feed(pairs[1].feed(delta.content))

    def _status_message(self, exc: openai.APIStatusError) -> str:
        where, code, detail = self.base_url, exc.status_code, _detail(exc)
        if code in (401, 403):
            return (f"The model endpoint {where} rejected the API key (HTTP {code}: {detail}); "
                    "set ANNEX_LLM_API_KEY to a valid key.")
        if code == 404:
            return (f"The model endpoint {where} has no model {self.model!r} or no chat API (HTTP 404: {detail}); "
                    "check ANNEX_LLM_MODEL, and that ANNEX_LLM_BASE_URL ends in /v1.")
        if code == 429:
            return (f"The model endpoint {where} is rate-limiting requests (HTTP 429: {detail}); "
                    "wait a moment and ask again, or raise ANNEX_LLM_MAX_RETRIES.")
        if code >= 500:
            return (f"The model endpoint {where} failed with HTTP {code} ({detail}); "
                    "the server is in trouble — ask again later, or check its logs.")
        if _mentions_context(detail):
            return (f"The model endpoint {where} refused the request (HTTP {code}: {detail}); the prompt does not fit "
                    f"the model's context window: set ANNEX_LLM_CONTEXT_TOKENS (now {self.context_tokens}) to the "
                    "server's context size, or lower topK, ANNEX_PREFETCH_BUDGET or ANNEX_LLM_MAX_TOKENS.")
        return (f"The model endpoint {where} refused the request (HTTP {code}: {detail}); "
                "check ANNEX_LLM_MODEL and ANNEX_LLM_BASE_URL, or shorten the question if it names a length limit.")

    def _answer_time_message(self) -> str:
        return (f"The model endpoint {self.base_url} was still sending after {self.answer_seconds:g} s, the limit for "
                "one answer (ANNEX_LLM_ANSWER_SECONDS): the answer was stopped. Ask again, or raise the limit for "
                "slow models.")

    def _overlong_message(self, sent: int) -> str:
        return (f"The model endpoint {self.base_url} sent {sent:,} characters, far past the answer cap "
                f"(ANNEX_LLM_MAX_TOKENS={self.max_tokens} tokens): the server ignores max_tokens, and the answer was "
                "stopped. Check the server's settings.")

    def _timeout_message(self, started: bool, waited: float) -> str:
        if started:  # a read timeout mid-stream is not retried
            return (f"The model endpoint {self.base_url} stopped sending for over {self.timeout:g} s mid-answer; "
                    "ask again, or raise ANNEX_LLM_TIMEOUT for slow models.")
        attempts = self.max_retries + 1  # the client retries a timeout before the answer starts
        tries = "" if attempts == 1 else (f" on any of {attempts} attempts "
                                          f"(1 + ANNEX_LLM_MAX_RETRIES={self.max_retries})")
        return (f"The model endpoint {self.base_url} did not answer within {self.timeout:g} s{tries}; "
                f"gave up after {waited:.1f} s in all. Check the server is up, or raise ANNEX_LLM_TIMEOUT for slow "
                "models.")

    def _no_chunk_message(self, messages: list[dict[str, str]]) -> str:
        return (f"The model endpoint {self.base_url} answered without a single completion chunk. Likely causes: "
                f"{self._context_cause(messages)}; or ANNEX_LLM_BASE_URL is not an OpenAI-compatible /v1 API.")

    def _context_cause(self, messages: list[dict[str, str]]) -> str:
        return (f"the prompt (~{estimate_messages(messages):,} tokens) plus the answer cap (ANNEX_LLM_MAX_TOKENS="
                f"{self.max_tokens}) may exceed the model's context window (ANNEX_LLM_CONTEXT_TOKENS="
                f"{self.context_tokens}; a local server's own is often smaller, e.g. 2048): lower topK or "
                "ANNEX_PREFETCH_BUDGET, or set ANNEX_LLM_CONTEXT_TOKENS to the server's context size")

    def _context_hint(self, messages: list[dict[str, str]], detail: str = "") -> str:
        """What to do when an in-stream error is about the context length; "" when it is not."""
        return self._context_cause(messages) + "." if _mentions_context(detail) else ""

    def _connection_message(self, exc: openai.APIConnectionError, started: bool) -> str:
        if started:
            return (f"The connection to the model endpoint {self.base_url} dropped mid-answer; "
                    "ask again, and check the server's logs if it keeps happening.")
        if _caused_by(exc, ConnectionRefusedError):
            return (f"The model endpoint {self.base_url} refused the connection; "
                    "check ANNEX_LLM_BASE_URL or unset it to use the offline answerer.")
        return (f"Could not reach the model endpoint {self.base_url} ({_root(exc)}); "
                "check ANNEX_LLM_BASE_URL and the network, or unset it to use the offline answerer.")


def _mentions_context(detail: str) -> bool:
    """Whether a server's error is about the prompt's length (llama.cpp, vLLM, OpenAI, Ollama wordings)."""
    text = detail.lower()
    return "context" in text and any(w in text for w in ("exceed", "length", "window", "too long", "maximum"))


class _Deadline:
    """`with _Deadline(seconds, close):` calls close() once `seconds` have passed inside the block; 0: never."""

    def __init__(self, seconds: float, close: Any) -> None:
        self.expired = threading.Event()

        def fire() -> None:
            self.expired.set()
            close()

        self._timer = threading.Timer(seconds, fire) if seconds > 0 else None

    def __enter__(self) -> _Deadline:
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._timer is not None:
            self._timer.cancel()


class _PairJoiner:
    """Joins a UTF-16 surrogate pair a server split across two chunks ("\\ud83d", then "\\ude00")."""

    def __init__(self) -> None:
        self._high = ""

    def feed(self, text: str) -> str:
        """The text that is now whole; a high surrogate at the end waits for the next chunk."""
        text, self._high = self._high + text, ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, self._high = text[:-1], text[-1]
        return _valid_text(text)

    def flush(self) -> str:
        text, self._high = self._high, ""
        return _valid_text(text)


def _valid_text(text: str) -> str:
    """Text a store and a UTF-8 stream accept: surrogate pairs joined, a lone surrogate (a pair split across
    chunks by a server) replaced by U+FFFD."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _detail(exc: openai.APIStatusError) -> str:
    """The server's own error message, short."""
    body = exc.body
    error = body.get("error", body) if isinstance(body, dict) else body
    message = error.get("message") if isinstance(error, dict) else error
    text = str(message) if message else exc.response.reason_phrase
    return text if len(text) <= 200 else text[:199] + "…"


def _caused_by(exc: BaseException, kind: type[BaseException]) -> bool:
    """Whether kind is anywhere in the chain of causes (httpx wraps the OSError twice)."""
    cause: BaseException | None = exc
    for _ in range(10):
        if cause is None:
            return False
        if isinstance(cause, kind):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


def _root(exc: BaseException) -> str:
    while exc.__cause__ is not None:
        exc = exc.__cause__
    return str(exc) or type(exc).__name__
