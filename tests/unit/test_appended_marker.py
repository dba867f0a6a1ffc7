"""另附： / 另附有： / 附有：, the line with which a notice appends its one unlabelled table "besides" the body."""
from __future__ import annotations

import pytest

from kb.ingest.assemble import build_document
from kb.model import ParsedFile

NOTICE = "\n".join([
    "图书馆开放时间调整通知",
    "发布单位:图书馆办公室 发布时间:2025-02-20",
    "",
    "一、自3月1日起，总馆和分馆开放时间调整如下。",
    "二、读者入馆须刷校园卡，不接受现场登记。",
    "",
    "{marker}开放时间表(师生均可入馆)",
    "",
    "馆舍",
    "周一至周五",
    "周六、周日",
    "总馆",
    "08:00-22:00",
    "09:00-21:00",
    "分馆",
    "08:30-21:30",
    "",
    "说明:",
    "1、寒暑假按周日时间开放。",
])


def _doc(text: str):
    return build_document("notices", ParsedFile("开放时间.txt", "开放时间.txt", text, str(hash(text))))


@pytest.mark.parametrize("marker", ["另附:", "另附：", "另附有：", "附有:"])
def test_an_appended_table_marked_another_way_is_the_single_attachment(marker):
    text = NOTICE.format(marker=marker)
    doc = _doc(text)
    assert [(a.label, a.title) for a in doc.attachments] == [("附件", "开放时间表(师生均可入馆)")]
    att = doc.attachment("附件")
    held = doc.text[att.start : att.end]
    assert held.startswith(marker + "开放时间表") and held.endswith("1、寒暑假按周日时间开放。")
    assert "读者入馆须刷校园卡" not in held


@pytest.mark.parametrize("line", [
    "另附有关证明材料的，应当一并提交。",
    "另附条件的，从其约定。",
    "附有照片的申请表一式两份。",
])
def test_a_sentence_that_opens_with_the_words_is_no_marker(line):
    text = NOTICE.replace("{marker}开放时间表(师生均可入馆)", line)
    assert _doc(text).attachments == ()


def test_an_appended_list_of_two_names_both():
    text = "\n".join(["关于报送材料的通知", "请于5月10日前报送。", "另附：", "1、报名表", "2、承诺书", "",
                      "附件1", "报名表", "姓名 | 单位", "附件2", "承诺书", "本人承诺所填信息真实。"])
    doc = _doc(text)
    assert [(a.label, a.title) for a in doc.attachments] == [("附件1", "报名表"), ("附件2", "承诺书")]
