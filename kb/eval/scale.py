"""`python -m kb.bench --scale`: the benchmark at three sizes, and how each figure grows with the library.

Each size runs in its own process (so peak memory is that size's alone). The growth of a figure between the smallest
and the largest size is given as an exponent: figure ∝ chunks^e, so e ≈ 0 is O(1) (or O(log N)), e ≈ 1 is O(N).
"""
from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from kb.errors import AnnexError

SIZES = ((200, 10), (1000, 10), (2000, 20))  # documents × attachments: about 5k, 25k and 92k chunks
# (figure key, what it is, per request or per write)
FIGURES = (
    ("start_s", "start on the store, s", "per start"),
    ("start_rss_mb", "peak RSS of a start, MB", "per start"),
    ("ingest_chunks_per_s", "ingest, chunks/s", "per chunk written"),
    ("upload_one_line_s", "one more upload (one line), s", "per write"),
    ("read_models_refresh_s", "read models after it, s", "per write"),
    ("chat_during_upload_max_ms", "worst chat during an upload, ms", "per request"),
    ("retrieval_p50_ms", "retrieval p50, ms", "per request"),
    ("prefetch_p50_ms", "prefetch p50, ms", "per request"),
    ("hop_p50_ms", "post-answer hop p50, ms", "per request"),
    ("turn_p50_ms", "offline turn p50, ms", "per request"),
    ("peak_rss_mb", "peak RSS of the serving process, MB", "whole run"),
    ("ingest_peak_rss_mb", "peak RSS of the bulk load's process, MB", "whole load"),
)
LOAD = "load_1min"  # the machine's load average at the run's start and end: timings on a shared machine need it


def run_scale(samples: int, json_out: Path | None, plot: Path | None) -> int:
    """Run every size, print the table of growth, optionally save the figures and the plot; returns the exit code."""
    runs = []
    for docs, per_doc in SIZES:
        print(f"--- {docs} documents × {per_doc} attachments", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix="annex-scale-") as scratch:
            out = Path(scratch) / "figures.json"
            done = subprocess.run([sys.executable, "-m", "kb.bench", "--docs", str(docs), "--attachments-per-doc",
                                   str(per_doc), "--samples", str(samples), "--json", str(out)], check=False)
            if done.returncode or not out.is_file():
                print(f"error: the run at {docs} × {per_doc} failed (exit {done.returncode})", file=sys.stderr)
                return 2
            runs.append(json.loads(out.read_text(encoding="utf-8")))
    print(table(runs))
    if json_out:
        json_out.write_text(json.dumps(runs, ensure_ascii=False, indent=1), encoding="utf-8")
    if plot:
        try:
            draw(runs, plot)
        except AnnexError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    return 0


def exponent(runs: list[dict], key: str) -> float | None:
    """e in figure ∝ chunks^e between the smallest and the largest run (None when a figure is zero)."""
    first, last = runs[0], runs[-1]
    a, b = first.get(key) or 0, last.get(key) or 0
    if a <= 0 or b <= 0 or last["chunks"] == first["chunks"]:
        return None
    return math.log(b / a) / math.log(last["chunks"] / first["chunks"])


def table(runs: list[dict]) -> str:
    """A Markdown table: one row per figure, one column per size, then the growth exponent."""
    head = " | ".join(f"{r['docs']} × {r['attachments_per_doc']} ({r['chunks']:,} chunks)" for r in runs)
    lines = [f"| figure | cost | {head} | growth (∝ chunks^e) |", "|---" * (len(runs) + 3) + "|"]
    for key, name, kind in FIGURES:
        e = exponent(runs, key)
        cells = " | ".join(f"{r.get(key, '')}" for r in runs)
        lines.append(f"| {name} | {kind} | {cells} | {'' if e is None else f'e = {e:.2f}'} |")
    loads = " | ".join(" → ".join(f"{x:.1f}" for x in r.get(LOAD, ())) for r in runs)
    lines.append(f"| machine load (1 min) | start → end | {loads} | |")
    return "\n".join(lines)


def draw(runs: list[dict], png: Path) -> None:
    """Each figure against chunks (log-log, relative to its value at the smallest size) as a PNG, through plotly.

    plotly's own image export needs kaleido and a Chrome of its own; here the figure's HTML is drawn by the
    system's Chromium (headless screenshot), which needs neither."""
    import plotly.graph_objects as go

    figure = go.Figure()
    chunks = [r["chunks"] for r in runs]
    for key, name, _ in FIGURES:
        base = runs[0].get(key) or 0
        if base > 0 and all((r.get(key) or 0) > 0 for r in runs):
            figure.add_trace(go.Scatter(x=chunks, y=[r[key] / base for r in runs], mode="lines+markers", name=name))
    figure.add_trace(go.Scatter(x=chunks, y=[c / chunks[0] for c in chunks], mode="lines", name="O(N)",
                                line={"dash": "dot", "color": "grey"}))
    figure.update_layout(title="How each figure grows with the library (relative to the smallest size)",
                         xaxis={"type": "log", "title": "chunks"}, yaxis={"type": "log", "title": "× smallest size"},
                         width=1000, height=600, template="plotly_white")
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        raise AnnexError("No Chromium to draw the plot with; install it (apt-get install chromium) or leave out --plot.")
    with tempfile.TemporaryDirectory(prefix="annex-plot-") as scratch:
        page = Path(scratch) / "scale.html"
        figure.write_html(page, include_plotlyjs=True, full_html=True, config={"displayModeBar": False})
        done = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               f"--screenshot={png.resolve()}", "--window-size=1000,600", page.as_uri()],
                              capture_output=True, text=True, check=False, timeout=120)
    if done.returncode or not png.is_file():
        raise AnnexError(f"Chromium could not draw the plot ({done.stderr[-500:]}); leave out --plot.")
