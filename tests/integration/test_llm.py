"""OpenAIChatModel against a real local HTTP server speaking the chat-completions protocol."""
from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest

from kb.errors import LLMError
from kb.answer.deltas import ModelDelta, TokenUsage
from kb.answer.llm import OpenAIChatModel
from kb.settings import Settings
from tests.fake_openai import FakeChatServer, Script

MESSAGES = [{"role": "system", "content": "只依据资料回答。"}, {"role": "user", "content": "附件3是什么？"}]


@pytest.fixture
def server():
    with FakeChatServer() as fake:
        yield fake


def _model(base_url: str, timeout: float = 2.0) -> OpenAIChatModel:
    return OpenAIChatModel(base_url=base_url, api_key="sk-test", model="qwen2.5", timeout=timeout, max_retries=0)


def _collect(model: OpenAIChatModel, think: bool = False) -> list[ModelDelta]:
    return list(model.stream(MESSAGES, think=think))


def _text(deltas: list[ModelDelta], kind: str) -> str:
    return "".join(d.text for d in deltas if d.kind == kind)


def _fail(model: OpenAIChatModel) -> tuple[LLMError, list[ModelDelta]]:
    """Stream until the error; returns it with the deltas a user saw before it."""
    seen: list[ModelDelta] = []
    with pytest.raises(LLMError) as caught:
        for delta in model.stream(MESSAGES):
            seen.append(delta)
    return caught.value, seen


def test_content_streams_in_order(server):
    server.add(Script(content=["附件3", "是", "应急通讯录", "。"]))
    deltas = _collect(_model(server.base_url))
    assert deltas == [ModelDelta("content", t) for t in ["附件3", "是", "应急通讯录", "。"]]


def test_request_carries_messages_model_and_key(server):
    server.add(Script(content=["好"]), Script(content=["好"]))
    model = _model(server.base_url)
    _collect(model)
    _collect(model, think=True)
    first, second = server.requests
    assert first["messages"] == MESSAGES and first["model"] == "qwen2.5"
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}
    assert first["chat_template_kwargs"] == {"enable_thinking": False}
    assert second["chat_template_kwargs"] == {"enable_thinking": True}
    assert server.headers[0]["authorization"] == "Bearer sk-test"
    assert model.name == f"qwen2.5 @ {server.base_url}" and model.offline is False


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_thinking_from_reasoning_fields(server, field):
    server.add(Script(content=["在附件3。"], **{field: ["先找", "附件"]}))
    deltas = _collect(_model(server.base_url))
    assert [(d.kind, d.text) for d in deltas] == [("thinking", "先找"), ("thinking", "附件"), ("content", "在附件3。")]


def test_thinking_from_think_tags_split_across_chunks(server):
    server.add(Script(content=["<th", "ink>先找附", "件</thi", "nk>\n\n在附件3。"]))
    deltas = _collect(_model(server.base_url))
    assert _text(deltas, "thinking") == "先找附件"
    assert _text(deltas, "content") == "在附件3。"
    assert deltas[-1].kind == "content"


def test_unclosed_think_tag_is_all_thinking(server):
    server.add(Script(content=["<think>想了", "很久"], finish_reason="length"))
    deltas = _collect(_model(server.base_url))
    assert _text(deltas, "thinking") == "想了很久" and _text(deltas, "content") == ""


