"""Issue 21 item 11: a store records its graph engine; opening it with the other one is refused, CLI included, and
no vector is deleted."""
from __future__ import annotations

import subprocess
import sys

import pytest

from kb.errors import SettingsError
from kb.settings import load_settings
from kb.stores import open_stores
from tests.demo_service import open_demo_service

pytestmark = pytest.mark.reliability


def test_the_other_graph_engine_is_refused_and_the_vectors_stay(tmp_path):
    store = tmp_path / "store"
    service = open_demo_service(store, graph_engine="kuzu")
    vectors = service.stores.vectors.chunk_counts()
    service.close()
    assert sum(vectors.values()) > 0
    with pytest.raises(SettingsError, match="made with ANNEX_GRAPH_ENGINE=kuzu.*set ANNEX_GRAPH_ENGINE=kuzu"):
        open_stores(load_settings(env={}, store_dir=store, graph_engine="ladybug"))
    cli = subprocess.run([sys.executable, "-m", "kb", "ingest", "--store", str(store), str(tmp_path)],
                         capture_output=True, text=True, env={"ANNEX_GRAPH_ENGINE": "ladybug", "PATH": ""}, timeout=120)
    assert cli.returncode == 2 and "set ANNEX_GRAPH_ENGINE=kuzu" in cli.stderr, cli.stderr
    again = open_stores(load_settings(env={}, store_dir=store, graph_engine="kuzu"))
    try:
        assert again.vectors.chunk_counts() == vectors
    finally:
        again.close()
