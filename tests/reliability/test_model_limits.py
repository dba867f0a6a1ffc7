"""The served app against a model server with a small context window (faked at the HTTP level): the prompt fits,
the answer is capped, and the failures a local server gives (no chunk, an in-stream context error, a hang) are
reported with their likely cause."""
from __future__ import annotations

import re
from typing import Iterator

import pytest

from kb.answer.context import estimate_messages
from kb.settings import SettingsError, load_settings
from tests.fake_openai import FakeChatServer, Script
from tests.reliability.conftest import NORMAL_QUESTION, LiveApp, assert_healthy, serve
from tests.reliability.test_requests import sse_events

pytestmark = pytest.mark.reliability

CHAT, STREAM = "/api/knowledge/chat", "/api/knowledge/chat/stream"
CONTEXT, MAX_TOKENS, TIMEOUT = 1500, 256, 0.4
ANSWER = "东岭街道有冲锋舟3艘，存放于东岭仓库[1]。\n\n**相关附件**\n- 附件4-防汛抢险物资储备清单\n"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeChatServer]:
    with FakeChatServer() as server:
        yield server


@pytest.fixture(scope="module")
def app(fake, tmp_path_factory) -> Iterator[LiveApp]:
    yield from serve(tmp_path_factory.mktemp("store"), llm_base_url=fake.base_url, llm_model="qwen2.5",
                     llm_context_tokens=CONTEXT, llm_max_tokens=MAX_TOKENS, llm_timeout=TIMEOUT, llm_max_retries=1)


def _healthy(app: LiveApp, fake: FakeChatServer) -> None:
    fake.add(Script(content=[ANSWER]))
    assert_healthy(app)


def _ask(app: LiveApp, fake: FakeChatServer, *scripts: Script, **body: object) -> dict:
    fake.add(*scripts)
    asked = len(fake.requests)
    response = app.http.post(CHAT, json={"query": NORMAL_QUESTION, **body})
    assert response.status_code == 200, response.text
    turn = response.json()
    turn["received"] = fake.requests[asked:]
    return turn


def test_the_answer_is_capped_with_max_tokens(app, fake):
    turn = _ask(app, fake, Script(content=[ANSWER]))
    assert turn["fallback"] is False and "冲锋舟3艘" in turn["answer"]
    assert [r["max_tokens"] for r in turn["received"]] == [MAX_TOKENS]
    _healthy(app, fake)


def test_a_prompt_over_the_window_drops_the_lowest_ranked_sources_and_says_so(app, fake):
    turn = _ask(app, fake, Script(content=[ANSWER]), topK=40, threshold=0.0)
    messages = turn["received"][0]["messages"]
    sent = estimate_messages(messages)
    assert sent <= CONTEXT - MAX_TOKENS
    # The estimate is high, not low: any prompt within it holds at most that many characters of Chinese text.
    assert sum(len(m["content"]) for m in messages) < CONTEXT * 2
    note = next(line for line in turn["thinking"].splitlines() if line.startswith("上下文窗口"))
    dropped = re.search(r"舍弃 (\d+) 个来源（按相关度从低到高）：《[^》]+》", note)
    assert dropped and int(dropped.group(1)) >= 10, note
    assert f"窗口 {CONTEXT:,}" in note and "ANNEX_LLM_CONTEXT_TOKENS" in note and f"现约 {sent:,} tokens" in note
    prompt = messages[-1]["content"]
    assert "冲锋舟：3艘" in prompt  # the best-ranked source, the attachment holding the fact, stayed
    assert NORMAL_QUESTION in prompt and messages[0]["role"] == "system"
    numbers = [int(n) for n in re.findall(r"^\[(\d+)\] 《", prompt, re.M)]
    assert numbers == list(range(1, len(numbers) + 1))  # what is left is renumbered for the citations
    _healthy(app, fake)


def test_a_prompt_within_the_window_is_sent_whole(app, fake):
    turn = _ask(app, fake, Script(content=[ANSWER]), topK=1, hops=0)
    assert "上下文窗口" not in turn["thinking"]
    assert estimate_messages(turn["received"][0]["messages"]) <= CONTEXT - MAX_TOKENS
    _healthy(app, fake)


