"""The kind of value a question's question word asks for, and the lines that give a value of that kind.

`比赛在哪里比？` asks for a place; a notice writes it under a label (`三、比赛地点：上海市奉贤中学…`), and never writes
哪里. `报名材料发到哪个邮箱？` asks for an address a reader knows by its shape (`…@163.com`). So a reader who looks for
the answer looks for a line labelled for that kind, or holding a value of its shape, among the lines about what is
asked: each kind below is a question word, the label endings a document uses for its values, and their shape.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    asks: re.Pattern[str]  # the question words that ask for it
    labels: tuple[str, ...]  # what a label of such a value holds (开标*地点*, 比赛报名*联系人*)
    shape: re.Pattern[str] | None = None  # what such a value looks like, unlabelled
    asking: frozenset[str] = frozenset()  # the question's words that only ask for it (最晚), which no answer writes
    exact: bool = False  # its value is always written in its shape (an address, a number to call, an account)


EMAIL = re.compile(r"[A-Za-z0-9._-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
PHONE = re.compile(r"(?<![0-9])(?:(?:0[0-9]{2,3}\s*[-－—–]?\s*)?[0-9]{7,8}|1[3-9][0-9]{9}|0[0-9]{2,3}\s*[-－—–]\s*[0-9]{5,6}"
                   r"|9[0-9]{4}|11[0-9]|12[0-9]|12[0-9]{3})(?![0-9]|\s*[元万千百个人名位天日月年岁%％米吨台辆艘项条])")
_DAY = r"[0-9一二三四五六七八九十]{1,3}月[0-9一二三四五六七八九十]{1,3}[日号]"  # 4月25日, 四月二十五日
KINDS = (
    Kind(re.compile(r"在哪|哪里|哪儿|什么地方|(?<!如)何处(?!理|置|分)|何地|什么位置|什么地点|哪个地点|哪个位置"), ("地点", "地址", "位置", "场所", "会场", "场地", "住址")),
    # a date is in most sentences of a notice: only a label says it is the time asked
    Kind(re.compile(r"什么时候|何时|哪天|哪一天|几号|几点|什么时间|几月几日|哪一年|哪年|哪个月|什么日期"), ("时间", "日期", "期限", "时限", "截止")),
    # a deadline is written as the day before which (于4月25日前, 5月10日17:00之前, 截止到6月30日): that shape says it
    Kind(re.compile(r"最晚|最迟|截止|截至|期限|多久之前|之前要|前要"), ("截止", "期限", "时限"), re.compile(
        rf"{_DAY}(?:\s*[0-9]{{1,2}}[:：][0-9]{{2}})?\s*(?:之?前|止)|截[止至](?:到|于)?\s*(?:[0-9]{{4}}年)?{_DAY}"),
        frozenset({"最晚", "最迟", "最", "晚", "迟"})),
    Kind(re.compile(r"找谁|是谁|交给谁|报给谁|哪位"), ("联系人", "负责人", "收件人", "经办人", "责任人")),
    Kind(re.compile(r"邮箱|电子邮件|email", re.IGNORECASE), ("邮箱", "邮件", "email", "e-mail", "E-mail"), EMAIL, exact=True),
    # the account asked for (哪个账户, 账号是多少, 汇到哪), not an account the question speaks of (账户被冻结了怎么办)
    Kind(re.compile(r"(?:什么|哪个|哪一个)(?:账户|帐户|账号|帐号)|(?:账户|帐户|账号|帐号)(?:是|号码|多少|呢|[？?]|$)"
                    r"|[汇打转](?:到|至)(?:哪|什么)"), ("帐户", "账户", "账号", "帐号", "户名", "开户行"),
         re.compile(r"(?<![0-9])[0-9]{12,}(?![0-9])"), exact=True),
)
# A number to call: a landline with or without its area code (029-84777777, 0571 86503110, 84777777), a mobile
# (13912345678), a hotline (029-96777, 95588) or an emergency number (119); 联系方式 is an address too. 电话 asked
# for, not 电话 as the way (多长时间内要电话报告: by phone). Read only to decline (kb/answer/unsaid.py): as a reason to
# prefer a line, any line with a number in it (立即拨打120…) outranked a table of numbers on dev.
CALLING = Kind(re.compile(r"电话(?=是|多少|号|呢|[？?]|$)|(?:什么|哪个|哪些|的)电话|手机|热线|传真|联系方式|打什么号|"
                          r"拨打(?:什么|哪)"), ("电话", "手机", "热线", "传真", "联系方式"),
               re.compile(rf"{PHONE.pattern}|{EMAIL.pattern}"), exact=True)
# The question word's own noun (什么*时候*): the kind of answer, which no answer writes
KIND_NOUNS = frozenset({"时候"})
# A label: the words before a colon, back to the last mark (开标时间 of 七、…递交响应文件截止时间及开标时间：2019年…)
_LABELLED = re.compile(r"(?P<label>[^：:。；;，,！？!?\s、（）()《》“”]{1,20})[：:]\s*[^\s：:；;，,。]")


def asked_kinds(question: str, kinds: tuple[Kind, ...] = KINDS) -> tuple[Kind, ...]:
    """The kinds of value the question's question words ask for."""
    return tuple(k for k in kinds if k.asks.search(question))


def gives(text: str, kinds: tuple[Kind, ...]) -> bool:
    """The line gives a value of a kind asked: under a label for it (比赛地点：…), or in its shape (…@163.com)."""
    for kind in kinds:
        if kind.shape is not None and kind.shape.search(text):
            return True
        if any(any(word in m.group("label") for word in kind.labels) for m in _LABELLED.finditer(text)):
            return True
    return False


def completing(units: list[tuple]) -> dict[int, str]:
    """Per unit that is a labelled line completing the line above it — one that ends in a colon (请…将报名费汇至：,
    then 户名：…, 帐户：…) — that line: what the label's value is of."""
    out: dict[int, str] = {}
    intro, source = None, None
    for i, (unit_source, _, text, *_) in enumerate(units):
        if unit_source is not source:
            intro, source = None, unit_source
        line = text.strip()
        if intro is not None and _LABELLED.match(line):
            out[i] = intro
            continue
        intro = line if line.endswith(("：", ":")) else None
    return out
