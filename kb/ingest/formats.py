"""The file formats annex-rag reads: one list that upload, the CLI, the sync and kb.eval all take."""
from __future__ import annotations

from pathlib import PurePath

# extension → the format's name as the 知识库 tab lists it
FORMATS: dict[str, str] = {
    ".docx": "Word", ".doc": "Word 97-2003", ".pdf": "PDF", ".xlsx": "Excel", ".xls": "Excel 97-2003",
    ".csv": "CSV", ".md": "Markdown", ".txt": "文本", ".html": "HTML", ".htm": "HTML",
}
SUPPORTED_EXTENSIONS = tuple(FORMATS)
SHOWN = " / ".join(ext for ext in SUPPORTED_EXTENSIONS if ext != ".htm")  # .docx / .doc / .pdf / … as users read it
SPREADSHEETS = (".xlsx", ".xls", ".csv")


def format_of(name: str) -> str:
    """The format of a file by its name (PDF, Word, Excel…), "" when annex-rag does not read it."""
    return FORMATS.get(PurePath(name).suffix.lower(), "")
