"""What an attachment holds, asked in everyday words (这个表要填什么, 附件里说了啥, 报名表上要写哪些): the attachment
is the answer, read under its title — a form's fields, a list's items — as a person handed it reads it.

A question that asks only for what a thing holds, and names the thing by its title (报名表), the last word of its
title (表 of 报名表, 清单 of 物资清单) or as the attachment (附件, 附件2), asks for that attachment's content.
"""
from __future__ import annotations

import re
from typing import Sequence

from kb.answer.phrases import QUESTION_WORD
from kb.answer.units import folded, words
from kb.labels import KIND_WORD, LABEL, make_label
from kb.search.tokens import tokenize
from kb.turn import Source

# Asking what a thing is for (做什么用的, 有什么用): a reader hands over the thing itself, its title first.
# Asking what a thing holds: what to fill in or write on it (要填什么, 填写哪些), what it says (说了啥, 写的什么), what
# it has or covers (有什么内容, 包括哪些, 都有啥) — never its name (叫什么) or a value (是多少).
_HOLDS = re.compile(r"(?:是)?(?:干什么|做什么|干嘛|干啥)用?的|有什么用(?:处)?|(?:是)?(?:用来|用于)(?:干什么|做什么|干嘛)的?"
                    r"|(?:要|需要|得|应|该)?(?:填写|填|写|说|讲|列|记)(?:了|的|些)?(?:都)?(?:什么|哪些|啥|哪几项)(?:内容|东西|信息|项目|栏目)?"
                    r"|(?:都)?(?:有|包括|包含|含)(?:了)?(?:什么|哪些|啥)(?:内容|东西|信息|项目|栏目)?"
                    r"|(?:什么|哪些|啥)内容")
# Pointing at the thing rather than naming it (这个表, 那张表, 里面): no word of what it is
_POINTING = re.compile(r"这个|那个|这张|那张|这份|那份|这一|那一|里面|里头|里边|上面|上边|里|上|中|的|都|呢|吗|啊|了|[？?！!。，,\s]")
_ATTACHMENT = re.compile(rf"^(?:{KIND_WORD}|附件)$")
# 附件6是什么, 附录C讲的是什么: what an attachment named by its label is, which is what it holds (a title asked 是什么
# may ask what the thing is for, so only a label counts here)
_WHAT_IS = re.compile(r"(?:是|指|为|讲的是|写的是)(?:什么|啥|哪个)(?:内容|东西)?")
_ENDS_IN_LABEL = re.compile(rf"(?:{LABEL.pattern})(?:的|里|中)?$")


def asks_contents(question: str) -> bool:
    """The question asks what a thing holds or what to fill in (要填什么, 还要写什么, 包括哪些)."""
    return bool(_HOLDS.search(question))


def asked_thing(question: str) -> str | None:
    """What a question asks the content of, as it names it (报名表 of 报名表要填什么, 表 of 这个表要填什么, 附件 of 附件里
    说了啥); None when it asks anything else, or more than what a thing holds (报名表什么时候交)."""
    found = _HOLDS.search(question)
    if not found:
        what = _WHAT_IS.search(question)
        found = what if what and _ENDS_IN_LABEL.search(question[:what.start()].strip()) else None
    if not found:  # 喜来登预案附件6, as 第六个呢？ after a list of attachments reads: the attachment itself, asked
        bare = question.strip().rstrip("？?！!。")
        return bare if len(bare) <= 20 and _ENDS_IN_LABEL.search(bare) and not QUESTION_WORD.search(bare) else None
    rest = _POINTING.sub("", question[:found.start()] + question[found.end():])
    return rest if rest and len(rest) <= 20 else None


def held_by(thing: str, sources: Sequence[Source], excluded: set[str]) -> list[Source]:
    """The attachments among the sources that `thing` names: by label (附件2), by title (报名表), by its title's last
    word (表 names one form when it is the only one among them), or as the attachment (附件) when only one is there;
    [] when it names none or several."""
    attachments = [s for s in sources if s.label and s.doc_id not in excluded and s.text.strip()]
    # 喜来登预案附件6: the document's 附件6, its name before the label shortened as a reader shortens it
    label = LABEL.fullmatch(thing) or _ENDS_IN_LABEL.search(thing)
    if label:
        wanted = make_label(label.group("kind"), label.group("number"))
        return _one_each([s for s in attachments
                          if s.label == wanted and _names_document(thing[:label.start()], s.doc_title)])
    if _ATTACHMENT.match(thing):
        return _one_each(attachments) if len({(s.doc_id, s.label) for s in attachments}) == 1 else []
    named = [s for s in attachments if s.title and (thing in folded(s.title) or _title_words(thing) <= words(s.title))]
    if named:
        return _one_each(named) if len({folded(s.title) for s in named}) == 1 else []
    kind = [s for s in attachments if s.title and folded(s.title).endswith(folded(thing))]
    return _one_each(kind) if len({(s.doc_id, s.label) for s in kind}) == 1 else []


def _names_document(name: str, title: str) -> bool:
    """The words before a label name its document, in its title's characters in order (作文比赛 of …作文比赛的通知), or none."""
    at = 0
    for ch in folded(name):
        at = folded(title).find(ch, at) + 1
        if not at:
            return False
    return True


def _title_words(thing: str) -> set[str]:
    return {t for t in tokenize(thing) if len(t) > 1} or {thing}


def _one_each(sources: list[Source]) -> list[Source]:
    """One source per attachment, the best retrieved (first)."""
    out: dict[tuple[str, str], Source] = {}
    for s in sources:
        out.setdefault((s.doc_id, s.label), s)
    return list(out.values())
