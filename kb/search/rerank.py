"""Rerankers: the offline lexical default, and an optional OpenAI-style /rerank endpoint."""
from __future__ import annotations

import json
import math
import urllib.error
import urllib.request
from collections import Counter
from typing import Protocol, Sequence

from kb.errors import RerankError
from kb.search.tokens import tokenize


class Reranker(Protocol):
    """Scores passages against a query; higher is more relevant, in [0, 1]."""

    name: str

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        """One score per passage, same order."""


class LexicalReranker:
    """Deterministic: idf-weighted share of the query's words in the passage, plus adjacent-word pairs."""

    name = "lexical"

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        words = list(dict.fromkeys(tokenize(query)))
        if not words or not passages:
            return [0.0] * len(passages)
        token_sets = [set(tokenize(p)) for p in passages]
        df = Counter(w for tokens in token_sets for w in words if w in tokens)
        idf = {w: math.log(1 + (len(passages) + 1) / (df[w] + 0.5)) for w in words}
        total = sum(idf.values())
        pairs = [a + b for a, b in zip(words, words[1:])]
        out = []
        for passage, tokens in zip(passages, token_sets):
            coverage = sum(idf[w] for w in words if w in tokens) / total
            phrase = sum(1 for p in pairs if p in passage) / len(pairs) if pairs else 0.0
            out.append(round(0.8 * coverage + 0.2 * phrase, 6))
        return out


class EndpointReranker:
    """A Jina/Cohere-style `POST {base_url}/rerank` endpoint ({model, query, documents} → results[index, relevance_score])."""

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0) -> None:
        self.url = base_url.rstrip("/") + "/rerank"
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.name = f"{model} @ {base_url}"

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        body = json.dumps({"model": self.model, "query": query, "documents": list(passages)}).encode("utf-8")
        request = urllib.request.Request(self.url, body, {"Content-Type": "application/json"})
        if self.api_key:
            request.add_header("Authorization", f"Bearer {self.api_key}")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                results = json.load(response)["results"]
        except (urllib.error.URLError, TimeoutError, KeyError, json.JSONDecodeError) as exc:
            raise RerankError(f"The rerank endpoint {self.url} failed ({exc}); check ANNEX_RERANK_BASE_URL or turn rerank off.") from exc
        out = [0.0] * len(passages)
        for item in results:
            out[int(item["index"])] = float(item.get("relevance_score", item.get("score", 0.0)))
        return out
