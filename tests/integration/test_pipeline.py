"""The answer pipeline on the bundled corpus with real Kuzu and Chroma: prefetch, post-hop, history, events."""
from __future__ import annotations

import pytest

from kb.errors import InvalidRequest, UnknownConversation, UnknownLibrary
from kb.answer.events import EVENT_TYPES
from kb.answer.prompts import EMPTY_KB, NO_ANSWER
from kb.settings import load_settings
from kb.service import open_service
from kb.turn import TurnRequest

PARK = "绿洲化工园区突发环境事件应急预案"


def turn(service, query: str, **kwargs) -> dict:
    """Run one turn and collect what a user sees."""
    events = list(service.pipeline.run(TurnRequest(query, **kwargs)))
    by_type: dict[str, list] = {}
    for e in events:
        by_type.setdefault(e.type, []).append(e.data)
    return {
        "events": events,
        "types": [e.type for e in events],
        "content": "".join(d["text"] for d in by_type.get("content", [])),
        "thinking": "".join(d["text"] for d in by_type.get("thinking", [])),
        "attachments": by_type["attachments"][0]["items"],
        "docs": by_type["referenced_docs"][0]["docs"],
        "paths": by_type["graph_paths"][0]["paths"],
        "conversation_id": by_type["conversation_id"][0]["conversation_id"],
        "done": by_type["done"][0],
    }


def _labels(paths, stage=None) -> set[tuple[str, ...]]:
    return {tuple(s.label.split()[0] for s in p.steps if s.kind == "attachment") for p in paths if stage in (None, p.stage)}


def test_event_order(service):
    t = turn(service, "绿洲化工园区应急指挥部的24小时值班电话是多少？")
    types = t["types"]
    assert types[:3] == ["conversation_id", "user_message_id", "assistant_message_id"]
    assert types[-5:] == ["attachments", "referenced_docs", "graph_paths", "token_usage", "done"]
    middle = types[3:-5]
    assert set(middle) <= {"thinking", "content"} and middle[0] == "thinking"
    assert middle.index("content") > max(i for i, x in enumerate(middle) if x == "thinking")
    assert set(types) <= set(EVENT_TYPES) and "error" not in types


def test_a_fact_that_lives_only_in_an_attachment_surfaces_through_prefetch_and_post_hop(service):
    t = turn(service, "绿洲化工园区应急指挥部的24小时值班电话是多少？")
    assert "029-8637-1190" in t["content"].split("**相关附件**")[0]  # the answer itself quotes 附件2
    [item] = [i for i in t["attachments"] if i.label == "附件2"]
    assert item.resolved and item.title == "应急指挥部成员及24小时值班电话" and item.match == "exact_label"
    block = t["content"].split("**相关附件内容：**")[1]
    assert "**附件2-应急指挥部成员及24小时值班电话**（《绿洲化工园区突发环境事件应急预案》）" in block
    assert "总指挥 | 韩立峰 | 园区管委会主任 | 029-8637-1001 | 029-8637-1101" in block
    assert block.count("**附件2-") == 1
    park = next(d for d in t["docs"] if d.title == PARK)
    text = service.stores.graph.document_text(park.doc_id)
    assert any("029-8637-1190" in text[s:e] for s, e in park.highlights)


def test_the_body_mention_is_hopped_to_its_attachment_before_the_answer(service):
    t = turn(service, "事故废水三级防控设施的设置和启用要求是什么？")
    # body "…详见附件8" → 附件8 "…见附件12": both hops recorded, 附件12 reached at hop 2
    assert ("附件8", "附件12") in _labels(t["paths"], "prefetch")
    prefetch_lines = [line for line in t["thinking"].splitlines() if line.startswith("图谱预取")]
    assert any("附件12 事故应急池及雨水切断阀一览表" in line for line in prefetch_lines)
    path = next(p for p in t["paths"] if _labels([p]) == {("附件8", "附件12")})
    assert [s.kind for s in path.steps] == ["chunk", "attachment", "attachment"]
    assert path.steps[0].label.startswith("正文")
    assert path.steps[1].mention.endswith("附件8") and path.steps[2].mention.endswith("附件12")
    one_hop = turn(service, "事故废水三级防控设施的设置和启用要求是什么？", hops=1)
    assert ("附件8", "附件12") not in _labels(one_hop["paths"], "prefetch")


def test_template_twins_never_borrow_each_others_attachments(service):
    east = turn(service, "东岭街道有几艘冲锋舟？存放在哪里？")
    assert "3艘" in east["content"] and "东岭仓库" in east["content"]
    assert "西岭" not in east["content"]
    west = turn(service, "西岭街道有几艘冲锋舟？存放在哪里？")
    assert "5艘" in west["content"] and "西岭防汛站" in west["content"]
    assert "东岭仓库" not in west["content"]
    for t, name in ((east, "东岭"), (west, "西岭")):
        for path in t["paths"]:
            docs = {s.doc_id for s in path.steps if s.doc_id}
            assert len(docs) == 1


