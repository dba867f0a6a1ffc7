"""kb.bench --scale: how a figure grows with the library, as a reader of the table reads it."""
from __future__ import annotations

import pytest

from kb.eval.scale import exponent, table


def _run(chunks: int, retrieval: float, refresh: float) -> dict:
    return {"docs": chunks // 25, "attachments_per_doc": 10, "chunks": chunks, "retrieval_p50_ms": retrieval,
            "read_models_refresh_s": refresh, "load_1min": [1.0, 2.0]}


def test_a_constant_figure_grows_as_chunks_to_the_zero_and_a_linear_one_to_the_one():
    runs = [_run(5_000, 10.0, 0.1), _run(20_000, 10.0, 0.4), _run(80_000, 10.0, 1.6)]
    assert exponent(runs, "retrieval_p50_ms") == pytest.approx(0.0)
    assert exponent(runs, "read_models_refresh_s") == pytest.approx(1.0)
    assert exponent(runs, "hop_p50_ms") is None  # not measured: no growth claimed
    text = table(runs)
    assert "| retrieval p50, ms | per request | 10.0 | 10.0 | 10.0 | e = 0.00 |" in text
    assert "| read models after it, s | per write | 0.1 | 0.4 | 1.6 | e = 1.00 |" in text
    assert "| machine load (1 min) | start → end | 1.0 → 2.0 |" in text
