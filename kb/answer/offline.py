"""The offline default answerer: picks the source sentences that best answer the question and cites them.

How a source is read into units is kb/answer/units.py; which attachments have no content is kb/answer/gaps.py.
What a question asks for is kb/answer/question.py, which numbers answer a 多少 is kb/answer/numbers.py; the shape
of the answer read around the best units (a list, a heading's entries, a pointer's rows) is kb/answer/shapes.py;
which documents the question names or rules out is kb/answer/naming.py, the kind of value its question word asks for
(在哪里: a place) kb/answer/asked_kind.py; what stays here is one concern, scoring units against a question.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from typing import Mapping, Sequence

from kb.labels import KINDS, LABEL, make_label
from kb.answer.places import asked_place, at_place
from kb.answer.siblings import missing_kind
from kb.answer.shapes import (
    unlisted_by,
    MAX_LIST_ITEMS,
    Candidate, followed, introduced, is_title_line, items_of, list_items, named_heading, named_only, opening, owned,
    titled, with_leads,
)
from kb.answer.articles import article_lines, asked_article
from kb.answer.asked_kind import KIND_NOUNS, asked_kinds, completing, gives
from kb.answer.asked_measure import unsaid_measure
from kb.answer.contents import asked_thing, held_by
from kb.answer.about import ATTACHED, about_words
from kb.answer.used_attachments import attachments_used
from kb.answer.captions import captioned_rows, in_named_table, item_columns
from kb.answer.cited_items import notes_on
from kb.answer.unit_match import (
    TITLE_CREDIT, char_share, counted, form_words, names_attachment, names_column, quotes, real_words, speaks_of,
)
from kb.answer.dangling import dangling_titles, deferred_labels
from kb.answer.groups import named_group
from kb.answer.records import one_record
from kb.answer.unsaid import only_named, unnamed, unsaid_kinds
from kb.answer.no_value import gives_nothing
from kb.answer.brackets import amounts, bracket_fit
from kb.answer.day_rows import asked_day, day_fits
from kb.answer.forms import fills, is_blank, left_blank
from kb.answer.blank_slots import leaves_blank
from kb.answer.naming import abbreviates, misnamed_documents, not_named, title_scores
from kb.answer.units import continues, folded, names_document, read_units, words
from kb.answer.question_words import words_of
from kb.answer.rewording import asks_money, kind_kept, said_otherwise, shortened, written_nowhere
from kb.answer.prompts import ATTACHMENT_SECTION, OFFLINE_LABEL, OFFLINE_NO_ANSWER
from kb.answer.numbers import LIST_NUMBER, gives_money, has_number
from kb.answer.question import (
    ASKED_MEASURE, CODE, FRAME_WEIGHT, TITLE, asked_field, asked_for, asks, examples, field_phrase, framed, glued_modal,
    grammar_words, kind_words, owner_words, person_names, single_runs, MODALS, VAGUE,
)
from kb.search.same_words import other_ways
from kb.search.tokens import is_citation, tokenize
from kb.text import INTRODUCES, fold_case, opens_inline
from kb.turn import Source

MIN_COVERAGE = 0.45  # share of the question's (idf-weighted) words a sentence must hold to count as an answer
MAX_SENTENCES = 4
NO_NUMBER = 0.5  # a "多少/几" question: a sentence without a number does not answer it
HEADING = 0.5  # a heading names a topic; it answers only a question that asks for names or a list
TWIN_SHARE = 0.95  # another document is quoted too when it answers this nearly as well (two plans of one template)
_PARTS = re.compile(r"[？?]")
# Sub-questions and examples looked up in turn, each a scoring pass over every source: a person asks a few at once;
# past that the text is pasted rather than asked, and each pass more would make the turn's cost grow with its square.
MAX_LOOKUPS = 12
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_QUOTED = re.compile(r"[“\"「『]([^”\"」』]{1,20})[”\"」』]")
QUOTED_WEIGHT = 2.0
FOCUS_WEIGHT = 2.0
QUOTED_MATCH = 1.25
# A question word the sentence lacks, but whose characters it holds in other words (降到/降至, 东侧/东邻, 颜色/涂色):
# Chinese compounds share their characters, so each counts for a share of the word's weight.
CHAR_CREDIT = 0.5
# ... unless no source writes the word whole and the sentence writes its head (色 of 颜色, where the specification
# writes 涂色): no sentence holds it to be preferred, and that share counts in full (kb/answer/rewording.py)
REWORDED_CREDIT = 1.0 / CHAR_CREDIT
FIELD_MATCH = 1.25  # a line whose label is the field asked (酒店地址： for 详细地址是什么) gives its value, as QUOTED_MATCH
BRACKET_MATCH = 1.25  # the row whose bracket holds the amount the question gives, as QUOTED_MATCH
KIND_MATCH = 1.25  # 在哪里 and the line gives a place (比赛地点：…), as FIELD_MATCH
COUNTED_MATCH = 1.25  # 多少名委员 and the sentence gives the number right at 委员 (委员共800人, 800名委员)


class ExtractiveAnswerer:
    """Deterministic, no model: the answer is sentences of the sources, each cited [n]."""

    name = "离线抽取模式（不调用大模型）"
    offline = True

    def answer(self, question: str, sources: Sequence[Source], context: str = "",
               covers: Mapping[str | tuple[str, str], str] | None = None) -> str:
        """An answer with [n] citations and a **相关附件** section, or NO_ANSWER.

        `covers` maps a document id to its opening lines (its cover: title, issuer), and a (document id, label) to
        that attachment's title: what their sentences are about.
        """
        chosen = self.select_parts(question, sources, context, covers)
        if not chosen:
            return OFFLINE_NO_ANSWER
        lines = [f"- {c.text.strip()} [{c.source.n}]" for c in chosen]
        asked = {make_label(m.group("kind"), m.group("number")) for m in LABEL.finditer(question)}
        attachments = attachments_used(chosen, sources, asked)
        section = "\n".join(f"- {label}-{title}" if title else f"- {label}" for label, title in attachments) or "- 无"
        return f"{OFFLINE_LABEL}\n\n" + "\n".join(lines) + f"\n\n{ATTACHMENT_SECTION}\n{section}\n"

    def select_parts(self, question: str, sources: Sequence[Source], context: str = "",
                     covers: Mapping[str | tuple[str, str], str] | None = None) -> list[Candidate]:
        """Each sub-question answered in turn (启动三级防控时由谁下令…？有效容积有多大？), the whole question as context;
        or each example the question lists."""
        parts = list(dict.fromkeys(p for p in _PARTS.split(question) if tokenize(p)))  # a part asked twice is one
        # each example the question lists is looked up alone (消防服、消防头盔等…存放在哪里): the others, and the
        # class they stand for, would favour a sentence that merely names them all
        # (the retrieval query, the context, holds the question itself)
        alone = context.replace(question, " ")
        asked = ([(e, alone) for p in parts for e in examples(p)] or [(p, f"{context} {question}") for p in parts])
        asked = asked[:MAX_LOOKUPS]
        if len(asked) < 2:
            return self.select(question, sources, context, covers)
        out: list[Candidate] = []
        for part, around in asked:
            home = {c.source.doc_id for c in out}  # one question is about one place: the first answer's documents
            for c in self.select(part, sources, around, covers):
                if (not home or c.source.doc_id in home) and all(c.text.strip() != o.text.strip() for o in out):
                    out.append(c)
        return out

    def select(self, question: str, sources: Sequence[Source], context: str = "",
               covers: Mapping[str | tuple[str, str], str] | None = None) -> list[Candidate]:
        """The best sentences (below), unless they do not say what is asked (kb/answer/unsaid.py): a place or time
        none of them gives, a year or a name the question gives that no source writes."""
        if unnamed(question, sources, covers or {}):
            return []  # 2022年…多少人投票 of a law that never writes 2022: it does not speak of that
        chosen = self._best(question, sources, context, covers)
        if chosen and asks(question).value and leaves_blank(chosen[0].text, tokenize(question)):
            return []  # 租金单价是多少 and the clause that matches best is 单价为＿＿元: the template leaves it blank
        if gives_nothing(question, chosen, sources):
            return []  # a blank template asked a value's rule, a rule made elsewhere, a sample not attached
        lines = [f"{c.lead}{c.text}" for c in chosen]
        if unsaid_kinds(question, lines) or unsaid_measure(question, lines):
            return []  # 投票在什么地点举行 / 大会议室能坐多少人 and the lines that match give no place / no number of people
        if only_named(question, [c.text for c in chosen]) and not any(deferred_labels(c.text, question) for c in chosen):
            noted = notes_on(chosen)  # (四)转包的快递业务。 only names it; 第(三)、(四)项…比照…管理 says what
            return [*chosen, *noted] if noted else []  # 责任书的内容是什么 and the agenda's 4. 签订…责任书。 only names it
        # (a line that sends the reader to an attachment is left to kb/answer/gaps.py, which names the attachment
        # the document does not carry instead of a bare decline)
        return chosen

    def _best(self, question: str, sources: Sequence[Source], context: str = "",
              covers: Mapping[str | tuple[str, str], str] | None = None) -> list[Candidate]:
        """The best sentences, best first (a list's items in their order); empty when none covers enough.

        Long on purpose: one scoring pass over every unit of every source — weights, coverage, the question word's
        demand (a number, a list, a name), the document the question names, the twin-plan rule — reads best in
        order; each step's helper is below.
        """
        question, frame_words = framed(question)
        place = asked_place(question)  # 第7项是什么: the words of the place are where to look, not what to find
        question = place.rest if place else question
        asked = tokenize(question)
        weights = Counter({t: FRAME_WEIGHT if t in frame_words else 1.0 for t in asked})
        quoted = _QUOTED.findall(question)
        for term in quoted:
            for t in tokenize(term):
                weights[t] = QUOTED_WEIGHT  # “生产”: the term the question is about, in the document's own words
        for token in tokenize(context):
            weights[token] = max(weights[token], 0.5)  # earlier turns count, less than the question
        if not weights or not sources:
            return []
        wants = asks(question)
        needed, focus = asked_for(question)
        needed = real_words(needed, sources)
        names = person_names(question)
        measure = "".join(ASKED_MEASURE.findall(question))  # 一式几份: an answer gives a number of 份
        codes = {t for t in weights if CODE.fullmatch(t)}
        given = amounts(question)  # 工作了12年: the amount a tier rule's bracket must hold (kb/answer/brackets.py)
        # what weighs nothing: the word naming the kind of answer (哪些*内容*), and the question's grammar (这次, 如果, 想)
        # and jieba's made-up words glued to a modal (上要 of 审批表上要填) that no source writes: no answer holds them
        unwritten = {t for t in weights if (t in grammar_words(question) or glued_modal(t))
                     and not any(t in folded(s.text) for s in sources)}
        unwritten |= said_otherwise(question, [folded(s.text) for s in sources]) & set(weights)  # 能*拿*多少*钱*
        money = asks_money(question)
        value_kinds = asked_kinds(question)  # 在哪里: a place, given under a label for it (比赛地点：…)
        kinds = kind_words(question) | unwritten | (KIND_NOUNS & set(weights) if value_kinds else set())
        kinds |= VAGUE & set(weights)  # 需要准备的东西有哪些: 东西 names nothing a line could hold
        kinds |= {t for kind in value_kinds for t in kind.asking} & set(weights)  # 最晚 of 最晚哪天交: it only asks
        kinds = kinds if len(weights) > len(kinds) else set()
        focus = focus - kinds
        for t in focus:
            weights[t] = max(weights[t], FOCUS_WEIGHT)
        for t in kinds:
            del weights[t]
        # an attachment's header over its title (附件：报名表) is read as the title it gives, as the bare title is
        units = [(s, i, s.title if is_title_line(u.text, s) else u.text, u.header, u.lead, u.heading) for s in sources
                 for i, u in enumerate(read_units(s.text, s.preamble))
                 if u.text.strip() != s.doc_title]
        # Only a unit that holds a question word as a substring can hold it as a word: jieba reads just those.
        # A word of two or more characters written in the unit counts though jieba cut the unit otherwise
        # (一式 in 本表一式三份, read 本表/一/式/三份): both cut the same words by their context.
        long_words = frozenset(t for t in weights if len(t) > 1 and not is_citation(t))  # 第五条's characters: 第十五条
        # a one-character verb the question uses is held inside the text's word (填 in 填写, 签 in 签字): its share too
        near_words = long_words | {t for t in weights if len(t) == 1 and _CJK_CHAR.match(t) and t not in MODALS}
        # A list item's number is no word of it: read apart, 3．7月 (NFKC: 3.7月) would be the number 3.7.
        # So do single characters jieba cut apart in the question (一式几份 → 一/式) when the unit writes them together.
        runs = single_runs(question)
        # a word no source writes (选委, 颜色): a unit holds it as the phrase it shortens (选举委员), else its characters
        reworded = written_nowhere(long_words, [folded(t) for s in sources for t in (s.doc_title, s.title or "", s.text)]
                                   + [folded(cover) for cover in (covers or {}).values()])
        flags = {w.text: w.flag for w in words_of(question)} if reworded else {}  # 颜色 a noun, 处罚 a verb
        token_sets = [words(LIST_NUMBER.sub("", text)) | frozenset(t for t in long_words if t in folded(text))
                      | frozenset(ch for run in runs if run in folded(text) for ch in run if ch in weights)
                      | frozenset(t for t in reworded if shortened(t, folded(text)))
                      if any(t in folded(text) or continues(lead) and t in folded(lead) for t in weights) else _NONE
                      for _, _, text, _, lead, _ in units]
        # A table's column names are written once, in its header: counted in every row they would look common
        # and weigh nothing, and "哪些…电话" would never find the 电话 column.
        counted_sets = [tokens - words(header) if header else tokens
                        for (_, _, _, header, *_), tokens in zip(units, token_sets)]
        about = about_words(sources, covers or {})
        for s in sources:  # 青禾一中 names 青禾县第一中学…: a word the title holds shortened is what it is about
            about[s.n] |= {t for t in weights if len(t) > 1 and abbreviates(t, s.doc_title)}
        about_chars = {n: frozenset("".join(words)) for n, words in about.items()}
        about_chars_all = frozenset().union(*about_chars.values())
        titles = {LIST_NUMBER.sub("", s.title).strip() for s in sources if s.title}
        # and those the body lists (附件：1.…日程安排表 / 2.…报名表): each line names an attachment, not its content
        listed_titles = {t for s in sources if not s.label for t in dangling_titles(s.text, set()).values()} - titles
        entries: list[Candidate] = []  # their lines, the answer only when nothing else answers: where it would be
        about_attached = bool(ATTACHED.intersection(asked))  # 预案里附了哪些图: the attachments are the answer
        names_asked = about_attached or bool(TITLE.search(question))  # a line naming an attachment may answer
        if about_attached and not any(kind in weights for kind in KINDS):  # 通知附了什么材料: what is attached is
            weights.update({kind: 1.0 for kind in KINDS if any(kind in s.text for s in sources)})  # written 附件
        df = Counter(t for tokens in counted_sets for t in tokens if t in weights)
        n = len(units)
        idf = {t: math.log(1 + (n + 1) / (df[t] + 0.5)) for t in weights}
        total = sum(weights[t] * idf[t] for t in weights)
        held: dict[str, set[str]] = {}
        for (source, *_), tokens in zip(units, token_sets):
            held.setdefault(source.doc_id, set()).update(tokens)
        for s in sources:  # what a document is about is its words too: 风险评估 in its 附件2：风险评估结果
            held.setdefault(s.doc_id, set()).update(about[s.n])
        ruled_out = not_named(sources, weights, held, covers or {})
        named = title_scores(sources, weights, idf)
        present = {t for tokens in token_sets for t in tokens} | {t for words in about.values() for t in words}
        misnamed = misnamed_documents(question, sources, present)
        # a word of the thing the question asks a value of is written nowhere, not one of its characters (噁 of
        # 二噁英类物质的临界量): no table lists it, so no row or list line answers, however well the caption matches
        # the form's field for what is asked (乙方：, 姓名：＿＿) was never filled in: the document does not say, however
        # well the form's title matches (申请人的姓名是什么 of 附件2 …申请审批表); a yes-or-no or a list question asks
        # about the form (需要填写姓名吗, 要填哪些内容)
        if (wants.value or not (wants.whether or wants.list)) and left_blank(units, field_phrase(question),
                                                                            ruled_out | misnamed):
            return []
        if missing_kind(question, [folded(s.text) for s in sources]):  # 大型企业… of a table of 中型/小型/微型企业
            return []
        article = asked_article(question)  # 第五条讲什么: the article itself, from its first line to the next
        if article is not None and (lines := article_lines(article, units, named, ruled_out | misnamed)):
            return with_leads(lines)
        thing = asked_thing(question)  # 这个表要填什么, 附件里说了啥: what the attachment it names holds
        held = held_by(thing, sources, ruled_out | misnamed) if thing else []
        if held:
            return [c for s in held for c in opening(s)[:MAX_LIST_ITEMS // len(held)]]
        asked_titles = named_only(question, weights, sources, ruled_out | misnamed)
        if asked_titles:  # 矿产资源分类细目: the title alone, asked — the attachment it names, read
            return [c for s in asked_titles for c in opening(s)[:MAX_LIST_ITEMS // len(asked_titles)]]
        owner = owner_words(question) if wants.value else set()
        written = {ch for s in sources for ch in folded(s.text)} | about_chars_all if owner else _NONE
        unlisted = any(not written.intersection(t) for t in owner)
        field = asked_field(question)
        fits = {(s.n, i): bracket_fit(given, text) for s, i, text, *_ in units} if given else {}
        day = asked_day(question)  # 第二天下午: the rows of a schedule's second day (kb/answer/day_rows.py)
        if day is not None:
            fits.update(day_fits(day, [(s.n, i, text, header) for s, i, text, header, *_ in units]))
        fitted = {a.written for a in given} | (words(day.written) if day is not None else _NONE)
        looked_up = {n for (n, _), fit in fits.items() if fit}  # the sources that hold a row for the amount
        columns = item_columns(wants, kinds, weights, units)  # 哪些要素 of a 附表 of captioned tables: their rows
        candidates, headings = [], []
        intros = completing(units) if value_kinds else {}
        for at, ((source, position, text, header, lead, heading), tokens) in enumerate(zip(units, token_sets)):
            if at in intros and gives(text, value_kinds):  # 帐户：3163… completes 请…将报名费汇至：, the line above
                tokens = tokens | words(intros[at])
            if not tokens or (columns and not any(names_column(k, header) for k in columns)):
                continue
            if source.doc_id in ruled_out or source.doc_id in misnamed:
                continue  # the question names another document, or one the knowledge base does not have
            fit = fits.get((source.n, position))  # 已满10年不满20年的 for 工作了12年
            if fit is False and source.n in looked_up:
                continue  # the row of another bracket, where a row holds the amount (else it says who is left out)
            if fit:  # the row holds the amount (or the day) given as its bracket or place, not as its words
                tokens = tokens | fitted
            if names_document(text, source.doc_title):  # 本条例自…起施行: the law's name is its own words
                tokens = tokens | words(source.doc_title)
            tokens = tokens | form_words(text, source, weights)  # 本文书一式两份, 申请人姓名：: a form's unwritten words
            own_words = tokens | words(lead) if continues(lead) else tokens  # 共交5份 after （1）《申请表》…。
            if columns and heading and header:  # 建筑业…要素列表 over its rows: the list a row is an item of, as a
                tokens = tokens | words(heading)  # reader reads the row in the table the question names
            if lead or (heading and header == ""):  # an enumerated line reads with its list's lead-in (甲、长288公分
                tokens = tokens | words(lead or heading)  # under 国旗之通用尺度定为如下五种：), an entry line with its
                # heading (《…区应急预案》 under 预案衔接); a sentence is only about its heading (below)
            item = header is not None
            own = sum(weights[t] * idf[t] for t in weights if t in tokens) / total
            # an entry reads with its heading (预案衔接) as with its document's title: what it is about
            around = about[source.n] | words(heading) if heading and not lead else about[source.n]
            implied = sum(weights[t] * idf[t] for t in weights if t in around and t not in tokens) / total
            written, around = folded(text), about_chars[source.n]
            near = sum(weights[t] * idf[t] * char_share(t, written, around)
                       * (REWORDED_CREDIT if t in reworded and kind_kept(t, written, flags.get(t, "n")) else 1.0)
                       for t in near_words if t not in tokens and t not in about[source.n]) / total
            coverage = own + TITLE_CREDIT * implied + CHAR_CREDIT * near
            if fit:
                coverage *= BRACKET_MATCH
            if codes & tokens:
                coverage *= QUOTED_MATCH  # the unit holds the code the question gives (代号0x001A): it is that row
            if any(quotes(term, text) for term in quoted):
                coverage *= QUOTED_MATCH  # the sentence quotes the term the question quotes: it defines or names it
            if field and fills(text, field):  # 酒店地址：… for 详细地址是什么: the label answers the whole field
                coverage += sum(weights[t] * idf[t] for t in field if t in weights and t not in tokens) / total
                coverage *= FIELD_MATCH
            if value_kinds and gives(text, value_kinds):
                coverage *= KIND_MATCH
            if wants.quantity and counted(text, header, tokens, needed, measure):
                coverage *= COUNTED_MATCH
            if wants.quantity and not wants.list and not has_number(f"{lead}{text}"):
                coverage *= NO_NUMBER
            elif money and not gives_money(f"{lead}{text}"):
                coverage *= NO_NUMBER  # 多少钱: a number of 人 is no amount of money
            if text.lstrip().startswith("#") and not (wants.list or wants.name):
                coverage *= HEADING
            if not names_asked and names_attachment(text, titles):
                continue
            if not names_asked and names_attachment(text, listed_titles):
                entries.append(Candidate(source, text, round(coverage, 6), position, item, False, lead, heading))
                continue
            if unlisted and header is not None:
                continue
            if wants.value and is_blank(text):
                continue  # a form's blank field (乙方：) names what to fill in: it holds no value to give  # an attachment's title (a list of attachments) names the content, it is not the content
            # a row speaks of its columns too: a table written out flat names them once, above its rows
            spoken = tokens | about[source.n] | (words(header) | words(heading) if header else _NONE)
            unspoken = needed and not any(speaks_of(n, spoken, names) for n in needed)
            if any(t in own_words for t in weights):
                # one that speaks of something other than what the question asks for is kept aside: only a heading
                # the question names may still answer (启动令…哪些栏目: the form's fields, never called 栏目)
                (headings if unspoken else candidates).append(Candidate(source, text, round(coverage, 6), position, item, bool(focus & tokens),
                                             lead, heading))
        # of lines the same-word table makes equal (免征, 不缴纳: both 免纳), the one in the question's own words first
        spelled = other_ways(fold_case(question))
        candidates.sort(key=lambda c: (-c.coverage, not any(w in fold_case(c.text) for w in spelled), c.source.n,
                                       c.position))
        if columns and (captioned := captioned_rows(weights, candidates)):  # 建筑业的要素: that list's rows
            return with_leads(captioned)
        candidates = in_named_table(weights, candidates, units)  # 日间停车3小时: rows of the table it names
        answered = bool(candidates) and candidates[0].coverage >= MIN_COVERAGE
        placed = at_place(place, units, candidates) if place and answered else []
        if placed:  # the row or item at the place asked (第7项), of the table or list the question names
            return with_leads(placed)
        if wants.list and not (candidates and candidates[0].coverage >= MIN_COVERAGE and candidates[0].source.label):
            listed = titled(weights, sources, ruled_out | misnamed)
            if listed is not None and not unlisted_by(listed, candidates, weights):
                return items_of(listed)  # 第十一条规定禁止倾倒的废弃物有哪些: 附件1 禁止倾倒的物质 is the list it asks for
        if not candidates or candidates[0].coverage < MIN_COVERAGE:
            heading = named_heading(question, headings) if wants.list else None
            if heading:
                return owned(heading, weights, itself=True)
            entry = max(entries, key=lambda c: c.coverage, default=None)  # kb/answer/gaps.py names it as missing
            return [entry] if entry and entry.coverage >= MIN_COVERAGE else []
        shaped = followed(candidates, sources)  # the hop inside the answer: a pointer's rows
        if not shaped and not (wants.quantity and not wants.list):  # a heading gives no number
            shaped = owned(candidates[0], weights)
        if not shaped and wants.list:  # 第三类…包括哪些: the attachment's list of 第三类, not the articles naming it
            shaped = named_group(candidates, weights, about, headings)
        if shaped:  # of a heading's rows, those of another bracket or day than the one a row holds are no answer
            return [c for c in shaped if fits.get((c.source.n, c.position)) is not False or c.source.n not in looked_up]
        opens = opens_inline(candidates[0].text)  # 附件：1.…: asked how many, the list is the count
        if (wants.list and (candidates[0].item or candidates[0].lead or opens)) or (opens and (wants.quantity
                                                                                              or about_attached)):
            # a law's （一）…的； is an item of its lead-in; 主要职责：1、…； opens its list
            return with_leads(list_items(candidates, quoted))
        if wants.list and INTRODUCES.search(candidates[0].text):
            return introduced(candidates[0])
        best = candidates[0].coverage
        out: list[Candidate] = []
        seen: set[str] = set()
        # Of the documents that answer (nearly) as well, the one the question names most is the one it asks about.
        near = [c for c in candidates if c.coverage >= best * TWIN_SHARE]
        home = max(near, key=lambda c: named.get(c.source.doc_id, 0.0)).source.doc_id
        for c in candidates:
            key = c.text.strip()
            # Quote one document, unless another matches (nearly) as well: two plans from one template
            # answer the same question with different facts.
            if c.source.doc_id != home and named.get(c.source.doc_id, 0.0) < named.get(home, 0.0):
                continue  # the question names the first answer's document (园区… of 绿洲化工园区) more than this one
            floor = max(MIN_COVERAGE, best * (0.75 if c.source.doc_id == home else TWIN_SHARE))
            if c.coverage >= floor and key not in seen and len(out) < MAX_SENTENCES:
                seen.add(key)
                out.append(c)
        return with_leads(out if wants.list else one_record(out, asked))  # 小型…: not the 中型 row beside it


_NONE: frozenset[str] = frozenset()
