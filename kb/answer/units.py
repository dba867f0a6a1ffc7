"""A source read as a careful person reads it: sentences, list items, and table rows with their header."""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from kb.answer.flat_tables import MIN_ROWS, read_flat_table
from kb.answer.forms import form_fields, is_form_row
from kb.answer.label_tables import is_label_table
from kb.ingest.parsing import CELL_SEPARATOR
from kb.ingest.splitting import is_header_line, is_toc_line
from kb.search.same_words import same_words
from kb.search.tokens import tokenize
from kb.text import ENUMERATED, INTRODUCES, LAW_KINDS, ListReader, enumeration_style

_SENTENCE = re.compile(r"[^。！？；!?;\n]+[。！？；!?;]?")
_RULE = re.compile(r":?-{2,}:?|")
MAX_PLAIN_COLUMNS = 6
MIN_INLINE_ITEMS = 2  # 1）…；2）… after a colon: a list; a single 1） is a number in a sentence
_SENTENCE_END = re.compile(r"[。！？；!?;]$")
_SENTENCE_PUNCT = re.compile(r"[。！？；!?;，,：:、]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"[0-9０-９]")
_ONE_CELL = re.compile(r"\|[^|]+\|")  # | 事故简要说明 |: a row of one cell spanning the table
# Markdown's rule line written tight (|---|---|, |:--|--:|): no CELL_SEPARATOR in it, yet a line of its table
_TIGHT_RULE = re.compile(r"\|(?:\s*:?-{2,}:?\s*\|)+")
_PIPE = re.compile(r"(?<!\\)" + re.escape(CELL_SEPARATOR.strip()))
# A heading: a short line with no punctuation (预案衔接, 第二类, 西岭街道, （三）危险废物 — its mark aside), or a
# table's caption (表2 …应急状态启动令). It owns the lines below it until the next heading: the dev set's headings
# are 2–6 characters, its shortest entry lines 11.
HEADING_CHARS = 10
_HEADING_PUNCT = re.compile(r"[。！？；!?;，,：:、|（）()《》“”\"]")
_CAPTION = re.compile(r"^[表图]\s*[0-9０-９一二三四五六七八九十]+(?:[-－.．][0-9０-９]+)?\s+\S")
# A formula's variable defined under it (式中：V——污染雨水储存容积（m3）；h——降雨深度，宜取15mm~30mm): each line (or
# clause) a definition, read as an item under the formula's lead-in.
DEFINES = re.compile(r"^\s*[A-Za-zα-ωΑ-Ω0-9_′'\u4e00-\u9fff]{1,8}\s*[—－]{2,3}\s*\S")
_FORMULA_LEAD = re.compile(r"^(?P<lead>.*?(?:式中|其中)\s*[：:])\s*(?P<first>\S.*)$")
_ANNOUNCES = re.compile(r"下列|以下|如下|下述")  # the sentence that says a list follows
_INLINE_LEAD = re.compile(r"^(?P<lead>.*?[：:])\s*(?P<first>\S.*)$")


class Unit(NamedTuple):
    """One answerable unit of a source."""

    text: str
    header: str | None  # a table row's header row; "" for a list line; None for a sentence
    lead: str = ""  # an enumerated line's lead-in, the sentence that opens its list (通用尺度定为如下五种：)
    heading: str = ""  # the heading line above it that owns it (预案衔接, （一）能源矿产, 表2 …应急状态启动令)


@lru_cache(maxsize=4096)
def read_units(text: str, preamble: str = "") -> tuple[Unit, ...]:
    """The answerable units of a source text (cached: the same chunks come back turn after turn).

    `preamble`: the line the text continues (kb/search/indexed_text.py: the header row of the table it starts inside,
    or the lead-in of its list), read first and not returned: a chunk that opens at （五） of a list reads as the
    list's fifth item."""
    if not preamble:
        return tuple(_read_units(text))
    skip = len(_read_units(preamble))
    return tuple(_read_units(f"{preamble}\n{text}"))[skip:]


def _read_units(text: str) -> list[Unit]:
    """The answerable units of a source: sentences (None), list lines ("") and table rows read as 'column：value'
    with their header row (the header's text). The lines of an enumerated list carry the sentence that introduced
    it: 甲、长288公分，高192公分 says what it measures only under 国旗之通用尺度定为如下五种："""
    units: list[Unit] = []
    header: list[str] | None = None
    plain: list[str] | None = None
    lists = ListReader()
    heading = defining = ""
    form = False  # inside a table read as a form (kb/answer/forms.py)
    bordered = True  # the open table's rows are Markdown's, between outer borders
    lines = text.split("\n")
    shown = [line.strip() for line in lines if line.strip()]
    # a heading stands alone: short lines or captions of one kind in a row (一层平面图 / 二层平面图, 表4 … / 表5 …) are a
    # list's entries
    alone = {i for i, line in enumerate(shown) if is_heading(line)
             and not any(0 <= j < len(shown) and is_heading(shown[j])
                         and enumeration_style(shown[j]) == enumeration_style(line) for j in (i - 1, i + 1))}
    alone |= captions(shown)
    labelled = one_line_sections(shown)
    point = ""  # the lead-in of the list whose point the last such heading is
    at = -1
    for index, line in enumerate(lines):
        stripped = line.strip()
        at += bool(stripped)
        if not stripped:
            header, form = None, False
            continue  # a blank line between a list's items (Markdown) does not end the list
        if is_toc_line(line) or is_header_line(stripped):
            header = None
            heading = ""
            lists.end()
            continue
        if at in labelled.values():  # the heading is read with its one line, as that line's label (below); an
            header, plain, heading = None, None, ""  # item still of the list it is a point of (…通知如下：)
            point = lists.read(stripped, "")
            continue
        if at in labelled:  # 二、演练时间 over 2024年5月10日上午9:00: 演练时间：2024年5月10日上午9:00, one field
            units.append(Unit(f"{label_of(shown[labelled[at]])}：{stripped}", "", point, shown[labelled[at]]))
            continue
        if at in alone and not (lists.lead and enumeration_style(stripped)):
            header, plain = None, None
            lists.end()
            units.append(Unit(stripped, ""))  # a heading is no entry of the one above: 第二类 after 第一类's items
            heading = stripped
            continue
        if heading and enumeration_style(stripped) and enumeration_style(stripped) == enumeration_style(heading):
            heading = ""  # （二）社区（村）防汛工作组 ends （一）街道防汛指挥部's section, heading or not
        start = len(units)
        if DEFINES.match(stripped) and (defining or lists.lead):
            defining = defining or lists.lead  # 式中： above V——…, h——…: every definition is an item under it
            units.append(Unit(stripped, "", defining, heading))
            continue
        defining = ""
        sentences = [m.group(0) for m in _SENTENCE.finditer(stripped) if m.group(0).strip()]
        lead = lists.read(stripped, _lead_of(sentences))
        if _is_row(stripped):
            if header is None:
                bordered = _bordered(stripped)  # a table's rows are written as its first row is
            cells = _cells(stripped, bordered)
            if all(_RULE.fullmatch(c) for c in cells):
                continue  # a Markdown table's |---|---| line
            # 日期 | 具体时间 | … | 人数 | above | 8:30 | … | 1200 |: the header's end pipe is the border its rows are
            # written between, not an empty cell beside a label for a form to fill in
            ragged = header is None and not bordered and stripped.endswith("|") and _next_bordered(lines, index)
            form = form or (header is None and (is_form_row(cells[:-1] if ragged else cells)
                                                or is_label_table(_table_rows(lines, index, bordered))))
            if header is None and not form:
                header = cells
                continue
            if form or len(cells) != len(header):  # a form's fields, or a row that spans the table's columns
                if text := form_fields(cells):
                    units.append(Unit(text, "", "", heading))
                continue
            if len(cells) == len(header):
                units.append(Unit("；".join(f"{h}：{v}" if h else v for h, v in zip(header, cells) if v and h != v),
                                  " ".join(header), "", heading))
                continue
        header, form = None, False
        fields = stripped.split()
        flat = read_flat_table(stripped) if len(fields) >= 2 * MIN_ROWS else None
        if flat:  # a table written out on one line: its rows under its caption and column names
            named = not _DIGIT.search(flat.head)  # a text cut inside the table begins with a row's end, no header
            if flat.head:
                units.append(Unit(flat.head, None if named else "", "", heading))
            # a row is read under its header as a cell under its column's name: what it is about, not its words
            # (二噁英 in no row: the caption alone must not make every row an answer)
            units.extend(Unit(row, flat.head, "", flat.head) if named else Unit(row, "", "", heading)
                         for row in flat.rows)
            units.extend(Unit(m.group(0), None, "", heading) for m in _SENTENCE.finditer(flat.tail) if m.group(0).strip())
            continue
        if plain and len(fields) == len(plain) and _DIGIT.search(stripped):
            units.append(Unit("；".join(f"{h}：{v}" for h, v in zip(plain, fields)), " ".join(plain), "", heading))
            continue
        # A table that lost its grid (text or PDF copies): a header line of short fields without digits, then
        # rows with as many fields (争议金额(人民币) 仲裁案件受理费(人民币) / 1000元以下的部分 40－100元).
        plain = fields if _is_plain_header(fields, stripped) else None
        item = (len(sentences) == 1 and not _SENTENCE_END.search(stripped) and not INTRODUCES.search(stripped)
                and not stripped.startswith("#"))
        inline = _inline_items(sentences)
        # an enumerated item of several sentences is one item: its later sentences go on about what its first one
        # names (（1）《课题申请表》须手写。共交5份，…: the 5 copies are of the 申请表), read after it as after a lead-in
        opener = sentences[0].strip() if len(sentences) > 1 and ENUMERATED.match(stripped) else ""
        units.extend(inline or (Unit(sentence, "" if item else None, opener if k and opener else lead)
                                for k, sentence in enumerate(sentences)))
        if heading:
            units[start:] = [u._replace(heading=heading) for u in units[start:]]
    return units


def one_line_sections(shown: list[str]) -> dict[int, int]:
    """The lines that are all their heading owns, each with its heading's index (二、演练时间 / 2024年5月10日上午9:00 /
    三、演练地点): a notice's point whose value stands on the line below it names that value, as a form's label does.
    The line under a numbered heading is its content whatever its shape (学校东操场 under 二、演练地点 is no heading of
    its own: nothing is under it before 三、). A caption heads a table, not a value; a line that opens a list, a row,
    a mark or more than one sentence is no single value."""
    out: dict[int, int] = {}
    for i in range(len(shown) - 1):
        head, line = shown[i], shown[i + 1]
        style = enumeration_style(head)
        if not is_heading(head) or _CAPTION.match(head) or (i and (is_heading(shown[i - 1]) or style)
                                                             and enumeration_style(shown[i - 1]) == style):
            continue  # a run of short lines of one kind (一层平面图 / 二层平面图, 2、… / 3、…) is a list, not headings
        if is_header_line(line) or is_toc_line(line):
            continue  # 附件1：… begins an attachment: no value of the point above
        after = shown[i + 2] if i + 2 < len(shown) else None
        if after is None and not style:
            continue  # the text ends: an unmarked heading's section may go on in the next chunk
        if after is not None and not (is_heading(after) and enumeration_style(after) == style):
            continue  # the heading owns more than this line
        if (not style and is_heading(line)) or ENUMERATED.match(line) or _is_row(line) or line.startswith("#") \
                or line.endswith(("：", ":")) or len([m for m in _SENTENCE.finditer(line) if m.group(0).strip()]) != 1:
            continue
        out[i + 1] = i
    return out


def label_of(heading: str) -> str:
    """A heading as the label of what it owns: its name without its mark (演练时间 of 二、演练时间)."""
    return ENUMERATED.sub("", heading, count=1).strip()


def _lead_of(sentences: list[str]) -> str:
    """The lead-in a line gives the list below it: its last sentence, from the one that announces the list (有下列
    行为之一的，…给予行政处分；构成犯罪的，依法追究刑事责任： — the items are 下列行为, not 构成犯罪)."""
    if not sentences:
        return ""
    start = next((i for i in range(len(sentences) - 1, -1, -1) if _ANNOUNCES.search(sentences[i])), len(sentences) - 1)
    return "".join(sentences[start:]).strip()


# A form's blank date (年月日 under a signature, its digits left for the signer): a space to fill, no heading
_DATE_BLANK = re.compile(r"[年月日时分_＿]+")


def is_heading(line: str) -> bool:
    """A line that heads what follows it (预案衔接, （一）能源矿产, 表2 …启动令), not an entry of its own."""
    if _CAPTION.match(line):
        return not _HEADING_PUNCT.search(line)
    name = ENUMERATED.sub("", line, count=1).strip()
    return (0 < len(name) <= HEADING_CHARS and not _HEADING_PUNCT.search(name) and bool(_CJK.search(name))
            and not _DIGIT.search(name) and not any(ch.isspace() for ch in name) and not _DATE_BLANK.fullmatch(name))


def _is_item(text: str) -> bool:
    """An item of a list: it opens with an enumeration mark (2）, （二）) or defines a formula's variable (h——降雨深度)."""
    return bool(ENUMERATED.match(text) or DEFINES.match(text))


def _inline_items(sentences: list[str]) -> list[Unit]:
    """A list written inside one paragraph (本指南不适用于下列情况的环境风险评估：1）…；2）…；9）港口、码头。): the
    lead-in as a sentence, each item a list line under it, as if each stood on a line of its own; [] for none."""
    for i, sentence in enumerate(sentences):
        # the formula's own 式中： leads its definitions (可按下式计算：V=Fh/1000 式中：V——…), else the first colon
        split = _FORMULA_LEAD.match(sentence.strip()) or _INLINE_LEAD.match(sentence.strip())
        if not split or not _is_item(split.group("first")):
            continue
        rest = [split.group("first"), *(s.strip() for s in sentences[i + 1:])]
        count = next((k for k, s in enumerate(rest) if not _is_item(s)), len(rest))
        if count < MIN_INLINE_ITEMS:
            continue
        lead = split.group("lead")
        return [*(Unit(s, None) for s in sentences[:i]), Unit(lead, None),
                *(Unit(s, "", lead) for s in rest[:count]), *(Unit(s, None) for s in rest[count:])]
    return []


def _is_plain_header(fields: list[str], line: str) -> bool:
    """A header line of short fields without digits; not a word spaced out letter by letter (财 务 要 求)."""
    return (2 <= len(fields) <= MAX_PLAIN_COLUMNS and all(len(f) <= 20 for f in fields)
            and not all(len(f) == 1 for f in fields)
            and not _DIGIT.search(line) and not _SENTENCE_PUNCT.search(line))


# A table's caption: a name, no sentence (建筑业…要素列表, 表二 住宿费标准)
MAX_CAPTION = 40
_SENTENCE_MARK = re.compile(r"[。！？；!?;，,：:]")


def captions(shown: list[str]) -> set[int]:
    """The lines that caption the tables of a text of several tables: each right above its table's first row, and
    a name, no sentence. An attachment of several tables (a 附表 with one list per trade, a fee table per time of
    day) gives each its caption, which heads its rows until the next caption, as a reader reads the table a
    row is in; one table under a line is left to the other readings (a form's title, a pointer's rows)."""
    found = {i for i, line in enumerate(shown)
             if i < len(shown) - 1 and _is_row(shown[i + 1]) and not _is_row(line) and len(line) <= MAX_CAPTION
             and bool(_CJK.search(line)) and not _SENTENCE_MARK.search(line)}
    between = {i for i in found if i > 0 and _is_row(shown[i - 1])}
    return found if between else set()


def _is_row(line: str) -> bool:
    """A line of a table: cells joined by CELL_SEPARATOR, one cell between borders, or a rule line."""
    return CELL_SEPARATOR in line or bool(_ONE_CELL.fullmatch(line) or _TIGHT_RULE.fullmatch(line))


def _table_rows(lines: list[str], start: int, bordered: bool) -> list[list[str]]:
    """The cells of each row of the table that starts at lines[start], up to its first line that is no row; its
    Markdown |---| line left out."""
    rows = []
    for line in lines[start:]:
        stripped = line.strip()
        if not _is_row(stripped):
            break
        cells = _cells(stripped, bordered)
        if not all(_RULE.fullmatch(c) for c in cells):
            rows.append(cells)
    return rows


def _next_bordered(lines: list[str], index: int) -> bool:
    """Whether the next non-empty line after lines[index] is a row written between borders."""
    following = next((line.strip() for line in lines[index + 1:] if line.strip()), "")
    return _bordered(following)


def _bordered(row: str) -> bool:
    """Whether a table row is written between outer borders (Markdown's `| a | b |`), not as cells joined by
    CELL_SEPARATOR (a .docx, PDF or spreadsheet row, `a | b | ` when its last cell is empty)."""
    return row.startswith("|") and row.endswith("|")


def _cells(row: str, bordered: bool = True) -> list[str]:
    """A row's cells; a bordered row's outer borders are no cells, a joined row's empty first or last cell is one."""
    cells = [c.strip() for c in _PIPE.split(row)]  # a Markdown cell's escaped \| is text, not a border
    if bordered and row.startswith("|") and cells and not cells[0]:
        cells = cells[1:]
    if bordered and row.endswith("|") and cells and not cells[-1]:
        cells = cells[:-1]
    return cells


# 本法, 本条例, 本办法: a law or rule names itself (LAW_KINDS); a plan's 本预案 is left out: its every clause says it
# (按本预案中各自职责), so it would name every one (dev: 1 of 84 lost)
_SELF = re.compile(rf"本({LAW_KINDS})")


def continues(lead: str) -> bool:
    """The unit's lead is the sentence its item opened with (（1）《课题申请表》须手写。), not a list's lead-in (…如下：):
    what it names is what the unit is about, though the unit does not write it."""
    return lead.rstrip().endswith(("。", "；", ";", "！", "!"))


def names_document(text: str, title: str) -> bool:
    """The sentence names its own document (本条例自…起施行 in 印花税暂行条例), as a reader reads 本条例 as its name."""
    return any(title.rstrip("》）) ").endswith(m.group(1)) for m in _SELF.finditer(text))


# 此文书, 本表, 该委托书: a form's closing note (注：本文书一式两份…, 本表由…填写) names the form it sits under. A
# form is a 表 or a 书 (登记表, 申请书, 委托书), 文书 and 表格 name either kind as a whole.
_THIS_FORM = re.compile(r"(?:此|本|该)(文书|表格|[\u4e00-\u9fff]{0,4}?[表书单证])")


def names_own_form(text: str, title: str) -> bool:
    """The sentence names the attachment it sits in as "this form" (本文书一式两份 under …变更申请书; 本表由申请人填写
    under …登记表), as a reader filling it in reads 此文书 as the form in hand."""
    plain = title.rstrip("》）) ")
    for m in _THIS_FORM.finditer(text):
        noun = m.group(1)
        if plain.endswith(noun) or (noun == "文书" and plain.endswith("书")) or (noun == "表格" and plain.endswith("表")):
            return True
    return False


@lru_cache(maxsize=32768)
def folded(text: str) -> str:
    """NFKC and lower case, written the one way (kb/search/same_words.py), as the question's words are: cached, the
    same chunks come back turn after turn."""
    return same_words(unicodedata.normalize("NFKC", text).lower())


@lru_cache(maxsize=32768)
def words(text: str) -> frozenset[str]:
    """The words of a unit; the same chunks come back turn after turn, so jieba reads each sentence once."""
    return frozenset(tokenize(text))
