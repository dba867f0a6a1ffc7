"""The attachments a document has, asked for as such (这个预案有哪些附件？, 附件有几个, 附了哪些材料): the graph's own answer.

A notice that lists its attachments in its body is answered by that list (kb/answer/offline.py); one whose
attachments came as separate files (`…附件3：联系方式.docx`), or whose body never lists them, writes no such line, and
the sentences that merely cite one (应急物资及装备见附件5) are no answer. The knowledge base still knows every
attachment of the document, with its title: that is the list a reader would copy from the file's contents page.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Sequence

from graph.resolve import AttachmentCatalog
from kb.answer.dangling import dangling_titles
from kb.answer.prompts import ATTACHMENT_SECTION, OFFLINE_LABEL
from kb.answer.units import words
from kb.labels import LABEL
from kb.turn import Source

_KIND = r"(?:附件|附表|附录|附图)"
# 有哪些附件, 有几个附件, 附件有哪些, 附件都有什么, 附件是哪些, 带了哪些附件, 附了什么材料: the list itself; not 附件3里有什么
# nor 附了哪些平面图 (what one attachment holds)
ASKS = re.compile(rf"(?:哪些|哪几个|几个|多少个|几份|什么)\s*{_KIND}"
                  rf"|{_KIND}\s*(?:有|都有|是|包括|一共有|共有)?\s*(?:哪些|哪几个|几个|多少个|几份|什么)"
                  r"|附(?:了|有|带了?)\s*(?:哪些|什么|几个|几份)(?:材料|文件|资料|东西|附件)?\s*[？?。！!]*\s*$")
# (附了哪些平面图和疏散图 asks what one attachment holds: kb/answer/offline.py reads it)


def asks_attachment_list(question: str) -> bool:
    """The question asks which attachments a document has, naming none of them."""
    return bool(ASKS.search(question)) and not LABEL.search(question)


def attachment_list_answer(question: str, sources: Sequence[Source], catalog: AttachmentCatalog) -> str:
    """The offline answer listing the attachments of the best source's document by label and title, cited to that
    source, when the question asks for them and the document has any; else ""."""
    if not sources or not asks_attachment_list(question):
        return ""
    best = _named(question, sources)
    attachments = catalog.of_documents([best.doc_id])
    if not attachments:
        return ""
    n = best.n
    listed = _listed(best.doc_id, sources)
    attachments = [replace(a, title=listed.get(a.label) or a.title) for a in attachments]
    lines = "\n".join(f"- {a.label}：{a.title} [{n}]" if a.title else f"- {a.label} [{n}]" for a in attachments)
    named = "\n".join(f"- {a.label}-{a.title}" if a.title else f"- {a.label}" for a in attachments)
    kinds = {a.label[:2] for a in attachments}  # 附录A–D are 附录s, as the guide calls them
    head = f"《{attachments[0].doc_title}》共有 {len(attachments)} 个{kinds.pop() if len(kinds) == 1 else '附件'}："
    return f"{OFFLINE_LABEL}\n\n{head}\n\n{lines}\n\n{ATTACHMENT_SECTION}\n{named}\n"


def _named(question: str, sources: Sequence[Source]) -> Source:
    """The best source of the document the question names by most of its title's words (喜来登预案 is the Sheraton's
    plan, though its twin of one template was retrieved first), else the best source."""
    asked = {t for t in words(question) if len(t) > 1}
    return max(sources, key=lambda s: (len(asked & words(s.doc_title)), -s.n))


def _listed(doc_id: str, sources: Sequence[Source]) -> dict[str, str]:
    """The titles the document's own list gives its attachments (附件：1、报到须知 / 2、参会回执样表), by
    label: a reader asked for them copies the notice's list, whatever the attached files are called."""
    out: dict[str, str] = {}
    for s in sources:
        if s.doc_id == doc_id and not s.label:
            for label, title in dangling_titles(s.text, set()).items():
                out.setdefault(label, title)
    return out
