"""The graph store contract on every installed engine, each in a process of its own (one engine per process)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from graph import engine as graph_engine
from graph.engine import ENGINES, engine_installed, load_engine
from graph.errors import GraphEngineError
from graph.factory import open_graph_store
from graph.kuzu_store import KuzuGraphStore
from kb.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "tests" / "graph_contract.py"


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_graph_store_contract(engine: str) -> None:
    if not engine_installed(engine):
        pytest.skip(f"{engine} is not installed (pip install {ENGINES[engine]})")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", str(CONTRACT), "-q", "-p", "no:cacheprovider"],
        cwd=ROOT, env={**os.environ, "ANNEX_TEST_GRAPH_ENGINE": engine},
        capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, (
        f"graph store contract failed on {engine} (exit {result.returncode}):\n{result.stdout}\n{result.stderr}"
    )


def test_importing_the_store_imports_no_engine() -> None:
    code = "import sys, graph.kuzu_store, graph.factory; print(sorted({'kuzu', 'ladybug'} & set(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_unknown_engine_names_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(GraphEngineError, match="'kuzu', 'ladybug'"):
        KuzuGraphStore(tmp_path / "g", engine="neo4j")
    with pytest.raises(GraphEngineError, match="ANNEX_GRAPH_ENGINE"):
        open_graph_store(Settings(store_dir=tmp_path, graph_engine="neo4j").graph_dir, "neo4j")
    assert not (tmp_path / "g").exists()


def test_missing_engine_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(graph_engine.ENGINES, "annex_no_such_engine", "annex-no-such-engine==1.0")
    assert engine_installed("annex_no_such_engine") is False
    with pytest.raises(GraphEngineError, match="pip install annex-no-such-engine==1.0"):
        load_engine("annex_no_such_engine")
