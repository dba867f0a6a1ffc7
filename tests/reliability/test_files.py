"""Hostile files and file names against the served app (issue 10, items 5, 6, 8, 9, the upload staging folder; issue 21 item 10).

One malformed file is that file's error and the rest of the batch is ingested; a bad name gets a per-file reason
or a safe name, never a 500; the size limit holds for what a .docx unpacks to; Big5 and BOM-less UTF-16 are read.
"""
from __future__ import annotations

import os
import secrets
import subprocess
import sys

import pytest

from kb.ingest import pdf_ocr
from kb.ingest.uploads import UPLOADS_DIR
from tests import malformed
from tests.conftest import ROOT
from tests.reliability.conftest import assert_healthy, serve

pytestmark = pytest.mark.reliability

TOKEN = "t"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
GOOD_MD = "# 北湖仓储巡查制度\n\n夜间巡查每两小时一次，巡查路线见附件1。\n\n附件1：巡查路线\n\n一号库→二号库→泵房。\n"
TRADITIONAL = "東嶺街道防汛應急預案\n第一條 搶險物資詳見附件4。\n附件4：搶險物資清單\n衝鋒舟 3艘，救生衣 200件。\n"
SIMPLIFIED = "南岭街道防汛值守制度\n第一条 值守电话见附件1。\n附件1：值守电话\n值班室 029-88886666。\n"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The demo app with writes over HTTP on and a 1 MB file limit (every demo file is smaller)."""
    yield from serve(tmp_path_factory.mktemp("store"), api_token=TOKEN, max_file_mb=1)


def _multipart(files: list[tuple[bytes, bytes]], library: str) -> tuple[bytes, dict[str, str]]:
    """A multipart body built by hand, so a file name goes on the wire byte for byte (httpx escapes NUL as %00)."""
    boundary = secrets.token_hex(12)
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="library"\r\n\r\n{library}\r\n'.encode()]
    for name, content in files:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="'.encode() + name
                     + b'"\r\nContent-Type: application/octet-stream\r\n\r\n' + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), {**AUTH, "Content-Type": f"multipart/form-data; boundary={boundary}"}


def _upload(app, files: list[tuple[bytes, bytes]], library: str = "hostile"):
    body, headers = _multipart(files, library)
    return app.http.post("/api/knowledge/documents", content=body, headers=headers)


def _results(response) -> dict[str, dict]:
    assert response.status_code == 200, response.text
    return {r["file"]: r for r in response.json()["results"]}


def test_one_malformed_docx_is_that_files_error_and_the_batch_is_ingested(app):
    response = _upload(app, [("坏XML.docx".encode(), malformed.broken_xml()),
                             ("坏压缩.docx".encode(), malformed.corrupt_deflate()),
                             ("半截.docx".encode(), malformed.truncated()),
                             ("巡查制度.md".encode(), GOOD_MD.encode())])
    results = _results(response)
    assert results["巡查制度.md"]["status"] == "ingested"
    assert "word/document.xml is not well-formed XML" in results["坏XML.docx"]["error"]
    assert "the compressed data of word/document.xml is corrupt" in results["坏压缩.docx"]["error"]
    assert "not a complete zip archive" in results["半截.docx"]["error"]
    for name in ("坏XML.docx", "坏压缩.docx", "半截.docx"):
        assert results[name]["status"] == "error" and results[name]["error"].startswith(f"{name}: ")
    stored = [d["title"] for d in app.http.get("/api/knowledge/documents", params={"library": "hostile"}).json()]
    assert stored == ["北湖仓储巡查制度"]
    assert_healthy(app)


@pytest.mark.parametrize(
    ("sent", "shown", "reason"),
    [
        (b"..", "..", "carries no file name"),
        (b"foo/..", "foo/..", "carries no file name"),
        (b"\xe9\xa2\x84\xe6\xa1\x88\x00.md", "预案\\x00.md", "holds a control character"),
    ],
    ids=["dotdot", "foo-dotdot", "nul"],
)
def test_a_bad_file_name_is_a_per_file_reason_never_a_500(app, sent, shown, reason):
    library = f"names-{len(sent)}"  # one library per name: the good file of the batch is new in each
    results = _results(_upload(app, [(sent, GOOD_MD.encode()), ("另一个.md".encode(), SIMPLIFIED.encode())], library))
    assert results[shown]["status"] == "error" and reason in results[shown]["error"]
    assert results["另一个.md"]["status"] == "ingested"
    alone = _upload(app, [(sent, GOOD_MD.encode())])  # the only file: nothing stored, a 400 that says why
    assert alone.status_code == 400 and reason in alone.json()["detail"][0]["msg"]
    assert_healthy(app)


def test_a_247_character_chinese_name_is_shortened_to_fit_and_ingested(app):
    name = "防" * 247 + ".md"  # 744 bytes of UTF-8; a file name may have 255
    [result] = _results(_upload(app, [(name.encode(), GOOD_MD.encode())], "long-names")).values()
    assert result["status"] == "ingested" and result["file"].endswith(".md") and name.startswith(result["file"][:-3])
    assert len(result["file"].encode()) <= 255
    [listed] = app.http.get("/api/knowledge/documents", params={"library": "long-names"}).json()
    assert listed["id"] == result["doc_id"]
    assert_healthy(app)


def test_the_size_limit_holds_for_what_a_docx_unpacks_to(app):
    results = _results(_upload(app, [("炸弹.docx".encode(), malformed.zip_bomb(unpacked_mb=12)),
                                     ("制度.md".encode(), SIMPLIFIED.encode())], "limits"))
    bomb = results["炸弹.docx"]
    assert bomb["status"] == "error" and "10 × ANNEX_MAX_FILE_MB" in bomb["error"]
    assert results["制度.md"]["status"] == "ingested"
    assert_healthy(app)


def test_big5_and_bom_less_utf16_are_stored_as_the_text_they_hold(app):
    files = [("繁體.txt".encode(), TRADITIONAL.encode("big5")),
             ("小端.txt".encode(), SIMPLIFIED.encode("utf-16-le")),
             ("大端.md".encode(), SIMPLIFIED.replace("南岭", "北岭").encode("utf-16-be"))]
    results = _results(_upload(app, files, "encodings"))
    texts = {name: app.service.stores.graph.load_document(r["doc_id"]).text for name, r in results.items()}
    assert "搶險物資詳見附件4" in texts["繁體.txt"]
    assert "南岭街道防汛值守制度" in texts["小端.txt"] and "北岭街道防汛值守制度" in texts["大端.md"]
    assert_healthy(app)


def test_no_upload_leaves_its_staging_folder_behind(app):
    _upload(app, [("暂存.md".encode(), GOOD_MD.encode()), (b"..", b"x")], "staging")
    staging = app.service.settings.store_dir / UPLOADS_DIR
    assert staging.is_dir() and list(staging.iterdir()) == []


def test_the_knowledge_tab_reports_a_malformed_docx_by_name_and_ingests_the_rest(app, tmp_path):
    from ui.library.tab import KnowledgeBase

    paths = []
    for i, (name, data) in enumerate([("坏.docx", malformed.broken_xml()), ("巡查.md", GOOD_MD.encode())]):
        folder = tmp_path / f"gradio{i}"  # Gradio hands over each upload in its own temporary folder
        folder.mkdir()
        (folder / name).write_bytes(data)
        paths.append(str(folder / name))
    html = KnowledgeBase(app.service).ingest(None, paths, "tab", "", token=TOKEN)
    assert "1 个文件成功，1 个失败" in html and "坏.docx" in html and "not well-formed XML" in html
    assert_healthy(app)


def test_the_cli_reports_a_bad_docx_and_ingests_the_rest_without_a_traceback(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "坏.docx").write_bytes(malformed.corrupt_deflate())
    (folder / "空壳.docx").write_bytes(malformed.missing_document_xml())
    (folder / "巡查制度.md").write_text(GOOD_MD, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANNEX_")}
    run = subprocess.run([sys.executable, "-m", "kb", "ingest", str(folder), "--store", str(tmp_path / "store")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "Traceback" not in run.stderr + run.stdout, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("✗ 坏.docx: is damaged: the compressed data of word/document.xml") for line in lines)
    assert any(line.startswith("✗ 空壳.docx: is damaged: a part it needs is missing") for line in lines)
    assert any(line.startswith("✓ 巡查制度.md [ingested]") for line in lines)
    assert "3 files: 1 documents written" in run.stderr


def test_bad_pdfs_and_xlsx_bombs_are_each_their_files_error_and_the_batch_is_ingested(app):
    encrypted = (ROOT / "tests" / "files" / "encrypted.pdf").read_bytes()
    results = _results(_upload(app, [("加密.pdf".encode(), encrypted),
                                     ("空.pdf".encode(), malformed.zero_page_pdf()),
                                     ("页数炸弹.pdf".encode(), malformed.page_bomb_pdf()),
                                     ("对象炸弹.pdf".encode(), malformed.object_bomb_pdf()),
                                     ("图形炸弹.pdf".encode(), malformed.drawing_bomb_pdf()),
                                     ("炸弹.xlsx".encode(), malformed.xlsx_bomb(unpacked_mb=12)),
                                     ("远格.xlsx".encode(), malformed.xlsx_far_cell()),  # would abort the server
                                     ("重复.xlsx".encode(), malformed.xlsx_repeated_strings(20_000, 2_000)),
                                     ("坏xref.pdf".encode(), malformed.broken_xref_pdf()),
                                     ("扫描炸弹.pdf".encode(), malformed.scanned_bomb_pdf()),
                                     ("巡查制度.md".encode(), GOOD_MD.encode())], "pdfs"))
    assert "password-protected PDF" in results["加密.pdf"]["error"]
    assert "is a PDF with no pages" in results["空.pdf"]["error"]
    assert "over the 5000 a document may have" in results["页数炸弹.pdf"]["error"]
    assert "more than any readable page" in results["对象炸弹.pdf"]["error"]
    assert "drawing objects, more than any readable page" in results["图形炸弹.pdf"]["error"]
    assert "10 × ANNEX_MAX_FILE_MB" in results["炸弹.xlsx"]["error"]
    assert "over the 2,000,000 cells a sheet may span" in results["远格.xlsx"]["error"]
    assert "of text in its cells (its shared strings repeated)" in results["重复.xlsx"]["error"]
    if pdf_ocr.available():  # without the extra, a PDF of scanned pages only is an error for that reason
        assert "over the 100 OCR reads for one file" in results["扫描炸弹.pdf"]["error"]
    for name in ("加密.pdf", "空.pdf", "页数炸弹.pdf", "对象炸弹.pdf", "图形炸弹.pdf", "炸弹.xlsx", "远格.xlsx", "重复.xlsx",
                 "扫描炸弹.pdf"):
        assert results[name]["status"] == "error" and results[name]["error"].startswith(f"{name}: ")
    assert results["坏xref.pdf"]["status"] == "ingested" and results["坏xref.pdf"]["pages"] == 1
    assert results["巡查制度.md"]["status"] == "ingested"
    assert_healthy(app)


def test_an_attachment_file_sent_after_its_parent_joins_it_over_http(app):
    """Issue 21 item 10: the parent was uploaded alone; its 附件 file in a later upload is attached, never a 500."""
    parent = "# 西湖码头巡查制度\n\n夜间巡查路线见附件2。\n".encode()
    assert _results(_upload(app, [("西湖码头巡查制度.md".encode(), parent)], "late"))["西湖码头巡查制度.md"][
        "status"] == "ingested"
    late = "巡查路线\n一号泊位→二号泊位→油库。\n".encode()
    result = _results(_upload(app, [("西湖码头巡查制度-附件2-巡查路线.md".encode(), late)], "late"))[
        "西湖码头巡查制度-附件2-巡查路线.md"]
    assert (result["status"], result.get("error")) == ("attached", None)
    [doc] = app.service.stores.graph.list_documents("late")
    stored = app.service.stores.graph.load_document(doc.id)
    assert [(a.label, a.title) for a in stored.attachments] == [("附件2", "巡查路线")]
    assert ("附件2", "附件2") in [(r.label, r.target) for r in stored.references]
    assert_healthy(app)