def test_a_follow_up_retrieves_through_the_history(service):
    first = turn(service, "绿洲化工园区应急指挥部总指挥是谁？")
    assert "韩立峰" in first["content"]
    follow = turn(service, "他的电话是多少？", conversation_id=first["conversation_id"])
    assert "读作“绿洲化工园区应急指挥部总指挥的电话是多少？”" in follow["thinking"]
    assert "029-8637-1001" in follow["content"]
    messages = service.history.messages(first["conversation_id"])
    assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
    assert messages[3].links and all(link.doc_id for link in messages[3].links)


def test_a_question_the_corpus_cannot_answer_says_so(service):
    t = turn(service, "火星上有多少只猫？")
    assert NO_ANSWER in t["content"] and "离线抽取模式" in t["content"]
    assert t["attachments"] == [] and "**相关附件内容" not in t["content"]
    assert "以下句子摘自" not in t["content"] and t["docs"] == []  # it declines: it quotes and references nothing


@pytest.mark.parametrize(
    ("kwargs", "error", "field"),
    [
        ({"query": "   "}, InvalidRequest, "query"),
        ({"query": "\u200b\ufeff\u2060"}, InvalidRequest, "query"),  # zero-width characters only: no words
        ({"query": "\x00\x1b\u200e"}, InvalidRequest, "query"),  # control characters and a direction mark
        ({"query": "问" * 100_000}, InvalidRequest, "query"),
        ({"query": "值班电话", "top_k": 0}, InvalidRequest, "topK"),
        ({"query": "值班电话", "threshold": 1.5}, InvalidRequest, "threshold"),
        ({"query": "值班电话", "document_id": "nope"}, InvalidRequest, "documentId"),
    ],
)
def test_bad_requests_are_refused_and_nothing_is_stored(service, kwargs, error, field):
    before = service.history.list_conversations(limit=1000)
    with pytest.raises(error) as info:
        service.pipeline.run(TurnRequest(**kwargs))
    assert info.value.field == field
    assert service.history.list_conversations(limit=1000) == before


def test_a_long_question_is_refused_with_its_length_and_the_limit(service):
    with pytest.raises(InvalidRequest, match="100000 characters, over the limit of 500"):
        service.pipeline.run(TurnRequest("问" * 100_000))


def test_unknown_library_and_conversation(service):
    with pytest.raises(UnknownLibrary, match="Unknown library 'nope'; the libraries are: demo"):
        service.pipeline.run(TurnRequest("值班电话", library_ids=("nope",)))
    with pytest.raises(UnknownConversation, match="Unknown conversation id 'missing'"):
        service.pipeline.run(TurnRequest("值班电话", conversation_id="missing"))


def test_nothing_ingested_yet_the_answer_says_so(tmp_path):
    svc = open_service(load_settings(env={}, store_dir=tmp_path / "empty"))
    try:
        events = list(svc.pipeline.run(TurnRequest("值班电话是多少？")))
        content = "".join(e.data["text"] for e in events if e.type == "content")
        assert content == EMPTY_KB
        assert events[-1].type == "done"
    finally:
        svc.close()


def test_an_upload_during_a_turn_steps_aside_until_the_turn_has_answered(service, tmp_path, monkeypatch):
    # kb/readers_first.py: Chroma's add holds the interpreter, so a write's vector step waits for the turns in flight
    import threading

    import kb.readers_first as readers_first
    from kb.ingest.assemble import document_id

    monkeypatch.setattr(readers_first, "MAX_STEP_WAIT_S", 60.0)
    upload = tmp_path / "值班表.md"
    upload.write_text("# 本周值班表\n值班员：林晓，电话0571-87650000。\n", encoding="utf-8")
    events = service.pipeline.run(TurnRequest("绿洲化工园区应急指挥部的24小时值班电话是多少？"))
    assert next(events).type == "conversation_id"  # the turn is in flight, suspended between two events
    results: list = []
    writer = threading.Thread(target=lambda: results.extend(service.stores.ingestor.ingest([upload], "readers")))
    writer.start()
    doc_id = document_id("readers", "值班表.md")
    writer.join(timeout=3.0)
    assert writer.is_alive() and not service.stores.vectors.chunk_versions([doc_id])  # waiting at its vector step
    rest = [e.type for e in events]  # the turn answers without waiting for the write
    assert rest[-1] == "done" and "error" not in rest
    writer.join(timeout=30.0)
    assert [r.status for r in results] == ["ingested"] and service.stores.vectors.chunk_versions([doc_id])
    assert "0571-87650000" in turn(service, "值班员林晓的电话是多少？", library_ids=["readers"])["content"]
    assert service.stores.ingestor.delete(doc_id)
