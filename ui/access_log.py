"""The access log without session hashes: a Gradio session hash is the only credential of a private library."""
from __future__ import annotations

import logging
import re

# Where Gradio puts the hash in a URL: ?session_hash=…, /heartbeat/<hash>, and the upload progress id.
_HASHES = re.compile(r"(session_hash=|/heartbeat/|upload_id=)[^&/?#\s\"]*")


def redact(text: str) -> str:
    """The text with every session hash in a URL replaced by …"""
    return _HASHES.sub(r"\1…", text)


class RedactSessions(logging.Filter):
    """Rewrites uvicorn's access-log records so the request line carries no session hash."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install() -> None:
    """Add the filter to uvicorn's access logger once (uvicorn's logging config keeps a logger's filters)."""
    logger = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSessions) for f in logger.filters):
        logger.addFilter(RedactSessions())
