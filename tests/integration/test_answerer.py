"""The offline answerer end to end (real Kuzu and Chroma): what answers a question, and what says it cannot be answered.

Synthetic documents written here stand for one general rule each; the real documents of ../shared/corpus check
the same rules on text nobody here wrote.
"""
from __future__ import annotations

import pytest

from kb.answer.prompts import NO_ANSWER
from kb.search.retrieval import keep
from kb.service import open_service
from kb.settings import load_settings
from kb.turn import Hit, TurnRequest
from tests.conftest import SHARED_CORPUS

RULES = {
    # A table of an attachment, long enough that its later chunks hold neither its header nor its title.
    "紫杉湖酒店生产安全事故应急预案.md": "\n".join([
        "# 紫杉湖酒店生产安全事故应急预案",
        "",
        "## 一、总则",
        "",
        "本预案适用于紫杉湖酒店经营场所内发生的火灾、触电等生产安全事故。",
        "需要外部支援时，按附件3所列电话联系。",
        "酒店位于湖滨路18号，共有客房240间。",
        "",
        "附件1：企业概况",
        "",
        "紫杉湖酒店建于2009年，地上12层，地下2层，总建筑面积3.2万平方米。",
        "酒店北侧为湖滨路，南侧为紫杉湖公园。",
        "",
        "附件2：应急物资清单（略）",
        "",
        "附件3：外部救援单位联系方式",
        "",
        "单位 | 联系人 | 电话",
        *(f"协作单位{i:02d} | 联系人{i:02d} | 029-8800{i:04d}" for i in range(1, 40)),
        "市消防救援支队 | 值班室 | 119",
        "市急救中心 | 调度台 | 120",
        "",
        "附件4：应急通讯录",
        "",
        "表1 应急指挥部通讯录",
        "",
        "附件5：应急演练记录",
        "",
        "本附件所列演练每年组织两次。",
        "第一次演练在6月，内容为消防疏散演练（附件6）。",
    ]),
}


def _served(tmp_path_factory, documents: dict[str, str], library: str):
    """A service over real stores holding these documents, for one test module."""
    folder = tmp_path_factory.mktemp(library)
    for name, text in documents.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    svc = open_service(load_settings(env={}, store_dir=tmp_path_factory.mktemp(f"{library}-store")))
    results = svc.stores.ingestor.ingest([folder], library)
    assert not [r.error for r in results if r.error]
    yield svc
    svc.close()


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    yield from _served(tmp_path_factory, RULES, "rules")


def ask(service, question: str) -> dict:
    events = list(service.pipeline.run(TurnRequest(question)))
    content = "".join(e.data["text"] for e in events if e.type == "content")
    items = next(e.data["items"] for e in events if e.type == "attachments")
    answer = content.split("**相关附件内容：**")[0]
    return {"answer": answer, "quoted": answer.split("**相关附件**")[0], "content": content,
            "shown": {i.label for i in items if i.resolved}}


def test_a_table_row_is_found_by_its_attachment_title_and_read_with_its_header(rules):
    t = ask(rules, "紫杉湖酒店发生火灾后应拨打哪些外部救援电话？")
    assert "单位：市消防救援支队；联系人：值班室；电话：119" in t["quoted"]
    assert "附件3" in t["shown"]  # the 相关附件 section names it and the hop appends the whole table
    assert "市急救中心 | 调度台 | 120" in t["content"].split("**相关附件内容：**")[1]


def test_indexed_context_never_changes_the_cited_text(rules):
    hits = rules.pipeline.retriever.retrieve("紫杉湖酒店 外部救援单位联系方式 电话 119", TurnRequest("q"))
    text = rules.read.current().documents  # noqa: F841 — the snapshot is built
    row = next(h for h in hits if "119" in h.text)
    assert row.attachment == "附件3" and row.index > 0
    assert "电话" not in row.text.split("\n")[0]  # the chunk starts mid-table: its header came from the context
    doc = rules.stores.graph.load_document(row.doc_id)
    assert doc.text[row.start:row.end] == row.text  # citations highlight the exact source span


