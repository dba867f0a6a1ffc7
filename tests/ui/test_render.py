"""The pure renderers: escaping everywhere, highlights where the citations point, figures coloured by kind."""
from __future__ import annotations

import json
import re

import pytest

from graph.store import AttachmentInfo, DocumentSummary
from kb.model import Attachment, Document, IngestResult, Part, Reference
from ui.chat.citations import answer_terms, citation_choices, render_citations, render_source
from ui.library.render import document_view_html, ingest_results_html
from ui.library.figure import library_figure, select_documents
from ui.chat.paths_figure import KINDS, paths_figure
from ui.safe import md

EVIL_TITLE = '预案<img src=x onerror="alert(1)">'
EVIL_TEXT = "正文。\n附件1：名单<script>alert(2)</script>\n值班电话：029-8637-1190。<img src=x onerror=alert(3)>\n尾部。"
MARKUP = re.compile(r"<\s*(script|img)\b", re.I)


def _source(n: int, start: int, end: int, **kw) -> dict:
    base = dict(n=n, doc_id="d1", doc_title=EVIL_TITLE, library="demo", label="附件1", title="名单<script>",
                text=EVIL_TEXT[start:end], spans=[[start, end]], chunk_ids=[f"d1:附件1:{n}"], score=1.0,
                prefetched=False, via="")
    return base | kw


def _doc(spans, sources=(1,)) -> dict:
    return dict(doc_id="d1", title=EVIL_TITLE, library="demo<b>", score=1.0, highlights=[list(s) for s in spans],
                chunk_ids=[], sources=list(sources))


def test_markdown_escaping_keeps_structure_but_not_markup():
    text = md("| a | b |\n| --- | --- |\n**粗体** <script>alert(1)</script> <img src=x onerror=alert(1)> ![t](http://x/y.png)")
    assert "<script" not in text and "<img" not in text
    assert "&lt;script&gt;" in text and "**粗体**" in text and "| --- |" in text
    assert "![" not in text  # a document cannot make the browser fetch a remote image


def test_citations_escape_every_document_string_and_mark_the_cited_span():
    start = EVIL_TEXT.index("值班电话")
    end = EVIL_TEXT.index("尾部")
    html = render_citations([_doc([(start, end)])], [_source(1, start, end)], {"d1": EVIL_TEXT},
                            answer="- 值班电话：029-8637-1190。 [1]")
    assert not MARKUP.search(html)
    assert "&lt;img src=x onerror=alert(3)&gt;" in html and "&lt;script&gt;" in html
    assert "预案&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html
    marked = re.findall(r'<mark class="cite-(?:span|fact)">(.*?)</mark>', html, re.S)
    nowrap = '<span class="annex-nowrap">029-8637-1190</span>'  # a phone number never wraps
    assert "".join(marked).startswith(f"值班电话：{nowrap}。")
    assert f'<mark class="cite-fact">值班电话：{nowrap}。</mark>' in html  # the answer's sentence stands out
    assert "附件1：名单" not in html and "尾部。" in html  # context runs to the ends of the cited lines only
    assert html.count('<span class="cite-gap">…</span>') == 1


def test_citations_cut_a_long_span_around_the_answer_fact():
    text = "甲" * 3000 + "关键数字18000" + "乙" * 3000
    html = render_citations([_doc([(0, len(text))])], [_source(1, 0, len(text), text=text)], {"d1": text},
                            answer="- 容积为18000 [1]")
    assert '<mark class="cite-fact">18000</mark>' in html
    assert len(html) < 3000 and "只显示一部分" in html


def test_a_deleted_document_falls_back_to_the_quoted_text():
    html = render_citations([_doc([(0, 5)])], [_source(1, 0, 5, text="<b>旧文本</b>")], {"d1": None})
    assert "&lt;b&gt;旧文本&lt;/b&gt;" in html and "已不在知识库中" in html


def test_selecting_a_citation_shows_its_source_escaped():
    start = EVIL_TEXT.index("附件1")
    source = _source(2, start, len(EVIL_TEXT), prefetched=True, via="详见附件1<script>")
    # dropdown labels are plain text (Gradio renders them as text nodes), so they are not escaped here
    assert citation_choices([_doc([(start, len(EVIL_TEXT))], [2])], [source]) == [(f"[2] 附件1 名单<script> · {EVIL_TITLE}", 2)]
    html = render_source(source, EVIL_TEXT)
    assert not MARKUP.search(html)
    assert "图谱预取 · 经“详见附件1&lt;script&gt;”" in html
    assert "正文。" not in html  # an attachment source is shown alone
    assert render_source(None, None).count("选择一条引用") == 1


