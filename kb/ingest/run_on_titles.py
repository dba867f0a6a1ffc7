"""Where a title-like phrase ends in text that runs on (a header's own title, an attachment list's entry): at a
space, a sentence end or the content's first point, or, when the content is glued to it, at the last word that names
what a title names."""
from __future__ import annotations

import re

from kb.labels import KIND_WORD

# As far as a title reaches (the line reader's limit for a title line): past it, a phrase is prose, not a title.
TITLE_CHARS = 60
# Where a header's own title ends: a space, a sentence end, the content's first numbered point (一、 （一） 1、 第一条),
# a table, or the next header. A comma or colon first means the phrase is a sentence, not a title.
_TITLE_STOP = re.compile(
    r"\s|[。；;！？!?|，,：:]|[（(][一二三四五六七八九十0-9０-９]{1,3}[)）]|[一二三四五六七八九十]{1,3}[、.．]"
    r"|[0-9０-９]{1,3}[、.．](?![0-9０-９])|第[一二三四五六七八九十百0-9０-９]{1,4}[章节条部]|[①-⑳]|" + KIND_WORD
)
_PROSE_STOP = frozenset("，,：:")
# What an attachment's title names (…名单, …联系方式, …响应措施, …报告表): a title glued to its content ends at the last
# of these within RUN_ON_TITLE_CHARS.
_TITLE_ENDING = re.compile(
    "|".join(sorted(
        "表 单 册 录 图 书 卡 函 证 方案 办法 制度 规程 规范 规定 细则 标准 措施 方式 流程 计划 协议 样式 格式 要求 "
        "程序 说明 目录 范本 模板 明细 汇总 情况 概况 结果 职责 分布 路线 一览 衔接 预案 指南 须知 守则 大纲 电话"
        .split(), key=len, reverse=True))
)
RUN_ON_TITLE_CHARS = 30  # a title glued to its content is read no further than this
_WORD = re.compile(r"\w")  # a title has words, not only marks (**附：** closes its bold with **)


def end_of_title(text: str, at: int, limit: int, named: bool = True) -> int | None:
    """Where a title-like phrase at `at` ends (before `limit`), or None when the words there read as a sentence."""
    found = _phrase_end(text, at, limit, named)
    return found if found is not None and len(_WORD.findall(text, at, found)) >= 2 else None


def _phrase_end(text: str, at: int, limit: int, named: bool) -> int | None:
    """The end of the phrase at `at`: it ends at a space, a sentence end or the content's first point; when the content runs straight on
    (街道防汛指挥部成员及联系方式街道防汛指挥部24小时值班电话：…), at the last word that names what a title names."""
    stop = _TITLE_STOP.search(text, at, limit)
    if stop is not None and stop.group(0) not in _PROSE_STOP and (stop.start() - at <= RUN_ON_TITLE_CHARS or not named):
        return stop.start() if stop.start() - at >= 2 else None
    if stop is None and 2 <= limit - at <= TITLE_CHARS and limit < len(text) and text[limit] == "\n":
        return limit  # the title closes its line
    if not named:
        return None
    reach = stop.start() if stop is not None else min(limit, at + RUN_ON_TITLE_CHARS)
    named = None
    for named in _TITLE_ENDING.finditer(text, at, min(reach, at + RUN_ON_TITLE_CHARS)):
        pass
    return named.end() if named is not None and named.end() - at >= 2 else None


def title_word_end(text: str, at: int) -> int | None:
    """The end of a word naming what a title names that starts at `at` (格式 after 授权委托书), or None."""
    word = _TITLE_ENDING.match(text, at)
    return word.end() if word else None


def end_of_line(text: str, at: int, end: int, reach: int) -> int:
    """The end of the line holding `at`, or `at + reach` when the line runs on further."""
    stop = min(end, at + reach)
    newline = text.find("\n", at, stop)
    return stop if newline < 0 else newline
