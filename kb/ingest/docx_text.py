"""Read a .docx into text: check its zip first (damage, encryption, unpacked size), then paragraphs and tables."""
from __future__ import annotations

import io
import re
import traceback
import zipfile
import zlib
from pathlib import Path

import docx
from docx.exceptions import PythonDocxError
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.table import Table
from lxml import etree

from kb.errors import ParseError
from kb.model import CELL_SEPARATOR, Heading
from kb.ingest.label_rows import label_head

UNPACKED_FACTOR = 10  # a .docx may unpack to this many times ANNEX_MAX_FILE_MB (XML is ~5-25x its zip)
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_RESAVE = "open it in Word (which offers to repair it) and save it again as .docx."
_DOCX_DIR = Path(docx.__file__).resolve().parent
_KB_DIR = Path(__file__).resolve().parent
# A bad CRC, corrupt deflate data, a cut-off member, a header asking for a zip feature zipfile does not read.
_DAMAGED_DATA = (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError)


def read_docx(name: str, raw: bytes, max_bytes: int) -> tuple[str, tuple[Heading, ...], tuple[str, ...]]:
    """Paragraphs and tables in body order, heading spans and keywords; ParseError saying what is broken."""
    if raw.startswith(_OLE_MAGIC):
        raise ParseError(
            name,
            "is password-protected or a legacy Word .doc file; remove the password or save it as .docx.",
        )
    _check_package(name, raw, max_bytes)
    try:
        document = docx.Document(io.BytesIO(raw))
        if document.element.tag != qn("w:document") or document.element.find(qn("w:body")) is None:
            raise ParseError(name, f"is damaged: word/document.xml holds no Word document body; {_RESAVE}")
        return _body_text(document)
    except PackageNotFoundError as exc:
        raise ParseError(name, f"is not a valid .docx file ({exc}); {_RESAVE}") from exc
    except KeyError as exc:  # a part the package's relationships name is not in the zip
        raise ParseError(name, f"is damaged: a part it needs is missing ({exc.args[0]}); {_RESAVE}") from exc
    except etree.XMLSyntaxError as exc:
        raise ParseError(name, f"is damaged: {_broken_xml_part(raw)} is not well-formed XML ({exc.msg}); "
                               f"{_RESAVE}") from exc
    except _DAMAGED_DATA as exc:
        raise ParseError(name, f"is damaged: the compressed data of {_damaged_member(raw)} is corrupt ({exc}); "
                               f"copy the file again from its source, or {_RESAVE}") from exc
    except ValueError as exc:
        kind = str(exc).rpartition("content type is ")[2]
        if kind != str(exc):  # python-docx's "file ... is not a Word file, content type is ..."
            raise ParseError(name, f"is not a Word document: its main part is {kind}; save it from Word as .docx, "
                                   "or give it its own extension.") from exc
        raise ParseError(name, f"is damaged: it holds a value python-docx cannot read ({exc}); {_RESAVE}") from exc
    except PythonDocxError as exc:
        raise ParseError(name, f"is damaged: it holds XML python-docx cannot read ({exc}); {_RESAVE}") from exc
    except (AttributeError, TypeError) as exc:
        if not _raised_by_python_docx(exc):  # a bug of ours stays a bug
            raise
        raise ParseError(name, f"is damaged: its package structure ([Content_Types].xml, relationships or part types) "
                               f"is not what Word writes ({type(exc).__name__}: {exc}); {_RESAVE}") from exc


