"""The shape of an answer, as a careful reader gives it: a list's items under their lead-in, a heading with the
entries it owns, the attachment a question names by its title, the rows an attachment pointer leads to.

kb/answer/offline.py scores every unit against the question; this module takes the best ones and says what, read
around them, answers.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping, Sequence

from kb.answer.gaps import shared_run
from kb.answer.phrases import QUESTION_WORD
from kb.answer.units import Unit, folded, is_heading, label_of, read_units, words
from kb.labels import KIND_WORD, LABEL, make_label
from kb.text import ENUMERATED, INTRODUCES, opens_inline
from kb.search.tokens import is_citation
from kb.turn import Source

MAX_LIST_ITEMS = 10  # a "哪些" question answered from a list or table quotes its items
LIST_FLOOR = 0.6  # a list question keeps items of the best source that reach this share of the best coverage
# A 哪些 question whose words hold this share of an attachment's title (of at least MIN_TITLE_WORDS words) names
# that attachment's list: 2 of 3 (禁止倾倒的物质 in 禁止倾倒的废弃物有哪些) is the least on the dev set's 3 such questions
# that otherwise quoted a body sentence or declined.
TITLE_MATCH = 2 / 3
# A question that asks nothing and whose words are (nearly) all an attachment's title's is that title, asked alone;
# one in ten of its weight may be a word the title lacks (规程 for 操作规程 of one, 的 or a document's name of another)
TITLE_ONLY = 0.9
MAX_TWINS = 3  # documents of one template answering a title-only question alike, each shown
MIN_TITLE_WORDS = 2
# A heading whose name the question writes out in a run of this many characters (应急状态启动令, 7) names it: its
# entries answer though they never use the question's own word for them (哪些栏目). gaps.py's MIN_NAME_CHARS (4)
# also matched 应急状态 of the 解除令 beside it.
NAMED_RUN = 6


@dataclass(frozen=True)
class Candidate:
    source: Source
    text: str
    coverage: float
    position: int = 0  # order of the unit within its source
    item: bool = False  # a list line or a table row rather than a sentence
    focused: bool = False  # holds in its own words what the question asks for (哪些 *电话*)
    lead: str = ""  # the sentence that introduced its list (如下五种：), quoted before it
    heading: str = ""  # the heading that owns it (预案衔接), quoted before it when it has no lead


def titled(weights: Mapping[str, float], sources: Sequence[Source], excluded: set[str]) -> Source | None:
    """The attachment the question names by its title's words (需要获得特别许可证才能倾倒的…哪些重金属 names 附件2
    需要获得特别许可证才能倾倒的物质): most of its title's words are the question's; the best-matching one."""
    best, share = None, TITLE_MATCH
    for s in sources:
        title = [t for t in words(s.title) if len(t) > 1] if s.label and s.doc_id not in excluded else []
        if len(title) >= MIN_TITLE_WORDS:
            held = sum(1 for t in title if t in weights) / len(title)
            if held >= share and (best is None or held > share):
                best, share = s, held
    return best or _holding_the_question(weights, sources, excluded) or _by_head(
        weights, [s for s in sources if s.label and s.doc_id not in excluded])


# the words a line points at a list with, rather than answering with: 第十一条规定…, …所列, 包括下列
POINTING = frozenset({"规定", "明确", "列出", "所列", "列明", "包括", "如下", "下列", "以下"})


def unlisted_by(listed: Source, candidates: Sequence[Candidate], weights: Mapping[str, float]) -> bool:
    """Whether the best line answers instead of the list the question names by its title: it holds a word the
    question asks with (适用 of 稳岗补贴适用于哪些企业) that the list never writes, title or rows, besides the words a
    line points at a list with (a law's 第十一条规定 beside 附件1 禁止倾倒的物质 is its pointer, not another answer)."""
    best = candidates[0] if candidates else None
    if best is None or best.source.label:
        return False
    listing = words(listed.title) | words(listed.text) | words(best.source.doc_title)  # the document's name: no ask
    lacking = {t for t in weights if t in words(best.text) and t not in listing and len(t) > 1 and not is_citation(t)}
    return bool(lacking - POINTING)


def _holding_the_question(weights: Mapping[str, float], sources: Sequence[Source], excluded: set[str]) -> Source | None:
    """The one attachment whose title holds every word the question asks with besides its document's name, and two of
    its words at least (东岭街道的防汛物资有哪些 → 附件4 防汛抢险物资储备清单: 物资 is the title's, 东岭街道 the plan's,
    防汛 both's)."""
    asked = [t for t, w in weights.items() if len(t) > 1 and w >= 1.0]
    found: dict[tuple[str, str], Source] = {}
    for s in sources:
        if not s.label or s.doc_id in excluded or not s.title:
            continue
        own = [t for t in asked if t not in words(s.doc_title)]
        title = words(s.title)
        if own and all(t in title for t in own) and sum(t in title for t in asked) >= MIN_TITLE_WORDS:
            found.setdefault((s.doc_id, s.label), s)
    return next(iter(found.values())) if len(found) == 1 else None


def named_only(question: str, weights: Mapping[str, float], sources: Sequence[Source],
               excluded: set[str]) -> list[Source]:
    """The attachments a question that is only a title names (查处酒后驾驶操作规程, 矿产资源分类细目): the question
    asks nothing (no question word) and nearly all its words are the title's. A reader given a title looks the
    attachment up and reads it; the body's sentences that cite the title (按照…受理费表的规定) only point at it. When
    the title is another document's too (two plans of one template, each with its 附件4 防汛抢险物资储备清单), the
    question names neither: each one's, the better retrieved first."""
    if QUESTION_WORD.search(question) or not weights:
        return []
    scored = []
    for s in sources:
        if not s.label or s.doc_id in excluded or not s.title or not opening(s):
            continue  # an attachment with nothing under its title is kb/answer/gaps.py's to tell
        title = words(s.title)
        held = sum(weights[t] for t in weights if t in title) / sum(weights.values())
        # of two titles the question's words all name, the one they name the more of (应急物资清单, not
        # 应急物资装备清单)
        if held >= TITLE_ONLY:
            scored.append(((held, sum(1 for t in title if t in weights) / len(title)), s))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    out: dict[str, Source] = {}
    for score, s in scored:  # in source order: the better retrieved first
        if score == best:
            out.setdefault(s.doc_id, s)
    return list(out.values())[:MAX_TWINS]


# An attachment's header over its title (附件：报名表, 附件2：报名表, 附表一 税目税额表): the title of what follows
_HEADER = re.compile(rf"^\s*{KIND_WORD}\s*[0-9０-９一二三四五六七八九十.．\-－]*\s*[：:、\-－—]?\s*")


def is_title_line(text: str, source: Source) -> bool:
    """The line is the attachment's own title, bare or under its header (附件：报名表): it names what follows, it is
    not a line of it to quote."""
    line = folded(text.strip())
    return bool(source.label) and bool(source.title) and folded(source.title) in (line, _HEADER.sub("", line, count=1))


def under_title(source: Source) -> list[tuple[int, Unit]]:
    """An attachment's units below its title (its title line and its Markdown headings left out), with their place."""
    return [(i, u) for i, u in enumerate(read_units(source.text, source.preamble))
            if u.text.strip() != source.title and not is_title_line(u.text, source)
            and not u.text.lstrip().startswith("#")]


def opening(source: Source) -> list[Candidate]:
    """What an attachment opens with under its title: its first units in order (its list's items, a prose
    attachment's first sentences), at most MAX_LIST_ITEMS."""
    units = under_title(source)
    return [Candidate(source, u.text, 1.0, i, u.header is not None, False) for i, u in units[:MAX_LIST_ITEMS]]


def _by_head(weights: Mapping[str, float], attachments: Sequence[Source]) -> Source | None:
    """The one attachment whose title ends in a word the question gives (审批表 of 举报奖励审批表上要填哪些栏目 names
    …举报奖励审批表): a form or list is called by what it is, the last word of its title, when no other attachment
    among the sources is that kind of thing."""
    heads = {}
    for s in attachments:
        head = max((t for t in words(s.title) if len(t) > MIN_TITLE_WORDS and folded(s.title).endswith(t)), key=len,
                   default="")
        if head:
            heads.setdefault(head, set()).add((s.doc_id, s.label))
    named = [head for head, owners in heads.items() if head in weights and len(owners) == 1]
    if len(named) != 1:
        return None
    owner = next(iter(heads[named[0]]))
    return next(s for s in attachments if (s.doc_id, s.label) == owner)


def items_of(source: Source) -> list[Candidate]:
    """An attachment's list: its enumerated lines, list lines and table rows in order (每一项), at most
    MAX_LIST_ITEMS; its sentences when it has no list."""
    units = under_title(source)
    listed = [(i, u) for i, u in units if u.header is not None or ENUMERATED.match(u.text)] or units
    return [Candidate(source, u.text, 1.0, i, True, False) for i, u in listed[:MAX_LIST_ITEMS]]


def introduced(intro: Candidate) -> list[Candidate]:
    """A sentence that introduces a list (“生产”是指所有的生产阶段，如：) and the items that follow it: its list lines,
    and the enumerated sentences under it (a law's （一）…的； items end as sentences do)."""
    out = [intro]
    lead = intro.text.strip()
    for unit in read_units(intro.source.text, intro.source.preamble)[intro.position + 1 :]:
        if (unit.header is None and unit.lead != lead) or len(out) > MAX_LIST_ITEMS:
            break
        if unit.heading != intro.heading and unit.lead != lead:
            break  # 四、比赛时间's line after 须提交以下材料：1．…3．…: the next point of the text, no item of the list
        out.append(Candidate(intro.source, unit.text, intro.coverage, intro.position + len(out), True))
    return out


def with_leads(chosen: Sequence[Candidate]) -> list[Candidate]:
    """The chosen units, each enumerated line after its list's lead-in and each entry after its heading (once):
    甲、长288公分 means nothing alone; and a chosen lead-in with its items after it, as an article and its items are
    one unit (有下列情形之一的，…： says nothing without them)."""
    quoted: set[str] = set()
    out: list[Candidate] = []
    for c in chosen:
        if c.text.strip() in quoted:
            continue
        above = c.lead or c.heading
        if c.heading and c.text.startswith(f"{label_of(c.heading)}："):
            above = ""  # 演练时间：2024年5月10日, its heading's one line under its label, means what it says alone
        if above and above not in quoted:
            quoted.add(above)
            out.append(replace(c, text=above, item=False, lead="", heading=""))
        quoted.add(c.text.strip())
        if opened := opens_inline(c.text):
            quoted.add(opened[0])  # 附件：1、… is its items' lead-in already
        out.append(c)
        if INTRODUCES.search(c.text) and not c.lead:
            for unit in introduced(c)[1:]:
                if unit.text.strip() not in quoted:
                    quoted.add(unit.text.strip())
                    out.append(unit)
    return out


def followed(candidates: Sequence[Candidate], sources: Sequence[Source]) -> list[Candidate]:
    """The best sentence points to an attachment the sources hold (按附件9所列电话联系, 名单见附件1): the answer is that
    attachment's rows that answer best — all of its list when none stands out — with the pointer as their lead-in."""
    best = candidates[0]
    if best.source.label:
        return []
    labels = {make_label(m.group("kind"), m.group("number")) for m in LABEL.finditer(best.text)}
    target = next((s for s in sources if s.doc_id == best.source.doc_id and s.label in labels and s.text.strip()), None)
    if target is None:
        return []
    rows = [c for c in candidates if c.source.n == target.n and c.item]
    if rows:
        floor = rows[0].coverage * LIST_FLOOR
        rows = sorted([c for c in rows if c.coverage >= floor][:MAX_LIST_ITEMS], key=lambda c: c.position)
    else:
        rows = items_of(target)
    if not rows:
        return []
    return [replace(best, item=False, lead="", heading=""), *(replace(c, lead="", heading="") for c in rows)]


def named_heading(question: str, units: Sequence[Candidate]) -> Candidate | None:
    """The heading the question writes out (应急状态启动令 of 表2 …应急状态启动令): the one sharing the longest run of
    characters with it, at least NAMED_RUN."""
    best, run = None, NAMED_RUN - 1
    for c in units:
        shared = len(shared_run(folded(question), folded(c.text)))
        if shared > run and is_heading(c.text.strip()):
            best, run = c, shared
    return best


def owned(best: Candidate, weights: Mapping[str, float], itself: bool = False) -> list[Candidate]:
    """A heading and the entries it owns, when the best unit is that heading ((一)能源矿产 … 包括哪些) or an entry that
    answers by its heading's words (预案衔接 for 与哪个上级政府预案相衔接): what the heading heads is the answer.
    `itself`: only the heading itself counts."""
    units = read_units(best.source.text, best.source.preamble)
    if any(u.heading == best.text for u in units[best.position + 1:]):
        heading = best.text
    elif best.heading and not itself and (words(best.heading) & weights.keys()) - words(best.text):
        heading = best.heading
    else:
        return []
    at = next((i for i, u in enumerate(units) if u.text == heading and not u.heading), None)
    entries = [Candidate(best.source, u.text, best.coverage, i, True, best.focused)
               for i, u in enumerate(units) if u.heading == heading][:MAX_LIST_ITEMS]
    head = [Candidate(best.source, heading, best.coverage, at if at is not None else best.position)]
    return head + entries if entries else []


def _led(best: Candidate, lead: str = "") -> list[Candidate]:
    """Every item under the best item's lead-in (or `lead`), in order: the lead-in answers, so all its items do, those
    that hold no word of the question too (4）尾矿库 under 本指南不适用于下列情况的…：)."""
    units = read_units(best.source.text, best.source.preamble)
    return [Candidate(best.source, u.text, best.coverage, i, True, best.focused, u.lead)
            for i, u in enumerate(units) if u.lead == (lead or best.lead)][:MAX_LIST_ITEMS]


def list_items(candidates: Sequence[Candidate], quoted: Sequence[str] = ()) -> list[Candidate]:
    """The items of the best candidate's list: every item under its lead-in, else its source's list lines and rows
    that name what the question asks for, or, when the question names nothing, that match it nearly as well; of
    those, the ones that hold a value the question quotes."""
    best = candidates[0]
    if best.lead:
        return _led(best)
    if opened := opens_inline(best.text):  # 附件：1、查处酒后驾驶操作规程 opens the list 2、… go on
        return [best, *_led(best, opened[0])][:MAX_LIST_ITEMS]
    floor = best.coverage * LIST_FLOOR
    items = [c for c in candidates if c.source.n == best.source.n and c.item
             and (c.focused if best.focused else c.coverage >= floor)]
    # a value the question quotes (被评为“较大风险”的…有哪些) picks the rows that hold it
    holding = [c for c in items if any(term in c.text for term in quoted)]
    items = holding or items
    seen: set[str] = set()
    out = []
    for c in items:  # best first; a list longer than MAX_LIST_ITEMS keeps its best items, in their order
        if c.text.strip() not in seen and len(out) < MAX_LIST_ITEMS:
            seen.add(c.text.strip())
            out.append(c)
    return sorted(out, key=lambda c: c.position)
