"""Whether two wordings of an attachment's title name one attachment (a file name's and a list line's, a header's and
the notice's list): nearly the same once punctuation and space are gone, or one the other with words around it."""
from __future__ import annotations

import re

from rapidfuzz import fuzz

from kb.text import squash

# Titles as close as a file name's and a list's wording of one attachment (推荐人选名单 / 推荐名单: fuzz.ratio 80,
# without punctuation and space); two attachments of one notice score far below (报名表 / 推荐名单 29, 报名表 / 参赛
# 曲目 0), and a reworded title lower too (隐患整改台账 / 问题整改台账 67).
NEAR_TITLE = 80
# A title inside the other (2024年度推荐名单 / 推荐名单, 报名表（样表） / 报名表: ratio 75) names the same attachment
# once it is this long: 表 or 名单 alone is in every title.
MIN_CONTAINED_CHARS = 3
_NOISE = re.compile(r"[《》“”\"'‘’（）()【】\[\]：:、，,.．\-_—－\s]")


def near_title(a: str, b: str) -> bool:
    """Whether two wordings name one attachment: nearly the same, or one the other with words around it."""
    return title_similarity(a, b) >= NEAR_TITLE


def title_similarity(a: str, b: str) -> float:
    """0–100: fuzz.ratio without punctuation and space, 100 when one holds the other whole."""
    x, y = bare_title(a), bare_title(b)
    if not x or not y:
        return 0.0
    short, long = sorted((x, y), key=len)
    return 100.0 if len(short) >= MIN_CONTAINED_CHARS and short in long else fuzz.ratio(x, y)


def title_ratio(a: str, b: str) -> float:
    """fuzz.ratio of two titles without punctuation and space (how alike they are written)."""
    return fuzz.ratio(bare_title(a), bare_title(b))


def bare_title(title: str) -> str:
    """A title without punctuation and space, as titles are compared."""
    return _NOISE.sub("", squash(title))


# The words every form's title ends in (…情况统计表, …名单, …台账): two titles sharing only these, or a year, name
# nothing in common. What is left is the topic (隐患整改 / 问题整改 share 整改; 推荐 / 企业安全检查 nothing).
_FORM_WORDS = re.compile(r"情况|统计|汇总|一览|明细|登记|清单|名单|名册|台账|目录|表格|样表|模板|格式|报告|申请|信息|"
                         r"[0-9０-９]+年?度?")
# A shared topic is a word, not a character (名 of 报名表 and 推荐名单).
MIN_SHARED_CHARS = 2


def shares_topic(a: str, b: str) -> bool:
    """Whether two wordings of a title share a word of their topic (隐患整改台账 / 问题整改台账: 整改), not only the
    form words every title has."""
    x, y = (_FORM_WORDS.sub(" ", bare_title(t)) for t in (a, b))
    return any(x[i:i + MIN_SHARED_CHARS] in y for i in range(len(x) - MIN_SHARED_CHARS + 1)
               if " " not in x[i:i + MIN_SHARED_CHARS])
