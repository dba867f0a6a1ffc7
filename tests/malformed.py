"""Real malformed files: a good .docx, PDF or .xlsx damaged the way disks and copies do, or built to overload a reader."""
from __future__ import annotations

import io
import re
import struct
import zipfile
import zlib
from typing import Callable

import docx

BODY = "第一条 东岭街道防汛物资详见附件2。"


def good_docx(paragraphs: int = 20) -> bytes:
    """A small valid .docx."""
    document = docx.Document()
    for _ in range(paragraphs):
        document.add_paragraph(BODY)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def rewrite(raw: bytes, change: Callable[[str, bytes], bytes | None], extra: dict[str, bytes] | None = None) -> bytes:
    """The zip with each member passed through change(name, data) (None drops it), plus extra members."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for name in source.namelist():
            data = change(name, source.read(name))
            if data is not None:
                target.writestr(name, data)
        for name, data in (extra or {}).items():
            target.writestr(name, data)
    return out.getvalue()


def broken_xml() -> bytes:
    """word/document.xml cut in half: not well-formed XML (lxml.etree.XMLSyntaxError inside python-docx)."""
    return rewrite(good_docx(), lambda n, b: b[: len(b) // 2] if n == "word/document.xml" else b)


def corrupt_deflate() -> bytes:
    """Bytes flipped inside word/document.xml's deflate stream (zlib.error inside zipfile)."""
    raw = bytearray(good_docx())
    info = zipfile.ZipFile(io.BytesIO(bytes(raw))).getinfo("word/document.xml")
    name_len, extra_len = struct.unpack("<HH", raw[info.header_offset + 26 : info.header_offset + 30])
    start = info.header_offset + 30 + name_len + extra_len
    for i in range(start + 10, start + 40):
        raw[i] ^= 0xFF
    return bytes(raw)