def test_a_count_question_needs_what_it_counts(rules):
    assert "240间" in ask(rules, "紫杉湖酒店有多少间客房？")["quoted"]
    t = ask(rules, "紫杉湖酒店有多少名在编厨师？")
    assert NO_ANSWER in t["answer"] and "240" not in t["answer"]


def test_an_attachment_reached_through_its_citing_sentence_answers(rules):
    t = ask(rules, "需要外部支援时应该打哪些电话？")
    assert "029-88000001" in t["quoted"] and "附件3" in t["shown"]


@pytest.mark.parametrize("question, says", [
    ("紫杉湖酒店预案附件2的应急物资有哪些？", "附件2“应急物资清单”在原文中注明“略”"),
    ("紫杉湖酒店应急指挥部通讯录里总指挥的电话是多少？", "附件4“应急通讯录”在知识库中只有标题，没有内容"),
    ("紫杉湖酒店预案附件6的消防疏散演练方案是怎样的？", "正文引用了附件6，但文档没有附上附件6的内容"),
    ("紫杉湖酒店预案附件九规定了什么？", "没有附件9（该文档的附件是：附件1、附件2、附件3、附件4、附件5）"),
])
def test_an_attachment_with_nothing_to_answer_from_is_named_as_such(rules, question, says):
    t = ask(rules, question)
    assert says in t["quoted"] and "没有找到" in t["quoted"]
    assert "[" not in t["quoted"]  # no sentence of another place is quoted as if it answered


def test_an_attachment_with_content_is_answered_not_declined(rules):
    t = ask(rules, "紫杉湖酒店附件1里酒店总建筑面积是多少？")
    assert "3.2万平方米" in t["quoted"] and "附件1" in t["shown"]


def test_a_documents_best_citing_chunk_is_kept_under_the_threshold():
    def hit(cid: str, doc: str, score: float) -> Hit:
        return Hit(cid, doc, "lib", "", 0, 0, 1, cid, score)

    hits = [hit("a0", "A", 1.0), hit("a1", "A", 0.5), hit("a2", "A", 0.4), hit("b0", "B", 0.3)]
    kept = keep(hits, 0.7, 20, frozenset({"a2", "b0"}))
    assert [h.chunk_id for h in kept] == ["a0", "a2"]  # B has no hit above the threshold: nothing leads there
    assert [h.chunk_id for h in keep(hits, 0.7, 20, frozenset({"a0", "a2"}))] == ["a0"]


def test_an_attachment_chunk_above_the_threshold_keeps_a_place_past_top_k():
    def hit(cid: str, doc: str, score: float, attachment: str = "") -> Hit:
        return Hit(cid, doc, "lib", attachment, 0, 0, 1, cid, score)

    # RRF order: body chunks both retrievers found first, then tables found by their words alone
    hits = [hit(f"a{i}", "A", 0.9) for i in range(4)] + [hit("t5", "A", 0.8, "附件5"), hit("t6", "A", 0.95, "附件6"),
                                                           hit("t6b", "A", 0.9, "附件6"), hit("c1", "C", 0.99, "附件1")]
    kept = [h.chunk_id for h in keep(hits, 0.7, 3, frozenset(), places=2)]
    # best score first, one chunk per attachment, only of a document the kept hits come from; topK bounds the whole
    assert kept == ["a0", "t5", "t6"]
    assert [h.chunk_id for h in keep(hits, 0.7, 3, frozenset())] == ["a0", "a1", "a2"]  # a baseline: topK alone


