"""Benchmark: `python -m kb.bench [--docs N] [--attachments-per-doc M] [--json OUT]`.

Generates a synthetic corpus (kb/eval/synthetic.py), ingests it through the real Ingestor, and times retrieval,
prefetch, the post-answer hop over a 10-line 相关附件 section, the same hop done the FastGPT workflow's way
(kb/eval/baselines.py: a keyword match and a fetch per line), and whole offline turns. The last line of stdout is
one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from tqdm import tqdm

from kb.eval.baselines import KeywordPipeline
from kb.errors import AnnexError
from kb.eval.metrics import percentile
from kb.answer.hop import post_answer_hop
from graph.prefetch import prefetch
from kb.progress import progress_bar
from kb.service import Service, open_service
from kb.settings import Settings, load_settings
from kb.search.vector_process import VectorsApart
from kb.stores import open_stores
from kb.answer.sources import build_sources
from kb.eval.synthetic import SyntheticDoc, chinese_number, generate
from kb.turn import Source, TurnRequest

DEFAULT_DOCS = 200
DEFAULT_ATTACHMENTS = 10
SAMPLES = 30  # documents asked about
HOP_LINES = 10
HOP_REPEATS = 5  # timed runs of each hop (the first run of each is a warm-up and not counted)
LIBRARY = "bench"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m kb.bench", description="annex-rag benchmark on a synthetic corpus")
    parser.add_argument("--docs", type=int, default=DEFAULT_DOCS, help=f"documents (default {DEFAULT_DOCS})")
    parser.add_argument("--attachments-per-doc", type=int, default=DEFAULT_ATTACHMENTS,
                        help=f"attachments per document (default {DEFAULT_ATTACHMENTS})")
    parser.add_argument("--samples", type=int, default=SAMPLES, help=f"documents asked about (default {SAMPLES})")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="also write the figures here")
    parser.add_argument("--scale", action="store_true",
                        help="run three sizes (kb/eval/scale.py) and print how each figure grows")
    parser.add_argument("--plot", type=Path, default=None, metavar="PNG", help="with --scale: draw the curves here")
    parser.add_argument("--start-probe", type=Path, default=None, help=argparse.SUPPRESS)  # one start, in a fresh process
    parser.add_argument("--ingest-probe", type=Path, nargs=2, default=None, help=argparse.SUPPRESS)  # store, corpus
    args = parser.parse_args(argv)
    if args.start_probe:
        print(json.dumps(start_probe(args.start_probe)))
        return 0
    if args.ingest_probe:
        print(json.dumps(ingest_probe(*args.ingest_probe)))
        return 0
    if args.scale:
        from kb.eval.scale import run_scale

        return run_scale(args.samples, args.json, args.plot)
    if args.docs < 1 or args.attachments_per_doc < 1 or args.samples < 1:
        parser.error("--docs, --attachments-per-doc and --samples must be at least 1")
    with tempfile.TemporaryDirectory(prefix="annex-bench-") as scratch:
        root = Path(scratch)
        settings = load_settings(store_dir=root / "store", llm_base_url="")  # offline turns
        try:
            figures = run(settings, root / "corpus", args.docs, args.attachments_per_doc, args.samples)
        except AnnexError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.json:
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1), encoding="utf-8")
    print(json.dumps(figures, ensure_ascii=False))
    return 0


def run(settings: Settings, corpus: Path, docs: int, per_doc: int, samples: int) -> dict:
    """Generate, ingest, start again on the store and measure; prints a readable summary and returns the figures."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    written = generate(corpus, docs, per_doc)
    print(f"corpus: {docs} documents × {per_doc} attachments written in {time.perf_counter() - started:.1f} s",
          file=sys.stderr)
    # The bulk load runs in its own process, as `python -m kb ingest` does beside a serving app: this process's
    # peak is then the serving process's (a start, questions, uploads during questions), not the load's.
    bulk = ingest_probe(settings.store_dir, corpus, subprocess=True)
    start = start_probe(settings.store_dir, subprocess=True)  # what the next start costs, in a fresh process
    service = open_service(settings)
    try:
        figures = _measure(service, corpus, written, bulk, start, samples)
    finally:
        service.close()
    figures["load_1min"] = [round(load, 2), round(os.getloadavg()[0], 2)]  # a shared machine's timings need it
    return figures


