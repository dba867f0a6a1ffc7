"""Questions about an attachment the document holds nothing for: empty, omitted (（略）), dangling, or no such number.

A reader who is asked "附件三规定的信号是怎样的?" opens the document, turns to 附件三 and finds "（略）": the honest
answer names 附件三 and says it holds nothing, rather than quoting some other sentence. This module does the
same: it finds the attachments a question names (by label — 附件三, 附件3, 附表一 — or by title or a table caption
inside it), resolves them within the question's document(s), and reports the ones with no content to answer from.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from graph.store import AttachmentInfo, DocumentSummary, GraphReads
from graph.resolve import AttachmentCatalog
from kb.labels import KIND, LABEL, NUMBER, SPACE, make_label, normalize_kind
from kb.model import Chunk
from graph.prefetch import attachment_text
from kb.answer.dangling import dangling_titles, deferred_labels
from kb.answer.numbers import measured
from kb.answer.question import ASKED_MEASURE
from kb.answer.sources import cited_numbers
from kb.answer.units import is_heading
from kb.answer.prompts import ATTACHMENT_SECTION, GAP_ANSWERS, GAP_KNOWN, GAP_NONE_KNOWN, GAP_TITLE, OFFLINE_MODE
from kb.turn import Source

EMPTY, OMITTED, DANGLING, ABSENT = "empty", "omitted", "dangling", "absent"
HEADER_CHARS = 12  # a header line's label, separators and a short note (附件十二：…（见下表）) beside its title
MIN_NAME_CHARS = 4  # a shared run this long names a document or an attachment title
NAME_SKIP = 2  # characters of a title a shortened name leaves out at one place (大 of 喜来登大酒店)
TAIL_CHARS = 6  # a title's last characters a question may name it by (…比赛报名表): past its head noun, its qualifier
SHORTENED_SHARE = 0.7  # of a title's characters, a shortened name keeps this many (应急物资清单: 6 of 应急物资装备清单's 8)
_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)
# Lines that only name or frame content: Markdown headings, table/figure captions, 续表, notes in parentheses,
# numbered section headings without a sentence in them.
_CAPTION = re.compile(r"^(?:续表|续)?\s*[表图]\s*[0-9０-９一二三四五六七八九十]+(?:[-－.．][0-9０-９]+)?\s*(?P<title>.*)$")
_HEADING_ONLY = re.compile(r"^(?:#+\s*.*|续表|续|[（(].*[)）]|[一二三四五六七八九十]+[、.．][^。；;，,：:|0-9０-９]*)$")
_KIND_ALONE = re.compile(rf"{KIND}(?!{SPACE}(?:{NUMBER}))")
_STATE_PREFIX = "中华人民共和国"  # a national law's title starts with it; its short name leaves it out
_CITES = re.compile(r"(?:\s*\[\d+\])+\s*$")
_OMITTED_MARK = re.compile(r"[（(]\s*略\s*[)）]")


@dataclass(frozen=True)
class Gap:
    """An attachment the question asks about and the document holds no content for."""

    doc_id: str
    doc_title: str
    label: str
    title: str
    state: str  # empty | omitted | dangling | absent
    known: tuple[str, ...] = ()  # for absent: the labels the document does have


def find_gaps(
    question: str,
    sources: Sequence[Source],
    documents: dict[str, DocumentSummary],
    catalog: AttachmentCatalog,
    graph: GraphReads,
    body: Callable[[str], str] | None = None,
) -> list[Gap]:
    """The attachments the question names, in its document(s), that hold nothing to answer from; `body(doc_id)` is a
    document's body text, where it names the attachments it does not carry."""
    docs = question_documents(question, sources, documents)
    if not docs:
        return []
    attachments = {doc_id: {a.label: a for a in catalog.of_documents([doc_id])} for doc_id in docs}
    contents = graph.attachments_chunks([(d, label) for d in docs for label in attachments[d]])
    asked: dict[tuple[str, str], AttachmentInfo | None] = {}
    for m in LABEL.finditer(question):
        label = make_label(m.group("kind"), m.group("number"))
        # The first of the question's documents whose attachment of that label holds content: a question that names
        # no document (酒店一共配备了多少具灭火器？…见附件4) asks about the plan that has the list, not its template
        # twin whose table was lost. Else the first that has the attachment, or at least mentions it.
        full = (d for d in docs if label in attachments[d]
                and gap_of(documents[d], label, attachments[d][label], contents.get((d, label), []), ()) is None)
        holder = next(full, None) or next(
            (d for d in docs if label in attachments[d] or label in documents[d].dangling), docs[0])
        asked.setdefault((holder, label), attachments[holder].get(label))
    for m in _KIND_ALONE.finditer(question):  # 国歌法附件所载…: the kind alone names a single unnumbered attachment
        kind = normalize_kind(m.group("kind"))
        holder = next((d for d in docs if kind in attachments[d]), None)
        if holder is not None:
            asked.setdefault((holder, kind), attachments[holder][kind])
            continue
        # 本办法附录所列…, and no 附录 attached at all: the question asks about the one the document cites
        holder = next((d for d in docs if kind in documents[d].dangling
                       and not any(label.startswith(kind) for label in attachments[d])), None)
        if holder is not None:
            asked.setdefault((holder, kind), None)
    named = [(doc_id, a) for doc_id in docs for a in attachments[doc_id].values()
             if _names(question, a, contents.get((doc_id, a.label), []))]
    # one of the question's documents holds content for the attachment it names (a template twin's 应急物资清单): the
    # question asks about that one, not the twin whose table was lost
    if not any(gap_of(documents[d], a.label, a, contents.get((d, a.label), []), ()) is None for d, a in named):
        for doc_id, a in named:
            asked.setdefault((doc_id, a.label), a)
    titles = _dangling_titles(docs, catalog, body)
    for (doc_id, label), title in titles.items():  # 2018年AED配置点信息情况汇总表里…: one the body lists, not carried
        if _names_title(question, title):
            asked.setdefault((doc_id, label), None)
    gaps = []
    for (doc_id, label), info in asked.items():
        gap = gap_of(documents[doc_id], label, info, contents.get((doc_id, label), []), list(attachments[doc_id]))
        if gap is not None and (doc_id, label) in titles:  # the body names it: it is missing, not a misreading
            gap = replace(gap, title=gap.title or titles[(doc_id, label)], state=DANGLING, known=())
        if gap is not None:
            gaps.append(gap)
    return gaps


