"""A document's title as a reader finds it on its first page: the top heading, else the title line of its cover."""
from __future__ import annotations

import re
from pathlib import Path

from kb.labels import KIND_WORD
from kb.model import ParsedFile
from kb.text import unspace

TITLE_WINDOW = 600  # a document's title sits in its first lines (a cover: number, issuer, title, date)
TITLE_LINES = 12
HEADING_WINDOW = 500  # a top heading further down is a section's, not the document's
MAX_TITLE = 40
MAX_JOINED = 64  # an issuer and a title read as one (西安新兴紫楹台酒店有限公司生产安全事故应急预案)
# What a title names: the kind of document it is (…应急预案, …管理办法, …实施细则, …法).
DOCUMENT_KINDS = tuple(
    "预案 办法 条例 规定 细则 方案 制度 规范 规则 规程 标准 指南 指引 准则 章程 通知 决定 意见 计划 规划 报告 手册 "
    "须知 守则 法 决议 纲要 导则 公告 通告 公报 批复 函 纪要 简章".split())
# A title line that is a kind of document alone (招标公告, 实施细则) ends a title that began on the line above.
MAX_KIND_LINE = 6
# What an organisation's name ends with: the issuer on a cover (某某酒店有限公司, 某某区应急管理局, 某某街道办事处).
ORGANISATIONS = tuple(
    "公司 集团 酒店 饭店 宾馆 医院 学校 学院 大学 中心 委员会 办公室 办事处 政府 街道 研究院 研究所 协会 银行 工厂 园区 "
    "局 厅 部 署 院 社 所 站 厂 处 会".split())
FRONT_MATTER = frozenset("目录 目次 前言 批准页 发布令 签发页 修订记录 封面".split())
_NOT_TITLE = re.compile(r"[。！？；!?;，,：:|]")
_DATE_LINE = re.compile(r"^[0-9０-９〇零一二三四五六七八九十]+年([0-9０-９〇零一二三四五六七八九十]+月)?([0-9０-９〇零一二三四五六七八九十]+日)?$")
_QUALIFIER = re.compile(r"[（(][^（()）]{1,12}[)）]$")  # 企业风险评估指南（试行）, …预案（2024版）
# An attachment header, an article, a numbered or bracketed section heading (一、总则, 1.2 适用范围, （一）基本条件).
_LABEL_LINE = re.compile(rf"^({KIND_WORD}|第[0-9一二三四五六七八九十百]+[章节条])|^[0-9０-９一二三四五六七八九十]+[、.．]"
                         r"|^[（(][0-9０-９一二三四五六七八九十]+[)）]|^[0-9]+(\.[0-9]+)+\s")
# A standard's or a notice's number on its cover (GB/T 45839—2025, DB61/T 1234-2020, 国发〔2011〕35号): the line above
# it names the series (中华人民共和国国家标准), the title comes below it.
_STANDARD_NUMBER = r"[A-Z]{1,4}(?:/[A-Z]{1,2})?\s*[0-9]+(?:\.[0-9]+)*\s*[—–\-－]+\s*[0-9]{4}"
_STANDARD_LINE = re.compile(rf"^{_STANDARD_NUMBER}$")
_NUMBER_LINE = re.compile(rf"^{_STANDARD_NUMBER}$|^[（(]?\S{{1,8}}〔[0-9]{{4}}〕[0-9]+号[）)]?$")
# The series a standard belongs to, on its cover above its number: not the standard's title.
_SERIES = re.compile(rf"^(?:中华人民共和国)?\S{{0,12}}(?:国家|行业|地方|团体|企业)标准(?:化指导性技术文件)?"
                     rf"(?:\s*{_STANDARD_NUMBER})?$")
