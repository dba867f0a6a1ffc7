"""OCR of a scanned PDF page, offline: RapidOCR (the `ocr` extra) ships its Chinese PP-OCR models in its wheel."""
from __future__ import annotations

import importlib.util
import re
import threading
from dataclasses import dataclass

import numpy as np
import pypdfium2 as pdfium

from kb.ingest.pdf_layout import Box, Rule

INSTALL = 'pip install "annex-rag[ocr]"（或在源码目录 pip install -e ".[ocr]"）'
RENDER_DPI = 200  # PP-OCR reads 10-12 pt text reliably from about 150 dpi up
MIN_SCORE = 0.5  # a line read with less confidence is not text (RapidOCR's own threshold)
CROP_MARGIN = 4  # pixels around a line read again on its own
RULE_MIN_POINTS = 30.0  # a straight dark run this long is a drawn table rule (a character's stroke is at most ~1 em)
RULE_MAX_POINTS = 2.5  # and at most this thick
INK = 160  # grey levels below this are ink (a scanned hairline is grey, not black)
# RapidOCR's defaults cost ~15 s a page here: its detector keeps the page's short side at >= 736 px, so a 200 dpi
# page is searched for lines at full size (4 s), and its recognizer reads lines six at a time, each padded to the
# widest of the six, so a short line costs a long one's time (11 s). Lines are found on the page scaled to 1280 px
# (11 pt text is still ~18 px high there; each line is still read from the full-size page) and read one at a time:
# ~3-4 s wall a page, the same characters read (measured against the text layer: docs/evaluation.md).
ENGINE_SETTINGS = {"det_limit_type": "max", "det_limit_side_len": 1280, "rec_rec_batch_num": 1}
# PP-OCR reads the dash of a range (40－100元, 1%－2%) as the character 一; between two numbers it is the dash.
_RANGE_DASH = re.compile(r"(?<=[0-9%％])[一—](?=[0-9])")
_engine = None
_lock = threading.Lock()  # one engine, one page at a time: onnxruntime already uses every core


def available() -> bool:
    """Whether the OCR extra is installed."""
    return importlib.util.find_spec("rapidocr_onnxruntime") is not None


def _reader():
    global _engine
    if _engine is None:
        from rapidocr_onnxruntime import RapidOCR  # the optional extra; imported only when a scanned page comes

        _engine = RapidOCR(**ENGINE_SETTINGS)
    return _engine


def read_as_written(text: str) -> str:
    """OCR's text with the misreadings a reader puts right: 40一100元 is 40－100元."""
    return _RANGE_DASH.sub("－", text)


@dataclass(frozen=True)
class ScannedPage:
    """What a scanned page shows: its text boxes and its drawn table rules, in the page's PDF coordinates."""

    boxes: list[Box]
    across: tuple[float, ...]  # heights of horizontal rules
    down: tuple[Rule, ...]  # vertical rules, by x


def read_page(page: pdfium.PdfPage) -> ScannedPage:
    """The text boxes OCR finds on one rendered page and the table rules drawn on it, in PDF coordinates."""
    scale = RENDER_DPI / 72
    bitmap = page.render(scale=scale, grayscale=True)
    try:
        image = np.ascontiguousarray(bitmap.to_numpy())
    finally:
        bitmap.close()
    if image.ndim == 3:
        image = image[..., 0]
    across, down = _drawn_rules(image, scale, page.get_height())
    return ScannedPage(_text(np.stack([image] * 3, axis=-1), scale, page.get_height()), across, down)


def _drawn_rules(gray: np.ndarray, scale: float, height: float) -> tuple[tuple[float, ...], tuple[Rule, ...]]:
    """Long thin straight runs of ink: a table's rules, as the text layer's reader finds them among a PDF's paths."""
    import cv2  # comes with the OCR extra (rapidocr-onnxruntime needs opencv)

    ink = (gray < INK).astype(np.uint8)
    length, thick = max(1, int(RULE_MIN_POINTS * scale)), RULE_MAX_POINTS * scale
    across: set[float] = set()
    down: list[Rule] = []
    for kernel, horizontal in (((1, length), True), ((length, 1), False)):
        runs = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones(kernel, np.uint8))
        count, _, stats, _ = cv2.connectedComponentsWithStats(runs, connectivity=8)
        for x, y, w, h, _area in stats[1:count]:
            if horizontal and h <= thick:
                across.add(round(float(height - (y + h / 2) / scale), 1))
            elif not horizontal and w <= thick:
                down.append(Rule(float((x + w / 2) / scale), float(height - (y + h) / scale), float(height - y / scale)))
    return tuple(sorted(across)), tuple(sorted(down, key=lambda r: r.x))


def _text(image: np.ndarray, scale: float, height: float) -> list[Box]:
    """The lines OCR reads on the rendered page, as boxes in PDF coordinates."""
    with _lock:
        result, _ = _reader()(image, text_score=0.0)  # every line found, read or not
        lines = [(points, *(_read_alone(image, points) if score < MIN_SCORE else (text, score)))
                 for points, text, score in result or ()]
    boxes = []
    for points, text, score in lines:
        if score < MIN_SCORE or not text.strip():
            continue
        xs = [p[0] / scale for p in points]
        ys = [p[1] / scale for p in points]
        boxes.append(Box(read_as_written(text), min(xs), height - max(ys), max(xs), height - min(ys)))
    return boxes


def _read_alone(image: np.ndarray, points) -> tuple[str, float]:
    """A line the page's pass found but read as nothing, read again on its own: PP-OCR reads a long line in a batch
    of others as empty now and then (3 of 30 lines of a page), and whole when it is alone."""
    xs, ys = [int(p[0]) for p in points], [int(p[1]) for p in points]
    crop = image[max(0, min(ys) - CROP_MARGIN):max(ys) + CROP_MARGIN, max(0, min(xs) - CROP_MARGIN):max(xs) + CROP_MARGIN]
    if crop.size == 0:
        return "", 0.0
    result, _ = _reader()(np.ascontiguousarray(crop), use_det=False, use_cls=False)
    if not result:
        return "", 0.0
    text, score = result[0][0], float(result[0][1])
    return text, score
