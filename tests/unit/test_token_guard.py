"""The write token's check (kb/token_guard.py): each wrong token is one attempt, however often it is sent."""
from __future__ import annotations

import pytest

from kb.errors import TooManyTokens
from kb.token_guard import TokenGuard

RIGHT = "the-servers-token"


def test_the_same_wrong_token_sent_again_is_refused_but_counted_once():
    guard = TokenGuard(attempts=3, clock=lambda: 0.0)
    for _ in range(10):  # the page's blur, Enter and 入库 each send what the box holds
        assert not guard.matches("203.0.113.1", "typo-1", RIGHT)
    assert not guard.matches("203.0.113.1", "typo-2", RIGHT)
    assert guard.matches("203.0.113.1", RIGHT, RIGHT)  # two attempts of three: not locked out
    assert not guard.matches("203.0.113.1", "typo-3", RIGHT)
    with pytest.raises(TooManyTokens):  # the third distinct guess used the last attempt
        guard.matches("203.0.113.1", RIGHT, RIGHT)


def test_distinct_guesses_lock_a_client_out_until_its_window_passes_and_only_that_client():
    now = [0.0]
    guard = TokenGuard(attempts=5, window=60.0, clock=lambda: now[0])
    for n in range(5):
        assert not guard.matches("203.0.113.9", f"guess-{n}", RIGHT)
    with pytest.raises(TooManyTokens) as locked:
        guard.matches("203.0.113.9", RIGHT, RIGHT)
    assert locked.value.retry_after == 61
    assert guard.matches("198.51.100.7", RIGHT, RIGHT)  # another client is its own
    now[0] = 61.0
    assert guard.matches("203.0.113.9", RIGHT, RIGHT)
    assert not guard.matches("203.0.113.9", "guess-0", RIGHT)  # its window passed: an old guess counts anew
    assert guard._wrong == {"203.0.113.9": [(61.0, guard._wrong["203.0.113.9"][0][1])]}


def test_only_a_keyed_digest_of_a_wrong_token_is_kept():
    guard = TokenGuard(clock=lambda: 0.0)
    guard.matches("203.0.113.1", "almost-the-servers-token", RIGHT)
    [(_, digest)] = guard._wrong["203.0.113.1"]
    assert b"almost" not in digest and len(digest) == 32
    assert TokenGuard(clock=lambda: 0.0)._key != guard._key  # a new process, a new key: no digest outlives it
