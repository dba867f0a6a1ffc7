"""Issue 21 lesser 16, its weak point: wrong tokens are counted per client, and a client is what really identifies
the sender — the connection's address, or behind ANNEX_PROXY_HOPS trusted proxies the address they appended.

A header the client writes itself (X-Forwarded-For's left entries) never buys a new set of attempts, and one
visitor's flood behind a shared proxy does not lock out the token's holder. Raw HTTP and Gradio's queue sent raw.
"""
from __future__ import annotations

from typing import Iterator

import pytest

from tests.demo_service import open_demo_service
from tests.reliability.conftest import LiveApp, assert_healthy
from tests.reliability.test_access import TOKEN, _error
from tests.reliability.test_leaks import Visitor, _serve

pytestmark = pytest.mark.reliability



def wrong(n: int) -> dict[str, str]:
    """The n-th guess: a guesser tries a new token each time (the same wrong one again is no new attempt)."""
    return {"Authorization": f"Bearer not-the-token-{n}"}


RIGHT = {"Authorization": f"Bearer {TOKEN}"}
GONE = "/api/knowledge/documents/nope"  # a token DELETE of no document: 404 once the token is accepted


@pytest.fixture
def direct(tmp_path) -> Iterator[LiveApp]:
    """No proxy in front (ANNEX_PROXY_HOPS=0, the default)."""
    with _serve(open_demo_service(tmp_path / "store", api_token=TOKEN)) as live:
        yield live


@pytest.fixture
def proxied(tmp_path) -> Iterator[LiveApp]:
    """One trusted proxy in front, as on a Hugging Face Space (ANNEX_PROXY_HOPS=1)."""
    with _serve(open_demo_service(tmp_path / "store", api_token=TOKEN, proxy_hops=1)) as live:
        yield live


def test_a_forged_forwarded_for_buys_no_new_attempts(direct):
    """Without a trusted proxy the header is the client's own words: a new one per attempt changes nothing."""
    codes = [direct.http.delete(GONE, headers={**wrong(n), "X-Forwarded-For": f"203.0.113.{n}"}).status_code
             for n in range(8)]
    assert codes == [403] * 5 + [429] * 3
    assert direct.http.delete(GONE, headers={**RIGHT, "X-Forwarded-For": "198.51.100.7"}).status_code == 429
    assert_healthy(direct)


def test_behind_a_proxy_one_visitors_flood_locks_out_that_visitor_alone(proxied):
    """The proxy appends each visitor's address; what a visitor writes before it is never read."""
    attacker = [proxied.http.delete(GONE, headers={**wrong(n), "X-Forwarded-For": f"10.9.{n}.1, 192.0.2.66"})
                for n in range(40)]
    assert [r.status_code for r in attacker] == [403] * 5 + [429] * 35
    assert all(int(r.headers["Retry-After"]) > 0 for r in attacker[5:])
    # the holder, behind the same proxy, at once and through both doors
    holder = {"X-Forwarded-For": "198.51.100.7"}
    assert proxied.http.delete(GONE, headers={**RIGHT, **holder}).status_code == 404
    visitor = Visitor(proxied, "holder-21")
    visitor.http.headers.update(holder)
    done = visitor.send("run_ingest", [[visitor.upload("口令持有人通知.md", "# 口令持有人通知\n\n值班表已更新。\n")],
                                       "proxied", "", TOKEN])
    assert done["success"] is True, done
    assert any(d.library == "proxied" for d in proxied.service.read.current().documents.values())
    # and the attacker stays locked out in the UI too, whatever it writes before the proxy's entry
    guesser = Visitor(proxied, "guesser-21")
    guesser.http.headers.update({"X-Forwarded-For": "198.51.100.7, 192.0.2.66"})
    message = _error(guesser.send("run_ingest", [[guesser.upload("x.md", "# x\n")], "proxied", "", TOKEN]))
    assert "口令错误次数太多" in message
    assert_healthy(proxied)


def test_a_request_that_skipped_the_proxy_is_counted_by_its_connection(proxied):
    """Fewer X-Forwarded-For entries than trusted proxies: the connection's address is all there is."""
    codes = [proxied.http.delete(GONE, headers=wrong(n)).status_code for n in range(6)]
    assert codes == [403] * 5 + [429]
    assert proxied.http.delete(GONE, headers={**RIGHT, "X-Forwarded-For": "198.51.100.7"}).status_code == 404


def test_a_wrong_token_typed_once_counts_once_though_the_page_checks_it_twice(direct):
    """The token box posts what it holds when it loses focus (the upload pass), and 入库 sends it again: one typo is
    one attempt, so a writer who mistypes four times is not locked out."""
    typist = Visitor(direct, "typist-22")
    for n in range(4):
        typo = f"{TOKEN}-typo{n}"
        blur = direct.http.post("/api/knowledge/upload-pass", headers={"Authorization": f"Bearer {typo}"})
        assert blur.status_code == 403, blur.text
        refused = typist.send("run_ingest", [[typist.upload("值班通知.md", "# 值班通知\n")], "demo", "", typo])
        assert "口令不对" in _error(refused)
    assert direct.http.post("/api/knowledge/upload-pass", headers=RIGHT).status_code == 204  # 4 attempts of 5
    assert direct.http.delete(GONE, headers=wrong(5)).status_code == 403  # the fifth distinct guess
    locked = typist.send("run_ingest", [[typist.upload("值班通知.md", "# 值班通知\n")], "demo", "", TOKEN])
    assert "口令错误次数太多" in _error(locked)
    typist.http.close()
    assert_healthy(direct)
