"""Lazy import of the embedded graph engine: Kuzu or its maintained fork LadybugDB, same Python API."""
from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from graph.errors import GraphEngineError

# engine name -> pip requirement that provides it (the module has the engine's name)
ENGINES: dict[str, str] = {"kuzu": "kuzu==0.11.3", "ladybug": "ladybug==0.22.0"}


def check_engine_name(engine: str) -> None:
    """Raise GraphEngineError naming the valid engines if `engine` is not one of them."""
    if engine not in ENGINES:
        valid = ", ".join(repr(name) for name in ENGINES)
        raise GraphEngineError(f"Unknown graph engine {engine!r}; valid engines are {valid} (ANNEX_GRAPH_ENGINE).")


def engine_installed(engine: str) -> bool:
    """Whether the engine's module can be imported, checked without importing it."""
    check_engine_name(engine)
    return importlib.util.find_spec(engine) is not None


def load_engine(engine: str) -> ModuleType:
    """Import and return the engine module; one process may only ever use one engine."""
    check_engine_name(engine)
    try:
        return importlib.import_module(engine)
    except ImportError as exc:
        raise GraphEngineError(
            f"Graph engine {engine!r} is not installed ({exc}); install it with 'pip install {ENGINES[engine]}'."
        ) from exc
