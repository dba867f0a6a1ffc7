"""Malformed and oversized .docx files: each becomes a ParseError naming the file, what is wrong and what to do."""
from __future__ import annotations

import io
from pathlib import Path
import re
import time
import zipfile

import docx
import pytest

from kb.ingest.docx_text import UNPACKED_FACTOR
from kb.errors import ParseError
from kb.ingest.parsing import parse_file
from tests import malformed

LIMIT = 50 << 20


def _refused(tmp_path, name: str, raw: bytes, limit: int = LIMIT) -> str:
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(ParseError) as info:
        parse_file(path, limit)
    assert info.value.file == name and str(info.value).startswith(f"{name}: ")
    return info.value.reason


def test_the_damage_is_real_python_docx_itself_fails_with_the_raw_errors(tmp_path):
    """The fixtures reproduce the issue: without annex-rag's checks these raise lxml/zlib errors."""
    from lxml import etree
    import zlib

    with pytest.raises(etree.XMLSyntaxError):
        docx.Document(io.BytesIO(malformed.broken_xml()))
    with pytest.raises(zlib.error):
        docx.Document(io.BytesIO(malformed.corrupt_deflate()))


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (malformed.broken_xml, "is damaged: word/document.xml is not well-formed XML"),
        (malformed.corrupt_deflate, "is damaged: the compressed data of word/document.xml is corrupt"),
        (malformed.truncated, "not a complete zip archive"),
        (malformed.missing_document_xml, "a part it needs is missing (There is no item named 'word/document.xml'"),
    ],
)
def test_a_damaged_docx_names_the_broken_part_and_the_fix(tmp_path, build, reason):
    text = _refused(tmp_path, "预案.docx", build())
    assert reason in text
    assert "save it again as .docx" in text


def test_a_docx_without_a_body_is_refused_not_a_crash(tmp_path):
    raw = malformed.rewrite(malformed.good_docx(), lambda n, b: b"<foo/>" if n == "word/document.xml" else b)
    assert "holds no Word document body" in _refused(tmp_path, "空.docx", raw)


def test_a_spreadsheet_named_docx_says_what_it_is(tmp_path):
    raw = malformed.rewrite(
        malformed.good_docx(),
        lambda n, b: b.replace(b"wordprocessingml.document.main+xml", b"spreadsheetml.sheet.main+xml")
        if n == "[Content_Types].xml" else b,
    )
    reason = _refused(tmp_path, "表.docx", raw)
    assert reason.startswith("is not a Word document: its main part is 'application/vnd.openxmlformats-officedocument"
                             ".spreadsheetml.sheet.main+xml'")


def test_an_encrypted_zip_and_an_ole_file_are_refused_as_protected(tmp_path):
    raw = bytearray(malformed.good_docx())
    for signature, flag_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):  # set the 'encrypted' bit of every header
        at = raw.find(signature)
        while at >= 0:
            raw[at + flag_at] |= 1
            at = raw.find(signature, at + 4)
    assert "is an encrypted zip archive" in _refused(tmp_path, "密.docx", bytes(raw))
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600
    assert "password-protected or a legacy Word .doc" in _refused(tmp_path, "旧.docx", ole)


def test_a_zip_bomb_is_refused_by_its_declared_size_before_it_is_unpacked(tmp_path):
    raw = malformed.zip_bomb(unpacked_mb=12)
    assert len(raw) < 200_000  # small on disk: the size limit alone lets it through
    reason = _refused(tmp_path, "炸弹.docx", raw, limit=1 << 20)
    assert re.match(r"unpacks to 12\.\d MB, over the 10 MB a \.docx may unpack to", reason)
    assert f"({UNPACKED_FACTOR} × ANNEX_MAX_FILE_MB)" in reason
    assert parse_file(tmp_path / "炸弹.docx", LIMIT).text.startswith(malformed.BODY)  # under a larger limit: read


