"""Parsing real files: .docx (paragraphs and tables in body order), .md, .txt in UTF-8 / GBK / Big5 / UTF-16, and bad input."""
from __future__ import annotations

from pathlib import Path

import docx
import pytest

from kb.errors import ParseError
from kb.ingest.parsing import parse_file

LIMIT = 50 << 20


def _docx(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("应急预案", level=1)
    document.add_paragraph("第一条 应急物资见附件2。")
    table = document.add_table(rows=2, cols=3)
    for row, values in zip(table.rows, [("名称", "数量", "位置"), ("冲锋舟", "3艘", "东岭仓库")]):
        for cell, value in zip(row.cells, values):
            cell.text = value
    document.add_heading("附件2：应急物资清单", level=2)
    document.add_paragraph("以上物资每季度检查。")
    document.core_properties.keywords = "防汛, 应急；物资"
    document.save(path)
    return path


def test_docx_keeps_paragraphs_and_tables_in_body_order_with_headings(tmp_path):
    parsed = parse_file(_docx(tmp_path / "预案.docx"), LIMIT)
    assert parsed.text.splitlines() == [
        "应急预案",
        "第一条 应急物资见附件2。",
        "名称 | 数量 | 位置",
        "冲锋舟 | 3艘 | 东岭仓库",
        "附件2：应急物资清单",
        "以上物资每季度检查。",
    ]
    assert [(h.level, parsed.text[h.start : h.end]) for h in parsed.headings] == [(1, "应急预案"), (2, "附件2：应急物资清单")]
    assert parsed.tags == ("防汛", "应急", "物资")


def test_merged_table_cells_appear_once(tmp_path):
    document = docx.Document()
    table = document.add_table(rows=1, cols=3)
    merged = table.cell(0, 0).merge(table.cell(0, 1))
    merged.text = "应急指挥部"
    table.cell(0, 2).text = "029-88886666"
    document.save(tmp_path / "m.docx")
    assert parse_file(tmp_path / "m.docx", LIMIT).text == "应急指挥部 | 029-88886666"


@pytest.mark.parametrize("encoding", ["gbk", "gb18030", "utf-8", "utf-8-sig", "utf-16"])
def test_text_encodings_are_detected_and_bom_stripped(tmp_path, encoding):
    text = "东岭街道防汛应急预案\r\n抢险物资详见附件4。\r\n附件4：抢险物资清单\r\n冲锋舟 3艘\r\n"
    path = tmp_path / "plan.txt"
    path.write_bytes(text.encode(encoding))
    parsed = parse_file(path, LIMIT)
    assert parsed.text == text.replace("\r\n", "\n")


SIMPLIFIED = "东岭街道防汛应急预案\n第一条 抢险物资详见附件4。\n附件4：抢险物资清单\n冲锋舟 3艘，救生衣 200件。\n"
TRADITIONAL = "東嶺街道防汛應急預案\n第一條 搶險物資詳見附件4。\n附件4：搶險物資清單\n衝鋒舟 3艘，救生衣 200件。\n"


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        (TRADITIONAL, "big5"),
        (TRADITIONAL, "cp950"),
        (TRADITIONAL, "utf-16-le"),
        (SIMPLIFIED, "utf-16-le"),
        (SIMPLIFIED, "utf-16-be"),
        (SIMPLIFIED, "gbk"),
        (SIMPLIFIED, "gb18030"),
        (SIMPLIFIED, "utf-8"),
        ("附件4：搶險物資清單", "big5"),  # one short line: charset-normalizer alone misreads these
        ("附件4：抢险物资清单", "gbk"),
        ("冲锋舟 3艘", "gb18030"),
        ("第一条\n", "utf-16-le"),
    ],
    ids=lambda v: v if v.isascii() else f"{len(v)}-chars",
)
def test_big5_and_utf16_without_a_bom_are_read_and_gbk_still_is(tmp_path, text, encoding):
    """Big5 used to decode as GBK into nonsense, and BOM-less UTF-16 was refused as binary."""
    path = tmp_path / "plan.txt"
    path.write_bytes(text.encode(encoding))
    assert parse_file(path, LIMIT).text == text


def test_big5_is_not_mistaken_for_gbk_even_though_gbk_decodes_it(tmp_path):
    raw = TRADITIONAL.encode("big5")
    assert raw.decode("gb18030") != TRADITIONAL  # the trap: GB18030 accepts these bytes without an error
    path = tmp_path / "繁體.md"
    path.write_bytes(raw)
    assert "搶險物資詳見附件4" in parse_file(path, LIMIT).text


def test_text_in_no_chinese_encoding_with_nuls_is_refused_as_binary(tmp_path):
    path = tmp_path / "data.txt"
    path.write_bytes(bytes(range(256)) * 40 + "附件".encode("utf-16-le") * 100)
    with pytest.raises(ParseError, match="looks like a binary file"):
        parse_file(path, LIMIT)


def test_markdown_front_matter_gives_tags_and_headings(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("---\ntitle: x\ntags: [防汛, 物资]\n---\n# 标题\n正文。\n", encoding="utf-8")
    parsed = parse_file(path, LIMIT)
    assert parsed.text == "# 标题\n正文。\n"
    assert parsed.tags == ("防汛", "物资")
    assert [(h.level, parsed.text[h.start : h.end]) for h in parsed.headings] == [(1, "# 标题")]


def test_same_content_same_hash_edit_changes_it(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text("正文。", encoding="utf-8")
    b.write_text("正文。", encoding="utf-8")
    assert parse_file(a, LIMIT).content_hash == parse_file(b, LIMIT).content_hash
    b.write_text("正文改了。", encoding="utf-8")
    assert parse_file(a, LIMIT).content_hash != parse_file(b, LIMIT).content_hash


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("corrupt.docx", b"PK\x03\x04 this is not really a zip", "not a valid .docx"),
        ("locked.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "password-protected"),
        ("empty.md", b"", "empty"),
        ("blank.txt", b"  \n\n ", "no text"),
        ("binary.txt", bytes(range(256)) * 40, "binary"),
        ("slides.pptx", b"whatever", "unsupported file type .pptx"),
    ],
)
def test_bad_files_name_the_file_and_the_reason(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ParseError) as info:
        parse_file(path, LIMIT)
    assert info.value.file == name
    assert reason in str(info.value)
    assert str(info.value).startswith(name)


def test_file_over_the_size_limit_is_refused(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("附件" * 2000, encoding="utf-8")
    with pytest.raises(ParseError, match="over the 0 MB limit; split the file or raise ANNEX_MAX_FILE_MB"):
        parse_file(path, 1000)
