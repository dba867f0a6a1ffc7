"""Splitting and linking on real documents written by others (../shared/corpus), checked as a person reads them."""
from __future__ import annotations

import re

import pytest

from kb.ingest.assemble import build_document
from kb.ingest.parsing import parse_file
from tests.conftest import SHARED_CORPUS

pytestmark = pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not beside the project")


def _doc(name: str):
    return build_document("shared", parse_file(SHARED_CORPUS / name, 50 << 20))


def _attachments(doc) -> list[tuple[str, str]]:
    return [(a.label, a.title) for a in doc.attachments]


def _links(doc) -> list[tuple[str, str, str | None]]:
    return [(r.source or "body", r.label, r.target) for r in doc.references]


def test_hotel_plan_attachments_and_the_one_real_reference():
    doc = _doc("zh_plan_sheraton_xian_2024.txt")
    assert _attachments(doc) == [
        ("附件1", "企业概况"),
        ("附件2", "风险评估结果"),
        ("附件3", "预案体系与衔接"),
        ("附件4", "应急物资装备清单"),
        ("附件5", "有关应急部门、机构或人员的联系方式"),
        ("附件6", "格式文本"),
        ("附件7", "关键的路线、标识和图纸"),
        ("附件8", "有关协议或备忘录"),
    ]
    # 应急物资配备明细见附件4 appears three times in the body; 安全附件失效 is not a reference.
    assert _links(doc) == [("body", "附件4", "附件4")] * 3
    assert all(r.mention == "见附件4" for r in doc.references)
    assert "安全附件失效" in doc.text
    # 附件4's table was lost: the attachment is just its header line, and it ends where 附件5 begins.
    a4, a5 = doc.attachment("附件4"), doc.attachment("附件5")
    assert doc.text[a4.start : a4.end] == "附件4：应急物资装备清单"
    assert a4.end < a5.start
    assert doc.text[doc.attachment("附件8").end - 3 : doc.attachment("附件8").end].strip()


def test_traffic_police_rules_list_then_headers_no_inline_reference():
    doc = _doc("zh_rule_jiaojing_daolu_zhiqin_zhifa_guifan.md")
    titles = ["查处酒后驾驶操作规程", "查处违反装载规定违法行为操作规程", "查处超速行驶操作规程",
              "查处违法停车操作规程", "查处涉牌涉证违法行为操作规程", "查处运载危险化学品车辆操作规程"]
    assert _attachments(doc) == [(f"附件{i}", t) for i, t in enumerate(titles, 1)]
    # the list "附件：1、…" precedes the attachments: it is neither an attachment nor a reference
    assert doc.attachment("附件1").start > doc.text.index("附件：1、查处酒后驾驶操作规程")
    assert _links(doc) == []


def test_judicial_rules_bare_headers_titles_below_and_nested_template_line():
    doc = _doc("zh_judicial_zonghe_zhili_sifa_jianyi_2023.md")
    assert _attachments(doc) == [("附件1", "人民法院司法建议书制作规范"), ("附件2", "文书样式"), ("附件3", "封面样式")]
    a2 = doc.attachment("附件2")
    # "附件：（按顺序列明…）" inside 附件2 is part of the template, not a new attachment list
    assert a2.start < doc.text.index("附件：（按顺序列明") < a2.end
    # "附件和抄送单位名称" / "注明附件的顺序号" speak of attachments in general: no references
    assert _links(doc) == []


def test_driving_licence_rules_report_every_reference_as_dangling():
    doc = _doc("zh_rule_jiashizheng_shenling_2021_dangling_refs.md")
    assert doc.attachments == ()
    assert _links(doc) == [("body", f"附件{i}", None) for i in range(1, 5)]
    assert [r.mention for r in doc.dangling] == ["附件1", "附件2", "附件3", "附件4"]
    assert doc.text[doc.dangling[1].start : doc.dangling[1].end] == "附件2"


def test_environmental_tax_law_references_by_title_to_chinese_numbered_tables():
    doc = _doc("zh_law_huanjing_baohushui_fa_empty_tables.md")
    assert _attachments(doc) == [("附表1", "环境保护税税目税额表"), ("附表2", "应税污染物和当量值表")]
    links = _links(doc)
    assert links.count(("body", "附表1", "附表1")) == 3
    assert links.count(("body", "附表2", "附表2")) == 3
    assert {r.mention for r in doc.references} == {"《环境保护税税目税额表》", "《应税污染物和当量值表》"}
    # 《中华人民共和国税收征收管理法》 names a law, not an attachment
    assert all("税收征收管理法" not in r.mention for r in doc.references)


@pytest.mark.parametrize("name", sorted(p.name for p in SHARED_CORPUS.glob("zh_*")) if SHARED_CORPUS.is_dir() else [])
def test_chunks_are_exact_spans_that_never_cross_an_attachment(name):
    doc = _doc(name)
    for chunk in doc.chunks:
        assert doc.text[chunk.start : chunk.end] == chunk.text
        assert 0 < len(chunk.text) <= 800
        owner = doc.attachment(chunk.attachment) if chunk.attachment else None
        if owner:
            assert owner.start <= chunk.start and chunk.end <= owner.end
        else:
            assert all(chunk.end <= a.start or chunk.start >= a.end for a in doc.attachments)
    assert len({c.id for c in doc.chunks}) == len(doc.chunks)


