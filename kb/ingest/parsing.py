"""Read a supported file (kb/ingest/formats.py) into exact text (tables as rows, headings kept as spans)."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from kb.ingest.docx_text import CELL_SEPARATOR, read_docx, split_tags
from kb.errors import ParseError
from kb.ingest.html_text import html_to_text, is_html_page
from kb.model import Heading, ParsedFile
from kb.ingest.formats import SPREADSHEETS, SUPPORTED_EXTENSIONS
from kb.ingest.legacy_doc import read_doc
from kb.ingest.line_breaks import restore_line_breaks
from kb.ingest.spreadsheet import read_spreadsheet
from kb.ingest.text_encoding import decode_text
from kb.ingest.pdf_text import MAX_OCR_PAGES, PageProgress, read_pdf

_HTML_EXTENSIONS = (".html", ".htm")
__all__ = ["CELL_SEPARATOR", "SUPPORTED_EXTENSIONS", "parse_file"]
_MD_HEADING = re.compile(r"^(#{1,6})\s+\S.*$", re.M)
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


def parse_file(path: Path, max_bytes: int, page_progress: PageProgress | None = None,
               max_ocr_pages: int = MAX_OCR_PAGES) -> ParsedFile:
    """Parse one supported file; raise ParseError naming the file and the reason. `page_progress` hears of each
    scanned page as OCR reads it; a PDF with more scanned pages than `max_ocr_pages` is refused before OCR starts."""
    path = Path(path)
    name = path.name
    ext = path.suffix.lower()
    if ext not in SUPPORTED_EXTENSIONS:
        raise ParseError(name, f"unsupported file type {ext or '(none)'}; annex-rag reads {', '.join(SUPPORTED_EXTENSIONS)}.")
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ParseError(name, f"cannot be read ({exc.strerror}).") from exc
    except ValueError as exc:  # a NUL in the path
        raise ParseError(name, f"cannot be read ({exc}); rename the file.") from exc
    if size == 0:
        raise ParseError(name, "the file is empty.")
    if size > max_bytes:
        raise ParseError(
            name,
            f"{size / 1048576:.1f} MB is over the {max_bytes / 1048576:.0f} MB limit; split the file or raise ANNEX_MAX_FILE_MB.",
        )
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ParseError(name, f"cannot be read ({exc.strerror}).") from exc
    pages: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    if ext == ".docx":
        text, headings, tags = read_docx(name, raw, max_bytes)
    elif ext == ".doc":
        text, headings, tags = read_doc(name, raw, max_bytes)
    elif ext in SPREADSHEETS:
        text, headings, tags = read_spreadsheet(name, raw, ext, max_bytes), (), ()
    elif ext == ".pdf":
        pdf = read_pdf(name, raw, page_progress, max_ocr_pages)
        text, headings, tags, pages, notes = pdf.text, (), (), pdf.pages, pdf.notes
    else:
        text = decode_text(name, raw)
        tags = ()
        if ext == ".md":
            text, tags = _split_front_matter(text)
            text = _without_extension_syntax(text)
        # HTML blocks (converter tables, a web page's <p>s) read as lines; text without HTML stays the same string.
        whole = ext in _HTML_EXTENSIONS or is_html_page(text)  # a saved web page, whatever its name
        markdown = ext == ".md" or whole
        text = html_to_text(name, text, whole=whole, markdown_headings=markdown)
        # a notice pasted as one line reads as the lines it lost (before headings: their spans point into this text)
        text = restore_line_breaks(text)
        headings = _markdown_headings(text) if markdown else ()
    if not text.strip():
        raise ParseError(name, "the file holds no text" + (f" ({'; '.join(notes)})." if notes else "."))
    text_bytes = len(text.encode("utf-8"))
    if text_bytes > max_bytes:  # a small .docx can hold far more text than its size says
        raise ParseError(
            name,
            f"holds {text_bytes / 1048576:.1f} MB of text (as UTF-8), over the {max_bytes / 1048576:.0f} MB limit; "
            "split the document or raise ANNEX_MAX_FILE_MB.",
        )
    digest = hashlib.sha256((text + "\x00" + "\x1f".join(tags)).encode("utf-8")).hexdigest()
    return ParsedFile(file=name, path=str(path), text=text, content_hash=digest, headings=headings, tags=tags,
                      pages=pages, notes=notes)


_CONTAINER = re.compile(r"^[ \t]*:{3,}[ \t]*(?:[\w-]+)?[ \t]*(?P<title>.*?)[ \t]*$", re.M)
_ATTRIBUTES = re.compile(
    r"^(?P<heading>#{1,6}[ \t].*?)[ \t]*\{(?:[#.][\w-]+|[\w-]+=[^{}\s]*)(?:[ \t]+[^{}]*)?\}[ \t]*$", re.M
)


def _without_extension_syntax(text: str) -> str:
    """Markdown extensions' syntax a reader never sees: a container's fences (`::: info 附录` … `:::`, of VitePress
    and markdown-it-container) leave their title, and a heading's attribute list (`{align="center"}`, `{#id}`) goes."""
    if ":::" not in text and "{" not in text:
        return text
    text = _CONTAINER.sub(lambda m: m.group("title"), text)
    return _ATTRIBUTES.sub(lambda m: m.group("heading"), text)


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
            tags.extend(split_tags(value))
        else:
            for item in lines[i + 1 :]:
                if not item.strip().startswith("-"):
                    break
                tags.append(item.strip()[1:].strip().strip("'\""))
    return text[match.end() :], tuple(t for t in tags if t)


def _markdown_headings(text: str) -> tuple[Heading, ...]:
    return tuple(Heading(len(m.group(1)), m.start(), m.end()) for m in _MD_HEADING.finditer(text))
