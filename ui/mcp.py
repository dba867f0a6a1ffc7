"""The read-only retrieval tools as Gradio API endpoints; with mcp_server on, Gradio lists them as MCP tools.

Gradio 6.31 turns every public endpoint of the Blocks into an MCP tool at /gradio_api/mcp/ (streamable HTTP;
/gradio_api/mcp/sse for SSE clients): the function's name is the tool's name, its type hints the input
schema, and its docstring (`Args:` lines included) the descriptions. So UI event handlers must be registered
with api_visibility="private", or they become tools too. Results are JSON text: Gradio would send a dict as its
Python repr. The tools read the shared libraries only (kb.session_libraries.SharedReads): a visitor's private
library is never listed, searched, opened or walked through MCP.
"""
from __future__ import annotations

import json
from typing import Any, Callable

import gradio as gr

from kb.errors import ToolError
from kb.session_libraries import SharedReads
from kb.agent.tools import KnowledgeTools


def register_tools(service: Any) -> None:
    """Add search_chunks, search_by_tags, get_document, resolve_attachments and graph_neighbors to the open Blocks."""
    tools = KnowledgeTools(SharedReads(service.read), service.pipeline.retriever, service.stores.graph)

    def search_chunks(query: str, top_k: int = 8, library: str = "") -> str:
        return _json(tools.search_chunks, query, top_k, library)  # empty library: every shared one

    def search_by_tags(keyword: str = "") -> str:
        return _json(tools.search_by_tags, keyword)

    def get_document(doc: str) -> str:
        return _json(tools.get_document, doc)

    def resolve_attachments(text: str, doc: str = "") -> str:
        return _json(tools.resolve_attachments, text, doc)

    def graph_neighbors(node_id: str, hops: int = 1) -> str:
        return _json(tools.graph_neighbors, node_id, hops)

    for fn in (search_chunks, search_by_tags, get_document, resolve_attachments, graph_neighbors):
        fn.__doc__ = getattr(tools, fn.__name__).__doc__
        # queue=False: an MCP call runs in-process instead of looping back through Gradio's HTTP queue client
        gr.api(fn, api_name=fn.__name__, queue=False)


class ToolFailure(gr.Error):
    """A gr.Error whose str() is the bare message: MCP clients show str(exception) as the tool's error text.

    Not a toast (MCP calls come from clients, not the page), so the text is sent as it is, not HTML-escaped.
    """

    def __str__(self) -> str:
        return str(self.message)


def _json(tool: Callable[..., Any], *args: Any) -> str:
    """The tool's result as JSON text; a ToolError becomes the tool call's error."""
    try:
        return json.dumps(tool(*args), ensure_ascii=False)
    except ToolError as exc:
        raise ToolFailure(str(exc)) from exc
