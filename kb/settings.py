"""Settings, read from the environment once into a frozen object that is passed down."""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Mapping

from kb.errors import SettingsError
from kb.model import is_private

__all__ = ["ENV_PREFIX", "Settings", "SettingsError", "load_settings"]

ENV_PREFIX = "ANNEX_"


@dataclass(frozen=True)
class Settings:
    """Every knob of annex-rag; each field is read from ANNEX_<FIELD_NAME> (upper case)."""

    store_dir: Path = Path(".annex-store")  # Kuzu, Chroma and SQLite live here
    corpus_dir: Path = Path("data/corpus")  # the bundled corpus the app builds its stores from
    default_library: str = "demo"
    graph_engine: str = "kuzu"  # kuzu | ladybug
    graph_buffer_pool_mb: int = 256  # the graph engine's page cache; its own default is 80% of the machine's memory
    vector_store: str = "chroma"  # a name in kb/search/factory.py VECTOR_STORES
    chroma_host: str = ""  # empty: embedded PersistentClient in store_dir; else a Chroma server
    chroma_port: int = 8000
    embedding: str = "hash"  # hash (offline default) | e5 | sentence-transformers:<model> | openai:<model>
    embedding_dim: int = 512
    embedding_cache: str = ""  # SQLite file of passage vectors by chunk text; empty: <store_dir>/embedding-cache.sqlite
    embedding_base_url: str = ""
    embedding_api_key: str = ""
    llm_base_url: str = ""  # empty: the offline extractive answerer
    llm_api_key: str = ""  # sent as "not-needed" when empty
    llm_model: str = ""
    llm_timeout: float = 60.0  # seconds
    llm_max_retries: int = 1
    llm_answer_seconds: float = 600.0  # one answer's whole stream; a server sending keep-alives for ever is stopped; 0: no limit
    llm_temperature: float = 0.2
    llm_context_tokens: int = 8192  # the model's context window; prompts are cut to fit it with the answer cap
    llm_max_tokens: int = 1024  # cap on an answer's length, sent as max_tokens
    prefetch_budget: int = 6000  # chars of prefetched attachment content put into the prompt
    max_question_lines: int = 2000  # an eval question file's lines read; the rest is skipped as one problem
    max_question_file_mb: float = 5.0  # likewise its bytes
    max_question_chars: int = 500  # longer questions are refused: reading is linear, but jieba's HMM takes ~1.5 ms a character
    rerank_base_url: str = ""  # empty: the offline lexical reranker; else a /rerank endpoint
    rerank_model: str = ""
    rerank_api_key: str = ""
    server_host: str = "127.0.0.1"  # GRADIO_SERVER_NAME (set to 0.0.0.0 by Hugging Face Spaces) also works
    server_port: int = 7860  # GRADIO_SERVER_PORT also works
    mcp_server: bool = False  # expose the read-only retrieval tools over MCP at /gradio_api/mcp/
    agent_mode: bool = False  # an OpenAI-compatible model with tool calling routes between the tools
    api_token: str = ""  # required for writes to the shared libraries (HTTP Bearer, or the UI's token field)
    proxy_hops: int = 0  # proxies in front of the app appending to X-Forwarded-For (1 on Hugging Face Spaces): ui/client.py
    session_library_ttl_min: float = 60.0  # a visitor's private library goes this long after its last upload
    max_file_mb: float = 50.0  # per file, Gradio's /gradio_api/upload included; shared and private uploads alike
    session_max_files: int = 20  # files in one visitor (no token) upload
    session_max_mb: float = 20.0  # text one visitor's private library may hold, with the upload's files counted in
    session_upload_mb: float = 100.0  # files one visitor's uploads may hold in Gradio's upload folder at once, before they are ingested; 0: no cap
    session_max_documents: int = 100  # documents one visitor's private library may hold (each costs ~60 KB of memory, however small)
    max_session_libraries: int = 20  # visitors' private libraries alive at once, across all sessions
    max_request_kb: int = 1024  # a request body other than an upload (a question, a Gradio event) is refused past it
    min_free_disk_mb: float = 500.0  # an upload is refused when it would leave the store's disk with less free
    max_attachments: int = 500  # attachments one document may hold; a file past it is refused, named on its result
    max_references: int = 20000  # references one document may make; likewise
    parse_seconds: float = 60.0  # time one document's reading may take before the file is refused; 0: no limit
    max_ocr_pages: int = 100  # scanned pages one PDF may have read by OCR (~8 s of CPU each); more: that file's error
    chunk_target: int = 400  # chunks close at a sentence end past this many chars
    chunk_max: int = 800  # hard cap, even in text without punctuation
    space_id: str = ""  # SPACE_ID, set by Hugging Face Spaces, also works: the app is running on a Space

    @property
    def graph_dir(self) -> Path:
        return self.store_dir / f"graph-{self.graph_engine}"

    @property
    def chroma_dir(self) -> Path:
        return self.store_dir / "chroma"

    @property
    def keyword_path(self) -> Path:
        return self.store_dir / "keywords.sqlite3"

    @property
    def embedding_cache_path(self) -> Path:
        return Path(self.embedding_cache) if self.embedding_cache else self.store_dir / "embedding-cache.sqlite"

    @property
    def max_file_bytes(self) -> int:
        return int(self.max_file_mb * 1024 * 1024)

    @property
    def max_question_bytes(self) -> int:
        return int(self.max_question_file_mb * 1024 * 1024)


