"""A law whose attachment is a title alone (国歌法), beside laws whose single 附件 has content: real Kuzu and Chroma."""
from __future__ import annotations

import pytest

from kb.service import open_service
from kb.settings import load_settings
from kb.turn import TurnRequest
from tests.unit.test_law_attachments import GUOGE, GUOHUI, GUOQI


@pytest.fixture(scope="module")
def laws(tmp_path_factory):
    folder = tmp_path_factory.mktemp("laws")
    for name, text in {"国歌法.md": GUOGE, "国旗法.md": GUOQI, "国徽法.md": GUOHUI}.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "README.md").write_text("国歌法的附件只有标题：歌词的第一句是“起来”。", encoding="utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp("store")))
    results = svc.stores.ingestor.ingest([folder], "laws")
    assert sorted(r.file for r in results) == ["国徽法.md", "国旗法.md", "国歌法.md"]  # the README is no document
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