def test_the_extracted_text_is_held_to_the_limit_not_only_the_compressed_file(tmp_path):
    document = docx.Document()
    for _ in range(100):
        document.add_paragraph(malformed.BODY * 300)  # ~1.5 MB of text in few paragraphs: little XML around it
    path = tmp_path / "长文.docx"
    document.save(path)
    assert path.stat().st_size < 200_000
    unpacked = sum(i.file_size for i in zipfile.ZipFile(path).infolist())
    assert unpacked < UNPACKED_FACTOR << 20  # the zip check passes: it is the text that is too long
    with pytest.raises(ParseError, match=r"holds 1\.\d MB of text \(as UTF-8\), over the 1 MB limit; split the "
                                         r"document or raise ANNEX_MAX_FILE_MB"):
        parse_file(path, 1 << 20)
    assert len(parse_file(path, 2 << 20).text) > 1 << 19


def test_the_issue_case_a_tiny_docx_with_many_megabytes_of_text_is_refused(tmp_path):
    text = (malformed.BODY * 400).encode()
    body = b"".join(b"<w:p><w:r><w:t>" + text + b"</w:t></w:r></w:p>" for _ in range(900))  # ~18 MB of text
    raw = malformed.rewrite(
        malformed.good_docx(1),
        lambda n, b: b.replace(b"<w:body>", b"<w:body>" + body, 1) if n == "word/document.xml" else b,
    )
    assert len(raw) < 200_000
    reason = _refused(tmp_path, "巨.docx", raw, limit=1 << 20)
    assert reason.startswith("unpacks to 18.") and reason.endswith("split the document or raise ANNEX_MAX_FILE_MB.")


@pytest.mark.parametrize(
    ("member", "old", "new"),
    [
        ("[Content_Types].xml", b'<Default Extension="jpeg" ', b"<Default "),
        ("word/_rels/document.xml.rels", b'Target="styles.xml"', b""),
    ],
    ids=["content-type-without-extension", "relationship-without-target"],
)
def test_well_formed_xml_of_the_wrong_shape_is_refused_not_a_crash(tmp_path, member, old, new):
    """python-docx meets these with AttributeError/TypeError; they are the file's fault, so the file's error."""
    raw = malformed.rewrite(malformed.good_docx(), lambda n, b: b.replace(old, new) if n == member else b)
    with pytest.raises((AttributeError, TypeError)):
        docx.Document(io.BytesIO(raw))
    assert _refused(tmp_path, "怪.docx", raw).startswith("is damaged: its package structure")


def test_a_zip_asking_for_a_newer_zip_version_is_refused_not_a_crash(tmp_path):
    raw = bytearray(malformed.good_docx())
    at = raw.find(b"PK\x01\x02")
    raw[at + 6 : at + 8] = (99).to_bytes(2, "little")  # "version needed to extract": 9.9; zipfile reads up to 6.3
    with pytest.raises(NotImplementedError):
        zipfile.ZipFile(io.BytesIO(bytes(raw)))
    assert _refused(tmp_path, "新.docx", bytes(raw)).startswith("is damaged or not written by Word: its zip directory")


ENCRYPTED_PDF = Path(__file__).resolve().parents[1] / "files" / "encrypted.pdf"  # LibreOffice, open password "secret"


@pytest.mark.parametrize(
    ("name", "build", "reason"),
    [
        ("加密.pdf", ENCRYPTED_PDF.read_bytes, "is a password-protected PDF; remove the password"),
        ("空.pdf", malformed.zero_page_pdf, "is a PDF with no pages."),
        ("半截.pdf", malformed.truncated_pdf, "is not a readable PDF"),
        ("页数炸弹.pdf", malformed.page_bomb_pdf, "has 6000 pages, over the 5000 a document may have; split the PDF."),
        ("对象炸弹.pdf", malformed.object_bomb_pdf, "page 1 holds 240014 characters, more than any readable page"),
        ("图形炸弹.pdf", malformed.drawing_bomb_pdf, "page 1 holds 210000 drawing objects, more than any readable page"),
    ],
)
def test_a_bad_pdf_is_refused_with_its_reason_and_the_fix(tmp_path, name, build, reason):
    assert reason in _refused(tmp_path, name, build())


