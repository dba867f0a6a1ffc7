"""Which document of an upload an attachment file belongs to when its name does not say: the one whose attachment
list (附件：1. 报名表 2. 推荐名单) or mentions (填写附件1《报名表》) name the file's label and title, as a careful
reader matches them. Two documents naming it equally well, or none naming it, leave it unplaced."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from rapidfuzz import fuzz

from kb.ingest.presplit import PresplitName
from kb.ingest.splitting import Split, split_attachments
from kb.ingest.titles import document_title
from kb.labels import KIND, LABEL, NUMBER, SPACE, make_label
from kb.model import ParsedFile
from kb.text import squash

# 附件1《报名表》 / 附件1：《报名表》 / 《报名表》（附件1） / 《报名表》(见附件1): a mention that gives the title with the label.
_LABEL_TITLE = re.compile(rf"{KIND}{SPACE}(?P<number>{NUMBER}){SPACE}[：:]?{SPACE}《(?P<title>[^《》\n]{{2,60}})》")
_TITLE_LABEL = re.compile(
    rf"《(?P<title>[^《》\n]{{2,60}})》{SPACE}[（(](?:详?见)?{SPACE}{KIND}{SPACE}(?P<number>{NUMBER}){SPACE}[)）]"
)
# Titles as close as a file name's and a list's wording of one attachment (推荐人选名单 / 推荐名单: fuzz.ratio 80,
# without punctuation and space); two attachments of one notice score far below (报名表 / 推荐名单 29, 报名表 / 参赛
# 曲目 0), and a reworded title lower too (隐患整改台账 / 问题整改台账 67: not matched, left to the user).
NEAR_TITLE = 80
# A title inside the other (2024年度推荐名单 / 推荐名单, 报名表（样表） / 报名表: ratio 75) names the same attachment
# once it is this long: 表 or 名单 alone is in every title.
MIN_CONTAINED_CHARS = 3
_NOISE = re.compile(r"[《》“”\"'‘’（）()【】\[\]：:、，,.．\-_—－\s]")
# How well a document matches a file: the file names the document (<文档名>附件1 for a notice saved as 通知.docx),
# the document names the file's label and title, its title alone (the file's number is another or none), its label
# alone (the file or the document gives no title).
NAMES_DOCUMENT, LABEL_AND_TITLE, TITLE_ONLY, LABEL_ONLY = 4, 3, 2, 1


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
    for match in LABEL.finditer(text):  # 详见附件3: the document has a 附件3, whatever its title
        label = make_label(match.group("kind"), match.group("number"))
        found.setdefault(label, Named(label, label[:2], ""))
    return tuple(found.values())


def place(name: PresplitName, documents: Mapping[str, Listing]) -> Placement:
    """The one document (key of `documents`) that matches this attachment file best, or none when two tie or none
    matches. `name.parent`, when it is no file's stem, may be the document's title or the attachment's own
    (报名表（附件2）.docx)."""
    titles = [t for t in (name.title, name.parent) if t]
    best, owners, named = 0, [], None
    for key, document in documents.items():
        score, entry = max(((_score(name, titles, e), e) for e in document.named), key=lambda x: x[0],
                           default=(0, None))
        if name.parent and any(near_title(name.parent, n) for n in document.names):
            score, entry = NAMES_DOCUMENT, entry if score else None
        if score and score > best:
            best, owners, named = score, [key], entry
        elif score and score == best:
            owners.append(key)
    if len(owners) == 1:
        return Placement(owners[0], named)
    return Placement(None, None, tuple(owners))


def _score(name: PresplitName, titles: Sequence[str], entry: Named) -> int:
    same_label = entry.label == name.label
    if entry.title and titles and any(near_title(t, entry.title) for t in titles):
        return LABEL_AND_TITLE if same_label else TITLE_ONLY
    if same_label and not (entry.title and name.title):  # a title on each side that differs is another attachment
        return LABEL_ONLY
    return 0


def near_title(a: str, b: str) -> bool:
    """Whether two wordings name one attachment: nearly the same, or one the other with words around it."""
    x, y = _NOISE.sub("", squash(a)), _NOISE.sub("", squash(b))
    if not x or not y:
        return False
    short, long = sorted((x, y), key=len)
    return fuzz.ratio(x, y) >= NEAR_TITLE or (len(short) >= MIN_CONTAINED_CHARS and short in long)
