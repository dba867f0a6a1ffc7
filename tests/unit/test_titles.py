"""A document's title as a reader finds it: its top heading, else the title line of its cover, else its file name."""
from __future__ import annotations

import hashlib

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from kb.model import ParsedFile
from tests.conftest import SHARED_CORPUS


def _titled(text: str, name: str = "plan_2024.txt") -> str:
    parsed = ParsedFile(name, name, text, hashlib.sha256(text.encode("utf-8")).hexdigest())
    return build_document("lib", parsed).title


@pytest.mark.parametrize("text, title", [
    # a cover: number fields, the issuer, the title, the date
    ("预案编号：AB-01\n版本号：2024-01\n某某物业管理有限公司\n某某物业管理有限公司火灾事故应急预案\n二〇二四年一月\n\n"
     "为了规范火灾事故的应急处置，制定本预案。", "某某物业管理有限公司火灾事故应急预案"),
    ("目录\n\n示范县城市供水管理办法（试行）\n\n第一条 为了加强城市供水管理，制定本办法。", "示范县城市供水管理办法（试行）"),
    # no line names a kind of document: the first line that looks like a title
    ("东湖街道防汛工作要点\n\n一、今年汛期的工作重点是排查易涝点。", "东湖街道防汛工作要点"),
])
def test_the_title_line_of_a_document_without_headings(text, title):
    assert _titled(text) == title


@pytest.mark.parametrize("text", [
    "为了规范火灾事故的应急处置，根据有关规定，制定本预案。本预案适用于本公司。",  # a sentence is not a title
    "附件1：应急物资清单\n1．灭火器：20具",  # an attachment header, a list item
    "2024年6月\n\n第一条 本办法自发布之日起施行。",
])
def test_no_title_line_falls_back_to_the_file_name(text):
    assert _titled(text) == "plan_2024"


def test_a_top_heading_is_the_title(tmp_path):
    (tmp_path / "a.md").write_text("某某公司\n\n# 某某公司安全检查制度\n\n正文。\n", encoding="utf-8")
    assert build_document("lib", parse_file(tmp_path / "a.md", 1 << 20)).title == "某某公司安全检查制度"


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not beside the project")
def test_the_real_hotel_plan_is_titled_by_its_cover():
    doc = build_document("shared", parse_file(SHARED_CORPUS / "zh_plan_sheraton_xian_2024.txt", 50 << 20))
    assert doc.title == "西安喜来登大酒店生产安全事故应急预案"  # not the file name, not the company above it
