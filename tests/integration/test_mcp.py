"""The retrieval tools over MCP: a real `mcp` client against the running app (Gradio's MCP server)."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from mcp import ClientSession
from mcp.client.sse import sse_client
from mcp.client.streamable_http import streamable_http_client

from graph.prefetch import attachment_text
from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app
from ui.mcp import register_tools

TOOLS = {"search_chunks", "search_by_tags", "get_document", "resolve_attachments", "graph_neighbors"}


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    svc = open_demo_service(tmp_path_factory.mktemp("store"), mcp_server=True)
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def url(service):
    with LiveServer(build_app(service, [lambda: register_tools(service)])) as server:
        # Gradio swallows a failed MCP start (e.g. mcp>=2 installed; gradio 6.31 needs mcp<2): say so plainly
        if httpx.get(f"{server.url}/gradio_api/mcp/schema").status_code != 200:
            pytest.fail('Gradio\'s MCP server did not start; install gradio[mcp]==6.31.0 (it needs mcp<2).')
        yield server.url


def _session(url: str, *calls: tuple[str, dict[str, Any]]) -> tuple[Any, list[Any]]:
    """List the tools and make the calls over streamable HTTP at /gradio_api/mcp/."""

    async def run() -> tuple[Any, list[Any]]:
        async with streamable_http_client(f"{url}/gradio_api/mcp/") as (read, write, _), ClientSession(read, write) as s:
            await s.initialize()
            return await s.list_tools(), [await s.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(run())


def test_the_tool_list_is_exactly_the_five_read_only_tools_with_described_parameters(url):
    listed, _ = _session(url)
    tools = {t.name: t for t in listed.tools}
    assert set(tools) == TOOLS  # no UI handler, no ingest or delete
    search = tools["search_chunks"]
    assert search.description.startswith("Search the knowledge base")
    assert search.inputSchema["required"] == ["query"]
    assert search.inputSchema["properties"]["top_k"]["type"] == "integer"
    assert "1-50" in search.inputSchema["properties"]["top_k"]["description"]
    assert tools["get_document"].inputSchema["required"] == ["doc"]


def test_search_then_resolve_attachments_return_what_the_stores_hold(url, service):
    _, (search, resolve) = _session(
        url,
        ("search_chunks", {"query": "东岭街道 冲锋舟", "top_k": 3}),
        ("resolve_attachments", {"text": "**相关附件**\n- 附件4-防汛抢险物资储备清单", "doc": "东岭街道防汛应急预案.md"}),
    )
    assert not search.isError and not resolve.isError
    hits = json.loads(search.content[0].text)
    assert 1 <= len(hits) <= 3 and "冲锋舟：3艘" in hits[0]["text"]
    assert hits[0]["cite"] == "[东岭街道防汛应急预案.md#附件4 防汛抢险物资储备清单]"
    [item] = json.loads(resolve.content[0].text)["items"]
    assert item["resolved"] and item["label"] == "附件4" and item["match"] == "exact_label"
    stored = service.stores.graph.attachments_chunks([(item["doc_id"], "附件4")])[(item["doc_id"], "附件4")]
    assert item["content"] == attachment_text(stored)


def test_a_tool_called_with_a_missing_document_is_an_error_that_says_how_to_list_them(url):
    _, (result,) = _session(url, ("get_document", {"doc": "不存在的预案.docx"}))
    assert result.isError
    assert result.content[0].text == ("No document '不存在的预案.docx' in the knowledge base; call search_by_tags with "
                                      "an empty keyword to list every document (id, file name, title).")


def test_the_sse_transport_lists_the_same_tools(url):
    async def run() -> set[str]:
        async with sse_client(f"{url}/gradio_api/mcp/sse") as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return {t.name for t in (await s.list_tools()).tools}

    assert asyncio.run(run()) == TOOLS
