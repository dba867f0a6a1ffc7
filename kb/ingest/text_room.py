"""The extracted text a visitor's upload may still add: its private library's room under ANNEX_SESSION_MAX_MB.

The caps on an upload are checked on file bytes before anything is read, but a .docx or .xlsx is a zip: a file of a
few hundred KB may expand to hundreds of MB of text. So each file's text, once extracted, is counted against the
room too, and a file past it is that file's error.
"""
from __future__ import annotations

from dataclasses import dataclass

from kb.errors import ParseError
from kb.model import ParsedFile

MB = 1024 * 1024


@dataclass
class TextRoom:
    """Bytes of UTF-8 text left before the private library would pass `cap`."""

    left: int
    cap: int

    def take(self, parsed: ParsedFile) -> None:
        """Count the file's text against the room; ParseError, taking nothing, when it does not fit."""
        size = len(parsed.text.encode("utf-8"))
        if size > self.left:
            raise ParseError(parsed.file, f"its text is {size / MB:.3g} MB once extracted, over the "
                             f"{self.left / MB:.3g} MB left in this private library (ANNEX_SESSION_MAX_MB="
                             f"{self.cap / MB:.3g}); split the file, delete documents from the private library, or "
                             "upload it with the token.")
        self.left -= size
