"""Gradio's upload folder is shared by every visitor: one visitor's uploads hold a bounded share of it, and a tab's
uploads it never ingested go when the tab closes (ui/upload_share.py, ui/uploaded.py)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from gradio.utils import get_upload_folder

from kb.service import open_service
from kb.settings import load_settings
from tests.live_server import LiveServer, build_app
from ui.library.tab import KnowledgeBase
from ui.uploaded import discard_uploads

pytestmark = pytest.mark.reliability

KB = 1024


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """An empty store served with a 1 MB upload share per visitor, behind one trusted proxy."""
    service = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store"), session_upload_mb=1,
                                         proxy_hops=1))
    try:
        with LiveServer(build_app(service)) as server, httpx.Client(base_url=server.url, timeout=60) as http:
            yield SimpleNamespace(http=http, service=service)
    finally:
        service.close()


def _upload(live, visitor: str, size: int, name: str = "笔记.md", fill: bytes = b"a") -> httpx.Response:
    data = (fill * size)[:size]  # Gradio files an upload under its content's hash: the same bytes, the same file
    return live.http.post("/gradio_api/upload", files={"files": (name, data, "text/markdown")},
                          headers={"x-forwarded-for": visitor})


def test_one_visitors_uploads_hold_at_most_their_share_of_the_upload_folder(live):
    first = _upload(live, "203.0.113.1", 600 * KB)
    assert first.status_code == 200, first.text
    [held] = first.json()
    assert Path(held).stat().st_size == 600 * KB
    refused = _upload(live, "203.0.113.1", 600 * KB)  # 1.2 MB held together: past the 1 MB share
    assert refused.status_code == 413 and "ANNEX_SESSION_UPLOAD_MB" in refused.text and "入库或移除" in refused.text
    before = {p for p in Path(get_upload_folder()).rglob("*") if p.is_file()}
    chunked = live.http.post("/gradio_api/upload", content=_multipart(600 * KB),  # no Content-Length: counted as sent
                             headers={"x-forwarded-for": "203.0.113.1",
                                      "content-type": "multipart/form-data; boundary=XX"})
    assert chunked.status_code == 413
    assert {p for p in Path(get_upload_folder()).rglob("*") if p.is_file()} <= before  # nothing of them kept
    other = _upload(live, "198.51.100.9", 600 * KB, fill=b"b")  # another visitor's share is their own
    assert other.status_code == 200
    discard_uploads([held])  # ingested or removed: it no longer counts
    again = _upload(live, "203.0.113.1", 600 * KB)
    assert again.status_code == 200, again.text
    discard_uploads([*other.json(), *again.json()])


def test_many_tiny_files_are_bounded_by_count_as_well(live):
    from ui.upload_share import MAX_HELD_FILES

    kept = []
    for n in range(MAX_HELD_FILES):
        response = _upload(live, "203.0.113.7", 8, fill=b"%08d" % n)
        assert response.status_code == 200
        kept += response.json()
    refused = _upload(live, "203.0.113.7", 8, fill=b"one more")
    assert refused.status_code == 413 and f"{MAX_HELD_FILES} 个" in refused.text
    discard_uploads(kept)


def test_uploads_a_tab_never_ingested_go_when_it_closes_and_only_its_own(live):
    mine = _upload(live, "203.0.113.20", 10 * KB).json()
    theirs = _upload(live, "203.0.113.21", 10 * KB, fill=b"c").json()
    kb = KnowledgeBase(live.service)
    kb.uploads.hold("tab-1", mine)
    kb.uploads.hold("tab-2", theirs)
    kb.uploads.hold("tab-1", ["/etc/passwd"])  # a forged event naming a file outside the upload folder: ignored
    kb.end_session(SimpleNamespace(session_hash="tab-1"))
    assert not Path(mine[0]).exists() and not Path(mine[0]).parent.exists()
    assert Path(theirs[0]).exists() and Path("/etc/passwd").exists()
    kb.end_session(SimpleNamespace(session_hash="tab-2"))
    assert not Path(theirs[0]).exists()


def _multipart(size: int):
    yield b'--XX\r\nContent-Disposition: form-data; name="files"; filename="big.md"\r\nContent-Type: text/markdown\r\n\r\n'
    for _ in range(size // (64 * KB)):
        yield b"a" * (64 * KB)
    yield b"\r\n--XX--\r\n"


def test_the_ledger_forgets_senders_whose_files_are_gone(tmp_path):
    from ui.upload_share import SENDERS_BEFORE_PRUNE, UploadLedger

    ledger = UploadLedger(10 * KB)
    kept = tmp_path / "kept.md"
    kept.write_bytes(b"x" * KB)
    ledger.record("stays", [str(kept)])
    for n in range(SENDERS_BEFORE_PRUNE + 1):
        gone = tmp_path / f"{n}.md"
        gone.write_bytes(b"x")
        ledger.record(f"198.51.100.{n}", [str(gone)])
        gone.unlink()
    assert len(ledger._files) < 10 and ledger.held("stays") == (KB, 1)  # not a thousand senders for ever


TOKEN = "upload-share-token"


@pytest.fixture(scope="module")
def writable(tmp_path_factory):
    """An empty store with ANNEX_API_TOKEN set and a 1 MB upload share per visitor, behind one trusted proxy."""
    service = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store"), session_upload_mb=1,
                                         proxy_hops=1, api_token=TOKEN))
    try:
        with LiveServer(build_app(service)) as server:
            yield server.url
    finally:
        service.close()


def test_the_token_holder_is_not_held_to_a_visitors_upload_share(writable):
    from ui.upload_share import WRITER_HINT
    from ui.writer_pass import COOKIE

    address = {"x-forwarded-for": "203.0.113.40"}  # the writer and a visitor behind one address
    with httpx.Client(base_url=writable, timeout=60) as writer, httpx.Client(base_url=writable, timeout=60) as visitor:
        wrong = writer.post("/api/knowledge/upload-pass", headers={**address, "authorization": "Bearer wrong"})
        assert wrong.status_code == 403 and COOKIE not in writer.cookies
        right = writer.post("/api/knowledge/upload-pass", headers={**address, "authorization": f"Bearer {TOKEN}"})
        assert right.status_code == 204 and COOKIE in writer.cookies
        assert "httponly" in right.headers["set-cookie"].lower() and TOKEN not in right.headers["set-cookie"]
        kept = []
        for n in range(3):  # 1.8 MB held at once: past a visitor's 1 MB share
            sent = writer.post("/gradio_api/upload", headers=address,
                               files={"files": (f"共享{n}.md", bytes([65 + n]) * (600 * KB), "text/markdown")})
            assert sent.status_code == 200, sent.text
            kept += sent.json()
        first = visitor.post("/gradio_api/upload", headers=address,  # the writer's files are not the visitor's
                             files={"files": ("访客.md", b"v" * (600 * KB), "text/markdown")})
        assert first.status_code == 200, first.text
        kept += first.json()
        for cookie in ({}, {"cookie": f"{COOKIE}=4102444800.forged"}):  # no pass, or a forged one: a visitor's share
            refused = visitor.post("/gradio_api/upload", headers={**address, **cookie},
                                   files={"files": ("访客2.md", b"w" * (600 * KB), "text/markdown")})
            assert refused.status_code == 413 and WRITER_HINT in refused.text
    discard_uploads(kept)
    assert not any(Path(p).exists() for p in kept)


def test_sessions_that_never_closed_are_forgotten_once_their_files_are_gone(live):
    from ui.uploaded import SESSIONS_BEFORE_PRUNE, SessionUploads

    uploads = SessionUploads()
    [kept] = _upload(live, "203.0.113.50", 10, fill=b"kept").json()
    uploads.hold("stays", [kept])
    for n in range(SESSIONS_BEFORE_PRUNE + 1):  # a raw client: a new session hash each time, never an unload
        [path] = _upload(live, "203.0.113.51", 10, fill=b"%010d" % n).json()
        uploads.hold(f"raw-{n}", [path])
        discard_uploads([path])  # Gradio's hour passed
    assert len(uploads._held) < 10 and "stays" in uploads._held
    uploads.release("stays")
    assert not Path(kept).exists()


def test_the_pass_cookie_is_first_party_over_http_and_partitioned_third_party_over_https(writable):
    """On a Space the page is framed by huggingface.co and served over https by a proxy that says so in
    X-Forwarded-Proto: only a `SameSite=None; Secure; Partitioned` cookie is sent from that frame. A local run over
    plain http keeps a first-party cookie, which a browser stores without https."""
    from ui.writer_pass import COOKIE

    right = {"authorization": f"Bearer {TOKEN}", "x-forwarded-for": "203.0.113.41"}
    with httpx.Client(base_url=writable, timeout=60) as local:
        plain = local.post("/api/knowledge/upload-pass", headers=right)
        assert plain.status_code == 204, plain.text
        attributes = [a.strip().lower() for a in plain.headers["set-cookie"].split(";")]
        assert "samesite=strict" in attributes and "httponly" in attributes
        assert "secure" not in attributes and "partitioned" not in attributes
        assert COOKIE in local.cookies  # kept over plain http
    with httpx.Client(base_url=writable, timeout=60) as framed:
        for proto in ("https", "https, http"):  # the proxy nearest the browser comes first
            served = framed.post("/api/knowledge/upload-pass", headers={**right, "x-forwarded-proto": proto})
            assert served.status_code == 204, served.text
            header = served.headers["set-cookie"]
            attributes = [a.strip().lower() for a in header.split(";")]
            assert {"samesite=none", "secure", "partitioned", "httponly", "path=/"} <= set(attributes), header
            assert TOKEN not in header
        value = header.split(";")[0].partition("=")[2]
        kept = []
        for n in range(2):  # 1.2 MB held at once: past a visitor's 1 MB share, with the pass the frame sends back
            sent = framed.post("/gradio_api/upload", headers={"x-forwarded-for": "203.0.113.41",
                                                              "cookie": f"{COOKIE}={value}"},
                               files={"files": (f"框内{n}.md", bytes([70 + n]) * (600 * KB), "text/markdown")})
            assert sent.status_code == 200, sent.text
            kept += sent.json()
    discard_uploads(kept)
