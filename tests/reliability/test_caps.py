"""Issue 21 item 9: what visitors store is bounded per file, per upload, per session and across all sessions.

The real app on 127.0.0.1 with small limits, driven with raw HTTP and Gradio's queue sent raw (one session hash per
visitor). Each refusal must name its ANNEX_ setting, and leave the stores and Gradio's upload folder as they were.
"""
from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Iterator

import gradio.utils as gradio_utils
import httpx
import pandas as pd
import pytest

from kb.model import is_private
from tests.demo_service import open_demo_service
from tests.reliability.conftest import LiveApp, assert_healthy
from tests.reliability.test_access import TOKEN, _error
from tests.reliability.test_leaks import Visitor, _serve

pytestmark = pytest.mark.reliability

LIMITS = dict(max_file_mb=0.2, session_max_files=3, session_max_mb=0.01, max_session_libraries=2, session_max_documents=4)


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[LiveApp]:
    """The demo corpus served with the token set and small limits: 205 KB a file, 3 files, 10 KB, 2 libraries."""
    with _serve(open_demo_service(tmp_path_factory.mktemp("store"), api_token=TOKEN, **LIMITS)) as live:
        yield live


def _text(title: str, kilobytes: int) -> str:
    """A plan of about this many KB (UTF-8) that ingests as one document."""
    line = f"{title}的值班人员按表轮换，每班两人，交接时核对装备清单。\n\n"
    return f"# {title}\n\n" + line * (kilobytes * 1024 // len(line.encode()) + 1)


def _private(app: LiveApp) -> dict[str, set[str]]:
    """Private library → the names of its documents."""
    held: dict[str, set[str]] = {}
    for doc in app.service.read.current().documents.values():
        if is_private(doc.library):
            held.setdefault(doc.library, set()).add(doc.name)
    return held


def _uploads() -> set[Path]:
    folder = Path(gradio_utils.get_upload_folder())
    return {p for p in folder.rglob("*") if p.is_file()} if folder.exists() else set()


def _end(app: LiveApp, *sessions: str) -> None:
    """End the sessions and wait for the background sweep to delete every private library."""
    for session in sessions:
        app.service.sessions.end(session)
    deadline = time.monotonic() + 60
    while _private(app):
        assert time.monotonic() < deadline, f"private libraries still stored: {_private(app)}"
        time.sleep(0.1)


def test_gradio_upload_refuses_a_file_over_max_file_mb_and_keeps_nothing(app):
    before = _uploads()
    big = b"x" * (300 * 1024)  # over ANNEX_MAX_FILE_MB=0.2 (205 KB)
    response = httpx.post(f"{app.url}/gradio_api/upload", files=[("files", ("big.md", big, "text/markdown"))])
    assert response.status_code == 413, response.text
    assert "maximum allowed size" in response.text
    assert _uploads() == before
    small = httpx.post(f"{app.url}/gradio_api/upload", files=[("files", ("small.md", b"# ok\n", "text/markdown"))])
    assert small.status_code == 200  # a file under the limit still goes through
    assert_healthy(app)


def test_a_visitor_over_the_per_session_cap_is_told_and_the_library_stays(app):
    visitor = Visitor(app, "caps-size-1")
    first = visitor.send("run_ingest", [[visitor.upload("值班表甲.md", _text("值班表甲", 6))], "", "", ""])
    assert first["success"] is True
    held = _private(app)
    assert [names for names in held.values()] == [{"值班表甲.md"}]
    second = visitor.upload("值班表乙.md", _text("值班表乙", 6))  # 6 KB held + 6 KB sent > 10 KB
    message = _error(visitor.send("run_ingest", [[second], "", "", ""]))
    assert "ANNEX_SESSION_MAX_MB" in message and "删除" in message, message
    assert _private(app) == held
    assert not Path(second["path"]).exists()  # Gradio's copy of the refused file went too
    _end(app, "caps-size-1")
    assert_healthy(app)


def test_a_visitors_small_spreadsheet_that_expands_past_the_room_is_refused_on_its_line(app, tmp_path):
    """A zip (.xlsx, .docx) under the byte caps may hold far more text: its extracted text meets the cap too."""
    cell = "值班人员按表轮换，每班两人，交接时核对装备清单。" * 20  # one shared string, referenced on every row
    bomb = tmp_path / "值班职责表.xlsx"
    pd.DataFrame({"职责": [cell] * 60}).to_excel(bomb, index=False)
    assert bomb.stat().st_size < 10 * 1024  # under ANNEX_SESSION_MAX_MB=0.01 as bytes, ~86 KB as text
    visitor = Visitor(app, "caps-bomb-1")
    response = visitor.http.post("/gradio_api/upload", files=[("files", (bomb.name, bomb.read_bytes(),
                                                                          "application/octet-stream"))])
    [path] = response.json()
    small = visitor.upload("值班表丙.md", _text("值班表丙", 1))
    done = visitor.send("run_ingest", [[{"path": path, "orig_name": bomb.name, "meta": {"_type": "gradio.FileData"}},
                                        small], "", "", ""])
    assert done["success"] is True, done
    line = done["output"]["data"][0]
    assert "值班职责表.xlsx: its text is" in line and "ANNEX_SESSION_MAX_MB" in line, line
    assert [names for names in _private(app).values()] == [{"值班表丙.md"}]  # the other file of the upload is in
    _end(app, "caps-bomb-1")
    assert_healthy(app)


def test_a_visitors_tiny_files_are_capped_in_documents_however_small(app):
    """Each document costs ~60 KB of memory whatever its size: past ANNEX_SESSION_MAX_DOCUMENTS the upload is refused,
    the library kept as it was; deleting one makes room."""
    visitor = Visitor(app, "caps-count-1")
    notes = [visitor.upload(f"便条{n}.md", f"# 便条{n}\n\n值班{n}。\n") for n in range(3)]
    assert visitor.send("run_ingest", [notes, "", "", ""])["success"] is True
    held = _private(app)
    more = [visitor.upload(f"便条{n}.md", f"# 便条{n}\n\n值班{n}。\n") for n in range(3, 5)]
    message = _error(visitor.send("run_ingest", [more, "", "", ""]))  # 3 held + 2 sent > 4
    assert "ANNEX_SESSION_MAX_DOCUMENTS" in message and "删除" in message, message
    assert _private(app) == held and not [f["path"] for f in more if Path(f["path"]).exists()]
    assert visitor.send("run_ingest", [more[:1] and [visitor.upload("便条3.md", "# 便条3\n\n值班3。\n")], "", "", ""])["success"]
    _end(app, "caps-count-1")
    assert_healthy(app)


def test_private_libraries_are_capped_across_all_sessions(app):
    first, second, third = (Visitor(app, f"caps-room-{n}") for n in (1, 2, 3))
    for n, visitor in enumerate((first, second), 1):
        assert visitor.send("run_ingest", [[visitor.upload(f"预案{n}.md", _text(f"预案{n}", 1))], "", "", ""])["success"]
    held = _private(app)
    assert len(held) == 2
    message = _error(third.send("run_ingest", [[third.upload("预案3.md", _text("预案3", 1))], "", "", ""]))
    assert "ANNEX_MAX_SESSION_LIBRARIES" in message and "到期" in message, message
    assert _private(app) == held
    # A session that already has its library may still add to it.
    assert first.send("run_ingest", [[first.upload("预案1补充.md", _text("预案1补充", 1))], "", "", ""])["success"]
    assert len(_private(app)) == 2
    _end(app, "caps-room-1", "caps-room-2")
    assert third.send("run_ingest", [[third.upload("预案3.md", _text("预案3", 1))], "", "", ""])["success"]
    _end(app, "caps-room-3")
    assert_healthy(app)


def test_a_visitor_upload_is_capped_in_files_but_a_token_upload_is_not(app):
    visitor = Visitor(app, "caps-files-1")
    files = [visitor.upload(f"通知{n}.md", _text(f"通知{n}", 1)) for n in range(4)]
    message = _error(visitor.send("run_ingest", [files, "", "", ""]))
    assert "ANNEX_SESSION_MAX_FILES" in message and "口令" in message, message
    assert not _private(app)
    assert not [f["path"] for f in files if Path(f["path"]).exists()]  # nor are Gradio's copies kept
    shared = [visitor.upload(f"共享通知{n}.md", _text(f"共享通知{n}", 1)) for n in range(4)]
    assert visitor.send("run_ingest", [shared, "caps", "", TOKEN])["success"] is True
    names = {d.name for d in app.service.read.current().documents.values() if d.library == "caps"}
    assert names == {f"共享通知{n}.md" for n in range(4)}
    assert_healthy(app)


def test_no_upload_goes_below_the_free_disk_floor(tmp_path):
    """A floor above the disk's size: Gradio's upload and the API's are refused as they stream in (ui/body_limit.py);
    files uploaded before the floor rose are refused at ingest, with or without the token. Each names the setting."""
    with _serve(open_demo_service(tmp_path / "store", api_token=TOKEN, min_free_disk_mb=10**12)) as live:
        visitor = Visitor(live, "caps-disk-1")
        before = set(live.service.read.current().documents)
        for sent in (visitor.http.post("/gradio_api/upload", files=[("files", ("预案.md", b"# x\n", "text/markdown"))]),
                     live.http.post("/api/knowledge/documents", headers={"Authorization": f"Bearer {TOKEN}"},
                                    files=[("files", ("预案.md", _text("预案", 1).encode(), "text/markdown"))])):
            assert sent.status_code == 507 and "ANNEX_MIN_FREE_DISK_MB" in sent.text, sent.text
        assert set(live.service.read.current().documents) == before
        assert_healthy(live)
    with _serve(open_demo_service(tmp_path / "store2", api_token=TOKEN)) as live:
        visitor = Visitor(live, "caps-disk-2")
        files = [visitor.upload(f"预案{n}.md", _text(f"预案{n}", 1)) for n in "甲乙"]
        before = set(live.service.read.current().documents)
        live.service.settings = replace(live.service.settings, min_free_disk_mb=10**12)  # the disk filled meanwhile
        for file, (library, token) in zip(files, (("", ""), ("caps", TOKEN))):
            message = _error(visitor.send("run_ingest", [[file], library, "", token]))
            assert "ANNEX_MIN_FREE_DISK_MB" in message, message
            assert not Path(file["path"]).exists()
        assert set(live.service.read.current().documents) == before
