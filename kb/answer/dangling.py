"""What a body says of the attachments it names but does not carry: the titles it gives them, and its sentences that
send the reader to them.

A notice lists its attachments (`附件：1.AED安装点选点要求 / 2.2018年AED配置点信息情况汇总表`) or names one beside its
label (`《丹江口水力发电厂公开招聘报名登记表》（见附件2）`), and then the page carries only some of them. A reader asked
about the 汇总表 knows it by that title and sees it is missing; one who reads `具体招聘岗位和资格条件详见附件1` knows the
answer is in 附件1, not in that sentence.
"""
from __future__ import annotations

import re

from kb.ingest.header_lines import HEADER, is_title
from kb.answer.units import folded
from kb.search.tokens import tokenize
from kb.labels import KIND_WORD, LABEL, NUMBER, SPACE, make_label, normalize_kind

# `附件：1.…` opens the list (附表：1.… a list of tables); each item a number, a mark, the title (`2.2018年…汇总表`,
# `1、《…报名表》点击下载`)
_LIST_OPEN = re.compile(rf"^\s*(?P<kind>{KIND_WORD})\s*[：:]\s*(?:$|(?=[0-9０-９]{{1,2}}\s*[.．、]))")
_ITEM = re.compile(rf"^\s*(?:{KIND_WORD}\s*[：:]\s*)?(?P<n>[0-9０-９]{{1,2}})\s*[.．、]\s*(?P<title>\S.{{1,60}}?)\s*$")
# 《title》（附件2） / 《title》(见附件2)
_BESIDE = re.compile(rf"《(?P<title>[^》]{{2,60}})》\s*[（(]\s*(?:见|详见)?\s*(?P<label>{KIND_WORD}{SPACE}{NUMBER})\s*[)）]")
_LINK_WORDS = re.compile(r"[（(]?(?:点击下载|下载)[)）]?$")
# 详见附件1, 见附件2, 参见附件3: the sentence sends the reader to that attachment for what it does not say itself
_DEFERS = re.compile(r"(?:详见|见|参见|参阅|具体见)\s*$")
# 见哪个附件, 在哪个附表里, 附件几: the question asks which attachment holds it — the pointer is its answer, whether
# or not the attachment came with the document
_ASKS_WHICH = re.compile(r"哪(?:个|一个|一份|份|一)?\s*(?:附件|附表|附录)|(?:附件|附表|附录)\s*(?:几|多少号)|第几个?附件")
_EMPHASIS = re.compile(r"\*+")  # Markdown's bold and italic marks: no reader sees them
MIN_DETAIL = 2  # characters of a question word that names the detail a pointer's clause sends to (名额)
MAX_REST = 12  # characters a pointer's sentence holds besides it (资格及岗位条件) and still says nothing itself
_CJK = re.compile(r"[\u4e00-\u9fff]")
_NUMBERING = re.compile(r"^\s*(?:[（(][一二三四五六七八九十0-9]+[)）]|[一二三四五六七八九十0-9]+[、.．])")


def dangling_titles(body: str, carried: set[str]) -> dict[str, str]:
    """The titles the body gives attachments it names but does not carry (any label but `carried`), by label."""
    out: dict[str, str] = {}
    for m in _BESIDE.finditer(body):
        label = _label(m.group("label"))
        if label and label not in carried:
            out.setdefault(label, m.group("title").strip())
    kind = ""
    for line in body.split("\n"):
        header = HEADER.match(line)
        title = (header.group("title") or "").strip().strip("《》；; ") if header else ""
        if title and is_title(title):  # 附件2：《…整改记录表》: a header line in the body names what it does not begin
            label = make_label(header.group("kind"), header.group("number"))
            if label not in carried:
                out.setdefault(label, title)
            kind = ""
            continue
        opened = _LIST_OPEN.match(line)
        item = _ITEM.match(line) if kind or opened else None
        if item is None:
            kind = normalize_kind(opened.group("kind")) if opened else ""  # the list ends at its first non-item line
            continue
        kind = normalize_kind(opened.group("kind")) if opened else kind
        label = make_label(kind, item.group("n"))
        if label not in carried:
            out.setdefault(label, _LINK_WORDS.sub("", item.group("title").strip()).strip("《》 "))
    return out


def asks_which(question: str) -> bool:
    """The question asks which attachment holds something (名额分配情况见哪个附件): the pointer answers it."""
    return bool(_ASKS_WHICH.search(question))


def deferred_labels(sentence: str, question: str = "") -> list[str]:
    """The attachments a sentence that is only a pointer sends the reader to (具体招聘岗位和资格条件详见附件1; a heading
    and its note, 资格及岗位条件（详见附件1）), in order; none when the sentence says more (年会定于5月5-7日在…酒店（具体
    地址详见附件1）召开: it answers, and only a detail is elsewhere) — unless the question asks for that detail (具体地址
    是哪里), what the pointer's clause names; and none when the question asks which attachment it is (见哪个附件)."""
    if asks_which(question):
        return []  # 名额分配情况见哪个附件: 见附件1 answers it
    sentence = _EMPHASIS.sub("", sentence)  # 见**附件1** of a Markdown notice reads 见附件1
    found = [m for m in LABEL.finditer(sentence) if _DEFERS.search(sentence[max(0, m.start() - 4):m.start()])]
    rest, asked = sentence, []
    for m in reversed(found):
        start, end = _clause(sentence, m.start(), m.end())
        rest = rest[:start] + rest[end:]
        named = _DEFERS.sub("", sentence[start:m.start()]).strip("（(，,；; ")
        if len(named) >= 2 and (named in question or _asks_detail(named, sentence[:start] + sentence[end:], question)):
            asked.append(m)
    if len(_CJK.findall(_NUMBERING.sub("", rest))) > MAX_REST:
        found = asked[::-1]
    return [make_label(m.group("kind"), m.group("number")) for m in found]


def _asks_detail(named: str, rest: str, question: str) -> bool:
    """The question asks for what the pointer's clause names and the rest of the sentence does not write (共招收60名
    营员（各区的营员名额分配表见附件1） asked 每个区分到几个名额: the sentence gives a total, each 区's 名额 are in 附件1)."""
    named, rest = folded(named), folded(rest)
    return any(len(t) >= MIN_DETAIL and t in named and t not in rest for t in tokenize(question))


def _clause(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the clause (or the note in brackets) holding text[start:end] begins and ends."""
    opened = text.rfind("（", 0, start), text.rfind("(", 0, start)
    at = max(opened)
    if at >= 0 and not re.search(r"[)）]", text[at:start]):
        close = re.search(r"[)）]", text[end:])
        return at, end + close.end() if close else len(text)
    before = max(text.rfind(mark, 0, start) for mark in "，,。；;：:")
    after = re.search(r"[，,。；;]", text[end:])
    return before + 1, end + (after.end() if after else len(text) - end)


def _label(text: str) -> str:
    m = LABEL.search(text)
    return make_label(m.group("kind"), m.group("number")) if m else ""