def deferred_gaps(question: str, answer: str, sources: Sequence[Source], documents: dict[str, DocumentSummary],
                  catalog: AttachmentCatalog, graph: GraphReads, body: Callable[[str], str] | None = None) -> list[Gap]:
    """The attachments the answer's first sentence sends the reader to for what the question asks (具体招聘岗位和资格条件
    详见附件1) when they hold nothing: the answer is in them, not in the sentence, and the knowledge base lacks it."""
    # the first sentence quoted, past a lead-in or a heading quoted above it (各乡镇卫生院：, 一、招生对象)
    first = next((line for line in answer.splitlines() if cited_numbers(line) and not _above(line)), "")
    by_n = {s.n: s for s in sources}
    source = next((by_n[n] for n in cited_numbers(first) if n in by_n), None)
    if source is None or source.doc_id not in documents:
        return []
    doc = documents[source.doc_id]
    titles = _dangling_titles([doc.id], catalog, body)
    # the line is an entry of the body's list of attachments it does not carry (2.2019年…各校名额分配表): it names that
    # attachment, whose content is what was asked
    listed = [label for (_, label), title in titles.items() if _lists(_quoted_text(first), title)]
    labels = listed or [label for label in deferred_labels(first, question) if label != source.label]
    if not labels:
        return []
    infos = {label: catalog.get(doc.id, label) for label in labels}
    contents = graph.attachments_chunks([(doc.id, label) for label, info in infos.items() if info is not None])
    known = [a.label for a in catalog.of_documents([doc.id])]
    gaps = []
    for label, info in infos.items():
        gap = gap_of(doc, label, info, contents.get((doc.id, label), []), known)
        if gap is not None and (doc.id, label) in titles:
            gap = replace(gap, title=gap.title or titles[(doc.id, label)], state=DANGLING, known=())
        if gap is not None and gap.state != ABSENT:  # 见附件9 of a document with no 附件9 at all is a misreading
            gaps.append(gap)
    return gaps


def _quoted_text(line: str) -> str:
    """A quoted answer line's own text (`- …句子 [2]` → …句子)."""
    return _CITES.sub("", line).strip().removeprefix("- ").strip()


