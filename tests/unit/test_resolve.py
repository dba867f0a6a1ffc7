"""Post-answer resolution: exact label, title containment, fuzzy title, tiers, template twins."""
from __future__ import annotations

from graph.resolve import AttachmentCatalog, resolve_line
from graph.store import AttachmentInfo

EAST = [AttachmentInfo("east", "东岭街道防汛应急预案", "demo", f"附件{n}", t)
        for n, t in [(1, "街道防汛指挥部成员及联系方式"), (4, "防汛抢险物资储备清单")]]
WEST = [AttachmentInfo("west", "西岭街道防汛应急预案", "demo", f"附件{n}", t)
        for n, t in [(1, "街道防汛指挥部成员及联系方式"), (4, "防汛抢险物资储备清单")]]
PARK = [AttachmentInfo("park", "绿洲化工园区突发环境事件应急预案", "demo", label, t)
        for label, t in [("附件2", "应急指挥部成员及24小时值班电话"), ("附件4", "应急物资清单"), ("附录B", "预案修订记录")]]
CATALOG = AttachmentCatalog(EAST + WEST + PARK)


def _resolve(label, title, cited=(), referenced=()):
    tiers = (CATALOG.of_documents(cited), CATALOG.of_documents(referenced), CATALOG.of_libraries(None))
    found = resolve_line(label, title, tiers)
    return (found.attachment.doc_id, found.attachment.label, found.match) if found else None


def test_exact_label_in_the_cited_document():
    assert _resolve("附件4", "", cited=["east"]) == ("east", "附件4", "exact_label")
    assert _resolve("附件4", "", cited=["west", "east"]) == ("west", "附件4", "exact_label")


def test_a_twin_label_outside_the_cited_documents_needs_the_title():
    assert _resolve("附件4", "防汛抢险物资储备清单") is None  # east and west both fit: no guess
    assert _resolve("附件4", "应急物资清单") == ("park", "附件4", "exact_label")
    assert _resolve("附件2", "") == ("park", "附件2", "exact_label")


def test_title_containment_and_fuzzy_title():
    assert _resolve(None, "应急指挥部成员", referenced=["park"]) == ("park", "附件2", "title")
    assert _resolve("附件9", "应急物资清单", referenced=["park"]) == ("park", "附件4", "title")
    assert _resolve(None, "预案修定记录", referenced=["park"]) == ("park", "附录B", "fuzzy")
    assert _resolve(None, "完全无关的名称", referenced=["park"]) is None


def test_a_missing_attachment_stays_unresolved():
    assert _resolve("附件15", "", cited=["park"]) is None