def test_a_scanned_page_count_bomb_is_refused_before_ocr_starts(tmp_path):
    from kb.ingest import pdf_ocr

    raw = malformed.scanned_bomb_pdf(pages=150)
    assert len(raw) < 500_000  # a third of a megabyte that would cost 40 minutes of OCR
    if not pdf_ocr.available():
        pytest.skip('the OCR extra is not installed (pip install -e ".[ocr]")')
    start = time.perf_counter()
    reason = _refused(tmp_path, "扫描炸弹.pdf", raw)
    assert reason == ("has 150 scanned pages, over the 100 OCR reads for one file (about 8 s of CPU a page); split "
                      "the PDF or raise ANNEX_MAX_OCR_PAGES.")
    assert time.perf_counter() - start < 10  # no page was read by OCR


def test_a_pdf_whose_xref_table_is_broken_is_read_as_pdfium_rebuilds_it(tmp_path):
    path = tmp_path / "坏xref.pdf"
    path.write_bytes(malformed.broken_xref_pdf())
    assert parse_file(path, LIMIT).text == "Article 1 The emergency supplies are listed in Annex 2."


def test_the_text_limit_covers_what_a_pdf_holds(tmp_path):
    path = tmp_path / "大.pdf"
    path.write_bytes(malformed.pdf_file([malformed.text_stream(["x" * 80] * 40)] * 40))
    assert path.stat().st_size < 20_000
    with pytest.raises(ParseError, match=r"holds 0\.1 MB of text \(as UTF-8\), over the 0 MB limit"):
        parse_file(path, 100_000)


def test_an_xlsx_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    reason = _refused(tmp_path, "炸弹.xlsx", malformed.xlsx_bomb(unpacked_mb=12), limit=1 << 20)
    assert reason.startswith("unpacks to 12.0 MB, over the 10 MB a workbook may unpack to (10 × ANNEX_MAX_FILE_MB)")


@pytest.mark.parametrize(("name", "raw", "reason"), [
    ("坏.xlsx", b"PK\x03\x04 not really a zip", "is not a valid .xlsx file: not a complete zip archive"),
    ("坏.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "is not a readable workbook"),
])
def test_a_damaged_workbook_is_that_files_error(tmp_path, name, raw, reason):
    assert reason in _refused(tmp_path, name, raw)


def test_an_xlsx_with_one_value_in_the_grids_last_cell_is_refused_before_calamine_allocates_the_grid(tmp_path):
    """calamine holds every cell from A1 to the last value: XFD1048576 makes it ask for 512 GiB, and the failed
    allocation aborts the process (every user's server), so the sheet's extent is read from its XML first."""
    raw = malformed.xlsx_far_cell("XFD1048576")
    assert len(raw) < 10_000
    reason = _refused(tmp_path, "远格.xlsx", raw)
    assert reason.startswith("has a sheet of 1,048,576 rows × 16,384 columns from A1 to its last value "
                             "(17,179,869,184 cells), over the 2,000,000 cells a sheet may span")
    near = tmp_path / "近格.xlsx"  # the same workbook with the value just beside the table is read as it shows
    near.write_bytes(malformed.xlsx_far_cell("C3"))
    assert parse_file(near, LIMIT).text == "姓名 | 电话\n张三 | 0571-1234\n |  | 1"


def test_an_xlsx_repeating_one_shared_string_is_held_to_the_text_limit_before_it_is_read(tmp_path):
    raw = malformed.xlsx_repeated_strings(cells=20_000, chars=2_000)  # 114 MB of text in ~100 KB that unpacks to ~1 MB
    assert len(raw) < 200_000
    reason = _refused(tmp_path, "重复.xlsx", raw)
    assert reason == ("holds 114.4 MB of text in its cells (its shared strings repeated), over the 50 MB limit; "
                      "split the workbook or raise ANNEX_MAX_FILE_MB.")
    small = tmp_path / "小.xlsx"
    small.write_bytes(malformed.xlsx_repeated_strings(cells=3, chars=4))
    assert parse_file(small, LIMIT).text == "应应应应\n应应应应\n应应应应"
