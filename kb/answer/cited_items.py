"""A note that cites a list's entries by their numbers says what the list says of them.

A catalogue lists `(三)代收货款业务；` `(四)转包的快递业务。` and under them writes `第(三)、(四)项业务比照增值快递业务
管理。`. Asked how 转包的快递业务 is managed, a reader finds the entry, sees its number (四) and reads the note that cites
第(四)项: the entry only names the thing; the note is what the document says of it.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Sequence

from kb.answer.shapes import Candidate
from kb.answer.units import read_units
from kb.text import ENUMERATED

# An entry's own number: (九), （3）, 3、, 九、
_ENTRY_NUMBER = re.compile(r"^\s*[（(]?(?P<n>[0-9一二三四五六七八九十]{1,3})[)）、.]")
# 第(三)、(四)项, 第3、4项, 第八至第十项: the entries a note cites, by number; 条/款 are a law's articles, not its list
_CITES = re.compile(r"第\s*(?P<ns>[（(]?[0-9一二三四五六七八九十]{1,3}[)）]?(?:\s*[、和及至到,，]\s*第?\s*[（(]?"
                    r"[0-9一二三四五六七八九十]{1,3}[)）]?)*)\s*项")
_NUMBER = re.compile(r"[0-9一二三四五六七八九十]{1,3}")


def notes_on(chosen: Sequence[Candidate]) -> list[Candidate]:
    """The lines of a chosen entry's list (under its heading or lead-in) that cite it by its number (第(四)项…), in
    order; none when no chosen line is a numbered entry."""
    for entry in chosen:
        number = _ENTRY_NUMBER.match(unicodedata.normalize("NFKC", entry.text))
        if not number or not ENUMERATED.match(entry.text):
            continue
        out = []
        for i, u in enumerate(read_units(entry.source.text, entry.source.preamble)):
            if i == entry.position or (u.heading, u.lead) != (entry.heading, entry.lead) or ENUMERATED.match(u.text):
                continue
            cited = {n for m in _CITES.finditer(unicodedata.normalize("NFKC", u.text))
                     for n in _NUMBER.findall(m.group("ns"))}
            if number.group("n") in cited:
                out.append(Candidate(entry.source, u.text, entry.coverage, i, False, entry.focused, entry.lead,
                                     entry.heading))
        if out:
            return out
    return []
