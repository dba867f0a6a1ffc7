"""The five tools over real Kuzu and Chroma stores holding the demo corpus (plus tagged documents)."""
from __future__ import annotations

import pytest

from kb.errors import ToolError
from graph.prefetch import attachment_text
from kb.service import open_service
from kb.settings import load_settings
from kb.agent.tools import KnowledgeTools
from tests.conftest import DEMO_CORPUS

TAGGED = "---\ntags: [防汛, 演练]\n---\n# 演练记录\n\n2024年6月开展防汛应急演练。\n"


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    folder = tmp_path_factory.mktemp("extra")
    (folder / "演练记录.md").write_text(TAGGED, encoding="utf-8")
    (folder / "东岭街道防汛应急预案.md").write_text((DEMO_CORPUS / "东岭街道防汛应急预案.md").read_text("utf-8"), "utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    svc.stores.ingestor.ingest([DEMO_CORPUS], "demo")
    svc.stores.ingestor.ingest([folder], "drills", tags=["内部"])
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def tools(service) -> KnowledgeTools:
    return KnowledgeTools.from_service(service)


def test_search_chunks_returns_cited_passages_and_the_attachments_they_cite(tools):
    hits = tools.search_chunks("抢险队伍所需物资从哪里领取", top_k=5, library="demo")
    assert 1 <= len(hits) <= 5 and {h["library"] for h in hits} == {"demo"}
    team = next(h for h in hits if h["attachment"] == "附件8" and h["file"] == "东岭街道防汛应急预案.md")
    assert team["cite"] == "[东岭街道防汛应急预案.md#附件8 防汛抢险队伍名单]"
    assert [(c["label"], c["title"]) for c in team["cites_attachments"]] == [("附件4", "防汛抢险物资储备清单")]


def test_a_body_passage_is_cited_by_the_heading_it_starts_under(tools):
    hits = tools.search_chunks("街道根据区防汛防台抗旱指挥部发布的预警启动", top_k=10, library="demo")
    hit = next(h for h in hits if h["chunk_id"].endswith(":body:2") and h["file"] == "东岭街道防汛应急预案.md")
    assert hit["cite"] == "[东岭街道防汛应急预案.md#（二）预警分级]"
    assert tools.heading(hit["doc_id"], "", "", 454) == "二、辖区概况及防汛风险"
    assert tools.heading(hit["doc_id"], "", "", 0) == "东岭街道防汛应急预案"


def test_search_by_tags_matches_file_and_ingest_tags_and_an_empty_keyword_lists_everything(tools, service):
    assert [d["file"] for d in tools.search_by_tags("演练")] == ["演练记录.md"]
    assert {d["file"] for d in tools.search_by_tags("内部")} == {"演练记录.md", "东岭街道防汛应急预案.md"}
    assert tools.search_by_tags("没有这个标签") == []
    assert len(tools.search_by_tags("")) == len(service.stores.graph.list_documents())


def test_get_document_by_id_title_or_unique_name_and_a_clear_error_otherwise(tools, service):
    doc = tools.get_document("示范市餐厨垃圾管理办法")
    assert doc["text"] == service.stores.graph.document_text(doc["doc_id"])
    assert [a["label"] for a in doc["attachments"]] == ["附表1", "附表2"]
    assert tools.get_document(doc["doc_id"])["doc_id"] == doc["doc_id"]
    with pytest.raises(ToolError, match="names 2 documents: .*demo/东岭街道防汛应急预案.md.*drills/东岭街道防汛应急预案.md"):
        tools.get_document("东岭街道防汛应急预案.md")  # one file name in two libraries
    with pytest.raises(ToolError, match="search_by_tags with an empty keyword"):
        tools.get_document("没有的文件.docx")


def test_resolve_attachments_in_one_document_and_an_honest_miss_across_template_twins(tools, service):
    demo_doc = next(d for d in service.stores.graph.list_documents("demo") if d.name == "西岭街道防汛应急预案.txt")
    [item] = tools.resolve_attachments("附件4-防汛抢险物资储备清单", doc=demo_doc.id)["items"]
    assert item["resolved"] and item["doc_id"] == demo_doc.id and "冲锋舟：5艘" in item["content"]
    key = (demo_doc.id, "附件4")
    assert item["content"] == attachment_text(service.stores.graph.attachments_chunks([key])[key])
    [miss] = tools.resolve_attachments("附件4-防汛抢险物资储备清单")["items"]  # 东岭, 西岭 and drills all have one
    assert not miss["resolved"] and "pass doc" in miss["why"]
    with pytest.raises(ToolError, match="needs text"):
        tools.resolve_attachments("  ")


def test_graph_neighbors_shows_the_references_the_graph_store_traverses(tools, service):
    doc = tools.get_document("绿洲化工园区突发环境事件应急预案")
    chunk_ids = [c.id for c in service.stores.graph.load_document(doc["doc_id"]).chunks]
    walked = {(p.chunk_id, f"{p.doc_id}:{p.labels[0]}") for p in service.stores.graph.attachment_paths(chunk_ids, 1)}
    edges = set()
    for chunk_id in chunk_ids:
        found = tools.graph_neighbors(chunk_id, 1)
        edges |= {(e["source"], e["target"]) for e in found["edges"] if e["type"] == "REFERENCES" and e["source"] == chunk_id}
    assert walked and edges == walked  # the neighbourhood agrees with Kuzu's REFERENCES edges
    with pytest.raises(ToolError, match="hops must be between 1 and 3"):
        tools.graph_neighbors(doc["doc_id"], 4)
    with pytest.raises(ToolError, match="No graph node"):
        tools.graph_neighbors(f"{doc['doc_id']}:附件99")
