"""Why a file was not ingested, in the users' language: the ingest's errors are English (logs, the HTTP API, the CLI);
the library panel says the same failure in Chinese, with what to do.

Each entry names one kind of failure by the words of the English message that stand for it (kb/ingest/parsing.py,
docx_text.py, pdf_text.py, spreadsheet.py, text_encoding.py, uploads.py, units.py…) and says it in Chinese; a
named setting (ANNEX_…) is carried over. A message no entry knows (a store failing mid-write) is shown as it is,
after a Chinese lead-in, never dropped.
"""
from __future__ import annotations

import re
from pathlib import PurePath

from kb.ingest.formats import SHOWN

# How to make a damaged file readable again, by the program that writes its format.
RESAVE = {
    ".docx": "请用 Word 打开（它会提示修复）后另存为 .docx，再上传。",
    ".doc": "请用 Word 打开后另存为 .docx，再上传。",
    ".pdf": "请用 PDF 阅读器打开后另存或打印为新的 PDF，再上传。",
    ".xlsx": "请用 Excel 或 LibreOffice Calc 打开后另存为 .xlsx，再上传。",
    ".xls": "请用 Excel 或 LibreOffice Calc 打开后另存为 .xlsx，再上传。",
}
RESAVE_OTHER = "请用编辑它的程序重新保存后再上传。"
RENAME = "请给文件改个名字后重新上传。"
# (the English words of one kind of failure, what it says in Chinese; {resave}: how to save the file's format
# again); the first that matches is used, so a narrower kind comes before a wider one.
KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(words, re.I), said) for words, said in (
    (r"unsupported file type (?P<ext>\S+?);", f"不支持这种文件类型（{{ext}}）：支持 {SHOWN}。"),
    (r"^the file is empty", "文件是空的。"),
    (r"holds no text", "文件里没有可读的文字（扫描的 PDF 需要 OCR 扩展）。"),
    (r"password-protected or a legacy Word \.doc", "文件有密码保护，或是旧版 Word .doc：去掉密码，或另存为 .docx 后再上传。"),
    (r"LibreOffice could not convert", "这个 .doc 文件无法转换（损坏、有密码或不是 Word 文档）：{resave}"),
    (r"password-protected workbook \(or an \.xls", "工作簿有密码保护，或是改成 .xlsx 的 .xls：去掉密码，或把扩展名改回 .xls。"),
    (r"password-protected|encrypted zip", "文件有密码保护：去掉密码后另存，再上传。"),
    (r"PDF with no pages", "这个 PDF 没有页面。"),
    (r"scanned pages, over the", "扫描页太多，超过一个文件可识别的页数（ANNEX_MAX_OCR_PAGES）：请拆分 PDF。"),
    (r"pages, over the \d+ a document may have", "PDF 页数超过上限：请拆分 PDF。"),
    (r"more than any readable page", "PDF 有一页的内容多得异常，像是故意拖垮阅读器的：{resave}"),
    (r"cells a sheet may span", "工作表的范围太大：删除表格下方或右方远处零散的单元格，或拆分工作表。"),
    (r"unpacks to .* over the", "文件解压后太大，超过上限（ANNEX_MAX_FILE_MB）：请拆分文件。"),
    (r"not a (?:valid|readable) (?:\.docx|\.xlsx|PDF|workbook)|not a Word document|is damaged|zip (?:directory|compression)"
     r"|package structure", "文件已损坏、不完整，或不是它的扩展名所说的格式：{resave}"),
    (r"not a readable CSV", "不是可读的 CSV：请另存为 UTF-8 编码的 CSV，再上传。"),
    (r"binary file, not text", "看起来是二进制文件，不是文字：请另存为 UTF-8 文本或 .docx，再上传。"),
    (r"byte-order mark|not text in an encoding", "无法识别文字编码：请另存为 UTF-8，再上传。"),
    (r"reading it took .* \(?(?P<setting>ANNEX_\w+)", "读取太久，超过时限（{setting}）：请拆分文件。"),
    (r"left in this private library \((?P<setting>ANNEX_\w+)",
     "提取出的文字超过私有库剩余的空间（{setting}）：请拆分文件、删除私有库里的文档，或填写口令上传到共享库。"),
    (r"MB of text .* over the .* limit", "提取出的文字超过单个文件的上限（ANNEX_MAX_FILE_MB）：请拆分文件。"),
    (r"MB is over the .* limit", "文件超过大小上限（ANNEX_MAX_FILE_MB）：请拆分文件。"),
    (r"over the (?P<setting>ANNEX_\w+) limit", "内容超过上限（{setting}）：请拆分文件。"),
    (r"same name", "这次上传里有同名的文件：请给每个文件各自的名字。"),
    (r"could not be staged", "文件无法暂存：" + RENAME + "如仍失败，请管理员检查磁盘空间。"),
    (r"parent document '(?P<stem>.*)' is not in library", "附件文件的主文档“{stem}”不在这个库里：请把主文档一起上传。"),
    (r"control character|not valid Unicode|carries no file name|file name is \d+ bytes", "文件名无法使用：" + RENAME),
    (r"cannot be read", "无法读取这个文件：" + RENAME),
))
UNKNOWN = "入库失败："  # before a message no kind knows
_ENGLISH = re.compile(r"[A-Za-z]{3,}(?: [A-Za-z]{2,}){2}")  # three English words in a row: a sentence, not a name


def reason(file: str, error: str) -> str:
    """Why `file` was not ingested, in Chinese: its English error (`error`, usually "file: reason") by kind."""
    text = error.removeprefix(f"{file}: ")  # the panel shows the file in a column of its own
    for words, said in KINDS:
        found = words.search(text)
        if found:
            resave = RESAVE.get(PurePath(file).suffix.lower(), RESAVE_OTHER)
            return said.format(resave=resave, **{k: v for k, v in found.groupdict().items() if v is not None})
    return text if not _ENGLISH.search(text) else UNKNOWN + text  # already Chinese (an upload limit, a same name)