def load_settings(env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
    """Build Settings from ANNEX_* variables (or the given mapping), then explicit overrides."""
    env = os.environ if env is None else env
    values: dict[str, object] = {}
    for name, variable in (("server_host", "GRADIO_SERVER_NAME"), ("server_port", "GRADIO_SERVER_PORT"),
                           ("space_id", "SPACE_ID")):
        if variable in env:
            values[name] = _convert(name, getattr(Settings, name), env[variable])
    for f in fields(Settings):
        raw = env.get(ENV_PREFIX + f.name.upper())
        if raw is None:
            continue
        values[f.name] = _convert(f.name, f.default, raw)
    defaults = {f.name: f.default for f in fields(Settings)}
    for name, value in overrides.items():
        if value is None:
            continue
        if name not in defaults:
            raise SettingsError(f"Unknown setting {name!r}; the settings are: {', '.join(sorted(defaults))}.")
        values[name] = _convert(name, defaults[name], value) if isinstance(value, str) else value
    settings = Settings(**values)  # type: ignore[arg-type]
    if settings.graph_engine not in ("kuzu", "ladybug"):
        raise SettingsError(
            f"ANNEX_GRAPH_ENGINE={settings.graph_engine!r} is not a graph engine; use 'kuzu' or 'ladybug'."
        )
    if is_private(settings.default_library):
        raise SettingsError(
            f"ANNEX_DEFAULT_LIBRARY={settings.default_library!r} starts with the prefix reserved for visitors' private "
            "libraries; name the shared library otherwise (e.g. demo)."
        )
    if not 0 < settings.llm_max_tokens < settings.llm_context_tokens:
        raise SettingsError(
            f"ANNEX_LLM_MAX_TOKENS={settings.llm_max_tokens} must be above 0 and below ANNEX_LLM_CONTEXT_TOKENS="
            f"{settings.llm_context_tokens} (the answer shares the context window with the prompt); lower it, or "
            "set ANNEX_LLM_CONTEXT_TOKENS to the model's context size."
        )
    return settings


def _convert(name: str, default: object, raw: str) -> object:
    try:
        if isinstance(default, bool):
            return raw.strip().lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if isinstance(default, Path):
            return Path(raw)
    except ValueError as exc:
        raise SettingsError(f"{ENV_PREFIX}{name.upper()}={raw!r} is not a valid {type(default).__name__}.") from exc
    return raw
