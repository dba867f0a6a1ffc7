"""The offline default embedder: signed feature hashing of character n-grams, vectorised with numpy."""
from __future__ import annotations

import unicodedata
from functools import cache
from typing import Sequence

import numpy as np

from kb.errors import SettingsError
from kb.text import fold_case

# Weights of character n-grams: Chinese words are mostly two characters, so bigrams carry the meaning;
# unigrams keep recall for single-character words, trigrams sharpen longer terms and numbers.
NGRAM_WEIGHTS = (0.5, 1.0, 0.5)
_BATCH = 1024  # texts hashed per numpy pass; keeps the work arrays small and cache-friendly
_SEED = np.uint64(0x243F6A8885A308D3)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@cache
def _fold_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per BMP codepoint: its NFKC+lower fold (0 = ignored: punctuation, space, control), and whether
    it needs the exact string path (expands to several chars, or combines with its neighbours)."""
    fold = np.zeros(0x10000, dtype=np.uint32)
    special = np.zeros(0x10000, dtype=bool)
    for c in range(0x10000):
        ch = chr(c)
        folded = fold_case(ch) if not 0xD800 <= c < 0xE000 else ch
        if len(folded) != 1 or unicodedata.combining(folded) or 0x1100 <= ord(folded) < 0x1200:
            special[c], folded = True, ch
        if unicodedata.category(folded)[0] in "LNMS":
            fold[c] = ord(folded)
    return fold, special


def _codepoints(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Folded codepoints of the texts, concatenated, with the index of the text each belongs to."""
    fold, special = _fold_tables()
    texts = list(texts)
    cps = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    owner = np.repeat(np.arange(len(texts), dtype=np.int64), [len(t) for t in texts])
    wide = cps >= 0x10000
    odd = wide | special[cps & 0xFFFF]
    if odd.any():  # rare: run exact NFKC on just the texts that need it
        for i in np.unique(owner[odd]).tolist():
            texts[i] = fold_case(texts[i])
        cps = np.frombuffer("".join(texts).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        owner = np.repeat(np.arange(len(texts), dtype=np.int64), [len(t) for t in texts])
        wide = cps >= 0x10000
    folded = np.where(wide, cps, fold[cps & 0xFFFF]).astype(np.uint64)
    keep = folded != 0
    return folded[keep], owner[keep]


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64 finalizer, in place: spreads every input bit over the whole 64-bit word."""
    t = np.empty_like(z)
    for shift, mult in ((30, _M1), (27, _M2)):
        np.right_shift(z, np.uint64(shift), out=t)
        z ^= t
        z *= mult
    np.right_shift(z, np.uint64(31), out=t)
    z ^= t
    return z


class HashEmbedder:
    """Signed feature hashing of character 1-3-grams, L2-normalized; deterministic, offline, fast."""

    cache_key = ""  # hashing a chunk is faster than looking its vector up

    def __init__(self, dim: int = 512) -> None:
        if dim < 8:
            raise SettingsError(f"ANNEX_EMBEDDING_DIM={dim} is too small for the hash embedder; use 256 or more.")
        self.dim = dim
        self.name = "hash"

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Same vectors as embed(): n-grams do not care whether a text asks or answers."""
        return self.embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Same vectors as embed()."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return (len(texts), dim) float32 rows; a text with no letters or digits gets a zero row."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one str; wrap it in a list.")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for lo in range(0, len(texts), _BATCH):
            out[lo : lo + _BATCH] = self._embed_batch(texts[lo : lo + _BATCH])
        return out

    def _embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        n, dim = len(texts), self.dim
        cps, owner = _codepoints(texts)
        keys, rows, weights = [], [], []
        for size, weight in enumerate(NGRAM_WEIGHTS, start=1):
            span = len(cps) - size + 1
            if span <= 0:
                continue
            # Codepoints take 21 bits, so up to three of them pack into one exact 64-bit key.
            key = cps[:span].copy()
            for offset in range(1, size):
                key <<= np.uint64(21)
                key |= cps[offset : offset + span]
            key ^= _SEED * np.uint64(size)
            keys.append(key)
            rows.append(owner[:span])
            # An n-gram that runs from one text into the next gets weight 0.
            weights.append((owner[:span] == owner[size - 1 :]) * weight)
        if not keys:
            return np.zeros((n, dim), dtype=np.float32)
        slot = (_mix(np.concatenate(keys)) >> np.uint64(32)).astype(np.int64)
        slot %= 2 * dim  # bucket = slot // 2, sign = slot % 2
        slot += np.concatenate(rows) * (2 * dim)
        counts = np.bincount(slot, weights=np.concatenate(weights), minlength=n * 2 * dim).reshape(n, dim, 2)
        vectors = counts[:, :, 1] - counts[:, :, 0]
        # Square-root damping keeps a term repeated many times from dominating the vector.
        vectors = np.copysign(np.sqrt(np.abs(vectors)), vectors)
        return l2_normalize(vectors)


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; a zero row stays zero."""
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1.0, norms)).astype(np.float32)
