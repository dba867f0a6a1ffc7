"""The benchmark at a tiny scale, and the synthetic corpus it measures: real parsing, every reference form."""
from __future__ import annotations

import contextlib
import io
import json

import pytest

from kb.eval import bench
from kb.eval.synthetic import chinese_number, generate, labels_for

FIGURES = {"chunks", "ingest_chunks_per_s", "retrieval_p50_ms", "prefetch_p50_ms", "hop_p50_ms", "hop_p95_ms",
           "baseline_hop_p50_ms", "hop_speedup", "turn_p50_ms", "turn_p95_ms", "peak_rss_mb"}


def test_a_tiny_benchmark_prints_its_figures_as_the_last_line(tmp_path):
    out = tmp_path / "bench.json"
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        code = bench.main(["--docs", "5", "--attachments-per-doc", "3", "--samples", "3", "--json", str(out)])
    assert code == 0
    last = json.loads(stdout.getvalue().strip().splitlines()[-1])
    assert FIGURES <= set(last) and last == json.loads(out.read_text(encoding="utf-8"))
    assert last["chunks"] >= 5 * 4  # a body and three attachments per document, at least one chunk each
    for key in FIGURES - {"chunks"}:
        assert last[key] > 0, key
    assert last["hop_p50_ms"] <= last["hop_p95_ms"] and last["turn_p50_ms"] <= last["turn_p95_ms"]
    steps = last["serving_rss_steps_mb"]  # where the serving process's memory grows, phase by phase
    assert list(steps)[0] == "service opened" and len(steps) == 5 and all(mb > 0 for mb in steps.values())
    assert last["hop_correct"] == 1.0  # every 相关附件 line resolved to its own document's attachment


def test_bad_scales_are_refused(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--docs", "0"])
    assert "must be at least 1" in capsys.readouterr().err


def test_the_synthetic_corpus_parses_into_the_attachments_and_references_it_was_written_with(stores, tmp_path):
    written = generate(tmp_path / "corpus", 26, 10)
    results = stores.ingestor.ingest([tmp_path / "corpus"], "bench")
    assert not [r.error for r in results if r.error]
    by_name = {r.document.name: r.document for r in results if r.status == "ingested"}
    assert set(by_name) == {d.name for d in written}
    assert {d.name.rsplit(".", 1)[1] for d in written} == {"md", "txt", "docx"}
    for expected in written:
        doc = by_name[expected.name]
        assert [(a.label, a.title) for a in doc.attachments] == list(expected.attachments), expected.name
        linked = {r.label for r in doc.references if not r.dangling}
        assert linked == {label for label, _ in expected.attachments}, expected.name  # every attachment is cited
        assert [r.label for r in doc.dangling] == ["附件12"]
        mentions = {r.mention for r in doc.references}
        assert {"附件一和附件二", "见附件五、六", "见附件3-1", "附录 B", "见附录A"} <= mentions
        assert any(m.startswith("《") for m in mentions) and any(m.startswith("按附件") for m in mentions)
        chains = {(r.source, r.target) for r in doc.references if r.source}
        assert ("附件3", "附件3-1") in chains and ("附件4", "附件5") in chains
        fact = expected.fact
        assert fact.answer in doc.text[doc.attachment(fact.label).start : doc.attachment(fact.label).end]
    presplit = [d for d in written if len(by_name[d.name].parts) > 1]
    assert len(presplit) == 2 and all(len(by_name[d.name].parts) == 11 for d in presplit)  # main + 10 files


def test_labels_and_numerals():
    assert labels_for(3) == ["附件1", "附件2", "附件3"]
    assert labels_for(10) == ["附件1", "附件2", "附件3", "附件3-1", "附件4", "附件5", "附件6", "附件7", "附录A", "附录B"]
    assert [chinese_number(n) for n in (1, 10, 12, 20, 23)] == ["一", "十", "十二", "二十", "二十三"]
