"""Read a PDF into text with each page's start: the text layer through pypdfium2, scanned pages through OCR when
the `ocr` extra is installed (kb/ingest/pdf_ocr.py), else a note naming those pages and the command enabling OCR."""
from __future__ import annotations

import bisect
import ctypes
import re
from dataclasses import dataclass
from typing import Callable, Sequence

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from kb.errors import ParseError
from kb.ingest import pdf_ocr
from kb.ingest.pdf_layout import CELL_GAP, Box, Page, Rule, page_lines, page_texts

MAX_PAGES = 5000  # a page-count bomb: far more pages than any plan or law
MAX_OCR_PAGES = 100  # scanned pages read by OCR in one file by default (ANNEX_MAX_OCR_PAGES): ~8 CPU-s a page
MAX_CHARS_PER_PAGE = 50_000  # an object bomb: a page of more characters than any page a person reads
MAX_OBJECTS_PER_PAGE = 200_000
RULE_THICKNESS = 2.0  # points: a path this thin and wider than RULE_MIN_WIDTH is a table rule
RULE_MIN_WIDTH = 10.0
# A space PDFium infers (the PDF holds no space character there) is the text's own when the gap it fills is a space
# wide (a printed space is about 0.22 of the text height) and the writer does not write its spaces as characters
# (Chromium leaves a gap: 部分 40－100元); a writer that does (LibreOffice) sets such gaps itself between Chinese and
# digits (5艘), so there only the spaces it writes count, and between two digits or letters any.
SPACE_GAP = 0.15
# A writer that writes its spaces leaves a wider gap with no space in it only where its layout puts one: a table's
# cell padding (0.5-2.4 of the text height in the Ziyingtai plan's borderless tables, whose cells were read run
# together: 张 红总经理; its autospace between Chinese and digits is 0.2-0.3). Wider than this, a cell ends.
UNWRITTEN_CELL_GAP = 0.45
PageProgress = Callable[[int, int], None]  # (scanned pages read, scanned pages) → None, one call per OCR page
_RESAVE = "open it in a PDF reader and save or print it as a new PDF"
_ENCRYPTED = re.compile(rb"/Encrypt\s*(?:\d+\s+\d+\s+R|<<)")
_NO_PAGES = re.compile(rb"/Type\s*/Pages\b[^>]*/Count\s+0\b")


@dataclass(frozen=True)
class PdfText:
    """A PDF's text, where each page starts in it, and what the reader could not read."""

    text: str
    pages: tuple[int, ...]  # offset in `text` where page n+1 starts
    notes: tuple[str, ...] = ()  # said on the file's result line (pages without text, OCR not installed)


def read_pdf(name: str, raw: bytes, progress: PageProgress | None = None,
             max_ocr_pages: int = MAX_OCR_PAGES) -> PdfText:
    """The text of a PDF, page by page; raise ParseError for a file that is not a readable PDF, or that has more
    scanned pages than OCR may read for one file."""
    pdf = _open(name, raw)
    try:
        count = len(pdf)
        if count == 0:
            raise ParseError(name, "is a PDF with no pages.")
        if count > MAX_PAGES:
            raise ParseError(name, f"has {count} pages, over the {MAX_PAGES} a document may have; split the PDF.")
        pages: list[Page] = []
        scanned: list[int] = []
        writes_spaces = False  # once a page holds a written space, the writer writes its spaces
        for index in range(count):
            page = pdf[index]
            try:
                across, down = _rules(name, index, page)
                boxes, writes_spaces = _text_boxes(name, index, page, down, writes_spaces)
                if not boxes and _has_image(name, index, page):
                    scanned.append(index)
                pages.append(Page(tuple(page_lines(boxes, down)), page.get_width(), across))
            finally:
                page.close()
        notes: tuple[str, ...] = ()
        if scanned:
            if pdf_ocr.available() and len(scanned) > max_ocr_pages:
                raise ParseError(name, f"has {len(scanned)} scanned pages, over the {max_ocr_pages} OCR reads for one "
                                       f"file (about 8 s of CPU a page); split the PDF or raise ANNEX_MAX_OCR_PAGES.")
            if pdf_ocr.available():
                for done, index in enumerate(scanned, 1):
                    page = pdf[index]
                    try:
                        scan = pdf_ocr.read_page(page)
                        pages[index] = Page(tuple(page_lines(scan.boxes, scan.down)), page.get_width(), scan.across)
                    finally:
                        page.close()
                    if progress:
                        progress(done, len(scanned))
                notes = (f"第{_page_list(scanned)}页为扫描页，已用 OCR 识别",)
            else:
                notes = (f"第{_page_list(scanned)}页没有文字层（扫描页），未读取；安装 OCR 后重新上传："
                         f"{pdf_ocr.INSTALL}",)
    finally:
        pdf.close()
    texts = page_texts(pages)
    starts, parts, offset = [], [], 0
    for text in texts:
        starts.append(offset)
        parts.append(text)
        offset += len(text) + 1
    return PdfText("\n".join(parts), tuple(starts), notes)


