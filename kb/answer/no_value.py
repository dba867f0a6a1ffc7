"""Lines that match a question's words and still give none of what it asks, as a careful reader sees them and
declines (the document does not say): a blank template's labels asked how a value is made, a sentence that leaves the
matter to a rule made elsewhere, a thing the text says it attaches and does not
carry. Each check reads the lines the offline answerer would quote (kb/answer/offline.py)."""
from __future__ import annotations

import re
from typing import Sequence

from kb.answer.asked_kind import asked_kinds
from kb.answer.contents import asks_contents
from kb.answer.forms import is_blank
from kb.answer.question import Asks, asks
from kb.answer.shapes import Candidate
from kb.answer.units import folded, words
from kb.turn import Source

# A single cell of a form's row with nothing beside it (经营范围 |, 备 注 |): a field left for the filler
_EMPTY_CELL = re.compile(r"^[^|]+\|\s*$")
# The matter left to a rule made elsewhere (具体格式由主管部门另行规定, 细则另行制定): not set here
DEFERS = re.compile(r"另行(?:规定|制定|公布|发布|下发|印发|确定)|另文(?:规定|下发|印发)")
# 本规定所附样式, 所附图例: what the text says it carries with it
_ATTACHED = re.compile(r"所附(?:的)?(?P<noun>[\u4e00-\u9fff]{2,6}?)(?=由|制作|为|的|，|。|；|$|[^\u4e00-\u9fff])")


def unfilled(text: str) -> bool:
    """The line is a form's blank fields or a field's empty cell: it names what to fill in, it holds no value."""
    return is_blank(text) or bool(_EMPTY_CELL.match(text.strip()))


def template_only(question: str, wants: Asks, chosen: Sequence[Candidate]) -> bool:
    """The best line, and most lines, are a blank form's fields, and the question asks how a value is, not what to
    fill in or whether (登记表怎么编号: the template shows 登记表编号： and nothing of its rule)."""
    if not chosen or wants.list or wants.whether or asks_contents(question):
        return False
    above = {c.lead or c.heading for c in chosen}  # 注： over the note it opens is no blank field
    lines = [c.text for c in chosen if c.text not in above]
    return bool(lines) and unfilled(lines[0]) and sum(map(unfilled, lines)) * 2 > len(lines)


def deferred(question: str, chosen: Sequence[Candidate]) -> bool:
    """Every line leaves the matter to a rule made elsewhere (…由…另行规定): the document does not set it. A time or a
    place to be announced (具体时间另行通知) is what a notice says of when and where, and answers them."""
    if not chosen or asked_kinds(question):
        return False
    return all(DEFERS.search(c.text) for c in chosen)


def attached_elsewhere(question: str, chosen: Sequence[Candidate], sources: Sequence[Source]) -> bool:
    """The best line says the thing asked about is attached (登记证按本规定所附样式印制, asked what the 样式 looks
    like), and its document carries no attachment at all: the text points at what is not there."""
    if not chosen:
        return False
    best = chosen[0]
    asked = folded(question)
    nouns = [m.group("noun") for m in _ATTACHED.finditer(folded(best.text))]
    if not any(noun in asked or words(noun) & words(asked) for noun in nouns):
        return False
    return not any(s.label for s in sources if s.doc_id == best.source.doc_id)


def gives_nothing(question: str, chosen: Sequence[Candidate], sources: Sequence[Source]) -> bool:
    """One of the readings above: the lines chosen give none of what is asked."""
    return (template_only(question, asks(question), chosen) or deferred(question, chosen)
            or attached_elsewhere(question, chosen, sources))
