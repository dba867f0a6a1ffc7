"""PDF copies of real documents, made by real PDF writers: Chromium's --print-to-pdf (its running header and footer,
wrapped lines, tables), LibreOffice's --convert-to pdf, and scanned variants (pages rendered to images and written
back as a PDF without a text layer).

`python -m tests.pdf_copies --corpus ../shared/corpus` measures what the issue asks: the development questions asked
of the PDF copies against the text copies (graph mode), text-PDF ingest pages/s and OCR pages/s."""
from __future__ import annotations

import argparse
import hashlib
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from markdown_it import MarkdownIt

from kb.ingest.pdf_ocr import ENGINE_SETTINGS

from kb.ingest.text_encoding import decode_text

CHROMIUM = shutil.which("chromium")
SOFFICE = shutil.which("soffice")
_STYLE = ("body{font-family:'WenQuanYi Micro Hei','Noto Sans CJK SC',sans-serif;font-size:11pt;line-height:1.5}"
          "table{border-collapse:collapse}td,th{border:1px solid #000;padding:2px 4px}")
_TAB = "\u2003" * 4  # a browser collapses a tab to one space; a tab stop is a gap of about four em
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")


def document_html(path: Path) -> str:
    """A document as the web page a browser prints: Markdown rendered with its tables; a .txt one paragraph a line,
    its `| a | b |` rows as a table, a tab inside a line a tab's gap."""
    text = decode_text(path.name, path.read_bytes()).replace("\r\n", "\n")
    if path.suffix != ".md":
        blocks, table = [], []
        for line in text.splitlines():
            if _TABLE_ROW.match(line):
                if not table:
                    cells = line.strip().strip("|").split("|")
                    table = [line, "|" + "|".join("---" for _ in cells) + "|"]
                else:
                    table.append(line)
                continue
            if table:
                blocks.append("\n".join(table))
                table = []
            if line.strip():  # a tab inside a line (a contents entry's page number) prints as a tab's wide gap
                blocks.append(html.escape(line.strip()).replace("|", "&#124;").replace("\t", _TAB))
        if table:
            blocks.append("\n".join(table))
        text = "\n\n".join(blocks)
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(path.stem)}</title>"
            f"<style>{_STYLE}</style></head><body>{body}</body></html>")


def chromium_pdf(source: Path, out: Path) -> Path:
    """Print a document to PDF with headless Chromium, its default header and footer included."""
    page = out.with_suffix(".html")
    page.write_text(document_html(source), encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="annex-chromium-") as profile:
        _run_in_group([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                       f"--print-to-pdf={out}", page.as_uri()])
    page.unlink()
    return out


WRITER_TIMEOUT = 1200  # seconds: LibreOffice lays out a 46-page plan in under a minute, minutes when loaded


