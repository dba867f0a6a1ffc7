"""Splitting and linking on the bundled demo corpus, against the hand-written ground truth in data/expected_links.json."""
from __future__ import annotations

import json

import pytest

from kb.ingest.assemble import AttachmentFile, build_document
from kb.ingest.parsing import parse_file
from kb.ingest.presplit import presplit_name
from tests.conftest import DATA_DIR, DEMO_CORPUS

EXPECTED = json.loads((DATA_DIR / "expected_links.json").read_text(encoding="utf-8"))


def _build(entry: dict):
    path = DEMO_CORPUS / entry["path"]
    extras = []
    if entry.get("pre_split"):
        for file in sorted(path.parent.iterdir()):
            name = presplit_name(file)
            if name:
                extras.append(AttachmentFile(parse_file(file, 50 << 20), name.kind, name.label, name.title))
    return build_document("demo", parse_file(path, 50 << 20), extras)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_attachments_match_the_ground_truth(name):
    doc = _build(EXPECTED[name])
    assert [(a.label, a.title) for a in doc.attachments] == [(a["label"], a["title"]) for a in EXPECTED[name]["attachments"]]
    for attachment, expected in zip(doc.attachments, EXPECTED[name]["attachments"]):
        first_line = expected["header"].split("\n")[0]
        assert doc.text[attachment.start :].lstrip("#* ").startswith(first_line) or expected.get("file")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_references_match_the_ground_truth(name):
    doc = _build(EXPECTED[name])
    expected = EXPECTED[name]["references"]
    assert [(r.source or "body", r.label, r.dangling) for r in doc.references] == [
        (e["source"], e["target"], bool(e.get("dangling"))) for e in expected
    ]
    for ref, e in zip(doc.references, expected):
        assert e["mention"].replace(" ", "") in ref.mention.replace(" ", "")
        assert doc.text[ref.start : ref.end] == ref.mention
        assert ref.mention in e["context"] or e["mention"] in doc.text[ref.start - 10 : ref.end + 10]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_toc_lines_lists_and_lookalikes_yield_nothing(name):
    doc = _build(EXPECTED[name])
    for text in EXPECTED[name].get("not_references", []):
        at = doc.text.find(text)
        assert at >= 0, text
        assert not [r for r in doc.references if at <= r.start < at + len(text)], text
        assert not [a for a in doc.attachments if at <= a.start < at + len(text)], text


def test_the_dangling_reference_of_the_chemical_park_plan_is_reported():
    doc = _build(EXPECTED["绿洲化工园区突发环境事件应急预案.docx"])
    assert [(r.label, r.mention) for r in doc.dangling] == [("附件15", "详见附件15")]


def test_template_twins_share_numbers_but_not_content():
    east = _build(EXPECTED["东岭街道防汛应急预案.md"])
    west = _build(EXPECTED["西岭街道防汛应急预案.txt"])
    assert [a.label for a in east.attachments] == [a.label for a in west.attachments]
    assert east.id != west.id
    east4, west4 = (d.text[d.attachment("附件4").start : d.attachment("附件4").end] for d in (east, west))
    assert "东岭仓库" in east4 and "西岭" not in east4
    assert "西岭防汛站" in west4 and "东岭" not in west4
