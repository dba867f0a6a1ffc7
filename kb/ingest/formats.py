"""The file formats annex-rag reads, and the files of a folder it reads: what upload, the CLI, the sync and kb.eval
all take."""
from __future__ import annotations

from pathlib import Path, PurePath
from typing import Iterable

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


# A folder's README describes the folder (its sources, what is missing from them); it is not one of its documents.
FOLDER_NOTES = frozenset({"readme.md", "readme.txt"})


def expand_paths(paths: Iterable[Path | str]) -> list[Path]:
    """Files named directly, plus the supported files under named directories (hidden ones and READMEs skipped).

    A README.md / README.txt found in a folder describes the folder, so its notes are never quoted as answers;
    named explicitly, it is ingested like any file."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            out.extend(
                p
                for p in sorted(path.rglob("*"))
                if p.is_file()
                and p.suffix.lower() in SUPPORTED_EXTENSIONS
                and p.name.lower() not in FOLDER_NOTES
                and not any(part.startswith((".", "~$")) for part in p.relative_to(path).parts)
            )
        else:
            out.append(path)
    return out
