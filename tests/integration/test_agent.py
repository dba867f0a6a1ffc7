"""Agent mode against the fake chat-completions server: the model calls the tools, the tools run on the real stores."""
from __future__ import annotations

import json
import time
from dataclasses import replace

import httpx
import pytest
from fastapi import FastAPI

from kb.errors import AgentModeError
from kb.agent.pipeline import MAX_ROUNDS, AgentPipeline
from kb.answer.llm import OpenAIChatModel
from kb.answer.pipeline import Pipeline
from kb.turn import TurnRequest
from tests.demo_service import wait_until_gone
from tests.fake_openai import FakeChatServer, Script
from tests.live_server import LiveServer
from ui.api import api_router

QUESTION = "东岭街道有几艘冲锋舟？"
DOC = "东岭街道防汛应急预案.md"
CITE = f"[{DOC}#附件4 防汛抢险物资储备清单]"
ANSWER = [f"东岭街道有冲锋舟3艘，存放于东岭仓库{CITE}。\n\n", "**相关附件**\n- 附件4-防汛抢险物资储备清单\n"]


def _call(name: str, **arguments) -> dict:
    return {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False), "id": f"call_{name}"}


@pytest.fixture
def fake():
    with FakeChatServer() as server:
        yield server


def _agent(service, fake) -> AgentPipeline:
    p = service.pipeline
    model = OpenAIChatModel(fake.base_url, "test-key", "qwen-test", timeout=5.0, max_retries=0)
    return AgentPipeline(p.settings, p.read, p.retriever, p.history, model)


def _run(service, fake, **kwargs):
    events = list(_agent(service, fake).run(TurnRequest(QUESTION, **kwargs)))
    return events, lambda kind: [e.to_dict()["data"] for e in events if e.type == kind]


