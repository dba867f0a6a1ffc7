"""The tools' plain parts: graph neighbourhoods from a Document, citations, schemas, agent citation numbering."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from kb.errors import ToolError
from kb.agent.pipeline import _Gathered
from kb.ingest.assemble import build_document
from kb.answer.hop import HopResult
from graph.neighbourhood import document_graph, neighbourhood
from kb.ingest.parsing import parse_file
from kb.agent.tools import KnowledgeTools, _integer, citation, tool_schemas
from kb.turn import Source
from tests.conftest import DEMO_CORPUS


@pytest.fixture(scope="module")
def hospital():
    return build_document("demo", parse_file(DEMO_CORPUS / "青禾县人民医院火灾事故应急预案.md", 10**8))


def test_an_attachment_neighbours_its_document_its_chunks_the_attachment_it_cites_and_the_chunks_citing_it(hospital):
    att4 = f"{hospital.id}:附件4"
    found = neighbourhood(hospital, att4, 1)
    by_id = {n["id"]: n for n in found["nodes"]}
    assert by_id[att4]["distance"] == 0 and by_id[att4]["label"] == "附件4 重症及行动不便患者转移方案"
    assert by_id[hospital.id]["kind"] == "document" and by_id[f"{hospital.id}:附件8"]["kind"] == "attachment"
    assert f"{hospital.id}:附件4:0" in by_id  # its own chunk
    citing = [e for e in found["edges"] if e["type"] == "REFERENCES" and e["target"] == att4]
    assert citing and all(by_id[e["source"]]["kind"] == "chunk" for e in citing)  # the body chunk saying 按附件4
    assert {"source": att4, "target": f"{hospital.id}:附件8", "type": "REFERENCES", "mention": "见附件8"} in found["edges"]
    assert all(e["source"] in by_id and e["target"] in by_id for e in found["edges"])


def test_two_hops_reach_further_and_a_limit_cuts_the_walk(hospital):
    chunk = next(c for c in hospital.chunks if c.attachment == "附件10")
    one = {n["id"] for n in neighbourhood(hospital, chunk.id, 1)["nodes"]}
    two = neighbourhood(hospital, chunk.id, 2)
    assert f"{hospital.id}:附件5" in one  # 附件10 says 按附件5
    assert {f"{hospital.id}:附件5:0", hospital.id} <= {n["id"] for n in two["nodes"]} - one
    cut = neighbourhood(hospital, hospital.id, 2, limit=5)
    assert len(cut["nodes"]) == 5 and cut["truncated"]


def test_an_unknown_node_has_no_neighbourhood(hospital):
    assert neighbourhood(hospital, f"{hospital.id}:附件99", 1) is None


def test_the_document_graph_has_one_edge_per_part_and_no_dangling_reference(hospital):
    nodes, edges = document_graph(hospital)
    assert len(nodes) == 1 + len(hospital.attachments) + len(hospital.chunks)
    assert sum(e.type == "HAS_CHUNK" for e in edges) == len(hospital.chunks)
    assert sum(e.type == "HAS_ATTACHMENT" for e in edges) == len(hospital.attachments)


def test_citations_name_the_file_and_the_heading():
    assert citation("东岭街道防汛应急预案.md", "附件4 防汛抢险物资储备清单") == "[东岭街道防汛应急预案.md#附件4 防汛抢险物资储备清单]"


@pytest.mark.parametrize("value, expected", [(5, 5), ("5", 5), (5.0, 5)])
def test_integer_arguments_accept_what_models_send(value, expected):
    assert _integer("top_k", value) == expected


@pytest.mark.parametrize("value", [2.5, "many", None, True, float("inf")])
def test_integer_arguments_refuse_the_rest_naming_the_argument(value):
    with pytest.raises(ToolError, match="top_k must be a whole number"):
        _integer("top_k", value)


def test_the_function_schemas_come_from_the_signatures_and_docstrings():
    schemas = {s["function"]["name"]: s["function"] for s in tool_schemas(KnowledgeTools(None, None, None))}
    assert list(schemas) == ["search_chunks", "search_by_tags", "get_document", "resolve_attachments", "graph_neighbors"]
    search = schemas["search_chunks"]["parameters"]
    assert search["required"] == ["query"] and search["properties"]["top_k"] == {
        "type": "integer", "description": "how many passages to return, 1-50", "default": 8}
    assert schemas["graph_neighbors"]["parameters"]["properties"]["node_id"]["type"] == "string"
    assert all(s["description"] and "Args" not in s["description"] for s in schemas.values())


def _gathered() -> _Gathered:
    snapshot = SimpleNamespace(documents={"d1": SimpleNamespace(title="东岭街道防汛应急预案", name="东岭.md", library="demo")})
    gathered = _Gathered(snapshot)  # type: ignore[arg-type]
    hit = {"chunk_id": "d1:附件4:0", "cite": "[东岭.md#附件4 物资清单]", "doc_id": "d1", "attachment": "附件4",
           "attachment_title": "物资清单", "text": "冲锋舟：3艘", "start": 10, "end": 20, "score": 1.0}
    gathered.add("search_chunks", [hit, {**hit, "chunk_id": "d1:body:0", "cite": "[东岭.md#一、总则]",
                                         "attachment": "", "attachment_title": "", "start": 0, "end": 9}])
    gathered.add("search_chunks", [hit])  # seen again: kept once
    return gathered


def test_agent_citations_map_to_source_numbers_exactly_then_by_file():
    gathered = _gathered()
    assert [s.n for s in gathered.sources] == [1, 2]
    assert gathered.numbered("有3艘[东岭.md#附件4 物资清单]。") == "有3艘[1]。"
    assert gathered.numbered("见[东岭.md#某个没有的标题]") == "见[1,2]"
    assert gathered.numbered("见[别的.md#附件4]") == "见[别的.md#附件4]"


def test_the_hop_block_cites_file_and_heading_instead_of_numbers():
    gathered = _gathered()
    extra = Source(3, "d1", "东岭街道防汛应急预案", "demo", "附件8", "队伍名单", "…", ((30, 40),), (), 0.0)
    block = ("**相关附件内容：**\n\n**附件4-物资清单**（《东岭街道防汛应急预案》）[1]\n冲锋舟：3艘\n\n"
             "**附件8-队伍名单**（《东岭街道防汛应急预案》）[3]\n…")
    out = gathered.cite_block(HopResult((), block, (extra,), ()))
    assert "（《东岭街道防汛应急预案》）[东岭.md#附件4 物资清单]\n" in out
    assert "（《东岭街道防汛应急预案》）[东岭.md#附件8 队伍名单]\n" in out