_REPLACES = ("代替", "替代", "部分代替")  # 代替 GB/T 1234—2010, under a standard's number
# A field a converter filled with "not given" before the title (未提供 企业突发环境事件风险评估指南（试行）: its number)
_PLACEHOLDER = re.compile(r"^(?:未提供|暂无|不详)\s+")
_PLACE = re.compile(r"[省市县区镇乡村]|国家|全国|中华人民共和国|中央")  # 国家突发公共事件总体应急预案 says whose it is
_OPENS = re.compile(r"[《（(][^》）)]*$")  # a line that opens a bracket it does not close
_RUNNING_TITLE = re.compile(r"[\u4e00-\u9fff]{0,30}关于[^。；;：:，,！？!?\n]{2,50}?的[\u4e00-\u9fff]{0,4}?"
                            r"(?:通知|公告|通告|决定|意见|批复|报告|函)")
_HAN = re.compile("[\u4e00-\u9fff]")
# The sentence that says what the document announces: …拟公开招聘8名员工，现将有关事项公告如下：
_ANNOUNCES = re.compile(r"(?P<subject>[^。；;！？!?，,：:\n]{2,30})[，,]\s*(?:现|特)?将(?:有关|相关)?(?:事项|事宜|情况|内容)?"
                        r"(?P<kind>公告|通知|通告|公示)如下")
_INTENT = re.compile(r"^(?:为|拟|决定|定于|将|现)+")
# An organisation named at a paragraph's start, as its subject (丹江口水力发电厂，位于…).
_OPENING_ORG = re.compile(r"(?m)^(?P<org>[\u4e00-\u9fff]{2,20}?(?:%s))(?=[，,]|是|位于)" % "|".join(ORGANISATIONS))
# 编制单位：某某公司 — the issuer named in a field of the cover
_ISSUER_FIELD = re.compile(r"^(?:编制单位|发布单位|制定单位|单位名称|编制|发布)[：:]\s*(\S.*)$")


def document_title(main: ParsedFile, body_end: int | None = None) -> str:
    """The first top-level heading near the start that is not a section's, else the title line of its first lines,
    else the file name without extension.

    `body_end`: where the document's first attachment begins. A document that opens with its body has no title
    line, and the title line of its first attachment below (附件1： / 学员名额分配表) is that attachment's, not its."""
    text = main.text[:body_end] if body_end else main.text
    below = _title_below_number(_cover_lines(text))
    if below:
        return unspace(below)
    for heading in main.headings:
        if heading.start > HEADING_WINDOW or heading.start >= len(text):
            break
        title = _PLACEHOLDER.sub("", main.text[heading.start : heading.end].lstrip("# ").strip())
        if title and heading.level == 1 and not _LABEL_LINE.match(title):
            return unspace(title)
    found = unspace(title_line(text)) or _title_in_running_text(text[:TITLE_WINDOW])
    stem = Path(main.file).stem
    return found or (_HAN.search(stem) and stem) or _announced_title(text[:TITLE_WINDOW]) or stem


def _announced_title(text: str) -> str:
    """The title of a notice that has no title line and a file name no reader reads (zh_notice_…_2018.txt): what it
    says it announces (…拟公开招聘8名员工，现将有关事项公告如下) as that kind of document, under the organisation
    whose name opens a paragraph above (丹江口水力发电厂，位于…): 丹江口水力发电厂公开招聘8名员工公告; "" when it says
    nothing of the kind."""
    announced = _ANNOUNCES.search(text)
    if announced is None:
        return ""
    subject = _INTENT.sub("", announced.group("subject"))
    issuer = next((m.group("org") for m in reversed(list(_OPENING_ORG.finditer(text, 0, announced.start())))), "")
    title = f"{issuer if issuer not in subject else ''}{subject}{announced.group('kind')}"
    return title if len(title) <= MAX_JOINED else ""


def _title_in_running_text(text: str) -> str:
    """A notice's title inside text that runs on without line breaks (…公告编号：2015-019济南柴油机股份有限公司关于召开
    2014年年度股东大会的提示性公告本公司及董事会…): the issuer's name, 关于…, and the kind it ends with; "" when none."""
    for match in _RUNNING_TITLE.finditer(text):
        if text[max(0, match.start() - 1):match.start()] != "《" and text[match.end():match.end() + 1] != "》":
            return match.group(0)  # not a document it cites: 《省政府关于加快质量发展的意见》
    return ""