def _run_in_group(command: list[str], timeout: float = WRITER_TIMEOUT) -> None:
    """Run a PDF writer in a process group of its own; on a timeout the whole group is killed (soffice starts
    soffice.bin, which a kill of soffice alone leaves running)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    if process.returncode:
        raise subprocess.CalledProcessError(process.returncode, command, stderr=err)


# LibreOffice opens an .html file in Writer/Web, whose PDF export of the 46-page Ziyingtai plan (a table on its first
# page, 40 pages of text after it) did not end in 25 minutes; its halves took 20-30 s each. Imported into Writer
# itself (the "HTML (StarWriter)" filter: print layout, as a .docx is laid out) the whole plan takes ~40 s.
HTML_INTO_WRITER = "HTML (StarWriter)"


def soffice_pdf(source: Path, out: Path) -> Path:
    """Convert a document to PDF with LibreOffice (through the same HTML, so its tables are real tables)."""
    with tempfile.TemporaryDirectory(prefix="annex-soffice-") as work:
        page = Path(work) / f"{out.stem}.html"
        page.write_text(document_html(source), encoding="utf-8")
        _run_in_group([SOFFICE, f"-env:UserInstallation=file://{work}/profile", "--headless",
                       f"--infilter={HTML_INTO_WRITER}", "--convert-to", "pdf:writer_pdf_Export", "--outdir", work,
                       str(page)])
        shutil.move(Path(work) / f"{out.stem}.pdf", out)
    return out


def scanned_pdf(source: Path, out: Path, dpi: int = 150) -> Path:
    """The PDF's pages rendered to images and written back as a PDF without a text layer."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(source)
    images = [pdf[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for i in range(len(pdf))]
    pdf.close()
    images[0].save(out, "PDF", resolution=dpi, save_all=True, append_images=images[1:])
    return out


class CachedOcr:
    """RapidOCR whose raw results (and the seconds each took) are kept in a folder, keyed by the page image's hash:
    a re-run after a change to what is made of OCR's boxes costs no OCR."""

    def __init__(self, folder: Path):
        from rapidocr_onnxruntime import RapidOCR

        self.folder, self.engine, self.seconds, self.cpu_seconds, self.pages = folder, None, 0.0, 0.0, 0
        folder.mkdir(parents=True, exist_ok=True)
        self._make = lambda: RapidOCR(**ENGINE_SETTINGS)

    def __call__(self, image, **kwargs):
        settings = repr((image.shape, sorted(kwargs.items()), ENGINE_SETTINGS))
        key = hashlib.sha256(settings.encode() + image.tobytes()).hexdigest()
        path = self.folder / f"{key}.json"
        if path.exists():
            kept = json.loads(path.read_text(encoding="utf-8"))
        else:
            self.engine = self.engine or self._make()
            start, cpu = time.perf_counter(), time.process_time()  # process time: every thread of onnxruntime
            result, _ = self.engine(image, **kwargs)
            kept = {"result": _plain(result or []), "seconds": time.perf_counter() - start,
                    "cpu_seconds": time.process_time() - cpu}
            path.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
        self.seconds += kept["seconds"]
        self.cpu_seconds += kept.get("cpu_seconds", 0.0)
        self.pages += 1 if kwargs.get("use_det", True) else 0  # a line read again alone is not a page
        return kept["result"] or None, None


def _plain(value):
    """RapidOCR's result (lists, tuples, numpy arrays and numbers) as JSON values."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def install_ocr_cache(folder: Path) -> CachedOcr:
    from kb.ingest import pdf_ocr

    pdf_ocr._engine = CachedOcr(folder)
    return pdf_ocr._engine


def _eval(corpus: Path, questions: Path, cache: Path, keep: Path | None = None) -> dict:
    """kb.eval's graph-mode aggregates over a corpus folder (OCR through the cache); each outcome kept in `keep`."""
    command = [sys.executable, "-m", "tests.pdf_copies", "eval", str(cache), "--corpus", str(corpus),
               "--questions", str(questions), "--mode", "graph"]
    if keep:
        command += ["--json", str(keep)]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def _documents(corpus: Path, stems: Sequence[str] | None) -> list[Path]:
    return [doc for doc in sorted(corpus.iterdir()) if doc.suffix in (".md", ".txt") and doc.name.lower() != "readme.md"
            and (stems is None or doc.stem in stems)]


def _questions(questions: Path, out: Path, stems: Sequence[str] | None, suffix: str | None) -> Path:
    """The questions about the chosen documents (all when none are chosen), their document renamed to `suffix`."""
    lines = []
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            if stems is not None and Path(q.get("doc") or "").stem not in stems:
                continue
            if suffix and q.get("doc"):
                q["doc"] = str(Path(q["doc"]).with_suffix(suffix))
            lines.append(json.dumps(q, ensure_ascii=False))
    out.mkdir(parents=True, exist_ok=True)
    kept = out / "questions.jsonl"
    kept.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return kept


def _copies(corpus: Path, out: Path, make, questions: Path, stems: Sequence[str] | None) -> Path:
    """A folder of PDF copies of the chosen documents of the corpus and the questions renamed to them."""
    out.mkdir(parents=True, exist_ok=True)
    for doc in _documents(corpus, stems):
        if not (out / f"{doc.stem}.pdf").exists():
            make(doc, out / f"{doc.stem}.pdf")
    return _questions(questions, out, stems, ".pdf")


def _subset(folder: Path, out: Path, questions: Path, stems: Sequence[str] | None) -> tuple[Path, Path]:
    """The folder and its questions, or a folder of links to its chosen documents and their questions."""
    if stems is None:
        return folder, questions
    out.mkdir(parents=True, exist_ok=True)
    for doc in folder.iterdir():
        if doc.stem in stems and doc.suffix in (".md", ".txt", ".pdf") and not (out / doc.name).exists():
            (out / doc.name).symlink_to(doc.resolve())
    return out, _questions(questions, out, stems, None)


def _ingest_rate(folder: Path) -> tuple[int, float, float]:
    """Pages, wall seconds and CPU seconds to read every PDF of a folder (CPU time: the machine's other work does
    not count against it; OCR's own threads do not count either, see CachedOcr.seconds)."""
    import pypdfium2 as pdfium

    from kb.ingest.parsing import parse_file

    pages, start, cpu = 0, time.perf_counter(), time.process_time()
    for pdf in sorted(folder.glob("*.pdf")):
        parse_file(pdf, 200 << 20)
        document = pdfium.PdfDocument(pdf)
        pages += len(document)
        document.close()
    return pages, time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    if sys.argv[1:2] == ["eval"]:  # kb.eval with OCR through the cache: python -m tests.pdf_copies eval CACHE ...
        from kb.eval.run import main as evaluate

        install_ocr_cache(Path(sys.argv[2]))
        return evaluate(sys.argv[3:])
    if sys.argv[1:2] == ["warm"]:  # OCR into the cache, file by file: python -m tests.pdf_copies warm CACHE PDF...
        from kb.ingest.parsing import parse_file

        ocr = install_ocr_cache(Path(sys.argv[2]))
        for pdf in sys.argv[3:]:
            parse_file(Path(pdf), 200 << 20)
            print(f"{pdf}: {ocr.pages} pages, {ocr.seconds:.0f} OCR s", flush=True)
        return 0
    parser = argparse.ArgumentParser(prog="python -m tests.pdf_copies")
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("--out", type=Path, default=None, help="keep the copies here (default: a temporary folder)")
    parser.add_argument("--writer", choices=["chromium", "soffice"], default="chromium")
    parser.add_argument("--measure", action="append", choices=["text", "pdf", "scanned"], default=None,
                        help="what to score (repeatable; default text and pdf; scanned is OCR, slow)")
    parser.add_argument("--docs", nargs="+", default=None, metavar="STEM",
                        help="only these documents of the corpus (file names without extension) and their questions")
    parser.add_argument("--ocr-cache", type=Path, default=Path(tempfile.gettempdir()) / "annex-ocr-cache",
                        help="OCR results kept here by page image hash (default: %(default)s)")
    args = parser.parse_args()
    args.measure = args.measure or ["text", "pdf"]
    questions = args.corpus / "questions.jsonl"
    with tempfile.TemporaryDirectory(prefix="annex-pdf-copies-") as scratch:
        root = args.out or Path(scratch)
        make = chromium_pdf if args.writer == "chromium" else soffice_pdf
        text_pdf = root / args.writer
        renamed = _copies(args.corpus, text_pdf, make, questions, args.docs)
        chosen = "" if args.docs is None else "-" + hashlib.sha256(" ".join(sorted(args.docs)).encode()).hexdigest()[:8]
        report: dict = {}
        if "text" in args.measure:
            corpus, asked = _subset(args.corpus, root / f"text{chosen}", questions, args.docs)
            report["text"] = _eval(corpus, asked, args.ocr_cache, root / f"text{chosen}.json")
        if "pdf" in args.measure:
            folder, asked = _subset(text_pdf, root / f"{args.writer}{chosen}", renamed, args.docs)
            pages, seconds, cpu = _ingest_rate(folder)
            report[args.writer] = _eval(folder, asked, args.ocr_cache, root / f"{args.writer}{chosen}.json")
            report |= {"text_pdf_pages": pages, "text_pdf_pages_per_s": round(pages / seconds, 1),
                       "text_pdf_pages_per_cpu_s": round(pages / cpu, 1)}
        if "scanned" in args.measure:
            scanned = root / f"{args.writer}-scanned"
            scanned.mkdir(parents=True, exist_ok=True)
            for pdf in sorted(text_pdf.glob("*.pdf")):
                if not (scanned / pdf.name).exists():
                    scanned_pdf(pdf, scanned / pdf.name)
            folder, asked = _subset(scanned, root / f"{args.writer}-scanned{chosen}", renamed, args.docs)
            ocr = install_ocr_cache(args.ocr_cache)
            pages, _, _ = _ingest_rate(folder)
            report["scanned"] = _eval(folder, asked, args.ocr_cache, root / f"{args.writer}-scanned{chosen}.json")
            report |= {"scanned_pages": pages, "ocr_pages_per_s": round(ocr.pages / ocr.seconds, 3),
                       "ocr_cpu_seconds_per_page": round(ocr.cpu_seconds / ocr.pages, 1) if ocr.cpu_seconds else None}
    keys = ("attachment_recall", "reached_prompt", "attachment_precision", "answer_contains", "unanswerable_ok")
    for name in ("text", args.writer, "scanned"):
        if name in report:
            print(name, {k: v for k, v in report[name].items() if k in keys})
    print(json.dumps({k: v for k, v in report.items() if not isinstance(v, dict)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
