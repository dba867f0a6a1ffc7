"""A fill-in form read as the person filling it reads it: its closing note (注：本文书一式两份…) speaks of the form in
hand, a blank field is where one writes, and a blank date line heads nothing."""
from __future__ import annotations

from kb.answer.asked_kind import KINDS, asked_kinds
from kb.answer.offline import ExtractiveAnswerer
from kb.answer.units import names_own_form
from kb.turn import Source

BODY = "\n".join([
    "第六条 个体工商户变更经营场所的，应当自变更之日起20日内向登记机关申请变更登记。",
    "第七条 申请人放弃变更申请的，登记机关终止办理。",
    "申请人委托他人办理的，受托人应当出示申请人的授权委托书。",
    "附件：1．个体工商户变更登记申请书",
    "2．个体工商户登记信息表",
])
NOTICE = "\n".join([
    "附件1",
    "个体工商户变更登记申请书",
    "本人____，身份证号：____，经营场所原为____，现申请变更为____。",
    "申请人（签字）：",
    "联系电话：",
    "年月日",
    "注：本文书一式两份，申请人和登记机关各留存一份。本申请书空格部分由申请人用钢笔填写。",
])
SHEET = "\n".join([
    "附件2",
    "个体工商户登记信息表",
    "登记表编号：  登记机关：",
    "经营者姓名 |  | 公民身份号码 | ",
    "登记时间 |  | 经营者手机号码 | ",
    "组成形式 | ",
    "经营范围 | ",
    "注：该表共三联，由登记机关填写，经营者与档案室各存一联。",
])


def source(n: int, label: str, title: str, text: str) -> Source:
    return Source(n, "d1", "个体工商户登记管理办法", "lib", label, title, text, ((0, len(text)),), (f"c{n}",), 1.0)


SOURCES = [source(1, "", "", BODY), source(2, "附件1", "个体工商户变更登记申请书", NOTICE),
           source(3, "附件2", "个体工商户登记信息表", SHEET)]


def quoted(question: str) -> list[str]:
    return [c.text for c in ExtractiveAnswerer().select_parts(question, SOURCES)]


def test_this_form_in_a_note_names_the_attachment_it_sits_under():
    assert names_own_form("注：本文书一式两份。", "个体工商户变更登记申请书")
    assert names_own_form("注：该表共三联，由登记机关填写。", "个体工商户登记信息表")
    assert names_own_form("本申请书由申请人本人签字。", "个体工商户变更登记申请书")
    assert not names_own_form("注：本文书一式两份。", "个体工商户登记信息表")  # a 表 is no 文书
    assert not names_own_form("按本办法办理。", "个体工商户登记信息表")


def test_who_fills_in_the_blanks_is_the_forms_closing_note_asked_in_other_words():
    answer = quoted("变更申请书的空格部分由谁填写？")
    assert answer == ["本申请书空格部分由申请人用钢笔填写。"], answer  # and not the blank date line above it


def test_how_many_copies_of_a_form_is_its_note_not_a_body_sentence_naming_the_form():
    answer = quoted("委托他人办理变更时，申请书一共要交几份？")
    assert answer and "一式两份" in answer[0], answer


def test_what_else_to_write_beside_a_name_is_the_forms_other_fields():
    # 名字 is what a form calls 姓名; a blank field is where one writes (写)
    answer = quoted("经营者这项里，名字之外还要填哪些")
    assert any("公民身份号码" in line for line in answer), answer
    assert any("经营者手机号码" in line for line in answer), answer


def test_an_account_spoken_of_is_not_an_account_asked_for():
    account = [k for k in KINDS if "账户" in k.labels]
    assert not [k for k in asked_kinds("账户余额不足时会怎样处理", KINDS) if k in account]
    assert [k for k in asked_kinds("报名费打到哪个账户？", KINDS) if k in account]
    assert [k for k in asked_kinds("学校的收款账号是多少", KINDS) if k in account]