def _open(name: str, raw: bytes) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as exc:
        # PDFium's error code outlives the call that set it (a failed load may report an earlier file's error),
        # so the file itself says what it is.
        if _ENCRYPTED.search(raw):
            raise ParseError(name, "is a password-protected PDF; remove the password (print it to a new PDF) and "
                                   "upload it again.") from exc
        if _NO_PAGES.search(raw):
            raise ParseError(name, "is a PDF with no pages.") from exc
        raise ParseError(name, f"is not a readable PDF ({exc}); it may be damaged or cut off: {_RESAVE}.") from exc


def _text_boxes(name: str, index: int, page: pdfium.PdfPage, rules: Sequence[Rule] = (),
                writes_spaces: bool = False) -> tuple[list[Box], bool]:
    """The page's runs of text: characters in content order on one line without a gap wider than a cell gap,
    each with its font box (pdfium's loose box: the em square, so a run's characters touch); and whether the writer
    writes its spaces (known before, or a written space on this page)."""
    textpage = page.get_textpage()
    try:
        count = textpage.count_chars()
        if count > MAX_CHARS_PER_PAGE:
            raise ParseError(name, f"page {index + 1} holds {count} characters, more than any readable page "
                                   f"({MAX_CHARS_PER_PAGE}); it looks built to overload a reader: {_RESAVE}.")
        raw, rect = textpage.raw, pdfium_c.FS_RECTF()
        xs = [r.x for r in rules]
        ref = ctypes.byref(rect)
        unicode, loose, generated = pdfium_c.FPDFText_GetUnicode, pdfium_c.FPDFText_GetLooseCharBox, \
            pdfium_c.FPDFText_IsGenerated
        writes_spaces = writes_spaces or any(
            unicode(raw, i) in (0x20, 0x3000) and not generated(raw, i) for i in range(count))
        boxes: list[Box] = []
        run: list[str] = []
        left = bottom = right = top = 0.0
        cell = False  # the open run is set off from the one before it as a cell of its own
        space = written = False  # a space before this character; one the PDF itself holds (not pdfium's guess)
        for i in range(count):
            ch = chr(unicode(raw, i) or 0x20)
            if ch in "\r\n\x00\ufffe\uffff" or ch == "\x02":
                if run:
                    boxes.append(Box("".join(run), left, bottom, right, top, cell))
                run, space, written, cell = [], False, False, False
                continue
            if ch.isspace():
                space, written = True, written or not generated(raw, i)
                continue
            loose(raw, i, ref)
            height = max(1.0, rect.top - rect.bottom)
            same_line = run and min(top, rect.top) - max(bottom, rect.bottom) > 0.5 * min(top - bottom, height)
            ruled = same_line and bool(rules) and _ruled_between(rules, xs, right - 1, rect.left + 1,
                                                                  (rect.top + rect.bottom) / 2)
            gap = rect.left - right
            apart = writes_spaces and not written and gap >= UNWRITTEN_CELL_GAP * height
            if same_line and not ruled and not apart and -0.5 * height <= gap <= CELL_GAP * height:
                if space and (written or _spaced(run[-1], ch, gap / height, writes_spaces)):
                    run.append(" ")
                run.append(ch)
                right, bottom, top = max(right, rect.right), min(bottom, rect.bottom), max(top, rect.top)
            else:
                if run:
                    boxes.append(Box("".join(run), left, bottom, right, top, cell))
                run = [ch]
                cell = bool(same_line and apart)
                left, bottom, right, top = rect.left, rect.bottom, rect.right, rect.top
            space = written = False
        if run:
            boxes.append(Box("".join(run), left, bottom, right, top, cell))
        return boxes, writes_spaces
    finally:
        textpage.close()


