"""An .xlsx checked before it is read, for what its size on disk does not show: a zip that unpacks past the limit, a
sheet whose grid is too large to hold, and shared strings repeated into more text than ANNEX_MAX_FILE_MB allows.

calamine holds every cell from A1 to a sheet's last valued cell: one number written at XFD1048576 makes it ask for
512 GiB, and the allocation failure aborts the whole process (the server, every user's session), not a Python error."""
from __future__ import annotations

import io
import re
import zipfile
from xml.etree import ElementTree

from kb.errors import ParseError
from kb.ingest.docx_text import UNPACKED_FACTOR

MAX_CELLS = 2_000_000  # a sheet's grid (A1 to its last valued cell): calamine ~32 B a cell and pandas an object each,
# ~0.3 GB at this size; a plan's roster or list of supplies is a few thousand cells, Excel's own grid 17 billion
RESAVE = "open it in Excel or LibreOffice Calc and save it again as .xlsx."
_SHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$")
# a row or a cell start tag (any namespace prefix); a cell's value follows its start tag
_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|c)\b([^>]*?)(/?)>")
_ROW_NUMBER = re.compile(rb'\br="([0-9]{1,7})"')
_CELL_REF = re.compile(rb'\br="([A-Z]{1,3})([0-9]{1,7})"')
_SHARED = re.compile(rb'\bt="s"')
_VALUE = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?(?:v|is|f)\b")  # a cell that holds something calamine reads
_SHARED_INDEX = re.compile(rb"\s*<(?:[A-Za-z_][\w.-]*:)?v>\s*([0-9]+)\s*<")
_MAIN_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def check_xlsx(name: str, raw: bytes, max_bytes: int) -> None:
    """Refuse an .xlsx that is no zip, is encrypted, unpacks past the limit (a zip bomb), has a sheet grid past
    MAX_CELLS, or repeats its shared strings into more text than `max_bytes` — before calamine reads any of it."""
    if raw.startswith(b"\xd0\xcf\x11\xe0"):
        raise ParseError(name, "is a password-protected workbook (or an .xls named .xlsx); remove the password, "
                               "or give it its .xls extension.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        members = archive.infolist()
    except (zipfile.BadZipFile, NotImplementedError, UnicodeDecodeError) as exc:
        raise ParseError(name, f"is not a valid .xlsx file: not a complete zip archive ({exc}); it may be damaged "
                               f"or cut off: copy it again, or {RESAVE}") from exc
    unpacked, limit = sum(m.file_size for m in members), max_bytes * UNPACKED_FACTOR
    if unpacked > limit:
        raise ParseError(name, f"unpacks to {unpacked / 1048576:.1f} MB, over the {limit / 1048576:.0f} MB a "
                               f"workbook may unpack to ({UNPACKED_FACTOR} × ANNEX_MAX_FILE_MB); split the workbook "
                               "or raise ANNEX_MAX_FILE_MB.")
    try:
        strings = _shared_string_sizes(archive)
        text = 0
        for member in (m.filename for m in members if _SHEET.match(m.filename)):
            rows, columns, references = _scan_sheet(archive.read(member))
            if rows * columns > MAX_CELLS:
                raise ParseError(name, f"has a sheet of {rows:,} rows × {columns:,} columns from A1 to its last value "
                                       f"({rows * columns:,} cells), over the {MAX_CELLS:,} cells a sheet may span; "
                                       "delete the stray cells far below or right of its table, or split the sheet.")
            text += sum(strings[i] for i in references if i < len(strings))
    except (zipfile.BadZipFile, ElementTree.ParseError, EOFError) as exc:
        raise ParseError(name, f"is not a readable workbook ({exc}); {RESAVE}") from exc
    if text > max_bytes:
        raise ParseError(name, f"holds {text / 1048576:.1f} MB of text in its cells (its shared strings repeated), "
                               f"over the {max_bytes / 1048576:.0f} MB limit; split the workbook or raise "
                               "ANNEX_MAX_FILE_MB.")


def _shared_string_sizes(archive: zipfile.ZipFile) -> list[int]:
    """Each shared string's UTF-8 size, in order (a cell of type s names one by its index)."""
    if "xl/sharedStrings.xml" not in archive.namelist():
        return []
    sizes = []
    with archive.open("xl/sharedStrings.xml") as stream:
        for _, element in ElementTree.iterparse(stream):
            if element.tag in (f"{_MAIN_NS}si", "si"):
                sizes.append(sum(len((t.text or "").encode()) for t in element.iter(f"{_MAIN_NS}t")))
                element.clear()
    return sizes


def _scan_sheet(xml: bytes) -> tuple[int, int, list[int]]:
    """The rows and columns of a sheet's grid from A1 to its last valued cell, and each s cell's shared string."""
    last_row = last_column = row = column = 0
    references: list[int] = []
    for match in _TAG.finditer(xml):
        kind, attributes, closed = match.groups()
        if kind == b"row":
            number = _ROW_NUMBER.search(attributes)
            row, column = (int(number.group(1)) if number else row + 1), 0
            continue
        ref = _CELL_REF.search(attributes)
        if ref:
            column, row = _column_number(ref.group(1)), int(ref.group(2))
        else:
            column += 1
        if closed or not _VALUE.match(xml, match.end()):
            continue  # a formatted cell without a value is not in calamine's grid
        last_row, last_column = max(last_row, row), max(last_column, column)
        if _SHARED.search(attributes):
            index = _SHARED_INDEX.match(xml, match.end())
            if index:
                references.append(int(index.group(1)))
    return last_row, last_column, references


def _column_number(letters: bytes) -> int:
    """A1's A is column 1, XFD column 16384."""
    number = 0
    for letter in letters:
        number = number * 26 + letter - 64
    return number
