"""Project exceptions; each message says what happened and what to do."""
from __future__ import annotations


class AnnexError(Exception):
    """Base class of every error annex-rag raises on purpose."""


class SettingsError(AnnexError, ValueError):
    """A setting has a value that cannot be used; the message names the ANNEX_ variable and its allowed values."""


class ParseError(AnnexError):
    """A file could not be read into text."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason


class IngestError(AnnexError):
    """A file could not be ingested (beyond parsing: linking, stores)."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file
        self.reason = reason
