"""A note that cites a list's entries by number (第(八)、(九)项…) is what the document says of them
(kb/answer/cited_items.py, the offline answerer)."""
from __future__ import annotations

from kb.answer.cited_items import notes_on
from kb.answer.offline import ExtractiveAnswerer
from kb.answer.shapes import Candidate
from kb.answer.units import read_units
from kb.turn import Source

CATALOGUE = "\n".join([
    "附：", "快递业务分类目录",
    "一、基本快递业务", "(一)同城快递业务；", "(二)异地快递业务；", "(三)代收货款业务；", "(四)转包的基本快递业务。",
    "第(三)、(四)项业务比照增值快递业务管理。",
    "二、增值快递业务", "(一)冷链配送；", "(二)仓储服务。",
])
SOURCES = [Source(1, "d1", "快递市场管理办法", "lib", "附件", "快递业务分类目录", CATALOGUE,
                  ((0, len(CATALOGUE)),), ("c1",), 1.0)]


def quoted(question: str) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, SOURCES)]


def test_an_entry_that_only_names_a_thing_is_read_with_the_note_citing_its_number():
    lines = quoted("转包的基本快递业务怎么管理")
    assert "(四)转包的基本快递业务。" in lines and "第(三)、(四)项业务比照增值快递业务管理。" in lines, lines


def test_a_note_citing_other_entries_is_not_about_this_one():
    units = read_units(CATALOGUE)
    def entry(text: str) -> Candidate:
        i = next(i for i, u in enumerate(units) if u.text == text)
        return Candidate(SOURCES[0], text, 1.0, i, False, False, units[i].lead, units[i].heading)
    assert [c.text for c in notes_on([entry("(三)代收货款业务；")])] == ["第(三)、(四)项业务比照增值快递业务管理。"]
    assert notes_on([entry("(二)异地快递业务；")]) == []
    assert notes_on([entry("(二)仓储服务。")]) == []  # another heading's list: its (二) is another entry