def _above(line: str) -> bool:
    """The quoted line stands above the sentence that answers: a list's lead-in (…：) or a heading (一、招生对象)."""
    text = _quoted_text(line)
    return text.endswith(("：", ":")) or is_heading(text)


def _lists(line: str, title: str) -> bool:
    """The line is the list entry of an attachment by that title (its number and 附件： before the title)."""
    line, title = _norm(line), _norm(title)
    return len(title) >= MIN_NAME_CHARS and line.endswith(title) and len(line) <= len(title) + HEADER_CHARS


def _dangling_titles(docs: Sequence[str], catalog: AttachmentCatalog,
                     body: Callable[[str], str] | None) -> dict[tuple[str, str], str]:
    """(doc id, label) → the title the body gives an attachment it names but does not carry."""
    if body is None:
        return {}
    carried = {d: {a.label for a in catalog.of_documents([d])} for d in docs}
    return {(d, label): title for d in docs
            for label, title in dangling_titles(body(d), carried[d]).items()}


def counted_beside(question: str, answer: str) -> bool:
    """The question names an absent attachment by its title, not its label, and asks how many of it are wanted
    (申请表要交几份), and the answer's quoted lines give that count (共交5份): the body says what is asked — how the
    form is handed in, not what it holds — so the gap is no answer to it."""
    asked = ASKED_MEASURE.search(question)
    if LABEL.search(question) or asked is None:
        return False
    quoted = [line for line in answer.split(ATTACHMENT_SECTION, 1)[0].splitlines() if cited_numbers(line)]
    return any(measured(line, asked.group(1)) for line in quoted)


def gap_answer(gaps: Sequence[Gap], citing: Sequence[tuple[str, int]] = ()) -> str:
    """The offline answer naming each attachment and that the document holds no content for it; after `citing`, the
    sentences (and their source numbers) that send the reader to it, quoted first: which table the document cites."""
    lines = [f"- {sentence} [{n}]" for sentence, n in citing]
    for g in gaps:
        title = GAP_TITLE.format(title=g.title) if g.title else ""
        known = GAP_KNOWN.format(labels="、".join(g.known)) if g.known else GAP_NONE_KNOWN
        lines.append("- " + GAP_ANSWERS[g.state].format(doc=g.doc_title, label=g.label, title=title, known=known))
    named = [f"- {g.label}-{g.title}" if g.title else f"- {g.label}" for g in gaps if g.state in (EMPTY, OMITTED)]
    return f"{OFFLINE_MODE}\n\n" + "\n".join(lines) + f"\n\n{ATTACHMENT_SECTION}\n" + ("\n".join(named) or "- 无") + "\n"


def question_documents(question: str, sources: Sequence[Source], documents: dict[str, DocumentSummary]) -> list[str]:
    """Of the sources' documents, those the question names by title, else all of them; best source first."""
    wanted = _norm(question)
    ranked = [s.doc_id for s in sorted(sources, key=lambda s: (-s.score, s.n)) if s.doc_id in documents]
    order = {doc_id: i for i, doc_id in enumerate(dict.fromkeys(ranked))}
    # The named document is one the question retrieved: with its title indexed in every chunk, a question that
    # names it finds it, and a turn never compares the question with every title of the library.
    named = {d: _named_by(wanted, _norm(documents[d].title)) for d in order}
    best = max(named.values(), default=0)
    if best >= MIN_NAME_CHARS:
        chosen = [doc_id for doc_id, n in named.items() if n == best]
        return sorted(chosen, key=lambda d: order.get(d, len(order)))
    return list(order)


def _named_by(question: str, title: str) -> int:
    """How much of the title the question writes: the whole title when it writes its short form (国歌法 for
    中华人民共和国国歌法, as every reader names a law), else the longest run the two share."""
    short = title.removeprefix(_STATE_PREFIX)
    if short != title and len(short) >= 2 and short in question:
        return len(title)
    return max(len(shared_run(question, title)), _shortened_run(question, title))


def _shortened_run(question: str, title: str) -> int:
    """The longest run of the question that is the title's characters in order with a character or two left out
    between them (喜来登酒店 of 西安喜来登大酒店…), as people shorten a name."""
    best = 0
    for i in range(len(question)):
        for j in (k for k, ch in enumerate(title) if ch == question[i]):
            n, at = 1, j
            while i + n < len(question):
                nxt = title.find(question[i + n], at + 1, at + 2 + NAME_SKIP)
                if nxt == -1:
                    break
                n, at = n + 1, nxt
            best = max(best, n)
    return best


