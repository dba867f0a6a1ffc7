"""Uploaded files: a name they can be stored under, staged in a folder under the store, removed after the ingest."""
from __future__ import annotations

import os
import re
import secrets
import shutil
import unicodedata
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, Sequence

from kb.errors import ParseError, UploadLimit
from kb.ingest.ingestor import Ingestor, Progress
from kb.model import IngestResult
from kb.ingest.presplit import presplit_name
from kb.ingest.text_room import TextRoom

UPLOADS_DIR = "uploads"  # under ANNEX_STORE_DIR; one folder per upload in flight, cleared when the service opens
NAME_MAX_BYTES = 255  # a file name's limit on Linux file systems (NAME_MAX), in UTF-8 bytes
_SEPARATORS = re.compile(r"[/\\]")


def upload_name(sent: str) -> str:
    """The name an uploaded file is stored under: its last path segment, shortened to fit; ParseError if none."""
    odd = {c for c in sent if unicodedata.category(c) in ("Cc", "Cs")}  # control characters, lone surrogates
    shown = "".join(c.encode("unicode_escape", "backslashreplace").decode() if c in odd else c for c in sent)
    if any(unicodedata.category(c) == "Cc" for c in odd):
        raise ParseError(shown, "the file name holds a control character (such as NUL); rename the file and upload it "
                                "again.")
    try:
        sent.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ParseError(shown, "the file name is not valid Unicode; rename the file and upload it again.") from exc
    name = _SEPARATORS.split(sent)[-1].strip()
    if name in ("", ".", ".."):
        raise ParseError(shown or "(no name)", "the upload carries no file name, only a folder; send each file "
                                               "with its own name, such as 预案.docx.")
    if len(name.encode("utf-8")) <= NAME_MAX_BYTES:
        return name
    stem, ext = os.path.splitext(name)
    short = stem
    while short and len((short + ext).encode("utf-8")) > NAME_MAX_BYTES:
        short = short[:-1]
    over = f"the file name is {len(name.encode('utf-8'))} bytes, over the {NAME_MAX_BYTES} a file system allows"
    if not short.strip():
        raise ParseError(shown, f"{over}, even without its stem; rename the file, keeping its extension.")
    before, after = presplit_name(name), presplit_name(short + ext)
    if before and (after is None or (before.parent, before.label) != (after.parent, after.label)):
        raise ParseError(shown, f"{over}, and shortening it would lose its 附件 label; shorten the name (the part "
                                "before 附件N) and upload it again.")
    return short.rstrip() + ext


def check_free_disk(store_dir: Path, incoming: int, floor_mb: float) -> None:
    """UploadLimit when storing `incoming` bytes would leave the store's disk with less than floor_mb MB free."""
    root = Path(store_dir)
    while not root.exists() and root != root.parent:  # the store folder may not exist yet: measure its disk
        root = root.parent
    free = shutil.disk_usage(root).free
    if floor_mb > 0 and free - incoming < floor_mb * 1024 * 1024:
        raise UploadLimit("ANNEX_MIN_FREE_DISK_MB", f"服务器磁盘空间不足：存储目录所在磁盘只剩 {free / 2**20:.0f} MB，"
                          f"上传后须至少留 {floor_mb:g} MB（ANNEX_MIN_FREE_DISK_MB）。请删除不用的文档，或请管理员"
                          "清理磁盘后再试。")


@contextmanager
def staging_folder(store_dir: Path) -> Iterator[Path]:
    """A new folder under <store>/uploads/, removed with what it holds when the block ends."""
    folder = Path(store_dir) / UPLOADS_DIR / secrets.token_hex(8)
    folder.mkdir(parents=True)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def clear_staging(store_dir: Path) -> int:
    """Remove staging folders left by a process that was killed during an upload; how many were removed."""
    root = Path(store_dir) / UPLOADS_DIR
    if not root.is_dir():
        return 0
    leftovers = [p for p in root.iterdir()]
    for path in leftovers:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return len(leftovers)


def ingest_uploads(
    ingestor: Ingestor,
    store_dir: Path,
    files: Sequence[tuple[str, BinaryIO | Path]],
    library: str | None,
    progress: Progress | None = None,
    tags: Sequence[str] = (),
    text_room: TextRoom | None = None,
) -> list[IngestResult]:
    """Stage (name as sent, content) pairs under the store and ingest them together; one result per file (a
    visitor's, its extracted text bounded by `text_room`)."""
    refused: list[IngestResult] = []
    with staging_folder(store_dir) as folder:
        paths: list[Path] = []
        for sent, content in files:
            try:
                name = upload_name(sent)
            except ParseError as exc:
                refused.append(IngestResult(exc.file, status="error", error=str(exc)))
                continue
            target = folder / name
            if target.exists():
                refused.append(IngestResult(name, status="error", error=f"{name}: another file of this upload has "
                                            "the same name; give each file its own name."))
                continue
            try:
                if isinstance(content, Path):
                    shutil.copyfile(content, target)
                else:
                    with target.open("wb") as out:
                        shutil.copyfileobj(content, out)
            except OSError as exc:
                target.unlink(missing_ok=True)
                reason = f"could not be staged for ingest ({exc.strerror}); rename it or free disk space, then retry."
                refused.append(IngestResult(name, status="error", error=f"{name}: {reason}"))
                continue
            paths.append(target)
        results = ingestor.ingest(paths, library, progress, tags, text_room=text_room) if paths else []
    return results + refused
