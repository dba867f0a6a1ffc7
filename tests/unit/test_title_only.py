"""A question that is only an attachment's title (查处酒后驾驶操作规程, 矿产资源分类细目) is answered by that
attachment's opening, not by the body's sentences that cite the title or the other titles of its list."""
from __future__ import annotations

from kb.answer.offline import ExtractiveAnswerer
from kb.turn import Source

BODY = "\n".join([
    "第四条 申请人应当自收到仲裁委员会受理通知书之日起15日内，按照仲裁案件受理费表的规定预交案件受理费。",
    "第五条 仲裁案件受理费表中的争议金额，以申请人请求的数额为准。",
    "附件：1、查处酒后驾驶操作规程",
    "2、查处违反装载规定违法行为操作规程",
    "3、查处超速行驶操作规程",
])
FEES = "\n".join([
    "仲裁委员会仲裁案件受理费表",
    "争议金额（人民币） | 仲裁案件受理费（人民币）",
    "--- | ---",
    "1000元以下的部分 | 40—100元",
    "1001元至50000元的部分 | 按4%—5%交纳",
])
DRUNK = "\n".join([
    "查处酒后驾驶操作规程",
    "一、交通民警查处酒后驾驶，应当配备酒精检测仪、约束带、警绳等装备。",
    "二、对有酒后驾驶嫌疑的，应当进行呼气酒精测试。",
])


def _source(n: int, doc: str, label: str, title: str, text: str) -> Source:
    return Source(n, doc, doc, "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


def quoted(question: str, sources: list[Source]) -> list[tuple[str, str]]:
    return [(c.source.label, c.text) for c in ExtractiveAnswerer().select_parts(question, sources)]


def test_the_title_alone_is_answered_by_the_attachment_not_by_the_sentences_that_cite_it():
    sources = [_source(1, "收费办法", "", "", BODY), _source(2, "收费办法", "附件", "仲裁委员会仲裁案件受理费表", FEES)]
    answer = quoted("仲裁委员会仲裁案件受理费表", sources)
    assert answer and all(label == "附件" for label, _ in answer), answer
    assert any("1000元以下的部分" in text for _, text in answer), answer


def test_the_title_alone_is_not_answered_by_the_other_titles_of_the_list_of_attachments():
    sources = [_source(1, "执法规范", "", "", BODY), _source(2, "执法规范", "附件1", "查处酒后驾驶操作规程", DRUNK)]
    answer = quoted("查处酒后驾驶操作规程", sources)
    assert answer and answer[0] == ("附件1", "一、交通民警查处酒后驾驶，应当配备酒精检测仪、约束带、警绳等装备。"), answer


def test_a_title_two_documents_of_one_template_share_shows_each():
    stock = "防汛抢险物资储备清单\n1．冲锋舟：{n}艘，存放于{place}。\n2．救生衣：150件。"
    sources = [_source(1, "东岭街道防汛应急预案", "附件4", "防汛抢险物资储备清单", stock.format(n=3, place="东岭仓库")),
               _source(2, "西岭街道防汛应急预案", "附件4", "防汛抢险物资储备清单", stock.format(n=5, place="西岭防汛站"))]
    answer = [c.source.doc_id for c in ExtractiveAnswerer().select_parts("防汛抢险物资储备清单", sources)]
    assert answer[0] == "东岭街道防汛应急预案" and "西岭街道防汛应急预案" in answer, answer


def test_a_question_about_the_title_is_still_a_question():
    # 有哪些 asks: the question is read as one, its words scored, not answered by the title's opening alone
    sources = [_source(1, "执法规范", "", "", BODY), _source(2, "执法规范", "附件1", "查处酒后驾驶操作规程", DRUNK)]
    answer = quoted("查处酒后驾驶要配备哪些装备？", sources)
    assert any("酒精检测仪" in text for _, text in answer), answer
