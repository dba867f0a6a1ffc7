"""The chat handlers on the real pipeline: streaming, panels, conversations per session, refusals, model failure."""
from __future__ import annotations

import dataclasses

import gradio as gr
import pytest

from kb.answer.llm import OpenAIChatModel
from kb.answer.pipeline import Pipeline
from tests.fake_openai import FakeChatServer, Script
from ui.chat.handlers import ChatHandlers
from ui.chat.turn_view import ATTACHMENTS_TITLE, THINKING_TITLE, TurnView

QUESTION = "园区公共应急事故池的有效容积是多少？"
KNOBS = ([], 20, 0.7, True, False, False, 2, False, 3)


def ask(handlers: ChatHandlers, question: str, conversation: str = "", owner: str = "", turns=(), knobs=KNOBS):
    """All updates of one ask, and the state they add up to."""
    updates = list(handlers.ask(question, conversation, owner, list(turns), *knobs))
    final: dict = {}
    for update in updates:
        final.update(update)
    return updates, final


@pytest.fixture(scope="module")
def handlers(service) -> ChatHandlers:
    return ChatHandlers(service)


@pytest.fixture(scope="module")
def first_turn(handlers):
    return ask(handlers, QUESTION)


def test_the_answer_streams_then_the_attachments_block_and_the_panels(first_turn):
    updates, final = first_turn
    first = updates[0]
    assert first["question"] == "" and [m["role"] for m in first["chatbot"]] == ["user", "assistant"]
    assert first["chatbot"][1]["metadata"] == {"title": THINKING_TITLE, "status": "pending", "id": "thinking-0"}
    chats = [u["chatbot"] for u in updates if "chatbot" in u]
    assert len(chats) > 5  # the trace and the answer arrive piece by piece
    partial = [_answer(c) for c in chats if _answer(c)]
    assert partial and len(partial[0]) < len(partial[-1])  # the answer grows
    user, thinking, *steps, answer, block = final["chatbot"]
    assert thinking["metadata"]["status"] == "done" and "图谱预取" in thinking["content"]
    assert [s["metadata"]["parent_id"] for s in steps] == ["thinking-0"] * len(steps)  # nested under the block
    assert [s["metadata"]["title"] for s in steps] == ["检索", "图谱预取", "模型", "回答后跳转"]
    assert all(s["metadata"]["duration"] >= 0 for s in steps) and " ms" in thinking["content"]
    assert "附件12" in steps[1]["content"] and "附件12" in steps[3]["content"]
    assert "18000" in answer["content"] and "相关附件内容" not in answer["content"]
    assert block["metadata"]["title"].startswith(ATTACHMENTS_TITLE) and "附件12" in block["metadata"]["title"]
    assert "**附件12-事故应急池及雨水切断阀一览表**" in block["content"]
    assert "园区公共应急事故池 | 18000" in block["content"]
    # the panels
    assert '<mark class="cite-fact">18000</mark>' in final["citations"]
    assert "绿洲化工园区突发环境事件应急预案" in final["citations"]
    assert final["citation_select"]["choices"] and "附件" in final["source"]
    hop_nodes = [t for t in final["paths"].data if t.name == "经引用跳转到的附件"]
    assert hop_nodes and any("附件12" in str(label) for label in hop_nodes[0].text)
    assert "图谱预取" in final["thinking"] and "回答后跳转" in final["thinking"]
    turn = final["turns"][-1]
    assert turn.done and turn.sources and final["conversation"] == turn.conversation_id
    assert final["conversations"]["value"] == turn.conversation_id


def test_a_conversation_reloads_with_the_same_chat_and_panels(handlers, first_turn):
    _, live = first_turn
    loaded = handlers.load_conversation(live["conversation"], live["owner"])
    without_duration = lambda chat: [{**m, "metadata": {k: v for k, v in m.get("metadata", {}).items() if k != "duration"}}
                                     for m in chat]  # noqa: E731 (the elapsed time is not stored)
    assert without_duration(loaded["chatbot"]) == without_duration(live["chatbot"])
    assert loaded["citations"] == live["citations"] and loaded["source"] == live["source"]
    steps = lambda html: html.split("<div class='think-meta'>")[0]  # noqa: E731
    assert steps(loaded["thinking"]) == steps(live["thinking"])


def test_a_follow_up_continues_the_conversation_and_clicking_a_message_shows_its_turn(handlers, first_turn):
    _, live = first_turn
    _, final = ask(handlers, "那么园区污水处理厂的呢？", live["conversation"], live["owner"], live["turns"])
    assert len(final["turns"]) == 2 and final["conversation"] == live["conversation"]
    assert "追问（省略）：接上一问“园区公共应急事故池的有效容积是多少？”" in next(
        m["content"] for m in final["chatbot"] if m.get("metadata", {}).get("id") == "thinking-1-retrieval")
    shown = handlers.show_turn(final["turns"], gr.SelectData(None, {"index": 2, "value": ""}))
    assert shown["shown"] == 0 and shown["citations"] == live["citations"]
    source = handlers.show_source(final["citation_select"]["choices"][0][1], final["turns"], 1)
    assert "annex-source" in source


def test_two_sessions_never_see_each_others_conversations(handlers, first_turn):
    _, live = first_turn
    other = handlers.on_load("")
    assert other["owner"] != live["owner"] and other["conversations"]["choices"] == []
    mine = handlers.on_load(live["owner"])["conversations"]["choices"]
    assert live["conversation"] in [value for _, value in mine]
    with pytest.warns(UserWarning, match="不属于"):
        assert handlers.load_conversation(live["conversation"], other["owner"]) == {}


