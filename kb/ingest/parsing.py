"""Read .docx, .md and .txt files into exact text (tables as rows, headings kept as spans)."""
from __future__ import annotations

import hashlib
import re
import zipfile
from pathlib import Path

from charset_normalizer import from_bytes

from kb.errors import ParseError
from kb.model import Heading, ParsedFile

SUPPORTED_EXTENSIONS = (".docx", ".md", ".txt")
CELL_SEPARATOR = " | "
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_MD_HEADING = re.compile(r"^(#{1,6})\s+\S.*$", re.M)
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def parse_file(path: Path, max_bytes: int) -> ParsedFile:
    """Parse one supported file; raise ParseError naming the file and the reason."""
    path = Path(path)
    name = path.name
    ext = path.suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise ParseError(name, f"unsupported file type {ext or '(none)'}; annex-rag reads {', '.join(SUPPORTED_EXTENSIONS)}.")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ParseError(name, f"cannot be read ({exc.strerror}).") from exc
    if size == 0:
        raise ParseError(name, "the file is empty.")
    if size > max_bytes:
        raise ParseError(
            name,
            f"{size / 1048576:.1f} MB is over the {max_bytes / 1048576:.0f} MB limit; split the file or raise ANNEX_MAX_FILE_MB.",
        )
    raw = path.read_bytes()
    if ext == ".docx":
        text, headings, tags = _read_docx(name, raw)
    else:
        text = _decode_text(name, raw)
        tags = ()
        if ext == ".md":
            text, tags = _split_front_matter(text)
        headings = _markdown_headings(text) if ext == ".md" else ()
    if not text.strip():
        raise ParseError(name, "the file holds no text.")
    digest = hashlib.sha256((text + "\x00" + "\x1f".join(tags)).encode("utf-8")).hexdigest()
    return ParsedFile(file=name, path=str(path), text=text, content_hash=digest, headings=headings, tags=tags)


def _decode_text(name: str, raw: bytes) -> str:
    """Decode UTF-8 (BOM stripped), UTF-16 with BOM, or GBK/GB18030; refuse binary data."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = raw.decode("utf-16")
    else:
        if b"\x00" in raw[:8192]:
            raise ParseError(name, "looks like a binary file, not text; save it as UTF-8 text or .docx.")
        text = None
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        if text is None:
            best = from_bytes(raw).best()
            if best is None:
                raise ParseError(name, "is not text in a known encoding; save it as UTF-8.")
            text = str(best)
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    controls = sum(1 for c in text[:8192] if ord(c) < 32 and c not in "\n\t\f")
    if controls > max(8, len(text[:8192]) // 100):
        raise ParseError(name, "looks like a binary file, not text; save it as UTF-8 text or .docx.")
    return text


def _split_front_matter(text: str) -> tuple[str, tuple[str, ...]]:
    """Drop a YAML front-matter block and return its tags (a `tags:` or `keywords:` entry)."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return text, ()
    tags: list[str] = []
    lines = match.group(1).splitlines()
    for i, line in enumerate(lines):
        key, _, value = line.partition(":")
        if key.strip().lower() not in ("tags", "keywords"):
            continue
        value = value.strip().strip("[]")
        if value:
            tags.extend(_split_tags(value))
        else:
            for item in lines[i + 1 :]:
                if not item.strip().startswith("-"):
                    break
                tags.append(item.strip()[1:].strip().strip("'\""))
    return text[match.end() :], tuple(t for t in tags if t)


def _split_tags(value: str) -> list[str]:
    return [t.strip().strip("'\"") for t in re.split(r"[,，;；、]", value) if t.strip()]


def _markdown_headings(text: str) -> tuple[Heading, ...]:
    return tuple(Heading(len(m.group(1)), m.start(), m.end()) for m in _MD_HEADING.finditer(text))


def _read_docx(name: str, raw: bytes) -> tuple[str, tuple[Heading, ...], tuple[str, ...]]:
    """Paragraphs and tables in body order; table rows as lines of cells joined by CELL_SEPARATOR."""
    import io

    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    if raw.startswith(_OLE_MAGIC):
        raise ParseError(
            name,
            "is password-protected or a legacy Word .doc file; remove the password or save it as .docx.",
        )
    try:
        document = docx.Document(io.BytesIO(raw))
    except (zipfile.BadZipFile, PackageNotFoundError, KeyError, ValueError) as exc:
        raise ParseError(name, f"is not a valid .docx file ({exc}); open and re-save it in Word.") from exc
    # Paragraph.style looks the style up afresh each time (~1 ms a paragraph); map style ids once instead.
    levels = {style.style_id: _heading_level(style.name or "") for style in document.styles}
    lines: list[str] = []
    headings: list[Heading] = []
    offset = 0
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            new_lines = [_row_text(row) for row in block.rows]
            new_lines = [line for line in new_lines if line.strip(" |")]
            level = 0
        else:
            new_lines = [block.text]
            level = levels.get(block._p.style or "", 0)
        for line in new_lines:
            if level and line.strip():
                headings.append(Heading(level, offset, offset + len(line)))
            lines.append(line)
            offset += len(line) + 1
    props = document.core_properties
    tags = tuple(_split_tags(props.keywords or ""))
    return "\n".join(lines), tuple(headings), tags


def _row_text(row) -> str:
    cells: list[str] = []
    previous = None
    for cell in row.cells:
        if cell._tc is previous:  # a merged cell repeats; keep it once
            continue
        previous = cell._tc
        cells.append(" ".join(cell.text.split()))
    return CELL_SEPARATOR.join(cells)


def _heading_level(style_name: str) -> int:
    match = re.match(r"(?:Heading|标题)\s*(\d)", style_name)
    if match:
        return int(match.group(1))
    return 1 if style_name in ("Title", "标题") else 0