def truncated() -> bytes:
    """The first half of a .docx, as an interrupted copy leaves it."""
    raw = good_docx()
    return raw[: len(raw) // 2]


def missing_document_xml() -> bytes:
    """A zip whose relationships name word/document.xml, which is not there."""
    return rewrite(good_docx(), lambda n, b: None if n == "word/document.xml" else b)


def zip_bomb(unpacked_mb: int) -> bytes:
    """A valid .docx carrying a member of zeros that deflates to almost nothing."""
    return rewrite(good_docx(), lambda n, b: b, {"word/media/padding.bin": b"\0" * (unpacked_mb << 20)})


# --- PDF ------------------------------------------------------------------------------------------------------

def pdf_file(page_streams: list[bytes], kids: list[int] | None = None, count: int | None = None,
             broken_xref: bool = False) -> bytes:
    """A PDF written object by object with its xref table: one page per content stream (Helvetica text);
    `kids` lists the page objects the page tree names (repeats allowed), `count` what /Count claims."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    page_ids = []
    for stream in page_streams:
        data = zlib.compress(stream)
        objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> "
                       b"/Contents %d 0 R >>" % (len(objects)))
        page_ids.append(len(objects))
    kids = page_ids if kids is None else kids
    refs = b" ".join(b"%d 0 R" % k for k in kids)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (refs, len(kids) if count is None else count)
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % (offset + (7919 if broken_xref else 0))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref + (13 if broken_xref else 0))
    return bytes(out)


def text_stream(lines: list[str]) -> bytes:
    """A page content stream writing ASCII lines top to bottom."""
    body = b"".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET\n" % (780 - 18 * i, line.encode("ascii")) for i, line in enumerate(lines))
    return body


def good_pdf() -> bytes:
    return pdf_file([text_stream(["Article 1 The emergency supplies are listed in Annex 2.", "Annex 2 Supplies"])])


def zero_page_pdf() -> bytes:
    return pdf_file([], kids=[], count=0)


def broken_xref_pdf() -> bytes:
    """Every xref offset and startxref point past their objects (a file edited by hand or re-saved badly)."""
    return pdf_file([text_stream(["Article 1 The emergency supplies are listed in Annex 2."])], broken_xref=True)


def page_bomb_pdf(pages: int = 6000) -> bytes:
    """One small page named `pages` times by the page tree: a few kilobytes that claim thousands of pages."""
    return pdf_file([text_stream(["page"])], kids=[5] * pages)


def object_bomb_pdf(strings: int = 8) -> bytes:
    """One page whose content stream draws a quarter of a million characters; it deflates to a few hundred bytes."""
    return pdf_file([b"".join(b"BT /F1 1 Tf 0 %d Td (" % i + b"A" * 30_000 + b") Tj ET\n" for i in range(strings))])


def truncated_pdf() -> bytes:
    raw = good_pdf()
    return raw[: len(raw) // 3]


def xlsx_bomb(unpacked_mb: int) -> bytes:
    """A valid .xlsx (written by pandas/openpyxl) carrying a member of zeros that deflates to almost nothing."""
    return rewrite(_roster_xlsx(), lambda n, b: b, {"xl/media/padding.bin": b"\0" * (unpacked_mb << 20)})


def scanned_bomb_pdf(pages: int = 150) -> bytes:
    """A scanned PDF of many pages: each a small image without text, so each would go to OCR (~8 CPU-s a page)."""
    from PIL import Image, ImageDraw

    image = Image.new("L", (200, 280), 255)
    ImageDraw.Draw(image).rectangle((20, 20, 180, 40), fill=0)
    out = io.BytesIO()
    image.save(out, "PDF", resolution=24, save_all=True, append_images=[image] * (pages - 1))
    return out.getvalue()


def _roster_xlsx() -> bytes:
    """A small valid .xlsx written by pandas/openpyxl."""
    import pandas as pd

    buffer = io.BytesIO()
    pd.DataFrame({"姓名": ["张三"], "电话": ["0571-1234"]}).to_excel(buffer, index=False)
    return buffer.getvalue()


def xlsx_far_cell(ref: str = "XFD1048576") -> bytes:
    """A valid .xlsx whose sheet holds one more number, in the grid's last cell: a few kilobytes."""
    row = int(re.sub(r"[A-Z]", "", ref))
    cell = b'<row r="%d"><c r="%s"><v>1</v></c></row>' % (row, ref.encode())
    return rewrite(_roster_xlsx(), lambda n, b: b.replace(b"</sheetData>", cell + b"</sheetData>")
                   if n == "xl/worksheets/sheet1.xml" else b)


def xlsx_repeated_strings(cells: int, chars: int) -> bytes:
    """A valid .xlsx whose cells all name one shared string of `chars` characters: text = cells × chars, the file
    and what it unpacks to a few bytes a cell."""
    rows = b"".join(b'<row r="%d"><c r="A%d" t="s"><v>0</v></c></row>' % (i, i) for i in range(1, cells + 1))
    strings = (b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="1">'
               b"<si><t>%s</t></si></sst>" % (cells, "应".encode() * chars))
    relation = (b'<Relationship Id="rIdStrings" Target="sharedStrings.xml" Type="http://schemas.openxmlformats.org/'
                b'officeDocument/2006/relationships/sharedStrings"/></Relationships>')
    override = (b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-'
                b'officedocument.spreadsheetml.sharedStrings+xml"/></Types>')

    def change(name: str, data: bytes) -> bytes:
        if name == "xl/worksheets/sheet1.xml":
            return re.sub(rb"<sheetData>.*</sheetData>", b"<sheetData>" + rows + b"</sheetData>", data, flags=re.S)
        if name == "xl/_rels/workbook.xml.rels":
            return data.replace(b"</Relationships>", relation)
        if name == "[Content_Types].xml":
            return data.replace(b"</Types>", override)
        return data

    return rewrite(_roster_xlsx(), change, {"xl/sharedStrings.xml": strings})


def drawing_bomb_pdf(paths: int = 210_000) -> bytes:
    """One page of a quarter of a million tiny filled squares: each a drawing object, the stream a few kilobytes."""
    return pdf_file([b"0 0 1 1 re f\n" * paths])
