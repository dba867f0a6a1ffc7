"""Who issued a document: the bodies in its letterhead and its signature, which no sentence of it names as such.

`这份清单是哪几个单位联合发的？` A notice says who issued it twice, and never in a sentence: its letterhead (the
bodies' names above the title, or before 关于 in the title itself: `六安市裕安区发展和改革委员会 六安市裕安区财政局 …关于
公布…的通知`) and its signature block (the bodies' names above the date at its end). A reader asked who issued it
reads those lines; the sentences that merely mention a 局 or a 委员会 are not the answer.
"""
from __future__ import annotations

import re

from kb.answer.prompts import ATTACHMENT_SECTION, OFFLINE_LABEL
from kb.ingest.after_signoff import DATE_LINE

# The question asks who issued, published or jointly sent the document (not who does something it describes).
ASKS_ISSUER = re.compile(
    r"(?:(?:哪个|哪些|哪几个|哪几家|哪家|什么|几个)(?:单位|部门|机关|机构|组织)|谁)[^，,。？?]{0,4}?"
    r"(?:发|发布|印发|下发|出台|发出|联合发布|联合印发|联合下发|联合发)的?[吗呢啊]?[？?]?\s*$"
    r"|(?:发文|印发|发布)(?:单位|机关|部门|机构)|落款")
# A body's name: what it is called ends in the word for the kind of body it is.
ORGAN = re.compile(r"[\u4e00-\u9fff（）()]{2,30}(?:委员会|人民政府|政府办公室|办公室|办公厅|人民法院|人民检察院|局|厅|部|委|"
                   r"中心|学院|大学|学校|公司|集团|协会|学会|研究院|研究所|院|所|处|署|联合会|工作委员会|站|团)")
TITLE_START = re.compile(r"关于")
HEAD_LINES = 6  # the letterhead sits within a notice's first lines
TAIL_LINES = 8  # the signature block within its last lines


def asks_issuer(question: str) -> bool:
    return bool(ASKS_ISSUER.search(question))


def organs(line: str) -> list[str]:
    """The bodies a line names, when it is made of bodies' names alone (spaces between them); else none."""
    names = [part for part in re.split(r"[\s\u3000]+", line.strip()) if part]
    return names if names and all(ORGAN.fullmatch(name) for name in names) else []


def issuers(body: str) -> list[str]:
    """The lines of a document's body that name who issued it: its letterhead, else its signature block."""
    lines = [line.strip() for line in body.split("\n") if line.strip()]
    for line in lines[:HEAD_LINES]:  # above the title, or before its 关于: a letterhead; the title ends the look
        before_title = TITLE_START.split(line, maxsplit=1)[0]
        if organs(before_title):
            return [before_title.strip()]  # the first (a web page repeats the letterhead above its title)
        if TITLE_START.search(line):
            break
    tail = lines[-TAIL_LINES:]
    for at in range(len(tail) - 1, -1, -1):
        if DATE_LINE.match(tail[at]):
            signed = []
            for line in reversed(tail[:at]):
                if not organs(line):
                    break
                signed.insert(0, line)
            if signed:
                return signed
    return []


def issuer_answer(lines: list[str], n: int) -> str:
    """The offline answer quoting the issuing lines of source `n`'s document."""
    quoted = "\n".join(f"- {line} [{n}]" for line in lines)
    return f"{OFFLINE_LABEL}\n\n{quoted}\n\n{ATTACHMENT_SECTION}\n- 无\n"
