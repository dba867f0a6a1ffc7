"""Shared fixtures: every test gets its own store directory under tmp_path."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "data"
SHARED_CORPUS = ROOT.parent / "shared" / "corpus"
needs_shared_corpus = pytest.mark.skipif(
    not SHARED_CORPUS.is_dir(), reason=f"{SHARED_CORPUS} is absent (a fresh clone has no ../shared/corpus)")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings pointing every store at a fresh temporary directory."""
    return load_settings(env={}, store_dir=tmp_path / "store")


DEMO_CORPUS = DATA_DIR / "corpus"


@pytest.fixture
def stores(settings: Settings):
    """Real Kuzu (or ladybug) and Chroma stores in a temporary directory."""
    from kb.stores import open_stores

    opened = open_stores(settings)
    yield opened
    opened.close()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests run only when asked for (`-m slow`): the default run stays within its ten minutes."""
    if "slow" in config.getoption("markexpr", "").replace("not slow", ""):
        return
    skip = pytest.mark.skip(reason="slow (large corpora, servers): run it with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
