"""The token holder's upload pass (ui/writer_pass.py): signed by this process, expiring, never the token."""
from __future__ import annotations

from ui.writer_pass import COOKIE, PASS_SECONDS, WriterPasses


def test_a_pass_is_valid_until_it_expires_and_only_for_the_process_that_signed_it():
    now = [1_000_000.0]
    passes = WriterPasses(clock=lambda: now[0])
    value = passes.issue()
    assert passes.valid(value) and passes.carried({"cookie": f"theme=dark; {COOKIE}={value}"})
    assert not WriterPasses(clock=lambda: now[0]).valid(value)  # a restart: a new key, every pass ended
    now[0] += PASS_SECONDS + 1
    assert not passes.valid(value)


def test_a_forged_or_garbled_pass_is_refused_without_an_error():
    passes = WriterPasses()
    expiry, _, mac = passes.issue().partition(".")
    for forged in (f"{int(expiry) + 10**6}.{mac}", "", ".", "9" * 40 + "." + mac, "²³.abc", f"{expiry}.é{mac[1:]}"):
        assert not passes.valid(forged), forged
    assert not passes.carried({"cookie": f"{COOKIE}=nope; {COOKIE}"}) and not passes.carried({})
