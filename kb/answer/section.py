"""Extract the answer's **相关附件** section: one line per attachment the model relied on."""
from __future__ import annotations

import re
from dataclasses import dataclass

from kb.answer.prompts import ATTACHMENT_BLOCK_TITLE
from kb.labels import KIND_WORD, LABEL, make_label
from kb.text import fold

# The section heading in the forms models write it: **相关附件**, 相关附件：, ### 相关附件, 【相关附件】
_HEADING = re.compile(
    r"^[ \t>]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?[【\[]?相关附件[】\]]?(?:\*\*|__)?[ \t]*[：:]?[ \t]*(?:\*\*|__)?[ \t]*(?P<rest>.*)$",
    re.M,
)
# The block annex-rag itself appends after the answer; never read it back as the model's section.
# [ \t]*, not \s*: begun at every line start, \s* ran on across blank lines — quadratic in a run of them
_CONTENT_BLOCK = re.compile(r"^[ \t\u3000]*(?:\*\*)?" + ATTACHMENT_BLOCK_TITLE, re.M)
_BULLET = re.compile(r"^\s*(?:[-*+•·]|\d+[.、)）]|[（(]\d+[)）]|[①-⑳])\s*")
# The whitespace before a citation goes with it, read once from the start of its run (a lookbehind and possessive
# runs): `\s*[-]?\s*` tried at every space of a long run was cubic (4,000 spaces: 31 s).
_CITATION = re.compile(
    r"(?<!\s)\s*+(?:[-–—]\s*+)?\[[^\[\]]*\]\((?:CITE|cite)[^)]*\)|(?<!\s)\s*+\[\d+(?:[,，]\s*\d+)*\]|(?<!\s)\s*+\[\^?\d+\]"
)
_NONE = re.compile(r"^(?:无|没有|暂无|none|n/?a|—|-)[。.]?$", re.I)
_SPLIT_INLINE = re.compile(rf"[；;]|[、，,](?=\s*{KIND_WORD})")


@dataclass(frozen=True)
class SectionLine:
    """One line of the section: its cleaned text, the label it names (if any) and the title part."""

    text: str
    label: str | None
    title: str


def extract_section(answer: str) -> list[SectionLine]:
    """The lines of the last 相关附件 section in the answer, cleaned and deduplicated in order."""
    answer = answer.replace("\r\n", "\n")
    block = _CONTENT_BLOCK.search(answer)
    if block:
        answer = answer[: block.start()]
    headings = list(_HEADING.finditer(answer))
    if not headings:
        return []
    heading = headings[-1]
    raw_lines = _SPLIT_INLINE.split(heading.group("rest")) if heading.group("rest").strip() else []
    for line in answer[heading.end() :].split("\n")[1:]:
        stripped = line.strip()
        if not stripped:
            if raw_lines:
                break
            continue
        if stripped.startswith("#") or (stripped.startswith("**") and not LABEL.search(stripped)):
            break
        raw_lines.append(stripped)
    out: list[SectionLine] = []
    seen: set[str] = set()
    for raw in raw_lines:
        line = _clean(raw)
        if not line or _NONE.match(line):
            continue
        label, title = _split_label(line)
        key = label or line
        if key in seen:
            continue
        seen.add(key)
        out.append(SectionLine(line, label, title))
    return out


def _clean(raw: str) -> str:
    line = fold(raw)
    line = _BULLET.sub("", line)
    line = _CITATION.sub("", line)
    line = line.replace("**", "").replace("__", "").replace("`", "")
    return line.strip(" \t。.;；,，")


def _split_label(line: str) -> tuple[str | None, str]:
    """'附件十一-应急专家名单' → ('附件11', '应急专家名单'); a line with no label keeps its text as title."""
    match = LABEL.search(line)
    if not match or match.start() > 8:
        return None, line
    label = make_label(match.group("kind"), match.group("number"))
    title = re.sub(r"^[\s:：、.\-–—_《》\"“”]+", "", line[match.end() :]).strip(" 》\"”")
    return label, title
