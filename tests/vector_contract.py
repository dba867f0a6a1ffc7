"""VectorStore contract: what every vector backend must pass, asserted only through the Protocol.

A new backend runs `check_contract(factory)` with a factory that opens a client on the same (initially empty)
data each time it is called; tests/integration/test_chroma_store.py runs it on embedded Chroma and a Chroma server.
"""
from __future__ import annotations

from typing import Callable

import pytest

from kb.model import BODY, Attachment, Chunk, Document
from kb.search.vectors import ATTACHMENT_COLLECTION, BODY_COLLECTION, VectorStore

PHONE_QUESTION = "各成员单位的应急值班电话是多少？"


def make_doc(
    doc_id: str, library: str, title: str, body: list[str], attachments: list[tuple[str, str, list[str]]]
) -> Document:
    """A Document built by hand: body chunks, then each attachment (header line + chunks), with exact spans."""
    text, chunks, atts = "", [], []

    def add(owner: str, index: int, piece: str) -> None:
        nonlocal text
        chunk_id = f"{doc_id}:{owner or 'body'}:{index}"
        chunks.append(Chunk(chunk_id, doc_id, owner, index, len(text), len(text) + len(piece), piece))
        text += piece + "\n"

    for i, piece in enumerate(body):
        add(BODY, i, piece)
    for label, att_title, pieces in attachments:
        start = len(text)
        text += f"{label} {att_title}\n"
        for i, piece in enumerate(pieces):
            add(label, i, piece)
        atts.append(Attachment(label, label[:2], label[2:], att_title, start, len(text)))
    return Document(
        doc_id, library, f"{title}.docx", title, text, f"hash-{len(text)}", (), tuple(atts), (), tuple(chunks)
    )


PLAN_BODY = [
    "为及时有效处置突发环境事件，市政府成立突发环境事件应急指挥部，由分管副市长任总指挥。",
    "应急响应分为四级。发生较大突发环境事件时，指挥部各成员单位立即赶赴现场，联络方式详见附件11。",
]
PHONES = "市生态环境局值班电话0571-87001234；市应急管理局值班电话0571-87005678；市消防救援支队值班电话119。"
SUPPLIES = "吸油毡500张、围油栏2000米、活性炭10吨、应急监测车2辆，存放于市应急物资储备库。"
PLAN = make_doc("plan", "demo", "某市突发环境事件应急预案", PLAN_BODY,
                [("附件11", "应急联系电话表", [PHONES]), ("附件12", "应急物资装备清单", [SUPPLIES])])
PLAN_EDITED = make_doc("plan", "demo", "某市突发环境事件应急预案", PLAN_BODY[:1],
                       [("附件11", "应急联系电话表", [PHONES])])
LAW = make_doc(
    "law", "law", "中华人民共和国环境保护税法",
    ["应税大气污染物和水污染物的应纳税额，按照污染当量数乘以具体适用税额计算，税额详见附件1。"],
    [("附件1", "环境保护税税目税额表", ["大气污染物每污染当量1.2元至12元；水污染物每污染当量1.4元至14元。"])],
)