def _check_package(name: str, raw: bytes, max_bytes: int) -> None:
    """Refuse a zip that is not one, is encrypted, or would unpack past the limit (a zip bomb) before parsing it."""
    try:
        members = zipfile.ZipFile(io.BytesIO(raw)).infolist()
    except zipfile.BadZipFile as exc:
        raise ParseError(name, f"is not a valid .docx file: not a complete zip archive ({exc}); it may be damaged "
                               f"or cut off while copying: copy it again, or {_RESAVE}") from exc
    except (NotImplementedError, UnicodeDecodeError) as exc:  # a newer zip version, a UTF-8 name that is not
        raise ParseError(name, f"is damaged or not written by Word: its zip directory cannot be read ({exc}); "
                               f"{_RESAVE}") from exc
    if any(m.flag_bits & 0x41 for m in members):  # bit 0: encrypted, bit 6: strong encryption
        raise ParseError(name, "is an encrypted zip archive, not a .docx Word can write; remove the password and "
                               "save it as .docx again.")
    odd = sorted({m.compress_type for m in members} - {zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
    if odd:
        raise ParseError(name, f"uses a zip compression method Word does not write ({odd}); {_RESAVE}")
    unpacked, limit = sum(m.file_size for m in members), max_bytes * UNPACKED_FACTOR
    if unpacked > limit:
        raise ParseError(
            name,
            f"unpacks to {unpacked / 1048576:.1f} MB, over the {limit / 1048576:.0f} MB a .docx may unpack to "
            f"({UNPACKED_FACTOR} × ANNEX_MAX_FILE_MB); split the document or raise ANNEX_MAX_FILE_MB.",
        )


def _raised_by_python_docx(exc: BaseException) -> bool:
    """True when the innermost frame of annex-rag's code called into python-docx, which raised.

    python-docx meets well-formed XML of the wrong shape (a content-types element without its attribute, a
    relationship without a target, a main part of the wrong type) with AttributeError or TypeError.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [i for i, f in enumerate(frames) if Path(f.filename).resolve().is_relative_to(_KB_DIR)]
    after = frames[ours[-1] + 1 :] if ours else frames
    return any(Path(f.filename).resolve().is_relative_to(_DOCX_DIR) for f in after)


def _broken_xml_part(raw: bytes) -> str:
    """The first XML part of the zip that lxml cannot parse (only called once parsing has failed)."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        for member in archive.namelist():
            if not member.endswith((".xml", ".rels")):
                continue
            try:
                etree.fromstring(archive.read(member))
            except etree.XMLSyntaxError:
                return member
            except _DAMAGED_DATA:
                continue
    return "one of its XML parts"


def _damaged_member(raw: bytes) -> str:
    """The first zip member whose data cannot be unpacked (only called once unpacking has failed)."""
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        for member in archive.namelist():
            try:
                archive.read(member)
            except _DAMAGED_DATA:
                return member
    return "one of its parts"


def _body_text(document) -> tuple[str, tuple[Heading, ...], tuple[str, ...]]:
    """Paragraphs and tables in body order; table rows as lines of cells joined by CELL_SEPARATOR."""
    # Paragraph.style looks the style up afresh each time (~1 ms a paragraph); map style ids once instead.
    levels = {style.style_id: _heading_level(style.name or "") for style in document.styles}
    lines: list[str] = []
    headings: list[Heading] = []
    offset = 0
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            rows = [_row_cells(row) for row in block.rows]
            new_lines = [CELL_SEPARATOR.join(cells) for cells in rows]
            head = label_head(rows)  # 附件1 | 节日值班安排表 | : the label over the table, not a row of it
            new_lines[:len(head)] = head
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
    tags = tuple(split_tags(props.keywords or ""))
    return "\n".join(lines), tuple(headings), tags


def split_tags(value: str) -> list[str]:
    """Tags from a keywords string separated by commas, semicolons or 、."""
    return [t.strip().strip("'\"") for t in re.split(r"[,，;；、]", value) if t.strip()]


def _row_cells(row) -> list[str]:
    cells: list[str] = []
    previous = None
    for cell in row.cells:
        if cell._tc is previous:  # a merged cell repeats; keep it once
            continue
        previous = cell._tc
        cells.append(" ".join(cell.text.split()))
    return cells


def _heading_level(style_name: str) -> int:
    match = re.match(r"(?:Heading|标题)\s*(\d)", style_name)
    if match:
        return int(match.group(1))
    return 1 if style_name in ("Title", "标题") else 0
