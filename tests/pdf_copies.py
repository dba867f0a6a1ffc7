"""PDF copies of real documents, made by real PDF writers: Chromium's --print-to-pdf (its running header and footer,
wrapped lines, tables), LibreOffice's --convert-to pdf, and scanned variants (pages rendered to images and written
back as a PDF without a text layer).

`python -m tests.pdf_copies --corpus ../shared/corpus` measures what the issue asks: the development questions asked
of the PDF copies against the text copies (graph mode), text-PDF ingest pages/s and OCR pages/s."""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

from kb.ingest.text_encoding import decode_text

CHROMIUM = shutil.which("chromium")
SOFFICE = shutil.which("soffice")
_STYLE = ("body{font-family:'WenQuanYi Micro Hei','Noto Sans CJK SC',sans-serif;font-size:11pt;line-height:1.5}"
          "table{border-collapse:collapse}td,th{border:1px solid #000;padding:2px 4px}")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")


def document_html(path: Path) -> str:
    """A document as the web page a browser prints: Markdown rendered with its tables; a .txt one paragraph a line,
    its `| a | b |` rows as a table."""
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
            if line.strip():
                blocks.append(html.escape(line.strip()).replace("|", "&#124;"))
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
        subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
                        f"--print-to-pdf={out}", page.as_uri()], check=True, capture_output=True, timeout=240)
    page.unlink()
    return out


def soffice_pdf(source: Path, out: Path) -> Path:
    """Convert a document to PDF with LibreOffice (through the same HTML, so its tables are real tables)."""
    with tempfile.TemporaryDirectory(prefix="annex-soffice-") as work:
        page = Path(work) / f"{out.stem}.html"
        page.write_text(document_html(source), encoding="utf-8")
        subprocess.run([SOFFICE, f"-env:UserInstallation=file://{work}/profile", "--headless", "--convert-to",
                        "pdf:writer_pdf_Export", "--outdir", work, str(page)], check=True, capture_output=True,
                       timeout=240)
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


def _eval(corpus: Path, questions: Path) -> dict:
    """kb.eval's graph-mode aggregates over a corpus folder."""
    run = subprocess.run([sys.executable, "-m", "kb.eval", "--corpus", str(corpus), "--questions", str(questions),
                          "--mode", "graph"], capture_output=True, text=True, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def _copies(corpus: Path, out: Path, make, questions: Path) -> Path:
    """A folder of PDF copies of the corpus and the questions renamed to them."""
    out.mkdir(parents=True, exist_ok=True)
    for doc in sorted(corpus.iterdir()):
        if doc.suffix in (".md", ".txt") and doc.name.lower() != "readme.md":
            make(doc, out / f"{doc.stem}.pdf")
    lines = []
    for line in questions.read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            q["doc"] = str(Path(q["doc"]).with_suffix(".pdf")) if q.get("doc") else q.get("doc")
            lines.append(json.dumps(q, ensure_ascii=False))
    renamed = out / "questions.jsonl"
    renamed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return renamed


def _ingest_rate(folder: Path) -> tuple[int, float]:
    """Pages and seconds to read every PDF of a folder."""
    import pypdfium2 as pdfium

    from kb.ingest.parsing import parse_file

    pages, start = 0, time.perf_counter()
    for pdf in sorted(folder.glob("*.pdf")):
        parse_file(pdf, 200 << 20)
        document = pdfium.PdfDocument(pdf)
        pages += len(document)
        document.close()
    return pages, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.pdf_copies")
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"))
    parser.add_argument("--out", type=Path, default=None, help="keep the copies here (default: a temporary folder)")
    parser.add_argument("--writer", choices=["chromium", "soffice"], default="chromium")
    parser.add_argument("--scanned", action="store_true", help="also measure scanned copies (OCR; slow)")
    args = parser.parse_args()
    questions = args.corpus / "questions.jsonl"
    with tempfile.TemporaryDirectory(prefix="annex-pdf-copies-") as scratch:
        root = args.out or Path(scratch)
        make = chromium_pdf if args.writer == "chromium" else soffice_pdf
        text_pdf = root / args.writer
        renamed = _copies(args.corpus, text_pdf, make, questions)
        pages, seconds = _ingest_rate(text_pdf)
        report = {"text": _eval(args.corpus, questions), args.writer: _eval(text_pdf, renamed),
                  "text_pdf_pages": pages, "text_pdf_pages_per_s": round(pages / seconds, 1)}
        if args.scanned:
            scanned = root / f"{args.writer}-scanned"
            scanned.mkdir(parents=True, exist_ok=True)
            for pdf in sorted(text_pdf.glob("*.pdf")):
                scanned_pdf(pdf, scanned / pdf.name)
            shutil.copy(renamed, scanned / "questions.jsonl")
            pages, seconds = _ingest_rate(scanned)
            report["scanned"] = _eval(scanned, scanned / "questions.jsonl")
            report["ocr_pages_per_s"] = round(pages / seconds, 2)
    keys = ("recall", "reached", "precision", "answer_strings", "unanswerable_declined")
    for name in ("text", args.writer, "scanned"):
        if name in report:
            print(name, {k: v for k, v in report[name].items() if k in keys or k.startswith("answer")})
    print(json.dumps({k: v for k, v in report.items() if not isinstance(v, dict)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