def _spaced(before: str, after: str, gap: float, writes_spaces: bool) -> bool:
    """Whether an inferred space between two characters (gap in text heights) is one the text holds."""
    return (before.isascii() and after.isascii()) or (not writes_spaces and gap >= SPACE_GAP)


def _object_bounds(name: str, index: int, page: pdfium.PdfPage, kind: int):
    """(left, bottom, right, top) of the page's top-level objects of one kind, through PDFium's C API (the object
    wrappers cost more than the text itself on a page of table rules)."""
    raw, count = page.raw, pdfium_c.FPDFPage_CountObjects(page.raw)
    if count > MAX_OBJECTS_PER_PAGE:
        raise ParseError(name, f"page {index + 1} holds {count} drawing objects, more than any readable page "
                               f"({MAX_OBJECTS_PER_PAGE}); it looks built to overload a reader: {_RESAVE}.")
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    refs = [ctypes.byref(v) for v in (left, bottom, right, top)]
    for i in range(count):
        obj = pdfium_c.FPDFPage_GetObject(raw, i)
        if pdfium_c.FPDFPageObj_GetType(obj) == kind and pdfium_c.FPDFPageObj_GetBounds(obj, *refs):
            yield left.value, bottom.value, right.value, top.value


def _ruled_between(rules: Sequence[Rule], xs: list[float], left: float, right: float, y: float) -> bool:
    """Whether a vertical rule crossing height y stands between left and right (rules sorted by x)."""
    for i in range(bisect.bisect_left(xs, left), bisect.bisect_right(xs, right)):
        if rules[i].bottom <= y <= rules[i].top:
            return True
    return False


def _has_image(name: str, index: int, page: pdfium.PdfPage) -> bool:
    return next(_object_bounds(name, index, page, pdfium_c.FPDF_PAGEOBJ_IMAGE), None) is not None


def _rules(name: str, index: int, page: pdfium.PdfPage) -> tuple[tuple[float, ...], tuple[Rule, ...]]:
    """The page's table rules: heights of its horizontal ones, and its vertical ones (a cell drawn as a rectangle
    gives its four edges)."""
    across: set[float] = set()
    down: list[Rule] = []
    for left, bottom, right, top in _object_bounds(name, index, page, pdfium_c.FPDF_PAGEOBJ_PATH):
        wide, tall = right - left >= RULE_MIN_WIDTH, top - bottom >= RULE_MIN_WIDTH / 2
        if wide and top - bottom <= RULE_THICKNESS:
            across.add(round((top + bottom) / 2, 1))
        elif tall and right - left <= RULE_THICKNESS:
            down.append(Rule((left + right) / 2, bottom, top))
        elif wide and tall:
            across.update((round(top, 1), round(bottom, 1)))
            down.extend((Rule(left, bottom, top), Rule(right, bottom, top)))
    return tuple(sorted(across)), tuple(sorted(down, key=lambda r: r.x))


def _page_list(indexes: list[int]) -> str:
    """1-based page numbers, runs written as ranges: 2、5-7."""
    runs: list[list[int]] = []
    for n in (i + 1 for i in indexes):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return "、".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)
