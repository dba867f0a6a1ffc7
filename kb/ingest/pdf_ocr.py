"""OCR of a scanned PDF page, offline: RapidOCR (the `ocr` extra) ships its Chinese PP-OCR models in its wheel."""
from __future__ import annotations

import importlib.util
import re
import threading

import numpy as np
import pypdfium2 as pdfium

from kb.ingest.pdf_layout import Box

INSTALL = 'pip install "annex-rag[ocr]"（或在源码目录 pip install -e ".[ocr]"）'
RENDER_DPI = 200  # PP-OCR reads 10-12 pt text reliably from about 150 dpi up
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

        _engine = RapidOCR()
    return _engine


def read_as_written(text: str) -> str:
    """OCR's text with the misreadings a reader puts right: 40一100元 is 40－100元."""
    return _RANGE_DASH.sub("－", text)


def read_page(page: pdfium.PdfPage) -> list[Box]:
    """The text boxes OCR finds on one rendered page, in the page's PDF coordinates."""
    scale = RENDER_DPI / 72
    bitmap = page.render(scale=scale, grayscale=True)
    try:
        image = np.ascontiguousarray(bitmap.to_numpy())
    finally:
        bitmap.close()
    if image.ndim == 2:
        image = np.stack([image] * 3, axis=-1)
    with _lock:
        result, _ = _reader()(image)
    height = page.get_height()
    boxes = []
    for points, text, _score in result or ():
        xs = [p[0] / scale for p in points]
        ys = [p[1] / scale for p in points]
        boxes.append(Box(read_as_written(text), min(xs), height - max(ys), max(xs), height - min(ys)))
    return boxes