def test_token_usage_is_reported_last(server):
    server.add(Script(content=["好"], usage={"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15}))
    deltas = _collect(_model(server.base_url))
    assert deltas[-1] == ModelDelta("usage", usage=TokenUsage(12, 3, 15))
    assert [d.kind for d in deltas].count("usage") == 1


def test_no_usage_delta_when_server_reports_none(server):
    server.add(Script(content=["好"]))
    assert [d.kind for d in _collect(_model(server.base_url))] == ["content"]


def test_refused_connection():
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error, seen = _fail(_model(f"http://127.0.0.1:{port}/v1"))
    assert "refused the connection" in str(error) and "ANNEX_LLM_BASE_URL" in str(error)
    assert f"127.0.0.1:{port}" in str(error)
    assert error.partial is False and seen == []


def test_timeout_before_answering(server):
    server.add(Script(content=["迟到"], delay=2.0))
    started = time.monotonic()
    error, _ = _fail(_model(server.base_url, timeout=0.3))
    assert time.monotonic() - started < 1.5
    assert "did not answer within 0.3 s" in str(error) and "ANNEX_LLM_TIMEOUT" in str(error)
    assert error.partial is False


def test_a_stream_of_keep_alive_comments_ends_at_the_answer_time_limit(server):
    """A proxy that pings every 0.2 s and never sends a chunk: the read timeout never fires; the whole-answer one does."""
    server.add(Script(endless="pings"))
    model = OpenAIChatModel(server.base_url, "sk-test", "qwen2.5", timeout=2.0, max_retries=0, answer_seconds=1.0)
    started = time.monotonic()
    error, seen = _fail(model)
    assert time.monotonic() - started < 3
    assert "1 s" in str(error) and "ANNEX_LLM_ANSWER_SECONDS" in str(error) and seen == []


def test_a_server_that_ignores_max_tokens_is_cut_off_with_what_it_sent(server):
    """Content chunks for ever: the answer stops once it is far past max_tokens, keeping what came."""
    server.add(Script(endless="content"))
    model = OpenAIChatModel(server.base_url, "sk-test", "qwen2.5", timeout=2.0, max_retries=0, max_tokens=100)
    error, seen = _fail(model)
    assert "ANNEX_LLM_MAX_TOKENS" in str(error) and error.partial is True
    assert 0 < len(_text(seen, "content")) <= 100 * 8


@pytest.mark.parametrize(
    ("status", "says"),
    [
        (401, ["rejected the API key", "HTTP 401", "ANNEX_LLM_API_KEY"]),
        (404, ["'qwen2.5'", "HTTP 404", "ANNEX_LLM_MODEL"]),
        (429, ["rate-limiting", "HTTP 429"]),
        (500, ["HTTP 500", "scripted failure", "logs"]),
        (400, ["HTTP 400", "scripted failure"]),
    ],
)
def test_http_errors_say_what_to_fix(server, status, says):
    server.add(Script(content=["不会发出"], status=status))
    error, seen = _fail(_model(server.base_url))
    assert all(s in str(error) for s in says), str(error)
    assert server.base_url in str(error)
    assert error.partial is False and seen == []


def test_wrong_base_url_path_is_a_404_that_names_the_url(server):
    error, _ = _fail(_model(server.base_url.removesuffix("/v1") + "/api"))
    assert "HTTP 404" in str(error) and "ends in /v1" in str(error)


@pytest.mark.parametrize(("after", "partial"), [(0, False), (2, True)])
def test_malformed_chunk_midway(server, after, partial):
    server.add(Script(content=["一", "二", "三"], malformed_after=after))
    error, seen = _fail(_model(server.base_url))
    assert "malformed stream chunk" in str(error)
    assert error.partial is partial
    assert _text(seen, "content") == "一二"[:after]


@pytest.mark.parametrize(("after", "partial"), [(0, False), (2, True)])
def test_connection_dropped_midway(server, after, partial):
    server.add(Script(content=["一", "二", "三"], break_after=after))
    error, seen = _fail(_model(server.base_url))
    assert "dropped mid-answer" in str(error)
    assert error.partial is partial
    assert _text(seen, "content") == "一二"[:after]


def test_error_event_midway(server):
    server.add(Script(content=["一", "二"], error_after=1, error_message="engine overloaded"))
    error, seen = _fail(_model(server.base_url))
    assert "reported an error mid-answer: engine overloaded" in str(error)
    assert error.partial is True and _text(seen, "content") == "一"


def test_thinking_switch_is_dropped_when_the_server_rejects_it(server):
    rejected = "Unrecognized request argument supplied: chat_template_kwargs"
    server.add(Script(status=400, error_message=rejected), Script(content=["好"]), Script(content=["好"]))
    model = _model(server.base_url)
    assert _text(_collect(model), "content") == "好"
    assert _text(_collect(model, think=True), "content") == "好"
    assert ["chat_template_kwargs" in r for r in server.requests] == [True, False, False]


def test_thinking_alone_before_a_failure_is_not_partial(server):
    server.add(Script(reasoning_content=["想"], content=["答"], break_after=1))
    error, seen = _fail(_model(server.base_url))
    assert seen == [ModelDelta("thinking", "想")] and error.partial is False


def test_from_settings_reads_llm_fields(server):
    server.add(Script(content=["好"]))
    settings = Settings(llm_base_url=server.base_url, llm_api_key="", llm_model="qwen2.5", llm_timeout=2.0)
    model = OpenAIChatModel.from_settings(settings)
    assert (model.timeout, model.temperature) == (2.0, 0.2)
    assert _text(_collect(model), "content") == "好"
    assert server.headers[0]["authorization"] == "Bearer not-needed"


def test_from_settings_without_an_endpoint_says_which_variable_to_set():
    with pytest.raises(LLMError, match="ANNEX_LLM_BASE_URL"):
        OpenAIChatModel.from_settings(Settings())
    with pytest.raises(LLMError, match="ANNEX_LLM_MODEL"):
        OpenAIChatModel.from_settings(Settings(llm_base_url="http://127.0.0.1:9/v1"))


def test_fake_server_answers_without_streaming_with_tool_calls(server):
    """The non-streamed shape later agent tests rely on."""
    server.add(Script(content=[], tool_calls=[{"name": "search", "arguments": ['{"q": ', '"附件3"}']}],
                      usage={"prompt_tokens": 5, "completion_tokens": 2, "total_tokens": 7}))
    request = urllib.request.Request(
        server.base_url + "/chat/completions", data=json.dumps({"model": "m", "messages": MESSAGES}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=2) as response:
        body = json.load(response)
    choice = body["choices"][0]
    assert body["object"] == "chat.completion" and choice["finish_reason"] == "tool_calls"
    assert choice["message"]["tool_calls"] == [
        {"id": "call_0", "type": "function", "function": {"name": "search", "arguments": '{"q": "附件3"}'}}
    ]
    assert server.requests[0]["messages"] == MESSAGES
