"""How a question is read after the earlier ones: a follow-up resolved to what it continues, a new question alone."""
from __future__ import annotations

import json

import pytest

from kb.answer.followup import DOCUMENT, ANAPHORA, ELLIPSIS, NO_SUBJECT, read_question
from tests.conftest import DATA_DIR

TITLES = ("东岭街道防汛应急预案", "西岭街道防汛应急预案", "示范市餐厨垃圾管理办法", "绿洲化工园区突发环境事件应急预案",
          "青禾县人民医院火灾事故应急预案", "滨江物流园危险货物道路运输事故应急预案")
BOATS = "东岭街道有几艘冲锋舟？存放在哪里？"


@pytest.mark.parametrize(("question", "before", "how", "standalone"), [
    ("西岭街道呢？", BOATS, ELLIPSIS, "西岭街道有几艘冲锋舟？存放在哪里？"),  # another document, the same question
    ("救生衣呢？", BOATS, ELLIPSIS, "东岭街道有几艘救生衣？存放在哪里？"),  # another thing, the same document
    ("西岭街道的救生衣呢？", BOATS, ELLIPSIS, "西岭街道有几艘救生衣？存放在哪里？"),
    ("那第三类呢？", "危险废物分为几类？第二类包括哪些？", ELLIPSIS, "危险废物分为几类？第三类包括哪些？"),
    ("黄色预警呢？", "西岭街道发布蓝色预警时各社区多久巡查一次易涝点？", ELLIPSIS,
     "西岭街道发布黄色预警时各社区多久巡查一次易涝点？"),
    ("那警戒疏散组呢？", "滨江物流园现场处置组组长是谁，组里有几个人？", ELLIPSIS,
     "滨江物流园警戒疏散组组长是谁，组里有几个人？"),
    ("那么园区污水处理厂的呢？", "园区公共应急事故池的有效容积是多少？", ELLIPSIS, "园区公共污水处理厂的有效容积是多少？"),
    ("那固体废物呢？", "餐厨垃圾里的油脂怎么收费？", ELLIPSIS, "餐厨垃圾里的固体废物怎么收费？"),  # 怎么收费: a verb
    ("离火车站呢？", "东岭街道防汛仓库距离机场多远？", ELLIPSIS, "东岭街道防汛仓库距离火车站多远？"),  # 距离 says 离
    ("它的负责人是谁？", "东岭中学体育馆可以安置多少人？", ANAPHORA, "东岭中学体育馆的负责人是谁？"),
    ("该村的崩塌隐患点影响多少人？", "西岭街道下湾村的防汛责任人是谁？", ANAPHORA, "西岭街道下湾村的崩塌隐患点影响多少人？"),
    ("该预案的附件有哪些？", BOATS, ANAPHORA, "东岭街道预案的附件有哪些？"),
    ("它里面要写什么？", "司法建议书附件2是什么？", ANAPHORA, "司法建议书附件2里面要写什么？"),  # 里面: where, in it
    ("他的电话是多少？", "绿洲化工园区应急指挥部总指挥是谁？", ANAPHORA, "绿洲化工园区应急指挥部总指挥的电话是多少？"),
    ("存放在哪里？", "西岭街道有几台移动排水泵？", NO_SUBJECT, "西岭街道移动排水泵存放在哪里？"),
    ("格式是什么样的？", "司法建议书要写哪些内容？", NO_SUBJECT, "司法建议书格式是什么样的？"),  # 格式 frames what is asked
    ("有效期多久？", "海洋倾废要申请什么许可证？", NO_SUBJECT, "许可证有效期多久？"),
    # inside the attachment the earlier question named, its number and all (jieba reads 二 as a number)
    ("里面写了什么？", "西岭街道防汛应急预案的附件二是什么？", NO_SUBJECT, "西岭街道防汛应急预案附件二里面写了什么？"),
    ("里面有哪些人？", "绿洲化工园区附件3叫什么？", NO_SUBJECT, "绿洲化工园区附件3里面有哪些人？"),
    # what the earlier question asked of has no thing of its own to stand for: the one asked after is its (the
    # contact's phone), not a word glued before the whole earlier question
    ("电话呢？", "东岭街道联系人是谁？", ELLIPSIS, "东岭街道联系人电话"),
    # one amount for the one the earlier question gave, and a bound on it, each the case asked of
    ("那30万呢？", "争议金额8万元，受理费按多少交？", ELLIPSIS, "争议金额30万，受理费按多少交？"),
    ("超过100万的部分呢？", "争议金额30万元，受理费按多少交？", ELLIPSIS, "争议金额超过100万的部分，受理费按多少交？"),
    # jieba cuts 报到 报 / 到 after 什么时候: 报 is no thing the next question continues
    ("在哪报到？", "东岭街道防汛培训什么时候报到？", NO_SUBJECT, "东岭街道防汛培训在哪报到？"),
])
def test_a_follow_up_is_read_as_the_question_it_continues(question, before, how, standalone):
    reading = read_question(question, ["火星上有猫吗？", before], TITLES)
    assert reading.follows and reading.how == how and reading.continues == before
    assert reading.standalone == standalone and reading.question == question