def test_answer_terms_pick_sentences_table_values_and_long_numbers():
    terms = answer_terms("- 序号：1；单位：园区公共应急事故池；容积：18000 [3]\n- 冲锋舟：3艘 [1]")
    assert {"园区公共应急事故池", "18000"} <= set(terms)
    assert "1" not in terms and "3艘" not in terms


PATHS = [
    {"stage": "search", "steps": [
        {"kind": "chunk", "id": "d1:附件8:0", "label": "附件8 片段1", "doc_id": "d1", "mention": ""},
        {"kind": "attachment", "id": "d1:附件8", "label": "附件8 事故废水三级防控体系", "doc_id": "d1", "mention": ""}]},
    {"stage": "prefetch", "steps": [
        {"kind": "chunk", "id": "d1:body:3", "label": "正文 片段4", "doc_id": "d1", "mention": ""},
        {"kind": "attachment", "id": "d1:附件8", "label": "附件8 事故废水三级防控体系", "doc_id": "d1", "mention": "详见附件8"},
        {"kind": "attachment", "id": "d1:附件12", "label": "附件12 <img src=x onerror=alert(1)>", "doc_id": "d1",
         "mention": "见附件12"}]},
    {"stage": "post_hop", "steps": [
        {"kind": "answer", "id": "answer", "label": "回答·相关附件"},
        {"kind": "attachment", "id": "d1:附件12", "label": "附件12 <img src=x onerror=alert(1)>", "doc_id": "d1",
         "mention": "附件12-事故应急池"}]},
]


def test_paths_figure_labels_and_colours_nodes_by_kind():
    fig = paths_figure(PATHS, {"d1": "绿洲化工园区突发环境事件应急预案"})
    nodes = {t.name: t for t in fig.data if t.mode == "markers+text"}
    assert set(nodes) == {KINDS[k][0] for k in ("chunk", "answer", "hit", "hop")} - {KINDS["hit"][0]}
    hop = nodes[KINDS["hop"][0]]
    assert hop.marker.color == KINDS["hop"][1] and len(hop.x) == 2  # 附件8 reached by 详见附件8, 附件12 by 见附件12
    labels = " ".join(str(t) for trace in nodes.values() for t in trace.text)
    drawn = {a.text for a in fig.layout.annotations if a.text}
    hovers = " ".join(str(t) for trace in nodes.values() for t in trace.hovertext)
    assert "附件12" in labels and "<im" not in labels and "附件12 &lt;img" in hovers  # cut to its margin; escaped
    assert all(m in drawn or f"经“{m}”" in hovers for m in ("详见附件8", "见附件12"))  # drawn where it fits
    xs = dict(zip([str(t) for t in hop.text], hop.x))
    assert max(xs.values()) == 2  # 附件12 sits two layers right of the chunk: the two-hop chain
    assert "<script" not in json.dumps(fig.to_plotly_json(), default=str)


def test_paths_figure_survives_reference_cycles_and_no_paths():
    cycle = [{"stage": "prefetch", "steps": [
        {"kind": "chunk", "id": "c", "label": "正文 片段1", "doc_id": "d"},
        {"kind": "attachment", "id": "a", "label": "附件1", "doc_id": "d", "mention": "见附件1"},
        {"kind": "attachment", "id": "b", "label": "附件2", "doc_id": "d", "mention": "见附件2"},
        {"kind": "attachment", "id": "a", "label": "附件1", "doc_id": "d", "mention": "见附件1"}]}]
    assert len(paths_figure(cycle).data) >= 2
    empty = paths_figure([])
    assert not empty.data and "没有图谱路径" in empty.layout.annotations[0].text