def test_the_model_searches_hops_to_the_attachment_and_answers_with_file_heading_citations(service, fake):
    fake.add(
        Script(tool_calls=[_call("search_chunks", query="东岭街道 冲锋舟", top_k=3)],
               usage={"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320}),
        Script(tool_calls=[_call("resolve_attachments", text="附件4-防汛抢险物资储备清单", doc=DOC)],
               usage={"prompt_tokens": 900, "completion_tokens": 30, "total_tokens": 930}),
        Script(content=ANSWER, reasoning_content=["附件4 里有冲锋舟的数量。"],
               usage={"prompt_tokens": 1500, "completion_tokens": 60, "total_tokens": 1560}),
    )
    events, data = _run(service, fake)
    types = [e.type for e in events]
    assert types[:3] == ["conversation_id", "user_message_id", "assistant_message_id"] and types[-1] == "done"
    # the tool calls appear as thinking, in order, with their arguments and what they found
    calls = [d for d in data("thinking") if d["source"] == "agent"]
    assert [(c["tool"], c["arguments"]) for c in calls] == [
        ("search_chunks", {"query": "东岭街道 冲锋舟", "top_k": 3}),
        ("resolve_attachments", {"text": "附件4-防汛抢险物资储备清单", "doc": DOC})]
    assert calls[0]["text"].startswith("🔧 search_chunks(") and CITE in calls[0]["summary"]
    assert calls[1]["summary"] == f"解析 1/1 行：{CITE}"
    # the tools really ran on the stores: their results went back to the model
    sent = fake.requests[2]["messages"]
    results = [json.loads(m["content"]) for m in sent if m["role"] == "tool"]
    assert "冲锋舟：3艘，存放于东岭仓库" in results[0][0]["text"]
    doc_id = results[0][0]["doc_id"]
    stored = service.stores.graph.document_text(doc_id)
    assert results[1]["items"][0]["content"] in stored
    assert [t["function"]["name"] for t in fake.requests[0]["tools"]] == [
        "search_chunks", "search_by_tags", "get_document", "resolve_attachments", "graph_neighbors"]
    assert "[文件名#标题]" in fake.requests[0]["messages"][0]["content"]
    # the answer keeps its citations; the hop appends the attachment, cited the same way
    content = "".join(d["text"] for d in data("content"))
    assert content.startswith(ANSWER[0])
    assert f"**附件4-防汛抢险物资储备清单**（《东岭街道防汛应急预案》）{CITE}\n附件4：防汛抢险物资储备清单" in content
    [doc] = data("referenced_docs")[0]["docs"]
    assert doc["doc_id"] == doc_id and any("冲锋舟：3艘" in stored[s:e] for s, e in doc["highlights"])
    assert [i["label"] for i in data("attachments")[0]["items"] if i["resolved"]] == ["附件4"]
    assert data("token_usage") == [{"prompt_tokens": 2700, "completion_tokens": 110, "total_tokens": 2810}]
    assert data("done")[0]["model"].endswith("· agent") and not data("done")[0]["fallback"]
    [_, message] = service.history.messages(data("conversation_id")[0]["conversation_id"])
    trace, _, reasoning = message.thinking.partition("\n\n")  # stored the way the pipeline stores it
    assert message.content == content and reasoning == "附件4 里有冲锋舟的数量。"
    assert trace.splitlines()[0] == "智能体模式：由模型调用工具检索后作答" and "🔧 resolve_attachments(" in trace
    assert [d["text"] for d in data("thinking") if d["source"] == "model"] == ["附件4 里有冲锋舟的数量。\n"]


def test_bad_tool_calls_come_back_to_the_model_as_errors_and_the_turn_still_answers(service, fake):
    fake.add(
        Script(tool_calls=[_call("get_document", doc="不存在.docx"), _call("delete_everything"),
                           {"name": "graph_neighbors", "arguments": "{not json", "id": "c3"},
                           _call("search_by_tags", keyword="x", extra=1)]),
        Script(content=["知识库中没有找到与该问题相关的内容。\n\n**相关附件**\n- 无\n"]),
    )
    _, data = _run(service, fake)
    summaries = [d["summary"] for d in data("thinking") if d["source"] == "agent"]
    assert summaries[0].startswith("错误：No document '不存在.docx'") and "search_by_tags" in summaries[0]
    assert summaries[1].startswith("错误：No tool 'delete_everything'")
    assert summaries[2] == "参数不是 JSON 对象"
    assert "extra" in summaries[3]
    errors = [json.loads(m["content"]) for m in fake.requests[1]["messages"] if m["role"] == "tool"]
    assert all("error" in e for e in errors) and len(errors) == 4
    assert data("done")[0]["fallback"] is False and data("attachments") == [{"items": []}]


def test_after_the_last_round_the_model_must_answer_without_tools(service, fake):
    fake.add(*[Script(tool_calls=[_call("search_by_tags", keyword="")]) for _ in range(MAX_ROUNDS)],
             Script(content=["东岭街道有冲锋舟3艘。\n"]))
    _, data = _run(service, fake)
    assert len(fake.requests) == MAX_ROUNDS + 1
    assert "tools" not in fake.requests[-1] and "tools" in fake.requests[-2]
    assert fake.requests[-1]["messages"][-1]["role"] == "user"
    assert "".join(d["text"] for d in data("content")) == "东岭街道有冲锋舟3艘。\n"


def test_when_the_model_fails_the_offline_answerer_answers_and_says_so(service, fake):
    fake.add(Script(status=500, error_message="model crashed"))
    events, data = _run(service, fake)
    assert "model crashed" in data("error")[0]["message"] and data("error")[0]["fallback"]
    content = "".join(d["text"] for d in data("content"))
    assert "模型服务调用失败" in content and "冲锋舟：3艘" in content
    assert data("done")[0]["fallback"] is True and data("referenced_docs")[0]["docs"]


def test_agent_mode_without_a_model_is_refused_with_the_fix(service):
    p = service.pipeline
    with pytest.raises(AgentModeError, match="ANNEX_LLM_BASE_URL"):
        AgentPipeline(p.settings, p.read, p.retriever, p.history, p.model)


def test_the_http_stream_carries_the_tool_calls_when_agent_mode_is_on(service, fake):
    p = service.pipeline
    model = OpenAIChatModel(fake.base_url, "test-key", "qwen-test", timeout=5.0, max_retries=0)
    assert not service.settings.agent_mode and type(service.pipeline) is Pipeline  # agent mode is off by default
    settings = replace(service.settings, agent_mode=True)  # built the way kb/service.py builds it when on
    agent_service = replace(service, settings=settings,
                            pipeline=AgentPipeline(settings, p.read, p.retriever, p.history, model))
    assert isinstance(agent_service.pipeline, AgentPipeline)
    fake.add(Script(tool_calls=[_call("search_chunks", query="冲锋舟")]), Script(content=ANSWER))
    app = FastAPI()
    app.include_router(api_router(agent_service), prefix="/api")
    with LiveServer(app) as server:
        body = httpx.post(f"{server.url}/api/knowledge/chat/stream", json={"query": QUESTION}, timeout=30).text
    events = [block.split("\n", 1) for block in body.strip().split("\n\n")]
    tool_events = [json.loads(d[len("data: "):]) for e, d in events if e == "event: thinking" and '"agent"' in d]
    assert [t["tool"] for t in tool_events] == ["search_chunks"]
    assert events[-1][0] == "event: done"


SECRET = "暗号：青龙七号"
SECRET_DOC = "保密物资预案.md"
SECRET_TEXT = f"# 保密物资预案\n\n保密物资的存放地点详见附件1。\n\n附件1 保密物资清单\n\n{SECRET}，存放于七号库。\n"


def test_an_agent_turn_cannot_read_another_sessions_private_document_through_any_tool(service, fake, tmp_path):
    path = tmp_path / SECRET_DOC
    path.write_text(SECRET_TEXT, encoding="utf-8")
    alice = service.sessions.library_for_upload("alice")
    [result] = service.stores.ingestor.ingest([path], alice, tags=["保密"])
    doc_id = result.doc_id
    try:
        assert result.status == "ingested" and service.read.current().catalog.get(doc_id, "附件1") is not None
        calls = [_call("search_chunks", query="暗号 青龙七号 保密物资"), _call("search_by_tags", keyword=""),
                 _call("search_by_tags", keyword="保密"), _call("get_document", doc=doc_id),
                 _call("get_document", doc=SECRET_DOC), _call("get_document", doc="保密物资预案"),
                 _call("resolve_attachments", text="附件1-保密物资清单"),
                 _call("resolve_attachments", text="附件1-保密物资清单", doc=doc_id),
                 _call("graph_neighbors", node_id=doc_id, hops=2),
                 _call("graph_neighbors", node_id=f"{doc_id}:附件1"),
                 _call("search_chunks", query="暗号", library=alice)]
        calls = [{**c, "id": f"call_{i}"} for i, c in enumerate(calls)]

        def tool_results(session: str) -> list[str]:
            fake.requests.clear()
            fake.add(Script(tool_calls=calls), Script(content=["不知道。\n"]))
            request = service.sessions.scope(TurnRequest("暗号是什么？"), session)
            list(_agent(service, fake).run(request))
            return [m["content"] for m in fake.requests[1]["messages"] if m["role"] == "tool"]

        bob = tool_results("bob")
        assert len(bob) == len(calls)
        leaked = [(c["name"], r) for c, r in zip(calls, bob) if "青龙" in r or "七号库" in r or '"保密"' in r]
        assert leaked == []
        assert all(doc_id not in r for c, r in zip(calls, bob) if c["name"] in ("search_chunks", "search_by_tags"))
        # The same calls from the owner's session do reach it: the tools work, the scope is what hid it from bob.
        own = tool_results("alice")
        assert SECRET in own[0] and doc_id in own[1] and SECRET in own[3] and SECRET in own[6]
        assert f"{doc_id}:附件1" in own[8]
    finally:
        service.sessions.end("alice")
    wait_until_gone(service, doc_id)
    assert doc_id not in service.read.current().documents


def _bounded_agent(service, fake, seconds: float = 600.0, max_tokens: int = 1024) -> AgentPipeline:
    p = service.pipeline
    settings = replace(p.settings, llm_answer_seconds=seconds, llm_max_tokens=max_tokens)
    model = OpenAIChatModel(fake.base_url, "k", "qwen-test", timeout=5.0, max_retries=0, max_tokens=max_tokens,
                            answer_seconds=seconds)
    return AgentPipeline(settings, p.read, p.retriever, p.history, model)


def test_the_whole_agent_answer_is_bounded_by_the_answer_seconds_whatever_each_call_takes(service, fake):
    # every round a fresh tool call after 0.4 s: each call is well within ANNEX_LLM_TIMEOUT, six of them are not
    fake.add(*[Script(tool_calls=[_call("search_by_tags", tags=["防汛"])], delay=0.4) for _ in range(MAX_ROUNDS + 1)])
    began = time.monotonic()
    events = list(_bounded_agent(service, fake, seconds=1.0).run(TurnRequest(QUESTION)))
    took = time.monotonic() - began
    error = [e.to_dict()["data"] for e in events if e.type == "error"]
    assert took < 1.0 + 0.4 + 1.5 and len(fake.requests) <= 3  # stopped at the limit, not after six calls
    assert error and error[0]["fallback"] and "ANNEX_LLM_ANSWER_SECONDS" in error[0]["message"]
    assert "超过 1 秒" in error[0]["message"]  # said in the users' language, naming the setting
    content = "".join(e.to_dict()["data"]["text"] for e in events if e.type == "content")
    assert "ANNEX_LLM_ANSWER_SECONDS" in content and "离线抽取" in content  # the offline answer follows, said so


def test_a_single_agent_call_that_hangs_past_the_answer_seconds_is_stopped_at_the_limit(service, fake):
    fake.add(Script(content=["太迟了"], delay=4.0))
    began = time.monotonic()
    events = list(_bounded_agent(service, fake, seconds=0.8).run(TurnRequest(QUESTION)))
    assert time.monotonic() - began < 3.0  # the call's timeout is what was left of the 0.8 s, not ANNEX_LLM_TIMEOUT's 5 s
    error = [e.to_dict()["data"] for e in events if e.type == "error"]
    assert error and "ANNEX_LLM_ANSWER_SECONDS" in error[0]["message"]


def test_an_agent_model_that_ignores_max_tokens_is_stopped_naming_the_setting(service, fake):
    fake.add(Script(tool_calls=[_call("search_by_tags", tags=["防汛"])], reasoning_content=["想" * 300]),
             Script(content=["冲锋舟" * 200]))
    events = list(_bounded_agent(service, fake, max_tokens=64).run(TurnRequest(QUESTION)))  # 64 tokens ≈ 512 characters
    error = [e.to_dict()["data"] for e in events if e.type == "error"]
    assert error and "ANNEX_LLM_MAX_TOKENS=64" in error[0]["message"] and "远超回答上限" in error[0]["message"]
    content = "".join(e.to_dict()["data"]["text"] for e in events if e.type == "content")
    assert "冲锋舟冲锋舟冲锋舟" not in content  # the overlong reply never reached the user


def test_an_agent_turns_tool_calls_are_reading_so_a_write_steps_aside_for_them(service, fake, monkeypatch):
    readers = service.pipeline.read.readers  # the ingestor's: its vector steps wait for the turns in flight
    monkeypatch.setattr(readers, "_last_turn", float("-inf"))  # as if this process had never answered a turn
    assert not readers.serving
    fake.add(Script(tool_calls=[_call("search_chunks", query="东岭街道 冲锋舟", top_k=3)]), Script(content=ANSWER))
    _run(service, fake)
    assert readers.serving  # the tool call marked itself reading: uploads now write in small steps, after it