def test_a_stream_with_no_chunk_names_the_context_length_first(app, fake):
    turn = _ask(app, fake, Script(no_chunks=True))
    assert turn["fallback"] is True and "冲锋舟" in turn["answer"]  # the offline answer, with a warning
    error = turn["errors"][0]
    assert "without a single completion chunk" in error
    prompt = estimate_messages(turn["received"][0]["messages"])
    assert f"the prompt (~{prompt:,} tokens)" in error
    assert f"ANNEX_LLM_CONTEXT_TOKENS={CONTEXT}" in error and f"ANNEX_LLM_MAX_TOKENS={MAX_TOKENS}" in error
    assert error.index("context window") < error.index("not an OpenAI-compatible /v1 API")
    _healthy(app, fake)


def test_a_context_error_inside_the_stream_names_the_setting(app, fake):
    """llama.cpp's wording, sent as an error event after HTTP 200."""
    turn = _ask(app, fake, Script(error_after=0, error_message="Requested tokens (2955) exceed context window of 2048"))
    error = turn["errors"][0]
    assert "exceed context window of 2048" in error and "ANNEX_LLM_CONTEXT_TOKENS" in error
    assert "retry" not in error  # retrying the same prompt cannot help
    _healthy(app, fake)


def test_a_context_refusal_with_http_400_names_the_setting(app, fake):
    """vLLM's and OpenAI's wording, as an HTTP 400."""
    turn = _ask(app, fake, Script(status=400, error_message="This model's maximum context length is 2048 tokens. "
                                                             "However, you requested 2955 tokens."))
    assert "ANNEX_LLM_CONTEXT_TOKENS" in turn["errors"][0]
    _healthy(app, fake)


def test_a_surrogate_pair_split_across_chunks_is_joined_and_a_lone_one_replaced(app, fake):
    """Some servers split an emoji's UTF-16 pair across two chunks; unjoined, neither the history nor the stream
    could encode the answer."""
    fake.add(Script(content=["冲锋舟3艘\ud83d", "\ude00，救生衣\udc00充足。"]))
    response = app.http.post(STREAM, json={"query": NORMAL_QUESTION})
    assert response.status_code == 200
    events = sse_events(response.text)
    assert [kind for kind, _ in events][-1] == "done" and "error" not in [kind for kind, _ in events]
    answer = "".join(data["text"] for kind, data in events if kind == "content")
    assert answer.startswith("冲锋舟3艘😀，救生衣\ufffd充足。")
    stored = app.service.history.messages(events[0][1]["conversation_id"])[-1]
    assert stored.content.startswith("冲锋舟3艘😀，救生衣\ufffd充足。")
    _healthy(app, fake)


def test_an_endpoint_that_hangs_says_how_long_the_caller_really_waited(app, fake):
    turn = _ask(app, fake, Script(content=["迟到"], delay=3), Script(content=["迟到"], delay=3))
    error = turn["errors"][0]
    assert len(turn["received"]) == 2  # the client retried once (ANNEX_LLM_MAX_RETRIES=1)
    assert f"within {TIMEOUT:g} s on any of 2 attempts" in error and "ANNEX_LLM_MAX_RETRIES=1" in error
    waited = float(re.search(r"gave up after ([\d.]+) s in all", error).group(1))
    assert waited >= 2 * TIMEOUT
    _healthy(app, fake)


@pytest.mark.parametrize(("context", "max_tokens"), [("2048", "2048"), ("2048", "0"), ("1024", "4096")])
def test_an_answer_cap_that_leaves_no_room_for_the_prompt_is_refused_at_start(context, max_tokens):
    with pytest.raises(SettingsError, match="ANNEX_LLM_MAX_TOKENS.*ANNEX_LLM_CONTEXT_TOKENS"):
        load_settings(env={"ANNEX_LLM_CONTEXT_TOKENS": context, "ANNEX_LLM_MAX_TOKENS": max_tokens})