def _measure(service: Service, corpus: Path, written: list[SyntheticDoc], bulk: dict, start: dict,
             samples: int) -> dict:
    """Every timed figure on an opened store. Long on purpose: one timed script, each figure's setup beside its timing.
    """
    docs, per_doc = len(written), len(written[0].attachments) if written else 0
    serving = {"service opened": _rss_mb()}  # the serving process's memory after each phase, to find what grows
    started = time.perf_counter()
    snapshot = service.read.current()  # built by open_service already: this only takes it
    snapshot_s = time.perf_counter() - started
    pipeline = service.pipeline
    keyword = KeywordPipeline(service.settings, service.read, pipeline.retriever, service.history, None)
    by_name = {d.name: d.id for d in snapshot.documents.values()}
    chosen = [written[i * len(written) // min(samples, len(written))] for i in range(min(samples, len(written)))]
    request = TurnRequest("")
    keys = ("retrieval", "prefetch", "prefetch_store", "hop", "hop_store", "baseline_hop", "turn")
    times: dict[str, list[float]] = {k: [] for k in keys}
    store = service.stores.graph  # the same steps reading Kuzu instead of the in-memory graph view, for reference
    budget = service.settings.prefetch_budget
    correct = {"hop": [0, 0], "baseline_hop": [0, 0]}
    list(pipeline.run(TurnRequest(chosen[0].fact.question)))  # warm-up: jieba, connections, caches
    for doc in tqdm(chosen, desc="measure", unit="doc", file=sys.stderr, disable=None):
        doc_id = by_name[doc.name]
        question = doc.fact.question
        hits = _timed(times["retrieval"], lambda: pipeline.retriever.retrieve(question, request))
        pre = _timed(times["prefetch"], lambda: pipeline.prefetch(snapshot, hits, request))
        _timed(times["prefetch_store"], lambda: prefetch(store, snapshot.catalog, hits, request.hops, budget))
        sources = build_sources(hits, pre.attachments, snapshot.documents)
        answer, wanted = _answer(doc, doc_id, sources)
        steps = (("hop", pipeline.hop), ("baseline_hop", keyword.hop),
                 ("hop_store", lambda a, s, src, r: post_answer_hop(a, store, s.catalog, src, None, s.documents)))
        for name, step in steps:
            result = step(answer, snapshot, sources, request)
            for _ in range(HOP_REPEATS):
                _timed(times[name], lambda: step(answer, snapshot, sources, request))
            got = {(item.doc_id, item.label) for item in result.items if item.resolved}
            if name in correct:
                correct[name][0] += len(got & wanted)
                correct[name][1] += len(wanted)
        _timed(times["turn"], lambda: list(pipeline.run(TurnRequest(question))))
    serving["sampled questions (and the Kuzu reference steps)"] = _rss_mb()
    rebuild_s, upload_s = _rebuild_after_upload(service, corpus.parent)
    refresh_s = service.read.last_refresh_s
    serving["one-line upload"] = _rss_mb()
    questions = [d.fact.question for d in chosen]
    during = _chats_during(service, questions, lambda: _upload_document(service, corpus.parent, per_doc))
    serving["one document uploaded during chats"] = _rss_mb()
    visitor = _chats_during(service, questions, lambda: _reupload_one_line(service, corpus.parent, 10))
    serving["ten one-line re-uploads during chats"] = _rss_mb()
    p50 = {k: percentile(v, 50) for k, v in times.items()}
    figures = {
        "docs": docs,
        "attachments_per_doc": per_doc,
        "chunks": bulk["chunks"],
        "ingest_s": bulk["ingest_s"],
        "ingest_chunks_per_s": round(bulk["chunks"] / bulk["ingest_s"], 1),
        "start_s": start["start_s"],
        "start_read_models_s": start["read_models_s"],
        "start_rss_mb": start["rss_mb"],
        "start_rss_steps_mb": start["steps"],
        "snapshot_s": round(snapshot_s, 3),
        "rebuild_after_upload_s": round(rebuild_s, 3),
        "upload_one_line_s": round(upload_s, 3),
        "read_models_refresh_s": round(refresh_s, 3),
        "upload_during_chats_s": during["upload_s"],
        "chat_during_upload_max_ms": during["max_ms"],
        "chat_during_upload_p50_ms": during["p50_ms"],
        "chats_during_upload": during["chats"],
        "chat_during_reuploads_p50_ms": visitor["p50_ms"],
        "chat_during_reuploads_max_ms": visitor["max_ms"],
        "retrieval_p50_ms": round(p50["retrieval"], 2),
        "retrieval_p95_ms": round(percentile(times["retrieval"], 95), 2),
        "prefetch_p50_ms": round(p50["prefetch"], 2),
        "prefetch_p95_ms": round(percentile(times["prefetch"], 95), 2),
        "prefetch_store_p50_ms": round(p50["prefetch_store"], 2),
        "hop_p50_ms": round(p50["hop"], 3),
        "hop_p95_ms": round(percentile(times["hop"], 95), 3),
        "hop_store_p50_ms": round(p50["hop_store"], 3),
        "baseline_hop_p50_ms": round(p50["baseline_hop"], 3),
        "baseline_hop_p95_ms": round(percentile(times["baseline_hop"], 95), 3),
        "hop_speedup": round(p50["baseline_hop"] / p50["hop"], 1) if p50["hop"] else None,
        "hop_correct": _fraction(correct["hop"]),
        "baseline_hop_correct": _fraction(correct["baseline_hop"]),
        "turn_p50_ms": round(p50["turn"], 1),
        "turn_p95_ms": round(percentile(times["turn"], 95), 1),
        "peak_rss_mb": _peak_rss_mb(),  # the serving process: start, questions, uploads during questions
        "serving_rss_steps_mb": serving,
        "ingest_peak_rss_mb": bulk["rss_mb"],  # the process of the bulk load
        "ingest_vectors_peak_rss_mb": bulk["vectors_rss_mb"],  # and the one beside it writing its vectors
    }
    _summary(figures, len(chosen))
    return figures


def _rebuild_after_upload(service: Service, folder: Path) -> tuple[float, float]:
    """Seconds until the next question can be answered after one small upload, and the upload's own seconds (the
    read models follow the write inside it)."""
    upload = folder / "bench-upload" / "值班安排.md"
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.write_text("# 值班安排\n本周值班员：测试员，电话0571-00000000。\n", encoding="utf-8")
    started = time.perf_counter()
    service.stores.ingestor.ingest([upload], LIBRARY)
    upload_s = time.perf_counter() - started
    started = time.perf_counter()
    service.read.current()
    return time.perf_counter() - started, upload_s


def _upload_document(service: Service, folder: Path, per_doc: int) -> None:
    """One more document of the corpus's kind (its own library, so nothing is replaced)."""
    extra = folder / "bench-document"
    written = generate(extra, 1, per_doc, seed=7)
    service.stores.ingestor.ingest([extra], "bench-probe")
    assert written


def _reupload_one_line(service: Service, folder: Path, times: int) -> None:
    """A visitor re-uploading a one-line file again and again (issue: every write rebuilt every index)."""
    upload = folder / "bench-visitor" / "note.md"
    upload.parent.mkdir(parents=True, exist_ok=True)
    for n in range(times):
        upload.write_text(f"第{n}次上传的一行笔记。\n", encoding="utf-8")
        service.stores.ingestor.ingest([upload], "bench-visitor")


def _chats_during(service: Service, questions: Sequence[str], write: Callable[[], None]) -> dict:
    """Offline turns asked one after another while `write` runs on another thread: how long each took."""
    done = threading.Event()
    took: list[float] = []
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            write()
        except BaseException as exc:  # re-raised below, on the measuring thread
            errors.append(exc)
        finally:
            done.set()

    thread = threading.Thread(target=writer)
    started = time.perf_counter()
    thread.start()
    n = 0
    while not done.is_set() or not took:
        _timed(took, lambda: list(service.pipeline.run(TurnRequest(questions[n % len(questions)]))))
        n += 1
    upload_s = time.perf_counter() - started
    thread.join()
    if errors:
        raise errors[0]
    return {"upload_s": round(upload_s, 2), "max_ms": round(max(took), 1), "p50_ms": round(percentile(took, 50), 1),
            "chats": len(took)}


def start_probe(store_dir: Path, subprocess: bool = False) -> dict:
    """One start on an existing store: seconds to open the service (read models built or loaded), and the memory it
    holds after each step; in a fresh process when `subprocess`, so that nothing of an earlier phase is counted."""
    if subprocess:
        import subprocess as sp

        done = sp.run([sys.executable, "-m", "kb.bench", "--start-probe", str(store_dir)], capture_output=True,
                      text=True, check=False)
        if done.returncode:
            raise AnnexError(f"the start probe failed: {done.stderr[-2000:]}")
        return json.loads(done.stdout.strip().splitlines()[-1])
    steps = {"python and imports": _rss_mb()}
    settings = load_settings(store_dir=store_dir, llm_base_url="")
    started = time.perf_counter()
    stores = open_stores(settings)
    steps["graph, vectors and keyword stores opened"] = _rss_mb()
    opened = time.perf_counter()
    service = open_service(settings, stores=stores)
    read_models_s = time.perf_counter() - opened
    start_s = time.perf_counter() - started
    steps["read models (graph view, catalog, BM25)"] = _rss_mb()
    try:
        list(service.pipeline.run(TurnRequest("应急物资储备有多少？")))
        steps["first turn (jieba dictionary, caches)"] = _rss_mb()
    finally:
        service.close()
    return {"start_s": round(start_s, 2), "read_models_s": round(read_models_s, 2), "rss_mb": _rss_mb("VmHWM"),
            "steps": steps}


def _rss_mb(field: str = "VmRSS", pid: int | str = "self") -> float:
    """A process's (this one's) resident memory now (VmRSS) or at its peak (VmHWM, which an exec resets), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def ingest_probe(store_dir: Path, corpus: Path, subprocess: bool = False) -> dict:
    """The bulk load of the corpus: its seconds, the chunks stored and the loading process's peak memory; in a
    fresh process when `subprocess`."""
    if subprocess:
        import subprocess as sp

        done = sp.run([sys.executable, "-m", "kb.bench", "--ingest-probe", str(store_dir), str(corpus)],
                      stdout=sp.PIPE, text=True, check=False)  # the progress bar goes to this terminal
        if done.returncode:
            raise AnnexError("the bulk load failed; its error is printed above")
        return json.loads(done.stdout.strip().splitlines()[-1])
    settings = load_settings(store_dir=store_dir, llm_base_url="")
    service = open_service(settings, stores=open_stores(settings, bulk=True))  # as `python -m kb ingest` opens them
    try:
        started = time.perf_counter()
        failed = []
        with progress_bar("ingest") as progress:
            for batch in service.stores.ingestor.ingest_batches([corpus], LIBRARY, progress):  # documents not kept
                failed += [r for r in batch if r.error]
        elapsed = time.perf_counter() - started
        if failed:
            raise AnnexError(f"{len(failed)} synthetic files failed to ingest, first: {failed[0].error}")
        chunks = service.stores.graph.stats()["chunks"]
        service.read.settle()  # the last merge and the save of the BM25 main segment, in the background
        vectors = service.stores.vectors
        beside = _rss_mb("VmHWM", vectors.pid) if isinstance(vectors, VectorsApart) else 0.0
    finally:
        service.close()
    return {"ingest_s": round(elapsed, 2), "chunks": chunks, "rss_mb": _rss_mb("VmHWM"), "vectors_rss_mb": beside}


def _answer(doc: SyntheticDoc, doc_id: str, sources: Sequence[Source]) -> tuple[str, set[tuple[str, str]]]:
    """An answer citing the document, with a 相关附件 section of up to 10 lines in the forms models write."""
    cite = next((s.n for s in sources if s.doc_id == doc_id), 1)
    lines, wanted = [], set()
    for k, (label, title) in enumerate(doc.attachments[:HOP_LINES]):
        number = label[2:]
        if k % 4 == 1 and number.isdigit():
            line = f"{label[:2]}{chinese_number(int(number))}"  # 附件二
        elif k % 4 == 3:
            line = f"{label}：{title}"
        else:
            line = f"{label}-{title}"
        lines.append(f"- {line}")
        wanted.add((doc_id, label))
    answer = f"{doc.fact.question.rstrip('？')}：{doc.fact.answer} [{cite}]\n\n**相关附件**\n" + "\n".join(lines) + "\n"
    return answer, wanted


def _timed(into: list[float], call: Callable):
    started = time.perf_counter()
    result = call()
    into.append((time.perf_counter() - started) * 1000)
    return result


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux


def _fraction(pair: list[int]) -> float | None:
    return round(pair[0] / pair[1], 3) if pair[1] else None


def _summary(f: dict, samples: int) -> None:
    print(f"{f['docs']} documents × {f['attachments_per_doc']} attachments = {f['chunks']} chunks; {samples} sampled")
    print(f"ingest      {f['ingest_s']:>9.1f} s     {f['ingest_chunks_per_s']:>8.0f} chunks/s (embedding included)")
    print(f"start on the store {f['start_s']:.2f} s (read models {f['start_read_models_s']:.2f} s), "
          f"{f['start_rss_mb']:.0f} MB peak; one more upload {f['upload_one_line_s']:.3f} s "
          f"(read models refreshed in {f['read_models_refresh_s']:.3f} s, next question waits "
          f"{f['rebuild_after_upload_s']:.3f} s)")
    print(f"chats during a {f['upload_during_chats_s']:.1f} s upload of one document: {f['chats_during_upload']} chats, "
          f"p50 {f['chat_during_upload_p50_ms']:.0f} ms, worst {f['chat_during_upload_max_ms']:.0f} ms; during 10 "
          f"re-uploads of a one-line file: p50 {f['chat_during_reuploads_p50_ms']:.0f} ms, worst "
          f"{f['chat_during_reuploads_max_ms']:.0f} ms")
    rows = (("retrieval", "retrieval"), ("prefetch", "prefetch"), ("post-answer hop", "hop"),
            ("FastGPT-style hop", "baseline_hop"), ("offline turn", "turn"))
    for name, key in rows:
        print(f"{name:<18} p50 {f[f'{key}_p50_ms']:>9.2f} ms   p95 {f[f'{key}_p95_ms']:>9.2f} ms")
    print(f"read from Kuzu instead of the in-memory graph view: prefetch p50 {f['prefetch_store_p50_ms']:.2f} ms, "
          f"hop p50 {f['hop_store_p50_ms']:.2f} ms")
    print(f"hop speedup {f['hop_speedup']}×; lines resolved to the right attachment: graph {f['hop_correct']}, "
          f"keyword {f['baseline_hop_correct']}; peak RSS of the serving process {f['peak_rss_mb']:.0f} MB; of the "
          f"bulk load's process {f['ingest_peak_rss_mb']:.0f} MB (+ {f['ingest_vectors_peak_rss_mb']:.0f} MB of the "
          "process writing its vectors)")
    print("serving process, resident after each phase: "
          + "; ".join(f"{step} {mb:.0f} MB" for step, mb in f["serving_rss_steps_mb"].items()))


if __name__ == "__main__":
    sys.exit(main())
