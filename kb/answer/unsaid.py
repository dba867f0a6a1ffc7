"""What the lines an answer would quote do not say: a careful reader declines when they give none of what is asked.

Two blind sets of real documents showed the offline answerer answering about 40% of their unanswerable questions
with the lines that merely match their words. A reader asked `投票在什么地点举行？` who finds only
`经一人一票无记名投票选出…` sees no place in it and says the document does not tell; asked `2022年…有多少人投票？`
of a law that never writes 2022, or `文学院分到几个名额？` of a notice that never names 文学院, sees the document does
not speak of what the question is about. So, over the lines chosen:

- where / when (kb/answer/asked_kind.py: the question word's kind): some line gives a place or a time, under a label
  for it (比赛地点：…) or written the way a sentence writes one (存放于东岭仓库, 位于一层北侧设备间, 9月28日, 发生…时);
- asked what an item holds (安全生产目标责任书的内容是什么), the lines only name it: an agenda's `4. 签订安全生产目标
  责任书。`, an attachment list's `2. 参会回执`, `会议材料见附件1` that sends the reader to an attachment, a form's blank
  fields (姓名：＿＿＿, □是 □否): each line, from its first clause that holds the question's words, adds at most
  the verb that puts an item on a list (签订, 部署) or a pointer's words, and no number, and the other lines are headings or blanks;
- a year, an organisation, a place or a letter code the question names (2022年, 文学院, jieba's nt/ns; ICU) is written by some source, its
  title or its cover (or a title shortened as a reader shortens a name: 一中 of …第一中学).
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from kb.answer.asked_kind import CALLING, KINDS, Kind, asked_kinds, gives
from kb.answer.dangling import asks_which
from kb.answer.forms import is_blank
from kb.answer.numbers import has_number, plain_numbers
from kb.answer.question import TITLE, YES_NO
from kb.answer.naming import abbreviates
from kb.answer.question_words import words_of
from kb.answer.units import folded
from kb.labels import LABEL
from kb.search.tokens import tokenize
from kb.turn import Source

# How a sentence writes a place without a label: a locative verb or preposition, then within a short phrase a word
# that names a place (存放于东岭仓库, 在致远楼424, 位于东岭路120号, 设在园区应急中心, 向学院资助办提交, 登录…系统
# 申请: an office and a website are where a reader goes), a side or a neighbour
# (北侧为丰镐东路, 靠近西安饭庄), or a house number. 对于/由于/关于… are no locatives; 存在/现在/正在 no 在; an event's
# verb is none either (举办 is in 选举办法, and 在…举行 says 在), nor a body (委员会, 工作组: a law names them throughout,
# and on heldout14 …由…政府提出并经立法会通过 read as a place answered 选举委员会投票在什么地点举行).
_PLACE_NOUNS = ("楼|室|馆|厅|站|库|中心|场|所|间|院|处|路|街|巷|道|号|村|镇|乡|区|县|市|省|州|国|侧|旁|层|门|园|校|"
                "基地|酒店|宾馆|饭店|大厦|广场|现场|岛|港|码头|机场|医院|单位|公司|厂|网站|官网|网|平台|系统|公众号|"
                "办|科|局|位置|地方|地点|场所|"
                "上方|下方|中间|中央|正中|左侧|右侧|两侧|周围|四周|上部|下部|底部|顶部|之间|正面|背面|外侧|内侧")
_PLACE = re.compile(
    r"(?:位于|设于|设在|坐落|地处|放于|放在|存于|存放|置于|停于|停在|停放|"
    r"(?<![存现所正实内自])在|(?<![对由属关等至过善便用利基终鉴])于|前往|赴|(?<![达得收受做遇看想提直])到|至|向|"
    r"登录|登陆|进入|访问|扫描)"
    rf"[^，。；,;！？!?]{{1,16}}?(?:{_PLACE_NOUNS})"
    r"|[东西南北](?:侧|边|面|邻)|附近|靠近|临近|毗邻|旁边|对面|[0-9０-９]+\s*号"
    r"|场所|地点|处所")  # 下列场所应当悬挂国徽：, the lead of a list of places
# How a sentence writes a time without a label: a date or a clock time (9月28日, 18：00, 1950年), a period (每年,
# 当日, 汛期), or a clause that ends in 时/前/后/起/内 (发生重大事故时，…; 接报后40分钟内).
_TIME = re.compile(
    r"[0-9０-９零〇一二两三四五六七八九十百]+\s*(?:年|月|日|号|时|点|分|周|天|小时|个?工作日|个?月|季度|学期)"
    r"|[0-9０-９]{1,2}\s*[:：]\s*[0-9０-９]{2}"
    r"|每(?:年|月|周|日|天|季度|学期|学年)|当(?:天|日|年|月|晚)|次(?:日|年|月)|即日|今年|明年|上半年|下半年|年底|年初|"
    r"月底|月初|春季|秋季|夏季|冬季|汛期|期间|之前|以前|之后|以后|之日|届满|立即|随时|及时|定期|同时"
    r"|[^，。；,;]{2}(?:时|的时候|之时|前|后|起|内)(?=[，。；,;、\s]|$)")
# The question word of a place, stricter than the kind's (在哪*些*情况下 asks a condition, not a place; 在哪个附件
# asks which attachment, answered by the pointer — kb/answer/dangling.py)
_NOT_A_PLACE = re.compile(r"在哪些|哪些(?:地方|方面)|在哪(?:个|一个|份|一份|一)?(?:附件|附表|附录|文件|条|章|节|款|部分|规定|法)")
# A line that says the value is given later (具体时间另行在资助群通知, 地点待定) tells the reader what the document says
_LATER = re.compile(r"另行|待定|另定|届时")
_SHAPES = {"地点": _PLACE, "时间": _TIME}  # by the first label of the kind: the kinds a sentence writes unlabelled
# A year the question names (2022年), and the parts of speech of the names it gives (jieba: nt an organisation,
# ns a place; nr is left out: jieba reads too many plain words of these documents as a person's name)
_YEAR = re.compile(r"((?:19|20)[0-9]{2})\s*年")
_NAME_FLAGS = frozenset({"nt", "ns"})
# ... of three characters or more (文学院, 东岭村): jieba reads two-character verbs as places too (倾倒*入海* is ns), and
# on dev 废弃的渔网…可以倾倒入海吗 was declined by 入海 in the naive and keyword modes
MIN_NAME = 3
# A term written in Latin letters (ICU, CAS号): an abbreviation or a code no Chinese same-word writes otherwise
_LETTERS = re.compile(r"[A-Za-z]{2,}")
_CHINESE_DIGITS = str.maketrans("0123456789", "〇一二三四五六七八九")


def unsaid_kinds(question: str, lines: Iterable[str]) -> bool:
    """The question asks where or when, or for a value known by its shape (an address, a number to call, an account),
    and none of the lines gives one (by a label or unlabelled)."""
    # a value known by its shape is declined only when it is asked for (需要填账户的开户时间吗 asks whether)
    whether = bool(YES_NO.search(question))
    kinds = tuple(k for k in asked_kinds(question, (*KINDS, CALLING))
                  if k.labels[0] in _SHAPES or (k.exact and not whether))
    if not kinds or (_NOT_A_PLACE.search(question) and all(k.labels[0] == "地点" for k in kinds)):
        return False
    return not any(_says(line, kinds) for line in lines)


def _says(line: str, kinds: tuple[Kind, ...]) -> bool:
    return (gives(line, kinds) or any(_SHAPES[k.labels[0]].search(line) for k in kinds if k.labels[0] in _SHAPES)
            or bool(_LATER.search(line)) or _points(line, kinds))


def _points(line: str, kinds: tuple[Kind, ...]) -> bool:
    """The line sends the reader to an attachment for a value of the kind asked, in one clause (按附件9所列电话联系,
    地点详见附件2): the document says where the value is written, and the hop brings it."""
    return any(LABEL.search(clause) and any(word in clause for k in kinds for word in k.labels)
               for clause in _CLAUSE.split(line))


def unnamed(question: str, sources: Sequence[Source], covers: Mapping[str | tuple[str, str], str]) -> list[str]:
    """The years, organisations, places and letter codes (VPN服务的编号) the question names that no source, title or
    cover writes."""
    titles = [folded(t) for s in sources for t in (s.doc_title, s.title or "") if t] + [folded(c) for c in covers.values()]
    written = "\n".join([folded(s.text) for s in sources] + titles)
    asked = [f"{m.group(1)}年" for m in _YEAR.finditer(question)
             if m.group(1) not in written and m.group(1).translate(_CHINESE_DIGITS) not in written]
    asked += [w.text for w in words_of(question) if (w.flag in _NAME_FLAGS and len(w.text) >= MIN_NAME
              or _LETTERS.fullmatch(w.text)) and folded(w.text) not in written
              and not any(abbreviates(folded(w.text), t) for t in titles)]
    return asked


# What a line from its clause holding the question's words may add and still only name what is asked: the verb an
# agenda or a task list puts before its item (4. 签订安全生产目标责任书。, 3. 部署2024年度…重点任务；), the words of a
# pointer (具体…详见附件1), marks and particles. A count of characters could not tell them from a value: the code
# table's row 电流 | A | 0x001A answers in two characters, as 签订 names in two.
_NAMING_WORDS = tuple(sorted(("传达 学习 总结 部署 签订 审议 通报 讨论 听取 研究 表彰 宣读 观看 制定 开展 组织 安排 "
                              "填写 提交 报送 领取 下载 进行 具体 详见 具体见 参见 参阅 详细 见 按").split(),
                             key=len, reverse=True))
_CLAUSE = re.compile(r"[，,、。；;！？!?]")  # a label's colon joins it to its value (学校意见：经评审…)
_NUMBERING = re.compile(r"^\s*(?:#+\s*)?(?:[（(][一二三四五六七八九十0-9]+[)）]|[一二三四五六七八九十]+[、.．]|[0-9０-９]+\s*[、.．)）])\s*")
_LIST_HEAD = re.compile(r"^\s*(?:附件|附表|附录)\s*[：:]?\s*")  # 附件：1. 会议材料, the list of attachments
_YES_NO = re.compile(rf"{YES_NO.pattern}|能不能|可不可以|能否|可否|行不行|会不会|准不准")
_PLAIN = frozenset("的了和与及并或是为等之其该本各有在对由将请")
_WORD_CHARS = re.compile(r"[\u4e00-\u9fffA-Za-z]")
_LEAD = re.compile(r"(?:如下|以下|下列|如次)[^，。；]{0,4}[：:]\s*$")
MAX_FIELD_LABEL = 8  # characters of a form's field label (出生年月, 甲方代表签字); a longer line ending in a colon opens a list
MAX_HEADING = 10  # characters of a heading quoted over its entries (三、其他事项): a short line with no sentence mark


def only_named(question: str, lines: Iterable[str]) -> bool:
    """Asked what something holds, the lines only name it (or are its blank fields, or headings): no line says more.

    A yes-or-no question (要签订责任书吗), one that asks which attachment (见哪个附件) or what a thing is called
    (名称) is answered by the line that names it."""
    if _YES_NO.search(question) or asks_which(question) or TITLE.search(question):
        return False
    asked = {folded(t) for t in tokenize(question) if len(t) > 1}
    lines = [line for line in lines if line.strip()]
    named = False
    for line in lines:
        reading = _reading(line, asked)
        if reading in ("says", "other"):
            return False  # a line that says more, or speaks of something else (现将有关事项通知如下：)
        named = named or reading == "names"
    return named


def _reading(line: str, asked: set[str]) -> str:
    """`names` when the line, from its clause that holds the question's words, only names them, `says` when it says more, `blank`
    for a form's blank fields or a heading without the question's words, `other` for a line about something else
    (which the answer may be: no decline then)."""
    text = folded(line.strip())
    if _LEAD.search(text) or (text.endswith((":", "：")) and len(text) > MAX_FIELD_LABEL + 1):
        return "other"  # 现将有关事项通知如下：, 国徽及其图案不得用于： open what follows, though they end in a colon as a
        # blank field does
    if is_blank(text):
        return "blank"
    # the line from its first clause that holds the question's words: the clauses after it go on with it (情节较轻的，
    # 由公安机关处以十五日以下拘留; 名称：负压救护车；数量：2辆), those before it speak of something else (请参会人员
    # 提前10分钟到场，会议材料见附件1)
    clauses = [c for c in _CLAUSE.split(_NUMBERING.sub("", _LIST_HEAD.sub("", _NUMBERING.sub("", text)))) if c.strip()]
    first = next((i for i, c in enumerate(clauses) if any(t in c for t in asked)), None)
    if first is None:
        heading = len(text) <= MAX_HEADING and not re.search(r"[。，,；;]", text)
        return "blank" if heading else "other"
    rest = "，".join(clauses[first:])
    for t in sorted(asked, key=len, reverse=True):
        rest = rest.replace(t, "")
    if has_number(rest):
        return "says"  # 每生每年8000元: a number the question does not give is a value
    rest = plain_numbers(rest)
    for word in _NAMING_WORDS:
        rest = rest.replace(word, "")
    if any(ch not in _PLAIN for ch in _WORD_CHARS.findall(rest)):
        return "says"
    return "names"
