"""kill -9 of a real `python -m kb ingest` of a few hundred generated documents, at several points of its writes.

After each kill the stores are opened as the app and the CLI open them (reconcile first) and must agree: every
document whole in both stores or absent. The kill points: while the first vectors reach Chroma, while the graph
commits (Kuzu must keep a batch whole or drop it), and while an edit replaces stored vectors (the graph still holds
the old version, so the vectors must be rewritten from it). A last ingest must then bring every document in whole,
and vector search must find the documents the kills had broken.
"""
from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import docx
import pandas as pd
import pytest
from chromadb.api.shared_system_client import SharedSystemClient

from kb.ingest.assemble import document_id
from kb.ingest.ingestor import WRITE_BATCH, Reconciled
from kb.service import open_service
from kb.settings import load_settings
from kb.stores import Stores, open_stores
from kb.eval.synthetic import generate
from tests import pdf_copies
from tests.conftest import DEMO_CORPUS
from tests.demo_service import open_demo_service

pytestmark = pytest.mark.reliability

ROOT = Path(__file__).resolve().parents[2]
RUN_TIMEOUT = 120  # seconds; a run that neither reaches its kill point nor ends fails the test
MARK = "核验码"


def _footprint(folder: Path) -> tuple[int, int]:
    """Total size and latest mtime of the files under a folder: it changes when a store commits."""
    sizes, latest = 0, 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            try:
                st = os.stat(os.path.join(dirpath, name))
            except FileNotFoundError:  # a file the writer just removed
                continue
            sizes, latest = sizes + st.st_size, max(latest, st.st_mtime_ns)
    return sizes, latest


