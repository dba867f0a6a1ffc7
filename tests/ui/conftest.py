"""One Service on a temporary store for every UI test (one Kuzu database per process), and one launched app."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.ingest.sync import sync_corpus
from kb.service import open_service
from kb.settings import load_settings
from tests.conftest import DEMO_CORPUS
from tests.live_server import LiveServer, build_app

# A document written to attack the UI: markup and script in its title, body and attachment, a remote image,
# and a template-literal. Every panel must show all of it as text. Its words (巡检口令, 暗号) occur nowhere else.
HOSTILE_NAME = "注入测试文档.md"
HOSTILE_TEXT = """# 注入测试文档<img src=x onerror="window.__pwned='title'">

本文档的巡检口令登记方式详见附件1。

附件1：巡检口令<script>window.__pwned='label'</script>登记表

巡检口令是<script>window.__pwned='body'</script>青松12345。
<img src=x onerror="window.__pwned='img'">夜间暗号为白鹭67890，${7*7} `code` ![track](http://198.51.100.7/pixel.png)
"""
HOSTILE_QUESTION = "巡检口令是什么？"


@pytest.fixture(scope="session")
def ui_corpus(tmp_path_factory) -> Path:
    """The bundled corpus plus the hostile document."""
    corpus = tmp_path_factory.mktemp("ui-corpus") / "corpus"
    shutil.copytree(DEMO_CORPUS, corpus)
    (corpus / HOSTILE_NAME).write_text(HOSTILE_TEXT, encoding="utf-8")
    return corpus


@pytest.fixture(scope="session")
def service(tmp_path_factory, ui_corpus):
    """The app's back end, built from the corpus the way app.py builds it."""
    settings = load_settings(env={}, store_dir=tmp_path_factory.mktemp("ui-store"), corpus_dir=ui_corpus)
    svc = open_service(settings)
    report = sync_corpus(svc.stores.ingestor, ui_corpus, settings.default_library)
    assert not report.errors
    yield svc
    svc.close()


@pytest.fixture(scope="session")
def app_url(service):
    """The app as app.py serves it (ui/server.py: the API, the upload share and each upload's own path, the
    Blocks) on a free local port, shared by the client and browser tests."""
    with LiveServer(build_app(service)) as server:
        yield server.url + "/"
