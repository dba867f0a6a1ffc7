"""The token holder's pass for Gradio's upload route: a writer's uploads are not held to a visitor's share.

Gradio's /gradio_api/upload runs when files are chosen, before any event, so it never sees the 口令 box: a writer
loading a folder into the shared library was refused at ANNEX_SESSION_UPLOAD_MB like any visitor. When the box loses
focus (or Enter is pressed) with a token in it, the page posts the token once to POST /api/knowledge/upload-pass,
checked as every write is (wrong tokens counted, ui/api.py). A right token is answered with an HttpOnly cookie that
holds a signed expiry, never the token, and UploadShare lets uploads carrying it past the per-visitor share. What
still bounds a writer's uploads bounds every upload: ANNEX_MAX_FILE_MB a file, and the free-disk floor
ANNEX_MIN_FREE_DISK_MB (ui/body_limit.py). Files chosen before the token was typed were counted as a visitor's.

On a Hugging Face Space the page runs inside huggingface.co's iframe, so the cookie is a third-party one there: it
is sent from the frame only as `SameSite=None; Secure`, and browsers that block third-party cookies keep it only
`Partitioned` (one jar per top site). Those need https, which a request names by its scheme or, behind a proxy that
ends TLS (a Space's), its X-Forwarded-Proto; plain http (a local run) gets a first-party `SameSite=Strict` cookie,
which a browser keeps without https. The header is written here: Starlette's set_cookie refuses `partitioned`
before Python 3.14 (the route answered 500 over https).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Callable, Mapping

from starlette.requests import Request

COOKIE = "annex_writer"
PASS_SECONDS = 12 * 3600  # a working day of uploads; a restart (a new key) ends every pass sooner
KEY_BYTES = 32
PASS_ROUTE = "api/knowledge/upload-pass"  # relative to the page, so a proxy's path prefix is kept
# The token box's blur and submit: one post of a typed token (never per keystroke: each wrong one is counted).
PASS_JS = f"""(token) => {{
  const typed = (token || "").trim();
  if (typed) fetch("{PASS_ROUTE}", {{method: "POST", headers: {{Authorization: "Bearer " + typed}},
                                     credentials: "same-origin"}}).catch(() => {{}});
}}"""


def over_https(request: Request) -> bool:
    """Whether the page reached us over https: the request's scheme, or the first proxy's X-Forwarded-Proto.

    A client may write that header itself; it then only chooses its own cookie's attributes.
    """
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return "https" in (request.url.scheme, forwarded)


def pass_cookie(value: str, https: bool) -> str:
    """The Set-Cookie header of a pass: third-party-capable over https (a Space's frame), first-party over http."""
    where = "SameSite=None; Secure; Partitioned" if https else "SameSite=Strict"
    return f"{COOKIE}={value}; Max-Age={PASS_SECONDS}; Path=/; HttpOnly; {where}"


class WriterPasses:
    """Issues and checks passes: `<expiry>.<HMAC of it>` under a key of this process."""

    def __init__(self, clock: Callable[[], float] = time.time, key: bytes | None = None) -> None:
        self.clock = clock
        self._key = key or secrets.token_bytes(KEY_BYTES)

    def issue(self) -> str:
        """A new pass, valid PASS_SECONDS from now."""
        expiry = str(int(self.clock()) + PASS_SECONDS)
        return f"{expiry}.{self._sign(expiry)}"

    def valid(self, value: str) -> bool:
        """Whether `value` is a pass this process issued that has not expired."""
        expiry, _, mac = value.partition(".")
        if not (expiry.isascii() and expiry.isdigit() and len(expiry) < 20 and mac.isascii()):
            return False  # compare_digest refuses non-ASCII text, and a header is anything its sender wrote
        return hmac.compare_digest(mac, self._sign(expiry)) and int(expiry) > self.clock()

    def carried(self, headers: Mapping[str, str]) -> bool:
        """Whether a request with these (lower-cased) headers carries a valid pass in its Cookie header."""
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE and self.valid(value):
                return True
        return False

    def _sign(self, expiry: str) -> str:
        return hmac.new(self._key, expiry.encode("ascii"), hashlib.sha256).hexdigest()