class Ingest:
    """`python -m kb ingest <corpus> --library x` in a subprocess, its stderr lines read as they come."""

    def __init__(self, corpus: Path, store: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kb", "ingest", str(corpus), "--library", "x"],
            cwd=ROOT, env={**os.environ, "ANNEX_STORE_DIR": str(store)},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.log: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.deadline = time.monotonic() + RUN_TIMEOUT

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.put(line)

    def wait_for_writes(self, count: int) -> None:
        """Block until the CLI has started its `count`-th store write (it logs each when stderr is no terminal)."""
        seen = 0
        while seen < count:
            try:
                line = self.lines.get(timeout=0.05)
            except queue.Empty:
                assert self.proc.poll() is None, f"the ingest ended before write {count}: {''.join(self.log)}"
                assert time.monotonic() < self.deadline, f"no write {count} in {RUN_TIMEOUT} s: {''.join(self.log)}"
                continue
            self.log.append(line)
            seen += line.startswith("ingest: write ")

    def kill_at(self, chroma: Path, graph: Path, chroma_commits: int) -> None:
        """SIGKILL the ingest after `chroma_commits` more Chroma transactions have committed, or as soon as it
        writes to the graph (the vectors are done then), whichever comes first."""
        journal = chroma / "chroma.sqlite3-journal"  # sqlite's rollback journal: there while a write is open
        graph_before, open_write, commits = _footprint(graph), False, 0
        while commits < chroma_commits and _footprint(graph) == graph_before:
            assert self.proc.poll() is None, f"the ingest ended before its kill point: {''.join(self.log)}"
            assert time.monotonic() < self.deadline, f"no kill point in {RUN_TIMEOUT} s: {''.join(self.log)}"
            now_open = journal.exists()
            commits += open_write and not now_open
            open_write = now_open
            time.sleep(0.002)
        self.kill()

    def kill(self) -> None:
        """SIGKILL the ingest; its vector store's process (kb/search/vector_process.py) must die with it, or it
        would go on writing into the store the next process opens."""
        children = _children(self.proc.pid)
        assert children, "the ingest runs its vector store in a process of its own"
        self.proc.send_signal(signal.SIGKILL)
        assert self.proc.wait(30) == -signal.SIGKILL
        deadline = time.monotonic() + 10
        while (alive := [pid for pid in children if _alive(pid)]) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not alive, f"processes of the killed ingest still run: {alive}"

    def finish(self) -> str:
        """Wait for a clean end; returns its stderr."""
        assert self.proc.wait(RUN_TIMEOUT) == 0, "".join(self.log)
        while not self.lines.empty():
            self.log.append(self.lines.get())
        return "".join(self.log)


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux's /proc lists them per thread)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, dead but not yet reaped by init, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


@contextmanager
def opened(store: Path) -> Iterator[Stores]:
    """The stores as a new process opens them; released afterwards so the next ingest can take them."""
    stores = open_stores(load_settings(env={}, store_dir=store))
    try:
        yield stores
    finally:
        stores.close()
        SharedSystemClient.clear_system_cache()  # drop Chroma's in-process client, the next writer is another process


def reconciled_and_agreeing(store: Path) -> tuple[Reconciled, dict[str, str]]:
    """Open the stores, reconcile, and check each document is whole in both or absent; returns hash by doc id."""
    with opened(store) as stores:
        fixed = stores.ingestor.reconcile()
        graph = {d.id: d for d in stores.graph.list_documents()}
        versions = stores.vectors.chunk_versions()
        assert versions == {doc_id: {d.content_hash: d.chunks} for doc_id, d in graph.items()}
        assert sum(stores.vectors.count().values()) == stores.graph.stats()["chunks"]
        return fixed, {doc_id: d.content_hash for doc_id, d in graph.items()}


def _edit_every_file(corpus: Path) -> None:
    for i, path in enumerate(sorted(p for p in corpus.rglob("*") if p.is_file())):
        line = f"{MARK}：第{i}号修订已生效。"
        if path.suffix == ".docx":
            document = docx.Document(str(path))
            document.add_paragraph(line)
            document.save(str(path))
        else:
            path.write_text(path.read_text(encoding="utf-8") + f"\n\n{line}\n", encoding="utf-8")


def _kill_run(corpus: Path, store: Path, kill: Callable[[Ingest], None]) -> None:
    run = Ingest(corpus, store)
    try:
        kill(run)
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
            run.proc.wait(30)


def crash_and_repair(tmp_path: Path, docs: int) -> None:
    """Five runs of the CLI on one store, three of them killed; the stores checked after each."""
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    generate(corpus, docs, 1)
    settings = load_settings(env={}, store_dir=store)
    chroma, graph = settings.chroma_dir, settings.graph_dir
    batches = -(-docs // WRITE_BATCH)
    broken: set[str] = set()

    # 1. the first ingest, killed while its first vectors reach Chroma: nothing is in the graph yet
    _kill_run(corpus, store, lambda run: (run.wait_for_writes(1), run.kill_at(chroma, graph, 2)))
    fixed, stored = reconciled_and_agreeing(store)
    assert stored == {}
    broken |= set(fixed.orphans)

    # 2. again, killed as the last batch's graph write starts: earlier batches are in, the last whole or absent
    _kill_run(corpus, store, lambda run: (run.wait_for_writes(batches), run.kill_at(chroma, graph, 10**9)))
    fixed, stored = reconciled_and_agreeing(store)
    assert len(stored) in ((batches - 1) * WRITE_BATCH, docs)
    broken |= set(fixed.orphans)

    # 3. to the end: every document in, whole
    Ingest(corpus, store).finish()
    _, stored = reconciled_and_agreeing(store)
    assert len(stored) == docs

    # 4. every file edited, the re-ingest killed while it replaces the vectors of the first batch: the graph still
    #    holds the old versions, so their vectors must be rewritten from it
    _edit_every_file(corpus)
    _kill_run(corpus, store, lambda run: (run.wait_for_writes(1), run.kill_at(chroma, graph, 2)))
    with opened(store) as stores:  # before any repair: the graph as it was, some vectors not of its version
        graph_now = {d.id: d for d in stores.graph.list_documents()}
        versions = stores.vectors.chunk_versions()
        partial = {i for i, d in graph_now.items() if versions.get(i) != {d.content_hash: d.chunks}}
    assert {i: d.content_hash for i, d in graph_now.items()} == stored
    assert partial, "the kill left no stored document with replaced vectors"
    broken |= partial

    # 5. to the end again, the CLI repairing first: every document present, whole and current; vector search
    #    finds the repaired ones
    log = Ingest(corpus, store).finish()
    assert f" {len(partial)} repaired" in log, log
    _, final = reconciled_and_agreeing(store)
    assert len(final) == docs and not set(final.values()) & set(stored.values())
    with opened(store) as stores:
        for doc_id in sorted(broken)[:5]:
            hits = stores.vectors.query(f"{MARK} 修订已生效", 3, libraries=["x"], doc_id=doc_id)
            assert hits and MARK in stores.graph.chunks_by_id([hits[0].chunk_id])[0].text, doc_id
        assert {r.status for r in stores.ingestor.ingest([corpus], "x", source="cli")} == {"unchanged"}


def test_kill_9_during_the_writes_leaves_whole_or_absent_documents_and_a_re_ingest_repairs(tmp_path):
    crash_and_repair(tmp_path, 40)


@pytest.mark.slow
def test_kill_9_of_an_ingest_of_a_few_hundred_documents(tmp_path, request):
    if "slow" not in request.config.getoption("markexpr", "").replace("not slow", ""):
        pytest.skip("a few minutes on a busy machine; run it with -m slow")
    crash_and_repair(tmp_path, 300)


@pytest.mark.skipif(pdf_copies.CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install "
                    "chromium): no browser to print the PDF")
def test_kill_9_mid_ingest_of_a_pdf_and_a_spreadsheet_leaves_the_earlier_documents_whole(tmp_path):
    """The formats' writers under the same kills: PDFs printed by Chromium (pages kept per part) and an .xlsx
    attachment join a store that already holds documents; killed while their vectors land and again as the graph
    commits, the earlier documents stay whole and the new ones are whole or absent, then a last run brings them in."""
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    generate(corpus, 10, 1)
    Ingest(corpus, store).finish()
    _, earlier = reconciled_and_agreeing(store)
    assert len(earlier) == 10
    plan, hospital = DEMO_CORPUS / "东岭街道防汛应急预案.md", DEMO_CORPUS / "青禾县人民医院火灾事故应急预案.md"
    pdf_copies.chromium_pdf(plan, corpus / f"{plan.stem}.pdf")
    pdf_copies.chromium_pdf(hospital, corpus / f"{hospital.stem}.pdf")
    roster = pd.DataFrame({"日期": ["7月1日", "7月2日"], "带班领导": ["周海峰", "林晓"], "值班电话": [f"{MARK}0571", "0571-2"]})
    with pd.ExcelWriter(corpus / f"{plan.stem}-附件11-汛期值班安排表.xlsx") as writer:
        roster.to_excel(writer, sheet_name="七月", index=False)
    settings = load_settings(env={}, store_dir=store)

    for kill_point in (2, 10**9):  # while the new vectors reach Chroma; as the graph write starts
        _kill_run(corpus, store, lambda run: (run.wait_for_writes(1), run.kill_at(settings.chroma_dir,
                                                                                  settings.graph_dir, kill_point)))
        _, stored = reconciled_and_agreeing(store)
        assert {k: v for k, v in stored.items() if k in earlier} == earlier  # every earlier document whole
        assert len(stored) in (10, 12)  # the two PDFs (the sheet is the plan's attachment) in one batch, or not yet

    Ingest(corpus, store).finish()
    _, final = reconciled_and_agreeing(store)
    assert len(final) == 12 and {k: final[k] for k in earlier} == earlier
    with opened(store) as stores:
        pdfs = {d.id: d for d in stores.graph.list_documents() if d.name.endswith(".pdf")}
        assert len(pdfs) == 2
        [plan_id] = [i for i, d in pdfs.items() if d.name == f"{plan.stem}.pdf"]
        hits = stores.vectors.query(f"{MARK}0571 周海峰", 5, libraries=["x"], doc_id=plan_id)
        texts = [c.text for c in stores.graph.chunks_by_id([h.chunk_id for h in hits])]  # Chroma keeps no text
        assert any(MARK in t for t in texts), texts  # the sheet's rows, searchable
        assert {a.label for a in stores.graph.list_attachments() if a.doc_id == plan_id} >= {"附件4", "附件11"}


SAVER = """
import sys
from pathlib import Path
from kb.search.bm25_segments import Segments
from kb.settings import load_settings
from kb.stores import open_stores
words = open_stores(load_settings(env={}, store_dir=Path(sys.argv[1]))).keywords
rows = words.chunks()
segments = Segments({r.chunk_id: r for r in rows}, rows, len(words.vocab))
print("saving", flush=True)
while True:  # the background worker's save (kb/search/readmodels.py), again and again until killed
    segments.save(words.main_dir)
"""
KEYWORD_QUESTIONS = ("东岭街道有几艘冲锋舟？", "医院火灾时由谁下令疏散？", "防汛物资储备清单", "值班电话")


def _keyword_hits(service) -> dict[str, list[tuple[str, float]]]:
    bm25 = service.read.current().bm25
    return {q: [(c.chunk_id, round(s, 4)) for c, s in bm25.search(q, 10)] for q in KEYWORD_QUESTIONS}


def test_kill_9_while_the_bm25_main_segment_is_saved_leaves_keyword_search_as_before(tmp_path):
    """The incremental keyword index's writer: its main segment saved by a process killed at points inside the save
    (the temporary copy half written, the old one removed, the new one not yet renamed); the next start loads or
    rebuilds it and ranks every question as before. Meanwhile, in a live service, readers search while uploads
    rebase the segments and the background worker saves them."""
    store = tmp_path / "store"
    service = open_demo_service(store)
    service.read.settle()
    expected = _keyword_hits(service)
    assert all(expected.values())
    stop, failures, searched = threading.Event(), [], [0]

    def reader() -> None:
        while not stop.is_set():
            try:
                hits = service.read.current().bm25.search(KEYWORD_QUESTIONS[0], 5)
                assert hits and any("冲锋舟" in c.text for c, _ in hits), hits
                searched[0] += 1
            except Exception as exc:  # the test's own boundary: any failure of a reader is reported below
                failures.append(repr(exc))
                return

    readers = [threading.Thread(target=reader) for _ in range(3)]
    for thread in readers:
        thread.start()
    folder = tmp_path / "uploads"
    folder.mkdir()
    for n in range(6):  # each write goes to the delta and wakes the background save
        (folder / f"补充通知{n}.md").write_text(f"# 补充通知{n}\n\n值班电话按第{n}版通讯录执行。\n", encoding="utf-8")
        assert not [r.error for r in service.stores.ingestor.ingest([folder / f"补充通知{n}.md"], "extra") if r.error]
    service.read.settle()
    stop.set()
    for thread in readers:
        thread.join(30)
    assert not failures and searched[0] > 0, failures
    for n in range(6):
        assert service.stores.ingestor.delete(document_id("extra", f"补充通知{n}.md"))
    service.read.settle()
    assert _keyword_hits(service) == expected
    service.close()
    SharedSystemClient.clear_system_cache()

    for delay in (0.0, 0.005, 0.02, 0.05, 0.1):
        saver = subprocess.Popen([sys.executable, "-c", SAVER, str(store)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
        try:
            assert saver.stdout is not None and saver.stdout.readline().strip() == "saving"
            time.sleep(delay)
        finally:
            saver.send_signal(signal.SIGKILL)
            assert saver.wait(30) == -signal.SIGKILL
        reopened = open_service(load_settings(env={}, store_dir=store))
        try:
            assert _keyword_hits(reopened) == expected, f"killed {delay} s into its saves"
        finally:
            reopened.close()
            SharedSystemClient.clear_system_cache()


def _big_plan(folder: Path, name: str, paragraphs: int) -> Path:
    """A plan of many chunks (so its delete takes a while in each store) that cites an attachment."""
    body = "".join(f"第{n}条 值班人员按附件1轮换，每班两人，交接时核对装备清单第{n}项。\n\n" for n in range(paragraphs))
    path = folder / name
    path.write_text(f"# {path.stem}\n\n{body}附件1：值班表\n\n夜班两人。\n", encoding="utf-8")
    return path


# The CLI's delete with one store's delete made to wait at `stage` (a marker file says it got there): the kill
# then lands between the stores' writes — the graph's committed, Chroma's or the keyword index's not yet.
_PAUSED_DELETE = """
import sys, time
from pathlib import Path
from kb.cli import main
from kb.search.chroma import ChromaVectorStore
from kb.search.keyword_index import KeywordIndex
stage, marker, doc = sys.argv[1:4]
owner, name = {"vectors": (ChromaVectorStore, "delete_document"), "keywords": (KeywordIndex, "delete_documents")}[stage]
real = getattr(owner, name)
def paused(self, doc_ids):
    if doc_ids:  # not the opening reconcile's empty delete
        Path(marker).touch()
        time.sleep(60)
    return real(self, doc_ids)
setattr(owner, name, paused)
sys.exit(main(["delete", doc, "--library", "x"]))
"""


def _killed_delete(store: Path, doc: str, stage: str, tmp_path: Path) -> None:
    """Run the CLI's delete of `doc` and SIGKILL it once it waits before `stage`'s delete."""
    marker = tmp_path / f"at-{stage}"
    proc = subprocess.Popen([sys.executable, "-c", _PAUSED_DELETE, stage, str(marker), doc], cwd=ROOT,
                            env={**os.environ, "ANNEX_STORE_DIR": str(store), "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + RUN_TIMEOUT
    while not marker.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, f"the delete never reached {stage}"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(30) == -signal.SIGKILL


@pytest.mark.parametrize("stage", ["vectors", "keywords"])
def test_kill_9_between_a_deletes_writes_leaves_it_done_and_every_other_document_whole(tmp_path, stage):
    """The CLI deletes a 1,500-chunk document and is killed after the graph's delete committed, before Chroma's or
    the keyword index's. Opened again (reconciled, as app.py and the CLI open a store): the three stores hold the
    same documents, without the deleted one, and every other one as it was."""
    corpus, store = tmp_path / "corpus", tmp_path / "store"
    corpus.mkdir()
    for n in range(3):
        _big_plan(corpus, f"值班预案{n}.md", 30)
    doomed = _big_plan(corpus, "大预案.md", 1500)
    with opened(store) as stores:
        assert not [r.error for r in stores.ingestor.ingest([corpus], "x", source="cli") if r.error]
    _, before = reconciled_and_agreeing(store)
    _killed_delete(store, doomed.name, stage, tmp_path)
    doomed_id = document_id("x", doomed.name)
    with opened(store) as stores:  # the graph has let it go; Chroma still holds it (the keyword index is mended on open)
        assert stores.graph.load_document(doomed_id) is None
        assert (doomed_id in stores.vectors.chunk_counts()) == (stage == "vectors")
    fixed, after = reconciled_and_agreeing(store)
    assert after == {k: v for k, v in before.items() if k != doomed_id}
    with opened(store) as stores:
        assert stores.keywords.versions() == after  # the keyword index agrees too
        assert doomed_id not in stores.vectors.chunk_counts()
        assert not [h for h in stores.vectors.query("值班人员按附件1轮换", 50, libraries=["x"]) if h.doc_id == doomed_id]