def _document(i: int, title: str = "") -> Document:
    attachments = (Attachment("附件1", "附件", "1", "名单<script>", 10, 20), Attachment("附件2", "附件", "2", "清单", 20, 30))
    references = (Reference("附件1", "详见附件1", 0, 5, "", "附件1"), Reference("附件2", "见附件2", 12, 16, "附件1", "附件2"),
                  Reference("附件9", "见附件9", 6, 9, "", None))
    return Document(f"doc{i}", "demo", f"文档{i}.md", title or f"文档{i}", "x" * 30, "h", (Part(f"文档{i}.md", 0, 30, "h"),),
                    attachments, references, ())


def test_library_figure_caps_filters_and_shows_dangling_references():
    summaries = [DocumentSummary(f"doc{i}", "demo", f"文档{i}.md", f"文档{i}", "h", 2, 1, ("附件9",)) for i in range(30)]
    infos = [AttachmentInfo("doc7", "文档7", "demo", "附件1", "特殊名单")]
    selection = select_documents(summaries, infos, "", limit=5)
    assert len(selection.summaries) == 5 and selection.matched == 30
    assert [s.id for s in select_documents(summaries, infos, "特殊", 5).summaries] == ["doc7"]
    fig = library_figure([_document(i, "<img src=x onerror=alert(1)>") for i in range(5)], selection)
    names = {t.name for t in fig.data}
    assert {"文档", "附件", "悬空引用（附件不存在）", "REFERENCES 引用"} <= names
    caption = fig.layout.annotations[-1].text
    assert "筛选命中 30 / 共 30" in caption and "已截断" in caption
    assert "<img" not in json.dumps(fig.to_plotly_json(), default=str).replace("<b>", "")


def test_library_labels_sit_outside_their_wheel_away_from_its_spokes():
    attachments = tuple(Attachment(f"附件{i}", "附件", str(i), f"表{i}", i * 10, i * 10 + 5) for i in range(1, 9))
    doc = Document("w", "demo", "w.md", "八个附件", "x" * 90, "h", (Part("w.md", 0, 90, "h"),), attachments, (), ())
    [ring] = [t for t in library_figure([doc]).data if t.name == "附件"]
    side = dict(zip(ring.text, ring.textposition))
    # 附件1 at the top, then clockwise: each label on the side facing away from the document in the middle
    assert [side[f"附件{i}"] for i in range(1, 9)] == ["top center", "top right", "middle right", "bottom right",
                                                        "bottom center", "bottom left", "middle left", "top left"]


def test_ingest_results_show_each_file_and_escape_errors():
    doc = _document(1)
    html = ingest_results_html([IngestResult("好.md", "doc1", "ingested", document=doc),
                                IngestResult("坏<script>.docx", status="error", error="坏<script>.docx: not a docx")])
    assert "1 个文件成功，1 个失败" in html and "✗" in html and "悬空引用：附件9" in html
    assert not MARKUP.search(html)


def test_document_view_lists_attachments_references_and_escapes():
    html = document_view_html(_document(1, "<img src=x onerror=alert(1)>"))
    assert not MARKUP.search(html)
    assert "名单&lt;script&gt;" in html and "不存在（悬空引用）" in html and "正文“详见附件1”" in html


def test_an_attachment_search_found_and_the_answer_named_is_a_hit_not_a_hop():
    paths = [PATHS[0], {"stage": "post_hop", "steps": [
        {"kind": "answer", "id": "answer", "label": "回答·相关附件"},
        {"kind": "attachment", "id": "d1:附件8", "label": "附件8 事故废水三级防控体系", "doc_id": "d1", "mention": "附件8"}]}]
    kinds = {t.name for t in paths_figure(paths).data if t.mode == "markers+text"}
    assert KINDS["hit"][0] in kinds and KINDS["hop"][0] not in kinds


def test_no_text_the_ui_shows_needs_an_emoji_font():
    """📎 📄 🔒 draw as empty boxes where no emoji font is installed (the demo machine, a bare Space): icons are CSS."""
    from pathlib import Path

    import ui
    from ui.icons import ICON_CSS, icon

    astral = {f"{path.name}: {ch}" for path in Path(ui.__file__).parent.rglob("*.py")
              for ch in path.read_text(encoding="utf-8") if 0x1F000 <= ord(ch) <= 0x1FFFF}
    assert astral == set()
    assert 'class="annex-icon annex-icon-doc"' in icon("doc") and ".annex-icon-doc {" in ICON_CSS
    with pytest.raises(KeyError, match="the icons are"):
        icon("paperclip")