def _names(question: str, attachment: AttachmentInfo, chunks: Sequence[Chunk]) -> bool:
    """The question names this attachment by its title, or by a caption of a table inside it."""
    return any(_names_title(question, name)
               for name in [attachment.title, *(_captions(attachment_text(chunks)) if chunks else [])])


def _names_title(question: str, title: str) -> bool:
    """The question writes the title, whole, shortened (应急物资清单 of 应急物资装备清单), or by the words it ends in
    (体育舞蹈比赛报名表 of 2017“东方美谷·悦华杯”全国青少年宫体育舞蹈比赛报名表: its name without what qualifies it)."""
    wanted, n = _norm(question), _norm(title)
    if len(n) < MIN_NAME_CHARS:
        return False
    if "的" in wanted and "的" not in n and n in wanted.replace("的", ""):
        return True  # 印花税的税目税率表 of 印花税税目税率表: a name's words joined by 的, as people say them
    return n in wanted or _shortened(n, wanted) or any(
        n.endswith(wanted[i:i + TAIL_CHARS]) and n[-TAIL_CHARS:] in wanted for i in range(len(wanted) - TAIL_CHARS + 1))


def _shortened(title: str, question: str) -> bool:
    """The question writes the title with a word or two left out, as people shorten a name (应急物资清单 for
    应急物资装备清单): a run of it from the title's first character to its last holds most of the title's characters,
    in the title's order, and nothing else."""
    for i, ch in enumerate(question):
        if ch != title[0]:
            continue
        end = question.find(title[-1], i + 1)
        while end != -1 and end - i < len(title):
            run = question[i : end + 1]
            if len(run) >= max(MIN_NAME_CHARS, SHORTENED_SHARE * len(title)) and _in_order(run, title):
                return True
            end = question.find(title[-1], end + 1)
    return False


def _in_order(run: str, title: str) -> bool:
    rest = iter(title)
    return all(ch in rest for ch in run)


def _captions(text: str) -> list[str]:
    return [m.group("title") for line in text.split("\n") if (m := _CAPTION.match(line.strip())) and m.group("title")]


def gap_of(doc: DocumentSummary, label: str, info: AttachmentInfo | None, chunks: Sequence[Chunk],
           known: Sequence[str] = ()) -> Gap | None:
    """The attachment's gap (dangling, absent, omitted, empty), or None when it holds content."""
    if info is None:
        state = DANGLING if label in doc.dangling else ABSENT
        return Gap(doc.id, doc.title, label, "", state, tuple(known) if state == ABSENT else ())
    if info.omitted or (chunks and _omitted(attachment_text(chunks), info.title)):
        return Gap(doc.id, doc.title, label, info.title, OMITTED)
    if not chunks or is_empty(attachment_text(chunks), info.title):
        return Gap(doc.id, doc.title, label, info.title, EMPTY)
    return None


def is_empty(text: str, title: str) -> bool:
    """Only a header, a title, captions and headings: the content (a lost table, say) is not there."""
    lines = [line.strip().strip("*").strip() for line in text.split("\n")]
    if len(_norm(lines[0])) > len(_norm(title)) + HEADER_CHARS:
        return False  # the header line runs on into the content (text without line breaks: 附件二：授权委托书兹全权委托…)
    rest = [line for line in lines[1:] if line and _norm(line) != _norm(title)]
    return all(_CAPTION.match(line) or _HEADING_ONLY.match(line) for line in rest)


def _omitted(text: str, title: str) -> bool:
    """The attachment's text is its header and title with （略） in place of the content."""
    body = _OMITTED_MARK.sub("", text, count=1)
    return bool(_OMITTED_MARK.search(text)) and len(_norm(body)) <= len(_norm(title)) + 12


def shared_run(a: str, b: str) -> str:
    """The longest run of characters a and b share."""
    best = ""
    for i in range(len(b)):
        for j in range(i + len(best) + 1, len(b) + 1):
            if b[i:j] in a:
                best = b[i:j]
            else:
                break
    return best


def _norm(text: str) -> str:
    return _NOISE.sub("", unicodedata.normalize("NFKC", text)).lower()
