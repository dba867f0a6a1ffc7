"""A law whose attachment is a title alone (国歌法), beside laws whose single 附件 has content: real Kuzu and Chroma."""
from __future__ import annotations

import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.turn import TurnRequest
from tests.unit.test_law_attachments import GUOGE, GUOHUI, GUOQI


# A rule that cites its 附录 (the list of minerals), which the text does not carry (矿产资源开采登记管理办法).
KAICAI = "\n".join([
    "# 矿产资源开采登记管理办法", "",
    "第三条 开采本办法附录所列的矿产资源，由国务院地质矿产主管部门审批登记，颁发采矿许可证。", "",
    "第四条 开采本条第一款规定以外的矿产资源，由县级以上地方人民政府负责地质矿产管理工作的部门审批登记。", "",
    "第五条 本办法附录的修改，由国务院地质矿产主管部门报国务院批准后公布。", "",
])


@pytest.fixture(scope="module")
def laws(tmp_path_factory):
    folder = tmp_path_factory.mktemp("laws")
    for name, text in {"国歌法.md": GUOGE, "国旗法.md": GUOQI, "国徽法.md": GUOHUI, "开采登记办法.md": KAICAI}.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "README.md").write_text("国歌法的附件只有标题：歌词的第一句是“起来”。", encoding="utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    results = svc.stores.ingestor.ingest([folder], "laws")
    assert sorted(r.file for r in results) == ["国徽法.md", "国旗法.md", "国歌法.md", "开采登记办法.md"]  # no README
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()


def _answer(service, question: str) -> str:
    events = list(service.pipeline.run(TurnRequest(question)))
    return "".join(e.data["text"] for e in events if e.type == "content").split("**相关附件内容：**")[0]


def test_a_title_only_attachment_named_by_its_kind_gets_the_gap_answer(laws):
    answer = _answer(laws, "国歌法附件所载国歌歌词的第一句是什么？").split("**相关附件**")[0]
    assert "《中华人民共和国国歌法》的附件“中华人民共和国国歌（五线谱版、简谱版）”在知识库中只有标题，没有内容" in answer
    assert "没有找到" in answer
    assert "[" not in answer and "奏唱国歌，应当按照" not in answer  # the body sentence is not quoted as an answer
    assert "起来" not in answer


def test_an_attachment_with_content_named_by_its_kind_is_not_declined(laws):
    answer = _answer(laws, "国旗法附件规定的旗杆套是什么颜色？")
    assert "只有标题" not in answer and "注明“略”" not in answer


def test_the_cited_attachment_a_document_does_not_carry_gets_the_gap_answer(laws):
    answer = _answer(laws, "依照矿产资源开采登记管理办法的附录，开采金矿由哪一级部门审批发证？").split("**相关附件**")[0]
    assert "《矿产资源开采登记管理办法》正文引用了附录，但文档没有附上附录的内容" in answer, answer
    assert "[" not in answer