@pytest.mark.parametrize("question", [
    "食品生产加工企业的餐厨垃圾收运费标准是多少？",  # names its own document
    "围油栏储备多少、存放在哪里？",  # names no document, but a subject of its own
    "旅客该怎么办？",  # 该 as "should", after a subject
    "飞行高度层的具体配备标准在飞行基本规则的哪个附件里？那个附件叫什么？",  # 那个 points inside the question
    "为什么要关闭排洪渠节制闸呢？",  # a whole question that ends in 呢
])
def test_a_question_with_a_subject_of_its_own_is_read_alone(question):
    reading = read_question(question, [BOATS], TITLES)
    assert not reading.follows and reading.standalone == question


def test_without_an_earlier_question_nothing_is_resolved():
    reading = read_question("西岭街道呢？", [], TITLES)
    assert not reading.follows and reading.standalone == "西岭街道呢？"


def test_no_standalone_question_of_the_bundled_file_reads_as_a_follow_up():
    """Asked after the questions before it (the evaluation's --with-history), every standalone question stands alone."""
    lines = [json.loads(line) for line in (DATA_DIR / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]
    standalone = [q["question"] for q in lines if not q.get("history")]
    assert len(standalone) >= 60
    for i, question in enumerate(standalone):
        for earlier in (standalone[max(0, i - 2):i], [BOATS]):
            assert not read_question(question, earlier, TITLES).follows, (question, earlier)


def test_an_elided_question_leans_on_the_most_recent_question_whose_subject_is_written_beside_its_own():
    plans = [p.read_text(encoding="utf-8") for p in sorted((DATA_DIR / "corpus").glob("*.md"))]
    plans.append((DATA_DIR / "corpus" / "西岭街道防汛应急预案.txt").read_bytes().decode("gb18030"))  # a GBK copy

    def together(a: str, b: str, document: bool) -> bool:  # the real plans' text stands for the knowledge base
        return any(a in text and b in text for text in plans)

    hospital = "医院配置了多少具消防过滤式自救呼吸器？"
    reading = read_question("救生衣呢？", [BOATS, hospital], TITLES, together)
    assert reading.continues == BOATS and reading.skipped == 1
    assert reading.standalone == "东岭街道有几艘救生衣？存放在哪里？"
    named = read_question("西岭街道呢？", [BOATS, hospital], TITLES, together)  # the plan 西岭街道 names
    assert named.continues == BOATS and named.standalone == "西岭街道有几艘冲锋舟？存放在哪里？"
    # the last question, when it is the one the subject is written beside, or when nothing can be tested
    assert read_question("救生衣呢？", [hospital, BOATS], TITLES, together).skipped == 0
    assert read_question("救生衣呢？", [BOATS, hospital], TITLES).continues == hospital


def test_an_elided_question_leans_on_the_last_question_when_one_document_writes_both_subjects():
    # a guide's 附录B lists 氨 (not 氯气); its 附录C names 氯气 among other 物质: one document, two parts
    parts = {"氨": {("guide", "附录B")}, "氯气": {("guide", "附录C")}, "物质": {("guide", "附录B"), ("guide", "附录C")},
             "巡查": {("guide", "正文")}}

    def together(a: str, b: str, document: bool) -> bool:
        held = {doc if document else (doc, part) for doc, part in parts.get(a, ())}
        return bool(held & {doc if document else (doc, part) for doc, part in parts.get(b, ())})

    reading = read_question("那氯气呢？", ["附录B里面有哪些物质？", "氨的临界量是多少？"], TITLES, together)
    assert reading.continues == "氨的临界量是多少？" and reading.standalone == "氯气的临界量是多少？"
    # an aside about another document is still leaned past
    aside = read_question("那氯气呢？", ["附录B里面有哪些物质？", "餐厨垃圾如何处理？"], TITLES, together)
    assert aside.continues == "附录B里面有哪些物质？"
    # an act the same document writes (巡查, which jieba tags a noun) is no thing to ask 氯气 in place of
    act = read_question("那氯气呢？", ["附录B里面有哪些物质？", "各社区多久巡查一次？"], TITLES, together)
    assert act.continues == "附录B里面有哪些物质？"


def test_a_document_named_alone_leans_past_a_question_about_another_documents_own_subject():
    # 餐厨垃圾如何处理？ asks about what its document is named for: nothing in it can be asked of 西岭街道's plan
    def together(a: str, b: str, document: bool) -> bool:
        return b == "冲锋舟"

    reading = read_question("西岭街道呢？", [BOATS, "餐厨垃圾如何处理？"], TITLES, together)
    assert reading.continues == BOATS and reading.skipped == 1
    assert reading.standalone == "西岭街道有几艘冲锋舟？存放在哪里？"


@pytest.mark.parametrize(("question", "earlier", "standalone"), [
    ("那附件3里呢？", ["绿洲化工园区附件2里有哪些人？"], "绿洲化工园区附件3里有哪些人？"),  # another attachment
    ("那附录B呢？", ["附录A列了哪些物质？", "餐厨垃圾如何处理？"], "附录B列了哪些物质？"),  # past a question naming none
    ("附件5呢？", ["西岭街道有几艘冲锋舟？"], "附件5里西岭街道有几艘冲锋舟？"),  # it named none: asked of that one
])
def test_an_attachment_named_alone_asks_the_earlier_question_of_that_attachment(question, earlier, standalone):
    reading = read_question(question, earlier, TITLES)
    assert reading.how == ELLIPSIS and reading.standalone == standalone


def test_a_referring_phrase_with_an_attribute_asks_that_attribute_of_what_it_refers_to():
    station = "西岭街道防汛站在哪里？"
    written = {"西岭街道防汛站", "防汛站"}

    def together(a: str, b: str, document: bool) -> bool:  # the plan writes 防汛站 and its 电话 in one attachment
        return a in written and (a == b or b == "电话")

    reading = read_question("它的电话呢？", [station, "餐厨垃圾如何处理？"], TITLES, together)
    assert reading.how == ANAPHORA and reading.continues == station and reading.skipped == 1
    assert reading.standalone == "西岭街道防汛站的电话是多少？"  # 站, read by jieba as a verb, is the name's: it is written
    chief = read_question("他的职务呢？", ["绿洲化工园区应急指挥部总指挥是谁？"], TITLES)
    assert chief.standalone == "绿洲化工园区应急指挥部总指挥的职务是什么？"


@pytest.mark.parametrize(("question", "before", "standalone"), [
    # a range for a range: the tier of a fee schedule the user moves to
    ("要是一千万到五千万呢？", "工程类招标，中标价五百万到一千万那一档费率是多少？", "工程类招标，中标价一千万到五千万那一档费率是多少？"),
    ("那500-1000万元呢？", "中标金额100-500万元的服务费率是多少？", "中标金额500-1000万元的服务费率是多少？"),
    # a bound is a tier too, and the question's words after a tier stay its own (…20万怎么收); the tier's digits are
    # no document's name, though a title's date holds 10
    ("10万到20万的呢？", "仲裁争议金额1000元以下怎么收？", "仲裁争议金额10万到20万怎么收？"),
    ("100万以上呢？", "仲裁争议金额10万到20万怎么收？", "仲裁争议金额100万以上怎么收？"),
    # where to look, for where to look: another table or list of the same document
    ("证券期货业那张表里呢？", "银行业可疑交易报告里“交易特征描述”排第几？", "证券期货业那张表里“交易特征描述”排第几？"),
    ("扩展项目名录里呢？", "代表性项目名录里传统技艺有多少项？", "扩展项目名录里传统技艺有多少项？"),
])
def test_an_elided_range_or_place_to_look_takes_the_place_of_the_earlier_ones(question, before, standalone):
    reading = read_question(question, [before], (*TITLES, "环境保护税法(2018-10-26)"))
    assert reading.how == ELLIPSIS and reading.standalone == standalone



def test_a_new_question_naming_no_document_stays_with_the_document_the_conversation_is_about():
    plans = {"西岭街道防汛应急预案": "冲锋舟 救生衣 移动排水泵", "青禾县人民医院火灾事故应急预案": "消防过滤式自救呼吸器 救生衣"}

    def together(a: str, b: str, document: bool) -> bool:
        return any(a in title and b in text for title, text in plans.items())

    reading = read_question("移动排水泵有几台？", ["西岭街道有几艘冲锋舟？"], TITLES, together)
    assert reading.how == DOCUMENT and reading.standalone == "西岭街道移动排水泵有几台？"
    # read alone: a subject that document does not write, or a question that names its own document
    assert not read_question("呼吸器有多少具？", ["西岭街道有几艘冲锋舟？"], TITLES, together).follows
    assert not read_question("青禾县人民医院有几件救生衣？", ["西岭街道有几艘冲锋舟？"], TITLES, together).follows


FORM_TITLES = ("关于举办2024年全市中小学生作文比赛的通知", "西安新兴紫楹台酒店有限公司生产安全事故应急预案")


@pytest.mark.parametrize(("question", "before", "standalone"), [
    ("那张表要填什么？", "作文比赛的报名表什么时候交？", "作文比赛的报名表要填什么？"),  # 表 of 报名表, the counter aside
    ("那张表呢？", "作文比赛的报名表什么时候交？", "作文比赛的报名表什么时候交？"),  # the same thing asked again
    ("表要交给谁？", "报名表要填什么？", "报名表要交给谁？"),  # 表 opening the question, jieba's 表要 apart
    ("这个清单谁负责更新？", "紫楹台酒店的应急物资清单里有哪些东西？", "紫楹台酒店的应急物资清单谁负责更新？"),
])
def test_a_follow_up_that_names_the_end_of_an_earlier_name_means_the_earlier_thing(question, before, standalone):
    assert read_question(question, [before], FORM_TITLES).standalone == standalone


@pytest.mark.parametrize(("question", "before", "standalone"), [
    ("哪些不用交？", "印花税哪些凭证要交？", "印花税凭证哪些不用交？"),
    ("不交会怎么样？", "印花税由谁来收？", "印花税不交会怎么样？"),
])
def test_a_word_a_negation_or_a_modal_makes_a_predicate_is_no_subject(question, before, standalone):
    # jieba tags 交 of 要交 a noun, and cuts 不交会 不/交会 (a noun): the follow-up asks of the earlier thing
    reading = read_question(question, [before], ("中华人民共和国印花税暂行条例", "机动车驾驶证申领和使用规定"))
    assert (reading.how, reading.standalone) == (NO_SUBJECT, standalone)


def test_an_amount_in_a_phrase_with_its_verb_keeps_both_amounts_in_the_reading():
    # 那工作了25年呢？: no attribute asked after the earlier question's thing, so the phrase goes before it as it did
    reading = read_question("那工作了25年呢？", ["我工作了12年，每年能休几天年假？"], ("职工带薪年休假条例",))
    assert "25年" in reading.standalone and "12年" in reading.standalone


def test_a_form_named_by_a_verb_and_its_noun_is_replaced_whole_by_the_form_a_follow_up_names():
    # 注销|会员登记表: jieba cuts the verb of the form's name apart; the follow-up's form takes the whole name's place
    reading = read_question("那入会的申请书呢？", ["退出协会的话，注销会员登记表由谁签字？"], TITLES)
    assert reading.standalone == "退出协会的话，入会的申请书由谁签字？", reading


def test_a_headless_de_phrase_asks_of_a_kind_of_the_form_asked_before():
    # 手写的 names a handwritten one of the form the earlier question asked about, without naming the form
    reading = read_question("手写的算数吗？", ["年会的参会回执表什么时候交？"], TITLES)
    assert reading.standalone == "年会的手写的参会回执表算数吗？", reading
    assert read_question("手写的可以吗？", ["东岭街道有几艘冲锋舟？"], TITLES).standalone == "手写的可以吗？"  # no form