TWINS = {
    # Two plans written from one template: the same rows, different facts.
    "北湾化工园区防汛应急预案.md": "\n".join([
        "# 北湾化工园区防汛应急预案",
        "",
        "本预案由北湾化工园区管委会应急管理部门编制。",
        "防汛物资见附件1。",
        "年度演练安排见附件3。",
        "",
        "附件1：防汛物资清单",
        "",
        "1．抽水泵：12台，存放于园区物资库。",
        "2．编织袋：3000条，存放于园区物资库。",
        "",
        "附件2：防汛值班报告表",
        "",
        "说明：本表一式三份，分别报送街道办、区应急局。",
        "",
        "附件3：年度演练计划",
        "",
        "1．5月：防汛桌面推演，地点为管委会会议室。",
        "2．7月：城市内涝抢险实战演练，地点为园区东门。",
        "3．9月：危化品仓库进水处置演练，地点为园区仓储区。",
    ]),
    "南湾物流园防汛应急预案.md": "\n".join([
        "# 南湾物流园防汛应急预案",
        "",
        "本预案由南湾物流园安全部编制。",
        "园区内仓库较多，防汛物资见附件1。",
        "",
        "附件1：防汛物资清单",
        "",
        "1．抽水泵：5台，存放于园区物资库。",
        "2．编织袋：800条，存放于物流园一号仓库。",
        "3．近三年汛期最大日降雨量为180毫米。",
    ]),
}


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    yield from _served(tmp_path_factory, TWINS, "twins")


def test_the_document_a_question_names_answers_it_alone(twins):
    t = ask(twins, "南湾物流园的抽水泵有多少台？")
    assert "5台" in t["quoted"] and "12台" not in t["quoted"]
    t = ask(twins, "园区的抽水泵有多少台？")  # 园区 is in one title only; the other uses the word in its text
    assert "12台" in t["quoted"] and "5台" not in t["quoted"]


def test_a_question_about_a_named_document_is_not_answered_from_its_twin(twins):
    t = ask(twins, "北湾化工园区近三年汛期最大日降雨量是多少毫米？")
    assert NO_ANSWER in t["answer"] and "180" not in t["answer"]
    assert "180毫米" in ask(twins, "南湾物流园近三年汛期最大日降雨量是多少毫米？")["quoted"]


def test_a_question_word_jieba_cuts_otherwise_in_the_text_still_counts(twins):
    # jieba reads 一式几份 as 一式/几份 but 本表一式三份 as 本表/一/式/三份: the written word is what counts
    assert "本表一式三份" in ask(twins, "防汛值班报告表一式几份？")["quoted"]


def test_a_list_item_is_read_without_its_number_and_about_the_sentence_that_cites_its_attachment(twins):
    # 2．7月 is item 2 of 7月 (not 2.7); the plan's 年度演练安排见附件3 says what the items are: 安排
    t = ask(twins, "北湾化工园区7月份安排的是什么演练？")
    assert "城市内涝抢险实战演练" in t["quoted"] and "防汛桌面推演" not in t["quoted"]


def test_a_question_naming_a_document_the_knowledge_base_lacks_is_declined(twins):
    t = ask(twins, "北湾化工园区地震应急预案由哪个部门编制？")
    assert NO_ANSWER in t["answer"] and "[" not in t["quoted"]
    assert "应急管理部门" in ask(twins, "北湾化工园区防汛应急预案由哪个部门编制？")["quoted"]


LAW = {
    # A law's articles: ordinals that are no answer, a framing 依照…，
    "青峰市水资源费征收办法.md": "\n".join([
        "# 青峰市水资源费征收办法",
        "",
        "第一条 为加强水资源管理，依照《中华人民共和国水法》第四十八条的规定，制定本办法。",
        "",
        "第二条 水资源费按下列费率征收：",
        "",
        "（一）综合用水，适用百分之二至百分之五的超额累进费率；",
        "",
        "（二）农业用水，按取水量计征，费率另行规定。",
        "",
        "第三条 水资源管理委员会委员共15人，由市人民政府聘任。",
        "",
        "第四条 依照本办法第三条规定聘任的水资源管理委员会委员，由市人民政府办公厅管理。",
        "",
        "第五条 依照本办法征收的水资源费，全额纳入财政预算。",
        "",
        "第六条 依照本条规定下调水资源费的，由市人民政府决定。",
        "",
        "第七条 下调水资源费时，应当先公告三十日，然后降至原标准的三分之二。",
    ]),
}


@pytest.fixture(scope="module")
def law(tmp_path_factory):
    yield from _served(tmp_path_factory, LAW, "law")


def test_a_range_question_is_answered_by_the_numbers_that_make_the_range(law):
    # 范围 is what the numbers express, so no sentence need say it; 适用百分之二… gives the number at 适用
    assert "百分之二至百分之五" in ask(law, "青峰市水资源费征收办法规定的综合用水适用费率范围是多少？")["quoted"]


