"""Text normalisation, spelled once: compatibility and full-width forms folded (NFKC), 附件３ → 附件3, Ｂ → B."""
from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")


def fold(text: str) -> str:
    """NFKC: full-width digits, letters and punctuation to their plain forms."""
    return unicodedata.normalize("NFKC", text)


def fold_case(text: str) -> str:
    """fold and lower case, for search tokens and embeddings."""
    return fold(text).lower()


def squash(text: str) -> str:
    """fold without any whitespace, for comparing titles, names and answers."""
    return _SPACE.sub("", fold(text))


# A title set letter-spaced (PDF and OCR copies: 中 华 人 民 共 和 国 国 家 标 准, 功 能 码): single CJK characters with
# one space between each, three or more of them.
_SPACED = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?:[ \u3000][\u4e00-\u9fff]){2,}(?![\u4e00-\u9fff])")


def unspace(title: str) -> str:
    """A letter-spaced title written as a reader reads it (功 能 码 → 功能码); other spaces are kept."""
    return _SPACED.sub(lambda m: re.sub(r"[ \u3000]", "", m.group(0)), title)
