"""Read a spreadsheet (.xlsx, .xls, .csv) into text: each sheet a table, rows as lines of cells under its header."""
from __future__ import annotations

import csv
import io
import re

import pandas as pd
from python_calamine import CalamineError, PasswordError, XmlError, ZipError

from kb.errors import ParseError
from kb.ingest.text_encoding import decode_text
from kb.ingest.xlsx_limits import RESAVE, check_xlsx
from kb.model import CELL_SEPARATOR

_DEFAULT_SHEET = re.compile(r"^(?:sheet|工作表)\s*\d*$", re.I)


def read_spreadsheet(name: str, raw: bytes, ext: str, max_bytes: int) -> str:
    """Every sheet's non-empty rows, cells joined by CELL_SEPARATOR; a sheet with a name of its own is introduced
    by that name when the workbook has several."""
    if ext == ".csv":
        sheets = {"": _read_csv(name, raw)}
    else:
        if ext == ".xlsx":
            check_xlsx(name, raw, max_bytes)
        sheets = _read_workbook(name, raw)
    blocks = []
    for sheet, frame in sheets.items():
        rows = [_row(values) for values in frame.itertuples(index=False, name=None)]
        rows = [row for row in rows if row]
        if not rows:
            continue
        titled = len(sheets) > 1 and sheet and not _DEFAULT_SHEET.match(sheet)
        blocks.append("\n".join([sheet, *rows] if titled else rows))
    return "\n\n".join(blocks)


def _read_csv(name: str, raw: bytes) -> pd.DataFrame:
    text = decode_text(name, raw)
    try:
        return pd.read_csv(io.StringIO(text), header=None, dtype=str, keep_default_na=False, sep=None,
                           engine="python", skip_blank_lines=True)
    except (pd.errors.ParserError, csv.Error) as exc:
        raise ParseError(name, f"is not a readable CSV file ({exc}); save it again as UTF-8 CSV.") from exc
    except pd.errors.EmptyDataError as exc:
        raise ParseError(name, "the file holds no text.") from exc


def _read_workbook(name: str, raw: bytes) -> dict[str, pd.DataFrame]:
    try:
        return pd.read_excel(io.BytesIO(raw), sheet_name=None, header=None, dtype=object, engine="calamine")
    except PasswordError as exc:
        raise ParseError(name, "is a password-protected workbook; remove the password and save it again as .xlsx.") \
            from exc
    except (CalamineError, XmlError, ZipError, ValueError) as exc:
        raise ParseError(name, f"is not a readable workbook ({exc or type(exc).__name__}); {RESAVE}") from exc


def _row(values: tuple) -> str:
    cells = [_cell(v) for v in values]
    while cells and not cells[-1]:
        cells.pop()
    return CELL_SEPARATOR.join(cells) if any(cells) else ""


def _cell(value: object) -> str:
    """A cell as the sheet shows it: 3 rather than 3.0, dates without a midnight time, no NaN."""
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, pd.Timestamp) or hasattr(value, "isoformat"):
        text = value.isoformat(sep=" ") if hasattr(value, "hour") else value.isoformat()
        return text.removesuffix(" 00:00:00")
    return " ".join(str(value).split())
