"""The upload results panel: a failed file's line in Chinese (its English error kept for the logs and the API, and as
the line's hover text), and a line whose document was deleted since saying 已删除."""
from __future__ import annotations

import re
import zipfile

import pytest

from kb.ingest.uploads import ingest_uploads
from ui.library.failures import KINDS, UNKNOWN, reason
from ui.library.render import ShownUpload, result_lines
from ui.library.tab import KnowledgeBase

ENGLISH = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{2,}){2}")
GOOD = "# 南堤闸站巡查办法\n\n巡查记录表见附件1。\n\n附件1：巡查记录表\n\n每日巡查两次。\n"


def _broken_docx(path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("[Content_Types].xml", "<Types/>")  # a zip, but no Word document inside


# Files people really send that cannot be read, each with the words its Chinese line must say.
FAILING = {
    "空白.md": (b"", "文件是空的"),
    "程序.exe": (b"MZ\x90\x00", "不支持这种文件类型（.exe）"),
    "损坏.docx": (b"PK\x03\x04 this is not a zip archive", "另存为 .docx"),
    "图片.txt": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 40, "二进制文件"),
    "坏掉.pdf": (b"%PDF-1.4\n1 0 obj garbage", "另存或打印为新的 PDF"),
    "坏表.xlsx": (b"PK\x03\x04 not a workbook", "另存为 .xlsx"),
    "坏表.csv": (b"\xff\xfe\x00\xd8", "编码"),
}


def _sent(tmp_path) -> list:
    files = []
    for i, (name, (data, _)) in enumerate(FAILING.items()):
        path = tmp_path / f"u{i}" / name
        path.parent.mkdir()
        path.write_bytes(data)
        files.append(str(path))
    empty_word = tmp_path / "uw" / "空文档.docx"
    empty_word.parent.mkdir()
    _broken_docx(empty_word)
    good = tmp_path / "ug" / "南堤闸站巡查办法.md"
    good.parent.mkdir()
    good.write_text(GOOD, encoding="utf-8")
    return [*files, str(empty_word), str(good)]


def test_failed_files_are_said_in_chinese_and_the_api_keeps_the_english(service, tmp_path):
    sent = _sent(tmp_path)
    shown = KnowledgeBase(service).upload("failures-session", sent, "", "")
    try:
        lines = {line.file: line for line in shown.lines}
        for name, (_, said) in FAILING.items():
            line = lines[name]
            assert line.status == "error" and said in line.detail, (name, line.detail)
            assert not ENGLISH.search(line.detail.replace(name, "")), (name, line.detail)
            assert ENGLISH.search(line.error), line.error  # the English text stays with the line
        assert lines["空文档.docx"].status == "error" and "Word" in lines["空文档.docx"].detail
        html = shown.html()
        assert 'title="' in html and "1 个文件成功，8 个失败" in html
    finally:
        service.sessions.end("failures-session")


def test_the_ingest_itself_still_reports_english_for_logs_and_the_api(service, tmp_path):
    empty = tmp_path / "空白.md"
    empty.write_bytes(b"")
    [result] = ingest_uploads(service.stores.ingestor, service.settings.store_dir, [("空白.md", empty)], "failures-api")
    assert result.error == "空白.md: the file is empty."
    assert reason(result.file, result.error) == "文件是空的。"


@pytest.mark.parametrize("error, said", [
    ("a.pdf: has 40 scanned pages, over the 20 OCR reads for one file (about 8 s of CPU a page); split the PDF or "
     "raise ANNEX_MAX_OCR_PAGES.", "ANNEX_MAX_OCR_PAGES"),
    ("a.docx: its text is 3.2 MB once extracted, over the 1 MB left in this private library (ANNEX_SESSION_MAX_MB=2); "
     "split the file, delete documents from the private library, or use the token.", "私有库剩余的空间（ANNEX_SESSION_MAX_MB）"),
    ("a.xlsx: reading it took 31 s at sheet 2, over the ANNEX_PARSE_SECONDS limit of 30 s; split the file or raise "
     "ANNEX_PARSE_SECONDS.", "超过时限（ANNEX_PARSE_SECONDS）"),
    ("a.xlsx: it holds 90000 cells, over the ANNEX_MAX_CELLS limit of 50000; split the file or raise ANNEX_MAX_CELLS.",
     "内容超过上限（ANNEX_MAX_CELLS）"),
    ("附件2-表.md: attachment file whose parent document '预案' is not in library 'x'; ingest the parent too.",
     "主文档“预案”不在这个库里"),
    ("a.pdf: is a password-protected PDF; remove the password (print it to a new PDF) and upload it again.", "密码"),
])
def test_failures_no_file_here_triggers_are_said_in_chinese_too(error, said):
    file = error.split(": ")[0]
    assert said in reason(file, error) and not ENGLISH.search(reason(file, error))


def test_a_chinese_error_stays_as_it_is_and_an_unknown_english_one_is_shown_after_a_chinese_lead_in():
    same = "a/预案.md：这次入库里已有同名文件 b/预案.md，同一个库里文件名相同的文档会互相覆盖"
    assert reason("预案.md", same) == same
    assert reason("x.md", "x.md: the vector store refused the write") == UNKNOWN + "the vector store refused the write"
    assert all(said.strip() for _, said in KINDS)


def test_a_line_whose_document_was_deleted_since_says_so(service, tmp_path):
    good = tmp_path / "南堤闸站巡查办法.md"
    good.write_text(GOOD, encoding="utf-8")
    results = ingest_uploads(service.stores.ingestor, service.settings.store_dir, [(good.name, good)], "deleted-lines")
    shown = ShownUpload("", result_lines(results))
    [line] = shown.lines
    assert "已入库" in shown.html(service.read.current().documents)
    assert service.stores.ingestor.delete(line.doc_id)
    after = shown.html(service.read.current().documents)
    assert "已删除" in after and "已入库" not in after and "其中 1 个已删除" in after
    assert "南堤闸站巡查办法" in after  # the line still says which file it was