def title_line(text: str) -> str:
    """The line of a document's first lines a reader takes for its title: the first short line without sentence
    punctuation that names a kind of document (西安喜来登大酒店生产安全事故应急预案 under 应急预案编号：…, the
    company's name), else the first such line at all; "" when none looks like a title.

    A series line above a standard's number (中华人民共和国国家标准 / GB/T 45839—2025) is not the title: the line
    after the number is. A title that does not say whose it is (生产安全事故应急预案) is the issuer's whose name
    stands beside it on the cover (西安新兴紫楹台酒店有限公司 above it, or 编制单位：… around it)."""
    candidates = _cover_lines(text)
    below = _title_below_number(candidates)
    if below:
        return below
    titled = [(i, line) for i, line in enumerate(candidates) if _looks_like_title(line)]
    named = next(((i, t) for i, t in titled if _QUALIFIER.sub("", t).endswith(DOCUMENT_KINDS)), None)
    if named is None:
        return next((t for _, t in titled), "")
    at, title = named
    if at and _continues(candidates[at - 1], title) and len(candidates[at - 1] + title) <= MAX_JOINED:
        at, title = at - 1, candidates[at - 1] + title
    issuer = "" if _names_whose(title) else _issuer_beside(candidates, at)
    return issuer + title if issuer and len(issuer + title) <= MAX_JOINED else title


def _continues(above: str, title: str) -> bool:
    """Whether a title line ends a title begun on the line above: it closes a bracket the line above opened
    (关于印发《…违法违规 / 行为…细则（试行）》的通知), it is a kind of document alone (…养护工程施工 / 招标公告), or
    it closes the 关于…的 the line above opened (关于举办绍兴市优秀青年教师 / 综合素质提升班的通知)."""
    if not _looks_like_title(above) and not _OPENS.search(above):
        return False
    opened = sum(above.count(c) for c in "《（(") - sum(above.count(c) for c in "》）)")
    about = above.startswith("关于") and "的" not in above and "的" in title
    return opened > 0 or about or (len(title) <= MAX_KIND_LINE and not _is_organisation(above))


def _cover_lines(text: str) -> list[str]:
    lines = [_PLACEHOLDER.sub("", line.strip().lstrip("#").strip()) for line in text[:TITLE_WINDOW].splitlines()]
    return [line for line in lines if line][:TITLE_LINES]


def _title_below_number(lines: list[str]) -> str:
    """The title under a series line and its number (中华人民共和国国家标准 / GB/T 45839—2025 / 代替… / the title);
    "" when the cover has no number under a line."""
    at = next((i for i, line in enumerate(lines) if i and _STANDARD_LINE.match(line)), None)
    if at is None:
        return ""
    return next((line for line in lines[at + 1:] if _looks_like_title(line) and not line.startswith(_REPLACES)), "")


def _looks_like_title(line: str) -> bool:
    return (2 <= len(line) <= MAX_TITLE and not _NOT_TITLE.search(line) and line not in FRONT_MATTER
            and not _DATE_LINE.match(line.replace(" ", "")) and not _LABEL_LINE.match(line)
            and not _NUMBER_LINE.match(line) and not _SERIES.match(line) and bool(_HAN.search(line)))


def _names_whose(title: str) -> bool:
    """Whether a title names an organisation or a place of its own (某某公司火灾事故应急预案, 示范市…办法)."""
    words = _QUALIFIER.sub("", title)
    return any(org in words for org in ORGANISATIONS) or bool(_PLACE.search(words))


def _issuer_beside(lines: list[str], at: int) -> str:
    """The organisation named on the line just above the title, else just below it, else in an issuer field of the
    cover; "" when none."""
    for line in (lines[at - 1] if at else "", lines[at + 1] if at + 1 < len(lines) else ""):
        if _is_organisation(line):
            return line
    for line in lines:
        field = _ISSUER_FIELD.match(line)
        if field and _is_organisation(field.group(1).strip()):
            return field.group(1).strip()
    return ""


def _is_organisation(line: str) -> bool:
    return (2 < len(line) <= MAX_TITLE and not _NOT_TITLE.search(line) and line.endswith(ORGANISATIONS)
            and not line.endswith(DOCUMENT_KINDS))
