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