def check_contract(open_store: Callable[[], VectorStore]) -> None:
    """Everything a caller of the VectorStore Protocol relies on, from an empty store to a deleted document."""
    store = open_store()
    assert store.query(PHONE_QUESTION, 5) == []
    assert store.count() == {BODY_COLLECTION: 0, ATTACHMENT_COLLECTION: 0}
    assert store.doc_ids() == set()

    store.upsert_documents([PLAN, LAW])
    assert store.count() == {BODY_COLLECTION: 3, ATTACHMENT_COLLECTION: 3}
    assert store.doc_ids() == {"plan", "law"}

    # The phone question finds the attachment that holds the phone list, not the body that mentions it.
    hits = store.query(PHONE_QUESTION, 4)
    assert [h.chunk_id for h in hits][:1] == ["plan:附件11:0"]
    top = hits[0]
    assert (top.doc_id, top.library, top.attachment, top.index) == ("plan", "demo", "附件11", 0)
    assert PLAN.text[top.start : top.end] == PHONES  # the char span survives the metadata round trip
    assert not hasattr(top, "text")  # the read models hold the text; the vector store keeps vectors and metadata
    assert len(hits) == 4 and all(-1.0 <= h.score <= 1.0 + 1e-6 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert hits[0].score > hits[-1].score

    # What the hit does not carry comes back through the Protocol: the document version and attachment chunks.
    assert store.chunk_versions() == {"plan": {PLAN.content_hash: 4}, "law": {LAW.content_hash: 2}}
    assert store.chunk_counts() == {"plan": 4, "law": 2}
    assert store.attachment_chunk_ids("plan", "附件11") == ["plan:附件11:0"]
    assert store.attachment_chunk_ids("plan", "附件99") == []

    # Collection choice and filters.
    body_only = store.query(PHONE_QUESTION, 10, collections=(BODY_COLLECTION,))
    assert body_only and all(h.attachment == "" for h in body_only)
    assert {h.chunk_id for h in store.query("税额", 10)} == {c.id for c in PLAN.chunks + LAW.chunks}
    assert {h.library for h in store.query("污染物 税额", 10, libraries=["law"])} == {"law"}
    assert {h.doc_id for h in store.query("污染物 税额", 10, libraries=["demo", "law"])} == {"plan", "law"}
    assert store.query("污染物 税额", 10, libraries=[]) == []
    assert {h.doc_id for h in store.query("应急", 10, doc_id="law")} == {"law"}
    assert store.query("应急", 10, libraries=["demo"], doc_id="law") == []
    supplies = store.query("应急物资", 10, libraries=["demo"], doc_id="plan")
    assert [h.chunk_id for h in supplies][:1] == ["plan:附件12:0"]
    assert store.query("？！。", 5) == []  # nothing to compare, so nothing matched
    # nearest(): query() over both collections without the metadata, same ids, order and similarities.
    for text, libraries, doc_id in ((PHONE_QUESTION, None, None), ("污染物 税额", ["law"], None),
                                    ("应急物资", ["demo"], "plan"), ("应急", None, "law")):
        full = store.query(text, 3, libraries, doc_id)
        assert full and store.nearest(text, 3, libraries, doc_id) == [(h.chunk_id, h.score) for h in full]
    assert store.nearest("污染物 税额", 10, libraries=[]) == [] and store.nearest("？！。", 5) == []
    with pytest.raises(ValueError, match="annex_body"):
        store.query("应急", 5, collections=("annex_other",))

    # Re-upserting the same documents changes nothing; an edited, shorter document leaves no stale chunks.
    store.upsert_documents([PLAN, LAW])
    assert store.count() == {BODY_COLLECTION: 3, ATTACHMENT_COLLECTION: 3}
    store.upsert_documents([PLAN_EDITED])
    assert store.count() == {BODY_COLLECTION: 2, ATTACHMENT_COLLECTION: 2}
    assert PLAN_EDITED.content_hash != PLAN.content_hash
    assert store.chunk_versions() == {"plan": {PLAN_EDITED.content_hash: 2}, "law": {LAW.content_hash: 2}}
    assert store.chunk_versions(["law", "absent"]) == {"law": {LAW.content_hash: 2}}
    assert store.chunk_counts() == {"plan": 2, "law": 2}
    left = store.query("吸油毡 围油栏", 10, doc_id="plan")
    assert {h.chunk_id for h in left} == {c.id for c in PLAN_EDITED.chunks}

    # A second client sees the same data.
    again = open_store()
    assert again.count() == {BODY_COLLECTION: 2, ATTACHMENT_COLLECTION: 2}
    assert again.query(PHONE_QUESTION, 1)[0].chunk_id == "plan:附件11:0"

    assert store.delete_document("plan") == 2
    assert store.delete_document("plan") == 0
    assert store.doc_ids() == {"law"}
    assert store.query(PHONE_QUESTION, 5, doc_id="plan") == []
    assert store.count() == {BODY_COLLECTION: 1, ATTACHMENT_COLLECTION: 1}
