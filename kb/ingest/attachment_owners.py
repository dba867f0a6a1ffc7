"""Which document of an upload an attachment file belongs to when its name does not say: the one whose attachment
list (附件：1. 报名表 2. 推荐名单) or mentions (填写附件1《报名表》) name the file's label and title, as a careful
reader matches them. Two documents naming it equally well, or none naming it, leave it unplaced."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from kb.ingest.presplit import PresplitName
from kb.ingest.splitting import Split, split_attachments
from kb.ingest.title_match import NEAR_TITLE, near_title, shares_topic, title_ratio, title_similarity
from kb.ingest.titles import document_title
from kb.labels import KIND, LABEL, NUMBER, SPACE, make_label
from kb.model import ParsedFile

# 附件1《报名表》 / 附件1：《报名表》 / 《报名表》（附件1） / 《报名表》(见附件1): a mention that gives the title with the label.
_LABEL_TITLE = re.compile(rf"{KIND}{SPACE}(?P<number>{NUMBER}){SPACE}[：:]?{SPACE}《(?P<title>[^《》\n]{{2,60}})》")
_TITLE_LABEL = re.compile(
    rf"《(?P<title>[^《》\n]{{2,60}})》{SPACE}[（(](?:详?见)?{SPACE}{KIND}{SPACE}(?P<number>{NUMBER}){SPACE}[)）]"
)
# 附件 1 报名表 / 2 参考篇目: a list whose later entries are numbers alone, each the one after the entry above.
_LIST_HEAD = re.compile(rf"^{SPACE}{KIND}{SPACE}(?P<number>[0-9]+){SPACE}[：:、.．]?{SPACE}(?P<title>\S.{{1,60}})$", re.M)
_LIST_NEXT = re.compile(rf"{SPACE}(?P<number>[0-9]+){SPACE}[：:、.．]?{SPACE}(?P<title>[^\s0-9].{{1,60}})")
# 见附件 / 详见附件 with no number: the one attachment the document has (汇总表见附件).
_BARE_MENTION = re.compile(rf"(?:详见|参见|见){KIND}(?!{SPACE}(?:{NUMBER}|《))")
# A shortened title under the same label still tells its notice from another's (附件一 三百篇大赛报名表 / 附件一：
# “人文化育‘三百篇’”专业基本功大赛报名表: 64; the same file against 附件1 …经典诗文朗诵比赛报名表: 25).
RESEMBLING_TITLE = 50
# Two documents naming a file's title equally (both hold it: 诗文朗诵比赛报名表 is in …经典诗文朗诵比赛报名表 and holds
# another notice's 报名表) go to the one written more alike (ratio 82 against 50); 报名表 against two longer
# 报名表 titles (30 and 22) stays a tie, as the closer one must resemble it (RESEMBLING_TITLE).
CLOSER_BY = 20
# How well a document matches a file: the file names the document (<文档名>附件1 for a notice saved as 通知.docx),
# the document names the file's label and title, its title alone (the file's number is another or none), its label
# and a title resembling the file's, its label alone (the file or the document gives no title, or the two titles are one
# topic reworded: 隐患整改台账 / 问题整改台账).
NAMES_DOCUMENT, LABEL_AND_TITLE, TITLE_ONLY, LABEL_AND_LIKE_TITLE, LABEL_ONLY = 5, 4, 3, 2, 1


@dataclass(frozen=True)
class Named:
    """An attachment a document names: its label and the title it gives it ('' when it gives none)."""

    label: str
    kind: str
    title: str


@dataclass(frozen=True)
class Listing:
    """A document of the upload as attachment files are matched to it: its names and the attachments it names."""

    names: tuple[str, ...]  # its file stem and its title
    named: tuple[Named, ...]


@dataclass(frozen=True)
class Placement:
    """Where an attachment file goes: `owner` (a document's key) and what that document calls it, or no owner and
    the documents that named it equally well (none: no document named it)."""

    owner: str | None
    named: Named | None
    rivals: tuple[str, ...] = ()


def listing(parsed: ParsedFile) -> Listing:
    """What attachment files are matched against in a document: its stem, its title and the attachments it names."""
    split = split_attachments(parsed.text)
    title = document_title(parsed, min((a.start for a in split.attachments), default=None))
    return Listing((Path(parsed.file).stem, title), named_attachments(parsed.text, split))


def named_attachments(text: str, split: Split) -> tuple[Named, ...]:
    """The attachments a document's text names: its attachment headers and list, titled mentions, then bare ones."""
    found: dict[str, Named] = {}
    for att in split.attachments:
        found[att.label] = Named(att.label, att.kind, att.title)
    for label, title in split.listed_titles.items():
        found.setdefault(label, Named(label, label[:2], title))
    for pattern in (_LABEL_TITLE, _TITLE_LABEL):
        for match in pattern.finditer(text):
            label = make_label(match.group("kind"), match.group("number"))
            old = found.get(label)
            if old is None or not old.title:
                found[label] = Named(label, label[:2], match.group("title").strip())
    for kind, number, title in _listed_by_number(text):
        label = make_label(kind, number)
        found.setdefault(label, Named(label, label[:2], title))
    for match in LABEL.finditer(text):  # 详见附件3: the document has a 附件3, whatever its title
        label = make_label(match.group("kind"), match.group("number"))
        found.setdefault(label, Named(label, label[:2], ""))
    if not found and (bare := _BARE_MENTION.search(text)):
        kind = make_label(bare.group("kind"), "")
        found[kind] = Named(kind, kind, "")
    return tuple(found.values())


def _listed_by_number(text: str) -> list[tuple[str, str, str]]:
    """(kind, number, title) of the entries below a list's first, written as numbers alone (附件 1 报名表 / 2 篇目)."""
    entries = []
    for head in _LIST_HEAD.finditer(text):
        number, end = int(head.group("number")), head.end()
        while (line := _LIST_NEXT.match(text, end + 1)) and int(line.group("number")) == number + 1 \
                and text.find("\n", end + 1) in (-1, line.end()):
            number, end = number + 1, line.end()
            entries.append((head.group("kind"), str(number), line.group("title").strip()))
    return entries


def place(name: PresplitName, documents: Mapping[str, Listing]) -> Placement:
    """The one document (key of `documents`) that matches this attachment file best, or none when two tie or none
    matches. `name.parent`, when it is no file's stem, may be the document's title or the attachment's own
    (报名表（附件2）.docx). Two at one level are told apart by how alike the titles are, when one is clearly closer."""
    titles = [t for t in (name.title, name.parent) if t]
    scored: list[tuple[int, float, str, Named | None]] = []
    for key, document in documents.items():
        level, alike, entry = max(((*_score(name, titles, e), e) for e in document.named), key=lambda x: x[:2],
                                  default=(0, 0.0, None))
        if name.parent and any(near_title(name.parent, n) for n in document.names):
            level, entry = NAMES_DOCUMENT, entry if level else None
        if level:
            scored.append((level, alike, key, entry))
    scored.sort(key=lambda x: x[:2], reverse=True)
    if scored and (len(scored) == 1 or scored[0][0] > scored[1][0] or _clearly_closer(scored[0][1], scored[1][1])):
        return Placement(scored[0][2], scored[0][3])
    best = scored[0][0] if scored else 0
    tied = {key for level, _, key, _ in scored if level == best}
    return Placement(None, None, tuple(key for key in documents if key in tied))  # in the upload's order


def _clearly_closer(first: float, second: float) -> bool:
    return first >= RESEMBLING_TITLE and first - second >= CLOSER_BY


def _score(name: PresplitName, titles: Sequence[str], entry: Named) -> tuple[int, float]:
    """(level, how alike the titles are written: fuzz.ratio) of one attachment a document names."""
    same_label = entry.label == name.label
    near = max((title_similarity(t, entry.title) for t in titles), default=0.0) if entry.title else 0.0
    alike = max((title_ratio(t, entry.title) for t in titles), default=0.0) if entry.title else 0.0
    if near >= NEAR_TITLE:
        return (LABEL_AND_TITLE if same_label else TITLE_ONLY), alike
    if same_label and near >= RESEMBLING_TITLE:
        return LABEL_AND_LIKE_TITLE, alike
    if same_label and not (entry.title and name.title):  # a title on each side that differs is another attachment
        return LABEL_ONLY, alike
    if same_label and any(shares_topic(t, entry.title) for t in titles):  # reworded: 隐患整改台账 / 问题整改台账
        return LABEL_ONLY, alike
    return 0, 0.0
