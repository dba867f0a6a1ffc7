"""The pipeline with an OpenAI-compatible model, served over real HTTP by the fake chat-completions server."""
from __future__ import annotations

import pytest

from kb.answer.llm import OpenAIChatModel
from kb.answer.pipeline import Pipeline
from kb.turn import TurnRequest
from tests.fake_openai import FakeChatServer, Script

QUESTION = "绿洲化工园区应急指挥部的24小时值班电话是多少？"
ANSWER = ["园区应急指挥部24小时值班", "电话为029-8637-1190 [1]。\n\n", "**相关附件**\n- 附件2-应急指挥部成员及24小时值班电话\n"]
USAGE = {"prompt_tokens": 812, "completion_tokens": 46, "total_tokens": 858}


@pytest.fixture
def server():
    with FakeChatServer() as fake:
        yield fake


def _pipeline(service, server) -> Pipeline:
    model = OpenAIChatModel(server.base_url, "test-key", "qwen-test", timeout=2.0, max_retries=0)
    p = service.pipeline
    return Pipeline(p.settings, p.read, p.retriever, p.history, model)


def _run(service, server, **kwargs):
    events = list(_pipeline(service, server).run(TurnRequest(QUESTION, **kwargs)))
    data = lambda kind: [e.data for e in events if e.type == kind]  # noqa: E731
    return events, data


def test_streamed_answer_with_reasoning_content_usage_and_the_hop(service, server):
    server.add(Script(reasoning_content=["先查附件2，", "找到值班电话。"], content=ANSWER, usage=USAGE))
    events, data = _run(service, server, think=True)
    types = [e.type for e in events]
    assert types.index("thinking") < types.index("content") and "error" not in types
    model_thinking = "".join(d["text"] for d in data("thinking") if d["source"] == "model")
    assert model_thinking == "先查附件2，找到值班电话。"
    content = "".join(d["text"] for d in data("content"))
    assert content.startswith("园区应急指挥部24小时值班电话为029-8637-1190 [1]。")
    assert "**相关附件内容：**\n\n**附件2-应急指挥部成员及24小时值班电话**" in content
    assert "总指挥 | 韩立峰" in content
    assert data("token_usage") == [USAGE]
    assert data("done")[0]["model"] == "qwen-test @ " + server.base_url and not data("done")[0]["fallback"]
    # what the model was sent: the system prompt, numbered references holding the attachment, the question
    sent = server.requests[0]
    assert sent["model"] == "qwen-test" and sent["stream"] is True
    assert "**相关附件**" in sent["messages"][0]["content"]
    user = sent["messages"][-1]["content"]
    assert user.endswith(f"问题：{QUESTION}")
    assert "附件2 应急指挥部成员及24小时值班电话" in user and "029-8637-1190" in user


@pytest.mark.parametrize(
    "script",
    [
        Script(reasoning=["先查附件2。"], content=ANSWER),
        Script(content=["<thi", "nk>先查附件2。</th", "ink>\n\n", *ANSWER]),
    ],
    ids=["reasoning", "think-tags"],
)
def test_thinking_in_the_other_two_forms(service, server, script):
    server.add(script)
    _, data = _run(service, server)
    assert "".join(d["text"] for d in data("thinking") if d["source"] == "model") == "先查附件2。"
    content = "".join(d["text"] for d in data("content"))
    assert "<think>" not in content and content.startswith("园区应急指挥部24小时值班电话")
    assert [i.label for i in data("attachments")[0]["items"] if i.resolved] == ["附件2"]
    assert data("token_usage") == [None]


@pytest.mark.parametrize(
    ("script", "partial"),
    [
        (Script(status=500), False),
        (Script(status=401), False),
        (Script(delay=5.0, content=ANSWER), False),
        (Script(content=ANSWER, malformed_after=2), True),
        (Script(content=ANSWER, break_after=2), True),
    ],
    ids=["5xx", "401", "timeout", "malformed", "dropped"],
)
def test_a_failing_endpoint_gives_an_error_event_and_the_offline_answer(service, server, script, partial):
    server.add(script)
    events, data = _run(service, server)
    types = [e.type for e in events]
    [error] = data("error")
    assert error["fallback"] is True and server.base_url.split("/v1")[0] in error["message"]
    assert types.index("error") < types.index("done")
    content = "".join(d["text"] for d in data("content"))
    assert "⚠️ 模型服务调用失败" in content and "离线抽取模式" in content
    assert "029-8637-1190" in content
    assert content.startswith("园区应急指挥部24小时值班") == partial
    assert data("done")[0]["fallback"] is True
    stored = service.history.messages(data("conversation_id")[0]["conversation_id"])
    assert stored[-1].role == "assistant" and "离线抽取模式" in stored[-1].content


def test_a_section_naming_missing_attachments_says_so(service, server):
    server.add(Script(content=["值班电话见附件。\n\n**相关附件**\n- 附件99-不存在的附件\n- 附件2-应急指挥部成员\n"]))
    _, data = _run(service, server)
    items = data("attachments")[0]["items"]
    assert [(i.label, i.resolved) for i in items] == [("附件99", False), ("附件2", True)]
    content = "".join(d["text"] for d in data("content"))
    assert "附件99内容未检索到确证" in content and "**附件2-应急指挥部成员及24小时值班电话**" in content
