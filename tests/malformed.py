"""Real malformed .docx files: a good python-docx document whose zip is damaged the way disks and copies do."""
from __future__ import annotations

import io
import struct
import zipfile
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
