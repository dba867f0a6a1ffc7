"""The reliability suite: the real app served by uvicorn on 127.0.0.1, driven with raw HTTP (httpx).

Every test that sends a bad input ends with `assert_healthy(app)`: a normal question still gets its answer and
both stores hold the same chunks for every document.
"""
from __future__ import annotations

import time

from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from kb.service import Service
from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app

NORMAL_QUESTION = "东岭街道有几艘冲锋舟？"
NORMAL_ANSWER = "冲锋舟"


@dataclass
class LiveApp:
    """A served app: its base URL, an httpx client on it, and the Service behind it."""

    url: str
    http: httpx.Client
    service: Service


def serve(store_dir: Path, **settings: object) -> Iterator[LiveApp]:
    """The demo service on store_dir, served on a free 127.0.0.1 port until the generator is closed."""
    service = open_demo_service(store_dir, **settings)
    try:
        with LiveServer(build_app(service)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
            yield LiveApp(server.url, http, service)
    finally:
        service.close()


@pytest.fixture(scope="module")
def live_app(tmp_path_factory) -> Iterator[LiveApp]:
    """The demo corpus served with default settings, one per test module."""
    yield from serve(tmp_path_factory.mktemp("store"))


SETTLE_SECONDS = 30.0  # the sweep deletes one document per step; a few steps at most here


def assert_stores_agree(service: Service) -> None:
    """Per document, the graph's chunk count equals the vector store's; no vectors without a document."""
    graph = {d.id: d.chunks for d in service.stores.graph.list_documents()}
    vectors = service.stores.vectors.chunk_counts()
    assert {k: v for k, v in vectors.items() if v} == {k: v for k, v in graph.items() if v}


def assert_healthy(app: LiveApp) -> None:
    """A normal question still answers over HTTP, and the stores agree."""
    response = app.http.post("/api/knowledge/chat", json={"query": NORMAL_QUESTION})
    assert response.status_code == 200, response.text
    body = response.json()
    assert NORMAL_ANSWER in body["answer"], body["answer"]
    settle = time.monotonic() + SETTLE_SECONDS
    while True:  # a session that just ended is being deleted by the background sweep: the stores agree once it rests
        try:
            assert_stores_agree(app.service)
            return
        except AssertionError:
            if time.monotonic() > settle:
                raise
            time.sleep(0.05)
