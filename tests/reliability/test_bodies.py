"""Request bodies are bounded while they stream in (ui/body_limit.py): memory for a question, the disk for an upload.

The real app on 127.0.0.1 in this process, so its peak memory is this process's: a body the server read whole
would raise it by the body's size or more.
"""
from __future__ import annotations

import resource
import shutil
import tempfile
import threading
from typing import Iterator

from pathlib import Path

import httpx
import pytest
from gradio.utils import get_upload_folder

from tests.demo_service import open_demo_service
from tests.reliability.conftest import LiveApp, assert_healthy
from tests.reliability.test_access import TOKEN, Queue
from tests.reliability.test_leaks import _serve

pytestmark = pytest.mark.reliability

MB = 1 << 20


@pytest.fixture(scope="module")
def app(tmp_path_factory) -> Iterator[LiveApp]:
    with _serve(open_demo_service(tmp_path_factory.mktemp("store"), api_token=TOKEN)) as live:
        yield live


class _Stream:
    """A body sent chunked (no Content-Length): head, megabytes of "a", tail; `.sent` counts the MB sent."""

    def __init__(self, head: bytes, megabytes: int, tail: bytes) -> None:
        self.head, self.megabytes, self.tail, self.sent = head, megabytes, tail, 0

    def __iter__(self) -> Iterator[bytes]:
        yield self.head
        chunk = b"a" * MB
        for _ in range(self.megabytes):
            self.sent += 1
            yield chunk
        yield self.tail


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.parametrize("declared", [True, False])
def test_a_300_mb_question_is_refused_while_it_streams_in(app, declared):
    """Before: the server read all 300 MB (and grew by three times that) before the 500-character limit spoke."""
    before = _peak_mb()
    body = _Stream(b'{"query":"', 300, b'"}')
    headers = {"content-type": "application/json"}
    if declared:  # the same bytes, announced: refused before they are read
        headers["content-length"] = str(len(b'{"query":""}') + 300 * MB)
    try:
        response = app.http.post("/api/knowledge/chat", content=body, headers=headers)
    except httpx.HTTPError:  # the server may answer and close before the client finished sending
        response = None
    if response is not None:
        assert response.status_code == 413, response.text[:300]
        [item] = response.json()["detail"]
        assert "ANNEX_MAX_REQUEST_KB" in item["msg"] and item["type"] == "body_too_large" and item["loc"] == ["body"]
    assert _peak_mb() - before < 100
    assert_healthy(app)


def test_a_gradio_event_with_megabytes_of_input_is_refused_and_the_page_goes_on(app):
    queue = Queue(app)
    dep = queue.deps["ask"]
    joined = app.http.post("/gradio_api/queue/join", json={
        "data": ["问" * (3 * MB), None, None, None], "fn_index": dep["id"], "session_hash": "big-event",
        "event_data": None, "trigger_id": None})
    assert joined.status_code == 413
    assert_healthy(app)


def test_an_upload_is_cut_off_before_it_fills_the_disk(tmp_path):
    """The floor set 150 MB under the free space: a 1 GB upload stops near 150 MB, with or without the token, and
    nothing it sent stays in the temporary folder."""
    free = shutil.disk_usage(tempfile.gettempdir()).free / MB
    service = open_demo_service(tmp_path / "store", api_token=TOKEN, min_free_disk_mb=free - 150,
                                  max_file_mb=2048, session_upload_mb=0)  # Gradio's own limits out of the way
    head = (b'--XX\r\nContent-Disposition: form-data; name="files"; filename="big.md"\r\n'
            b'Content-Type: text/markdown\r\n\r\n')
    watch: list[float] = []
    done = threading.Event()

    def sample() -> None:  # the disk's free MB while the uploads stream in: a spooled upload shows as a dip
        while not done.wait(0.02):
            watch.append(shutil.disk_usage(tempfile.gettempdir()).free / MB)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    spooled = lambda: {p for p in Path(get_upload_folder()).glob("*") if p.is_file()}  # Gradio's parts in flight
    before = spooled()
    with _serve(service) as live:
        for path, headers in (("/api/knowledge/documents", {}),
                              ("/api/knowledge/documents", {"authorization": f"Bearer {TOKEN}"}),
                              ("/gradio_api/upload", {})):
            body = _Stream(head, 1024, b"\r\n--XX--\r\n")
            try:
                response = live.http.post(path, content=body,
                                          headers={"content-type": "multipart/form-data; boundary=XX", **headers})
                assert response.status_code == 507, response.text[:300]
                assert "ANNEX_MIN_FREE_DISK_MB" in response.text
            except httpx.HTTPError:  # answered and closed while the client was still sending: also cut off
                pass
            lowest = min(watch, default=free)
            assert lowest > free - 400, f"{path}: the disk fell by {free - lowest:.0f} MB for a refused upload"
        done.set()
        assert spooled() <= before  # the refused upload's first megabytes went with it
        assert_healthy(live)