def _body_links(doc) -> list[tuple[str, str | None, str]]:
    return [(r.label, r.target, r.mention) for r in doc.references]


def test_arbitration_fees_one_unnumbered_attachment_named_by_a_shortened_title():
    doc = _doc("zh_reg_zhongcai_shoufei_banfa_1995.md")
    assert _attachments(doc) == [("附件", "仲裁委员会仲裁案件受理费表")]
    att = doc.attachments[0]
    assert (att.kind, att.number, att.omitted) == ("附件", "", False)
    assert doc.text[att.start : att.end].startswith("附件：\n\n仲裁委员会仲裁案件受理费表\n")
    assert "40－100元" in doc.text[att.start : att.end]
    # 按照仲裁案件受理费表的规定 (twice) and 在仲裁案件受理费表规定的幅度内: the title without 《》, shortened
    assert _body_links(doc) == [("附件", "附件", "仲裁案件受理费表")] * 3
    assert all(r.source == "" for r in doc.references)


def test_mineral_rules_list_line_then_bare_kind_header_and_title_line():
    doc = _doc("zh_reg_kuangchan_ziyuan_shishi_xize_1994.md")
    assert _attachments(doc) == [("附件", "矿产资源分类细目")]
    att = doc.attachments[0]
    # "附件：矿产资源分类细目" names it; the bare "附件" line below begins it
    assert att.start > doc.text.index("附件：矿产资源分类细目")
    assert doc.text[att.start : att.end].startswith("附件\n\n矿产资源分类细目\n\n(一)能源矿产")
    assert _body_links(doc) == [("附件", "附件", "《矿产资源分类细目》")]


def test_missile_regulations_alias_and_the_accessory_trap():
    doc = _doc("zh_reg_daodan_chukou_guanzhi_tiaoli_2002.md")
    title = "导弹及相关物项和技术出口管制清单"
    assert _attachments(doc) == [("附件", title)]
    att = doc.attachments[0]
    inside = doc.text[att.start : att.end]
    assert "## 一、前言" in inside and "## 九、生产设备和生产技术" in inside and att.end == len(doc.text.rstrip())
    body = doc.text[: att.start]
    uses = body.count("《管制清单》") - 1  # the definition (以下简称《管制清单》) is not a use
    assert _body_links(doc) == [("附件", "附件", f"《{title}》")] + [("附件", "附件", "《管制清单》")] * uses
    assert uses == 8
    # 成套附件及其改装附件 / (line break) 4．… is "accessory", not 附件4
    assert "成套附件及其改装附件\n" in inside
    assert doc.dangling == ()


def test_flight_rules_three_omitted_attachments_on_one_line_are_not_dangling():
    doc = _doc("zh_reg_feixing_jiben_guize_omitted_annexes.md")
    assert _attachments(doc) == [
        ("附件1", "辅助指挥、联络的符号和信号"),
        ("附件2", "飞行高度层配备标准示意图"),
        ("附件3", "拦截航空器和被拦截航空器的动作信号"),
    ]
    assert all(a.omitted for a in doc.attachments)
    a1, a2, a3 = doc.attachments
    line_start = doc.text.index("附件一 辅助指挥")
    assert doc.text[a1.start : a1.end] == "附件一 辅助指挥、联络的符号和信号（一）（略） 辅助指挥、联络的符号和信号（二）（略）"
    assert doc.text[a2.start : a2.end] == "附件二 飞行高度层配备标准示意图（略）"
    assert doc.text[a3.start : a3.end] == "附件三 拦截航空器和被拦截航空器的动作信号（略）"
    assert a1.start == line_start and a1.end < a2.start < a2.end < a3.start
    assert _links(doc) == [("body", "附件1", "附件1"), ("body", "附件2", "附件2"), ("body", "附件1", "附件1"),
                           ("body", "附件3", "附件3")]
    assert doc.dangling == ()


def test_stamp_tax_empty_unnumbered_table_still_exists_with_its_title():
    doc = _doc("zh_reg_yinhuashui_zanxing_tiaoli_empty_table.md")
    assert _attachments(doc) == [("附件", "印花税税目税率表")]
    att = doc.attachments[0]
    assert doc.text[att.start : att.end] == "附件：\n\n印花税税目税率表\n\n续表"
    assert not att.omitted  # lost, not left out on purpose
    assert _body_links(doc) == [("附件", "附件", "《印花税税目税率表》")]


def test_every_development_question_names_an_attachment_the_splitter_finds_with_that_title():
    from kb.eval.metrics import load_questions

    questions, problems = load_questions(SHARED_CORPUS / "questions.jsonl")
    assert problems == [] and len(questions) >= 84
    checked = 0
    for q in questions:
        doc = _doc(q.doc) if q.doc else None
        for written, label in zip(q.attachments, q.labels):
            att = doc.attachment(label)
            assert att is not None, (q.line, written)
            # 附件4：应急物资清单, 附录B 突发环境事件…清单, 附件1 禁止倾倒的物质（正文称“附件一”）: the reader's title
            title = re.sub(r"^(?:附件|附录|附表|附)\s*[0-9A-Za-z一二三四五六七八九十]*[：:\s]*", "", written, count=1)
            if title:
                assert att.title and title.startswith(att.title), (q.line, written, att.title)
            checked += 1
    assert checked == sum(len(q.attachments) for q in questions) >= 61