# zero-width space, BOM, word joiner, soft hyphen, direction marks, controls, a Hangul filler: nothing a reader sees
@pytest.mark.parametrize("question", ["", "   ", "\u200b", "\ufeff\u2060\u200b", "\u00ad\u200e\u200f",
                                      "\x00\x07\x1b", "\u3164 \u200d", "\u200b\n\t\u2060"])
def test_an_empty_question_is_refused_and_nothing_is_stored(handlers, service, question):
    with pytest.warns(UserWarning, match="还没有输入问题：在下面的输入框里写一个问题，或点一个示例问题"):  # says what to do
        updates, final = ask(handlers, question, owner="nobody-yet")
    assert updates == [{"owner": "nobody-yet"}]
    assert service.history.list_conversations("nobody-yet") == []


def test_a_question_in_a_conversation_gone_from_the_history_opens_a_new_one_and_says_why(handlers, service, tmp_path):
    # deleting a document forgets the conversations that quoted it (ui's delete), while the page still shows one
    note = tmp_path / "值班安排.md"
    note.write_text("# 本周值班安排\n值班员：林晓，电话0571-87650000。\n", encoding="utf-8")
    [stored] = service.stores.ingestor.ingest([note], "gone-lib")
    _, first = ask(handlers, "本周值班员的电话是多少？", owner="gone-owner", knobs=(["gone-lib"], *KNOBS[1:]))
    assert "0571-87650000" in first["turns"][-1].answer
    assert service.stores.ingestor.delete(stored.document.id)
    assert service.history.forget_documents([stored.document.id]) == 1
    with pytest.warns(UserWarning, match="之前的对话已不在.*新的对话中回答"):
        _, final = ask(handlers, QUESTION, first["conversation"], "gone-owner", first["turns"])
    assert len(final["turns"]) == 1 and final["conversation"] not in ("", first["conversation"])
    assert final["turns"][0].done and "18000" in final["turns"][0].answer
    with pytest.warns(UserWarning, match="这个对话已不在了"):
        assert handlers.load_conversation(first["conversation"], "gone-owner") == {
            "conversations": gr.update(value=None)}


def test_deleting_a_document_the_chat_quoted_empties_the_chat_at_once_and_says_why(handlers, service, tmp_path):
    note = tmp_path / "值守安排.md"
    note.write_text("# 本周值守安排\n值守员：周岚，电话0571-87651111。\n", encoding="utf-8")
    [stored] = service.stores.ingestor.ingest([note], "deleted-lib")
    _, kept = ask(handlers, QUESTION, owner="delete-owner")
    _, quoting = ask(handlers, "本周值守员的电话是多少？", owner="delete-owner", knobs=(["deleted-lib"], *KNOBS[1:]))
    assert "0571-87651111" in quoting["turns"][-1].answer
    assert service.stores.ingestor.delete(stored.document.id)
    service.history.forget_documents([stored.document.id])  # as a private document's delete does
    shown: list[str] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gr, "Info", lambda message, title="Info", **_: shown.append(f"{title}: {message}"))
        update = handlers.after_delete(quoting["conversation"], "delete-owner")
    assert shown == ["提示: 刚删除的文档被当前对话引用过：这个对话已随文档一起删除，问答页已清空；下一个问题开始新的对话。"]
    assert update["chatbot"] == [] and update["turns"] == [] and update["conversation"] == ""
    assert update["citations"] == handlers.panels(None)["citations"]
    assert [c[1] for c in update["conversations"]["choices"]] == [kept["conversation"]]  # the other one stays listed
    # a chat whose conversation did not quote it stays as it is: only the list is brought up to date
    assert set(handlers.after_delete(kept["conversation"], "delete-owner")) == {"conversations"}


def test_a_model_failing_mid_answer_shows_a_warning_and_the_offline_answer(service):
    with FakeChatServer(Script(content=["园区公共应急事故池", "的有效容积为", "18000立方米 [3]。"], break_after=2)) as server:
        model = OpenAIChatModel(server.base_url, "k", "qwen-test", timeout=2.0, max_retries=0)
        p = service.pipeline
        with_model = dataclasses.replace(service, pipeline=Pipeline(p.settings, p.read, p.retriever, p.history, model))
        with pytest.warns(UserWarning, match="模型服务出错"):
            _, final = ask(ChatHandlers(with_model), QUESTION, owner="llm-user")
    answer = _answer(final["chatbot"])
    assert answer.startswith("园区公共应急事故池的有效容积为")  # what the model streamed before it failed
    assert "⚠️ 模型服务调用失败" in answer and "离线抽取模式" in answer and "18000" in answer
    assert "think-warning" in final["thinking"] and "已改用离线抽取" in final["thinking"]
    view: TurnView = final["turns"][-1]
    assert view.fallback and view.warnings and view.model.startswith("qwen-test @ ")


def test_a_new_conversation_empties_the_chat_and_panels(handlers):
    cleared = handlers.new_conversation()
    assert cleared["chatbot"] == [] and cleared["conversation"] == "" and cleared["turns"] == []
    assert "提问后" in cleared["citations"] and "提问后" in cleared["thinking"]


def _answer(chat: list[dict]) -> str:
    """The answer message's text (the one assistant message without a collapsible title), or ""."""
    return next((m["content"] for m in chat if m["role"] == "assistant" and not m.get("metadata")), "")