def test_a_question_word_written_otherwise_counts_by_its_characters(law):
    # 降到 is not a word of 降至原标准的三分之二, but a reader sees the same verb
    quoted = [line for line in ask(law, "青峰市下调水资源费，应降到什么水平？")["quoted"].splitlines()
              if line.startswith("- ")]
    assert quoted and quoted[0].startswith("- 第七条"), quoted


def test_what_is_counted_stands_beside_its_number_and_an_article_number_counts_nothing(law):
    # 依照…， says where to look; 第三条 is an ordinal, not an answer to 多少; 委员共15人 counts the 委员
    t = ask(law, "依照青峰市水资源费征收办法，水资源管理委员会共有多少名委员？")
    quoted = [line for line in t["quoted"].splitlines() if line.startswith("- ")]
    assert quoted[0].startswith("- 第三条 水资源管理委员会委员共15人"), t["answer"]
    assert "第四条" not in t["quoted"]


# --- the same rules on the real documents of ../shared/corpus ---------------------------------------------------

shared = pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="../shared/corpus is not beside the project")


@shared
@pytest.mark.parametrize("question, label, expected", [
    ("喜来登酒店北侧和东侧分别临近哪里？", "附件1", ["丰镐东路", "西安饭庄丰登路店"]),
    ("喜来登酒店应急预案附带的格式文本里有哪几种表？", "附件6", ["事故信息发布表", "应急预案演练记录表", "隐患整改回执单"]),
    ("喜来登酒店预案里附了哪些平面图和疏散图？", "附件7", ["地下一层平面图", "4至16楼消防疏散图"]),
    ("按喜来登酒店的互救协议，甲方发生生产安全事故时乙方应当做什么？", "附件8", ["出动人员和设备去甲方救援"]),
    ("争议金额在1000元以下的部分，仲裁案件受理费是多少？", "附件", ["40－100元"]),
    # 驾驶证 is a word of another document's title, used in this one's text: it names no document here
    ("驾驶人所持驾驶证记满12分时，交警怎么处理？", "附件5", ["依法扣留机动车驾驶证"]),
])
def test_real_documents_answered_from_the_attachment(real, question, label, expected):
    t = ask(real, question)
    assert all(s in t["quoted"] for s in expected), t["answer"]
    assert label in t["shown"]


@shared
@pytest.mark.parametrize("question, says", [
    ("飞行基本规则附件三规定的拦截航空器动作信号具体是怎样的？", "附件3“拦截航空器和被拦截航空器的动作信号”在原文中注明“略”"),
    ("环境保护税法附表二中第一类水污染物总汞的污染当量值是多少？", "附表2“应税污染物和当量值表”在知识库中只有标题"),
    ("机动车驾驶证申领和使用规定的附件2是什么样式？", "正文引用了附件2，但文档没有附上附件2的内容"),
    ("印花税税目税率表中借款合同的税率是多少？", "“印花税税目税率表”在知识库中只有标题"),
    ("西安喜来登大酒店应急救援指挥部应急通讯录中总指挥的手机号是多少？", "附件5“有关应急部门、机构或人员的联系方式”在知识库中只有标题"),
    ("仲裁委员会仲裁收费办法的附件三规定了什么？", "没有附件3"),
    # the attachment named by its title shortened (应急物资清单 of 应急物资装备清单), the plan by its name shortened
    # (喜来登酒店 of 西安喜来登大酒店), and its template twin holding a full 应急物资清单
    ("喜来登酒店应急物资清单里有多少个灭火器？", "附件4“应急物资装备清单”在知识库中只有标题"),
])
def test_real_documents_say_which_attachment_holds_nothing(real, question, says):
    t = ask(real, question)
    assert says in t["quoted"] and "没有找到" in t["quoted"], t["answer"]


@shared
def test_the_twin_whose_shortened_list_holds_the_value_answers_it(real):
    t = ask(real, "紫楹台酒店应急物资清单里有多少个灭火器？")
    assert "灭火器；数量：360" in t["quoted"] and "只有标题" not in t["answer"], t["answer"]
