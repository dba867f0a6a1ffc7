"""The write token's check: constant time, and a client that keeps sending wrong tokens is refused for a while.

Without a limit a wrong token costs about 1.5 ms, so a script could try hundreds of thousands an hour. After
`attempts` wrong tokens within `window` seconds, a client is refused — even with the right token — until `window`
seconds have passed since its first wrong one. A client is its address (ui/client.py): the connection's, or behind
ANNEX_PROXY_HOPS trusted proxies the one they appended, so one visitor's flood locks out that visitor alone; left at
0 behind a proxy, everyone shares the proxy's address and a flood locks out the token's holder too.

An attempt is one wrong token, counted once: the page checks a typed token when its box loses focus (for the upload
pass, ui/writer_pass.py) and again at 入库, and a writer who mistyped was locked out after three typos, not five.
The same wrong token sent again within the window is the same guess: it is refused, but buys no new attempt and
costs no new one. Only a keyed digest of it is kept, never the token.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from typing import Callable

from kb.errors import TooManyTokens

ATTEMPTS = 5
WINDOW_SECONDS = 60.0


class TokenGuard:
    """Checks a token against ANNEX_API_TOKEN for one client, counting that client's wrong ones."""

    def __init__(self, attempts: int = ATTEMPTS, window: float = WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts = attempts
        self.window = window
        self.clock = clock
        self._wrong: dict[str, list[tuple[float, bytes]]] = {}  # client → (time, digest) of its recent wrong tokens
        self._key = secrets.token_bytes(32)  # the digests' key: a kept digest cannot be tried against a word list
        self._lock = threading.Lock()

    def matches(self, client: str, given: str, expected: str) -> bool:
        """Whether `given` is `expected`; TooManyTokens while `client` is locked out (the token is not compared)."""
        now = self.clock()
        with self._lock:
            for key in [k for k, wrong in self._wrong.items() if now - wrong[0][0] > self.window]:
                del self._wrong[key]  # forgotten once their window passed: the table stays small
            recent = self._wrong.get(client, [])
            if len(recent) >= self.attempts:
                raise TooManyTokens(round(self.window - (now - recent[0][0])) + 1)
        if hmac.compare_digest(given.encode(), expected.encode()):
            return True
        digest = hmac.new(self._key, given.encode(), hashlib.sha256).digest()
        with self._lock:
            recent = self._wrong.setdefault(client, [])
            if all(d != digest for _, d in recent):  # at most `attempts` entries: a bounded scan
                recent.append((now, digest))
        return False
