"""Decode a .txt/.md file: a BOM, UTF-8, or the Chinese encodings (GB18030/GBK, Big5, UTF-16 without a BOM).

GBK and Big5 share their byte ranges, so almost any Big5 file also decodes as GBK (into nonsense), and
charset-normalizer misreads short Chinese texts (a one-line GBK file came back as Big5, CP949 or UTF-16BE).
So the Chinese candidates are told apart by what they decode to: the share of non-ASCII characters that are
common Chinese (a GB2312 hanzi, a Big5 level-1 hanzi, CJK punctuation). Other encodings go to charset-normalizer.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from charset_normalizer import from_bytes

from kb.errors import ParseError

# (BOM, codec), longest first: the UTF-32 LE BOM starts with the UTF-16 LE one.
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xef\xbb\xbf", "utf-8-sig"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
CHINESE_CANDIDATES = ("gb18030", "cp950", "utf-16-le", "utf-16-be")  # ties go to the first; cp950 is Windows Big5
_NAMES = {"gb18030": "GB18030/GBK", "cp950": "Big5", "utf-16-le": "UTF-16 LE", "utf-16-be": "UTF-16 BE"}
MIN_COMMON_SHARE = 0.8  # a decoding whose non-ASCII characters are less often common Chinese is not taken
_SAMPLE = 1 << 16  # characters scored per candidate
_BINARY = "looks like a binary file, not text; save it as UTF-8 text or .docx."
# Control characters no text file holds (tab, newline and form feed do; a carriage return is a newline by then),
# counted by one regex scan: a per-character loop over each file's head was ~2.5 s of a 6,000-file load.
_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0d-\x1f]")


def decode_text(name: str, raw: bytes) -> str:
    """The file's text with a BOM stripped and newlines normalised; ParseError when it is not text."""
    text = _decode(name, raw)
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    head = text[:8192]
    controls = len(_CONTROLS.findall(head))
    if controls > max(8, len(head) // 100):
        raise ParseError(name, _BINARY)
    return text


def _decode(name: str, raw: bytes) -> str:
    for bom, codec in _BOMS:
        if raw.startswith(bom):
            try:
                return raw.decode(codec)
            except UnicodeDecodeError as exc:
                kind = codec.upper()
                raise ParseError(name, f"starts with a {kind} byte-order mark but is not valid {kind} "
                                       f"({exc.reason} at byte {exc.start}); save it as UTF-8.") from exc
    try:
        text = raw.decode("utf-8")
        if "\x00" not in text:  # NULs in "UTF-8": UTF-16 text whose bytes all happen to be below 0x80, or binary
            return text
    except UnicodeDecodeError:
        pass
    scored = []
    for codec in CHINESE_CANDIDATES:
        try:
            share = common_share(raw.decode(codec)[:_SAMPLE])  # the whole file must decode; a sample is scored
        except UnicodeDecodeError:
            continue
        scored.append((share, -CHINESE_CANDIDATES.index(codec), codec))
    if scored:
        share, _, codec = max(scored)
        if share >= MIN_COMMON_SHARE:
            return raw.decode(codec)
    best = from_bytes(raw).best()
    if best is not None:
        return str(best)
    if b"\x00" in raw[:8192]:
        raise ParseError(name, _BINARY)
    tried = ", ".join(["UTF-8", *(_NAMES[c] for c in CHINESE_CANDIDATES)])
    raise ParseError(name, f"is not text in an encoding annex-rag recognises (tried {tried} and charset detection); "
                           "save it as UTF-8.")


def common_share(text: str) -> float:
    """Share of the non-ASCII characters that are common Chinese characters or punctuation (1.0 if none)."""
    special = [c for c in text if not (" " <= c <= "~" or c in "\n\r\t\f")]
    if not special:
        return 1.0
    return sum(1 for c in special if _common(c)) / len(special)


@lru_cache(maxsize=1 << 16)
def _common(char: str) -> bool:
    if "\u3000" <= char <= "\u303f" or "\uff01" <= char <= "\uff5e" or "\u2010" <= char <= "\u2027":
        return True  # CJK and full-width punctuation, dashes and quotes
    if not unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH"):
        return False
    try:
        char.encode("gb2312")
        return True
    except UnicodeEncodeError:
        pass
    try:
        return 0xA440 <= int.from_bytes(char.encode("cp950"), "big") <= 0xC67E  # Big5 level 1: frequent hanzi
    except UnicodeEncodeError:
        return False
